#!/usr/bin/env python3
"""A small numpy evaluator of the StableHLO that JAX prints, for CPU checks.

Evaluates @main of a module in the pretty form the fixtures use
(test/Import/Inputs/models/) and of the module sdpa-stablehlo-pipeline
rewrites (attention sites as `sdpa_forward` / `sdpa_backward` FFI calls and
their `_sinks` variants, docs/Export.md): the FFI calls get a float64
reference of docs/Semantics.md §1-2 and §7 (band, scale, GQA, LSE, dQ/dK/dV,
the softcap, the sinks and d sinks; the call's backend_config carries
softcap = 0 for none), so comparing the
two modules on the same inputs says whether the rewrite states the same
function as the original, without a GPU.

Two precisions:
  * f64:    every value in float64 (the rounding of the module's types is
            ignored): the original and the rewritten module must agree to
            float64 rounding when the import is exact;
  * native: every result rounded to its type (bf16, f16, f32) as XLA stores
            it, dot_general operands rounded to the algorithm's precision
            type: how far the module's own rounding is from float64 on
            these inputs, i.e. how well conditioned the check is.

`compare ORIGINAL REWRITTEN` prints, for every result of @main (named by its
jax.result_info), max|x - ref| / max|ref| of the rewritten module against
the original, both in f64, and of each module in native precision against
the original in f64.

Inputs (the same rule as bench/check_jax_model.py, from model_inputs.py):
parameters are the arguments whose gradient @main returns; a parameter
that a dot_general contracts is a weight ~ N(0, 1/fan_in) with fan_in the
product of its contracted dimensions, any other parameter of rank 1 is a
gain 1 + N(0, 0.1^2), of higher rank a bias N(0, 0.1^2); other arguments
are activations N(0, 1).
"""

import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_inputs import model_inputs  # noqa: E402

TENSOR = re.compile(r"tensor<((?:[0-9]+x)*)([a-z0-9]+)>")


class EvalError(Exception):
    pass


def parse_type(text):
    m = TENSOR.fullmatch(text.strip())
    if not m:
        raise EvalError(f"not a ranked tensor type: {text.strip()}")
    dims = tuple(int(d) for d in m.group(1).split("x") if d)
    return dims, m.group(2)


def types_in(text):
    return [parse_type(m.group(0)) for m in TENSOR.finditer(text)]


def ints(text):
    return [int(x) for x in re.findall(r"-?[0-9]+", text)]


def round_to(x, dtype):
    """x rounded to dtype's precision (kept as float64; ints and i1 as is)."""
    if dtype == "bf16":
        u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
        u = ((u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
        return u.view(np.float32).astype(np.float64)
    if dtype == "f16":
        return np.asarray(x, np.float16).astype(np.float64)
    if dtype == "f32":
        return np.asarray(x, np.float32).astype(np.float64)
    return x


def as_dtype(x, dtype):
    if dtype == "i1":
        return np.asarray(x, bool)
    if dtype.startswith("i") or dtype.startswith("ui"):
        bits = int(dtype.lstrip("ui"))
        return np.asarray(x).astype(np.int64) if bits > 32 else np.asarray(x).astype(
            {8: np.int8, 16: np.int16, 32: np.int32}[bits] if dtype[0] == "i" else
            {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits])
    return np.asarray(x, np.float64)


def constant(literal, shape, dtype):
    if literal.startswith('"0x'):
        raw = bytes.fromhex(literal[3:-1])
        npt = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "bf16": None,
               "f16": np.float16, "i8": np.int8, "i16": np.int16}[dtype]
        if npt is None:
            values = (np.frombuffer(raw, np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            values = np.frombuffer(raw, npt)
        return as_dtype(np.broadcast_to(values, shape) if values.size == 1 else
                        values.reshape(shape), dtype)
    if literal in ("true", "false"):
        return np.full(shape, literal == "true")
    if literal.startswith("0x"):
        bits = int(literal, 16)
        value = (np.array([bits], np.uint32).view(np.float32)[0] if len(literal) == 10
                 else np.array([bits], np.uint64).view(np.float64)[0])
        return np.full(shape, float(value))
    if literal.startswith("["):
        values = np.array(eval(literal.replace("true", "True").replace("false", "False")))
        return as_dtype(values.reshape(shape), dtype)
    return as_dtype(np.full(shape, float(literal) if dtype[0] in "fb" else int(literal)), dtype)


def dot_general(a, b, batch, contract, out_dtype):
    """StableHLO dot_general: result dims are batch, lhs free, rhs free."""
    (lb, rb), (lc, rc) = batch, contract
    lf = [d for d in range(a.ndim) if d not in lb + lc]
    rf = [d for d in range(b.ndim) if d not in rb + rc]
    a2 = np.transpose(a, lb + lf + lc)
    b2 = np.transpose(b, rb + rc + rf)
    nb = int(np.prod([a.shape[d] for d in lb], dtype=np.int64))
    nlf = int(np.prod([a.shape[d] for d in lf], dtype=np.int64))
    nc = int(np.prod([a.shape[d] for d in lc], dtype=np.int64))
    nrf = int(np.prod([b.shape[d] for d in rf], dtype=np.int64))
    out = np.matmul(a2.reshape(nb, nlf, nc).astype(np.float64),
                    b2.reshape(nb, nc, nrf).astype(np.float64))
    shape = [a.shape[d] for d in lb] + [a.shape[d] for d in lf] + [b.shape[d] for d in rf]
    return out.reshape(shape)


# -- the FFI calls: a float64 reference of docs/Semantics.md -----------------

def band_mask(sq, skv, left, right, bottom_right):
    q = np.arange(sq)[:, None] + (skv - sq if bottom_right else 0)
    k = np.arange(skv)[None, :]
    visible = np.ones((sq, skv), bool)
    if left >= 0:
        visible &= k >= q - left
    if right >= 0:
        visible &= k <= q + right
    return visible


def to_bhsd(x, layout):
    if layout == "bshd":
        return np.transpose(x, (0, 2, 1, 3))
    if layout == "bhsd":
        return x
    raise EvalError(f"layout '{layout}' is not evaluated")


def expand_kv(x, hq):
    """[B, Hkv, S, D] -> [B, Hq, S, D]: query head h reads kv head h / G."""
    return np.repeat(x, hq // x.shape[1], axis=1)


def reduce_kv(x, hkv):
    b, hq, s, d = x.shape
    return x.reshape(b, hkv, hq // hkv, s, d).sum(axis=2)


def capped_scores(q, k, cfg):
    """scale Q K^T, and with softcap c > 0 (0: none) c tanh(s / c), docs/Semantics.md §7;
    also returns t = tanh(s / c) (None without a cap) for the backward's 1 - t^2."""
    s = np.einsum("bhqd,bhkd->bhqk", q, k) * cfg["scale"]
    c = cfg.get("softcap", 0.0)
    if not c:
        return s, None
    t = np.tanh(s / c)
    return c * t, t


def probabilities(q, k, cfg, sinks=None):
    """P over the keys and the LSE; with `sinks` ([Hq]) the sink column
    exp(sink[h]) is in every row's sum and the LSE, not in P (§7)."""
    s, _ = capped_scores(q, k, cfg)
    visible = band_mask(q.shape[2], k.shape[2], cfg["left"], cfg["right"], cfg["bottom_right"])
    s = np.where(visible, s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    sink = None
    if sinks is not None:
        sink = np.asarray(sinks, np.float64)[None, :, None, None]
        m = np.maximum(m, sink)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(s - m)
    total = e.sum(axis=-1, keepdims=True)
    if sink is not None:
        total = total + np.exp(sink - m)
    lse = np.where(total > 0, np.log(np.where(total > 0, total, 1)) + m, -np.inf)[..., 0]
    p = np.where(total > 0, e / np.where(total > 0, total, 1), 0.0)
    return p, lse


def sdpa_forward(cfg, q, k, v, sinks=None):
    layout = cfg["layout"]
    q, k, v = (to_bhsd(np.asarray(x, np.float64), layout) for x in (q, k, v))
    p, lse = probabilities(q, expand_kv(k, q.shape[1]), cfg, sinks)
    o = np.einsum("bhqk,bhkd->bhqd", p, expand_kv(v, q.shape[1]))
    return [to_bhsd(o, layout), lse]


def sdpa_backward(cfg, q, k, v, o, do, lse, sinks=None):
    """dQ, dK, dV, and with `sinks` d sinks[h] = -sum over rows of
    P_sink Delta (the sink column's value is 0, so its dP is 0)."""
    layout = cfg["layout"]
    q, k, v, o, do = (to_bhsd(np.asarray(x, np.float64), layout) for x in (q, k, v, o, do))
    hq, hkv = q.shape[1], k.shape[1]
    p, lse = probabilities(q, expand_kv(k, hq), cfg, sinks)
    dv = np.einsum("bhqk,bhqd->bhkd", p, do)
    dp = np.einsum("bhqd,bhkd->bhqk", do, expand_kv(v, hq))
    delta = (do * o).sum(axis=-1)
    ds = p * (dp - delta[..., None])
    _, t = capped_scores(q, expand_kv(k, hq), cfg)
    if t is not None:
        ds = ds * (1 - t * t)
    dq = np.einsum("bhqk,bhkd->bhqd", ds, expand_kv(k, hq)) * cfg["scale"]
    dk = np.einsum("bhqk,bhqd->bhkd", ds, q) * cfg["scale"]
    grads = [to_bhsd(dq, layout), to_bhsd(reduce_kv(dk, hkv), layout),
             to_bhsd(reduce_kv(dv, hkv), layout)]
    if sinks is not None:
        sink = np.asarray(sinks, np.float64)[None, :, None]
        p_sink = np.where(np.isfinite(lse), np.exp(sink - lse), 0.0)
        grads.append(-(p_sink * delta).sum(axis=(0, 2)))
    return grads


def backend_config(text):
    m = re.search(r"backend_config = \{(.*?)\}", text)
    if not m:
        raise EvalError("sdpa FFI call without a backend_config dictionary")
    cfg = {}
    for key, value in re.findall(r'(\w+) = ("[^"]*"|[^,]+?)(?=, \w+ = |$)', m.group(1)):
        value = value.strip()
        if value.startswith('"'):
            cfg[key] = value[1:-1]
        elif value in ("true", "false"):
            cfg[key] = value == "true"
        else:
            cfg[key] = float(value.split(":")[0])
    for key in ("left", "right"):
        cfg[key] = int(cfg[key])
    return cfg


# -- the interpreter -----------------------------------------------------------

UNARY = {"negate": np.negative, "exponential": np.exp, "log": np.log, "rsqrt":
         lambda x: 1 / np.sqrt(x), "sqrt": np.sqrt, "sine": np.sin, "cosine": np.cos,
         "tanh": np.tanh, "not": np.logical_not, "abs": np.abs,
         "logistic": lambda x: 1 / (1 + np.exp(-x))}
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
          "divide": np.divide, "maximum": np.maximum, "minimum": np.minimum,
          "power": np.power, "and": np.logical_and, "or": np.logical_or}
COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
           "GT": np.greater, "GE": np.greater_equal}


class Module:
    def __init__(self, text):
        self.funcs = {}
        current = None
        for line in text.splitlines():
            s = line.strip()
            m = re.match(r"func\.func (?:public |private )?@(\w+)\((.*?)\) (?:-> (.*) )?\{$", s)
            if m:
                params = re.findall(r"(%\w+): (tensor<[^>]*>)", m.group(2))
                results = m.group(3) or ""
                info = re.findall(r'tensor<[^>]*>(?: \{jax\.result_info = "([^"]*)"\})?', results)
                current = {"params": params, "body": [], "names": info}
                self.funcs[m.group(1)] = current
            elif current is not None and s and s != "}":
                current["body"].append(s)
            elif s == "}":
                current = None
        if "main" not in self.funcs:
            raise EvalError("no @main")

    def signature(self):
        return [parse_type(t) for _, t in self.funcs["main"]["params"]], \
            self.funcs["main"]["names"]

    def run(self, args, native):
        self.native = native
        types = [t for _, t in self.funcs["main"]["params"]]
        return self.call("main", [as_dtype(a, parse_type(t)[1]) for a, t in zip(args, types)])

    def call(self, name, args):
        func = self.funcs[name]
        env = dict(zip((p for p, _ in func["params"]), args))
        for line in func["body"]:
            if line.startswith("return") or line.startswith("stablehlo.return"):
                operands = re.findall(r"%[\w#]+", line.split(" : ")[0])
                return [self.get(env, o) for o in operands]
            lhs, rhs = line.split(" = ", 1)
            names = [n.strip() for n in lhs.split(",")]
            values = self.op(env, rhs)
            if len(names) == 1 and ":" in names[0]:
                base = names[0].split(":")[0]
                for i, v in enumerate(values):
                    env[f"{base}#{i}"] = v
            else:
                for n, v in zip(names, values):
                    env[n] = v
        raise EvalError(f"@{name} has no return")

    def get(self, env, name):
        if name not in env:
            raise EvalError(f"undefined value {name}")
        return env[name]

    def finish(self, value, dtype):
        value = as_dtype(value, dtype)
        return round_to(value, dtype) if self.native else value

    def op(self, env, rhs):
        head, _, sig = rhs.rpartition(" : ")
        out_types = types_in(sig.split("->")[-1])
        m = re.match(r"(?:stablehlo\.|func\.)?(\w+)", head)
        kind = m.group(1)
        rest = head[m.end():]
        operands = [self.get(env, o) for o in re.findall(r"%[\w#]+", rest.split("{")[0])]
        shape, dtype = out_types[0] if out_types else ((), "f32")
        if kind == "constant":
            return [constant(re.search(r"dense<(.*)>", rest).group(1), shape, dtype)]
        if kind == "iota":
            dim = int(re.search(r"dim = ([0-9]+)", rest).group(1))
            ramp = np.arange(shape[dim]).reshape([-1 if d == dim else 1 for d in range(len(shape))])
            return [self.finish(np.broadcast_to(ramp, shape), dtype)]
        if kind == "broadcast_in_dim":
            dims = ints(re.search(r"dims = \[(.*?)\]", rest).group(1))
            # Operand dimension i lands at dims[i] (in any order).
            order = sorted(range(len(dims)), key=lambda i: dims[i])
            x = np.transpose(operands[0], order)
            src = [1] * len(shape)
            for i in order:
                src[dims[i]] = operands[0].shape[i]
            return [np.broadcast_to(x.reshape(src), shape).copy()]
        if kind == "transpose":
            return [np.transpose(operands[0], ints(re.search(r"dims = \[(.*?)\]", rest).group(1)))]
        if kind == "reshape":
            return [operands[0].reshape(shape)]
        if kind == "convert":
            return [self.finish(operands[0], dtype)]
        if kind in UNARY:
            with np.errstate(all="ignore"):
                return [self.finish(UNARY[kind](operands[0]), dtype)]
        if kind in BINARY:
            with np.errstate(all="ignore"):
                return [self.finish(BINARY[kind](operands[0], operands[1]), dtype)]
        if kind == "compare":
            direction = re.match(r"\s*(\w+)", rest).group(1)
            return [COMPARE[direction](operands[0], operands[1])]
        if kind == "select":
            return [np.where(operands[0], operands[1], operands[2])]
        if kind == "reduce":
            fn = re.search(r"applies stablehlo\.(\w+)", rest)
            if not fn:
                raise EvalError("reduce with a region is not evaluated")
            dims = tuple(ints(re.search(r"dimensions = \[(.*?)\]", rest).group(1)))
            x, init = operands
            reducer = {"add": np.sum, "maximum": np.max, "minimum": np.min}[fn.group(1)]
            value = reducer(x, axis=dims)
            combine = {"add": np.add, "maximum": np.maximum, "minimum": np.minimum}[fn.group(1)]
            return [self.finish(combine(value, init), dtype)]
        if kind == "dot_general":
            batch = re.search(r"batching_dims = \[(.*?)\] x \[(.*?)\]", rest)
            contract = re.search(r"contracting_dims = \[(.*?)\] x \[(.*?)\]", rest)
            b = (ints(batch.group(1)), ints(batch.group(2))) if batch else ([], [])
            c = (ints(contract.group(1)), ints(contract.group(2)))
            a, bb = operands
            alg = re.search(r"lhs_precision_type = (\w+), rhs_precision_type = (\w+)", rest)
            if self.native and alg:
                a, bb = round_to(a, alg.group(1)), round_to(bb, alg.group(2))
            return [self.finish(dot_general(a, bb, b, c, dtype), dtype)]
        if kind == "slice":
            spec = re.search(r"\[(.*)\]", rest).group(1).split(",")
            index = []
            for part in spec:
                bounds = [int(x) for x in part.strip().split(":")]
                index.append(slice(bounds[0], bounds[1], bounds[2] if len(bounds) > 2 else 1))
            return [operands[0][tuple(index)]]
        if kind == "concatenate":
            dim = int(re.search(r"dim = ([0-9]+)", rest).group(1))
            return [np.concatenate(operands, axis=dim)]
        if kind == "pad":
            low = ints(re.search(r"low = \[(.*?)\]", rest).group(1))
            high = ints(re.search(r"high = \[(.*?)\]", rest).group(1))
            interior = ints(re.search(r"interior = \[(.*?)\]", rest).group(1))
            if any(interior) or any(x < 0 for x in low + high):
                raise EvalError("pad with interior or negative padding is not evaluated")
            x, value = operands
            return [np.pad(x, list(zip(low, high)), constant_values=value)]
        if kind == "call":
            callee = re.match(r"\s*@(\w+)", rest).group(1)
            return self.call(callee, operands)
        if kind == "custom_call":
            target = re.match(r"\s*@([\w$]+)", rest).group(1)
            if target in ("sdpa_forward", "sdpa_forward_sinks"):
                results = sdpa_forward(backend_config(rest), *operands)
            elif target in ("sdpa_backward", "sdpa_backward_sinks"):
                results = sdpa_backward(backend_config(rest), *operands)
                # dQ_accum, Delta, relay_counters (, dsink_partials):
                # workspaces nothing reads.
                results += [np.zeros(s) for s, _ in out_types[len(results):]]
            else:
                raise EvalError(f"custom_call @{target} is not evaluated")
            return [self.finish(r, t) for r, (_, t) in zip(results, out_types)]
        raise EvalError(f"stablehlo.{kind} is not evaluated")


def rel(x, ref, floor=0.0):
    """max|x - ref| / max(max|ref|, floor)."""
    if not np.size(ref):
        return 0.0
    diff = float(np.max(np.abs(np.asarray(x, np.float64) - ref)))
    scale = max(float(np.max(np.abs(ref))), floor)
    return diff / scale if scale > 0 else diff


# A result whose float64 reference is below this fraction of the largest
# result is zero up to rounding (Flax's key bias: adding q . b_k to every
# logit of a row leaves the softmax unchanged, so its gradient is exactly 0):
# its errors are measured against that floor instead of its own noise.
ZERO = 1e-6


def compare(args):
    text = open(args.original).read()
    original = Module(text)
    rewritten = Module(open(args.rewritten).read())
    (signature, names) = original.signature()
    if rewritten.signature()[0] != signature:
        raise EvalError("the two modules' @main take different arguments")
    rng = np.random.default_rng(args.seed)
    host = model_inputs(signature, text, rng, args.init)
    native = [round_to(a, dt) for a, (_, dt) in zip(host, signature)]
    ref = original.run(host, native=False)
    ours64 = rewritten.run(host, native=False)
    orig_native = original.run(native, native=True)
    ours_native = rewritten.run(native, native=True)
    floor = ZERO * max(float(np.max(np.abs(r))) for r in ref)
    print(f"inputs: {args.init}, seed {args.seed}")
    print("result | max|ref| | rewritten f64 | original native | rewritten native")
    worst = 0.0
    for i, r in enumerate(ref):
        name = names[i] if i < len(names) and names[i] else f"result[{i}]"
        magnitude = float(np.max(np.abs(r)))
        zero = " (zero)" if magnitude <= floor else ""
        e64 = rel(ours64[i], r, floor)
        worst = max(worst, e64)
        print(f"{name} | {magnitude:.2e}{zero} | {e64:.2e} | {rel(orig_native[i], r, floor):.2e} | "
              f"{rel(ours_native[i], r, floor):.2e}")
    exact = worst <= args.tolerance
    print(f"rewritten module {'exact' if exact else 'NOT exact'} in f64: worst {worst:.2e} "
          f"(tolerance {args.tolerance:.0e})")
    return 0 if exact else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare", help="the rewritten module against the original")
    c.add_argument("original")
    c.add_argument("rewritten")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--init", choices=["fan-in", "legacy"], default="fan-in",
                   help="fan-in: model_inputs' rule; legacy: check_jax_model.py at 027d401 "
                        "(every argument of rank 3 or more ~ N(0, 1))")
    c.add_argument("--tolerance", type=float, default=1e-9)
    args = p.parse_args()
    try:
        return compare(args)
    except EvalError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
