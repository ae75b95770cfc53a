#!/usr/bin/env python3
"""Whole JAX models with their attention as FFI calls to our kernels.

For each fixture model (test/Import/Inputs/models/<name>.mlir, a
`value_and_grad` training step JAX 0.11.2 printed) that
`bench/make_artifacts.py` compiled with sdpa-stablehlo-pipeline into
<artifacts>/<name>/ (kernels sdpa_fwd_N / sdpa_bwd_N and module.mlir, the
rewritten module whose attention sites call `sdpa_forward` /
`sdpa_backward`, or their `_sinks` variants for gpt-oss's sinks,
docs/Export.md; a site whose backward was not imported keeps its backward
as StableHLO, e.g. Gemma 2's d 256 and, until the backward import takes
sinks, gptoss_sinks_xla_vg):

  * compiles the ORIGINAL text and the REWRITTEN one through JAX's client
    (jax._src.compiler.backend_compile_and_load on the CUDA backend), with
    our FFI targets registered (runtime/ffi/sdpa_jax.py);
  * runs both on the same fresh random inputs (bench/model_inputs.py:
    weights ~ N(0, 1/fan_in) by the dimensions a product contracts, norm
    gains ~ 1 + N(0, 0.1^2), biases ~ N(0, 0.1^2), activations ~ N(0, 1));
    before the rewritten run the allocator's pool is filled with NaN (a
    large NaN buffer is made and freed), so an output the kernels never
    write shows up;
  * compares the loss (relative error) and every gradient (max |x - ref| /
    max |ref|) with the original's, and both with a float64 reference on the
    CPU: the model itself on the XLA path, its decomposed sibling of the same
    signature for a cuDNN one (gpt-oss-like); a gradient that is zero in
    float64 (Flax's key bias) is measured against the largest gradient's
    scale; the report lists every gradient;
  * negative controls: the rewritten module with one call's band changed
    must be refused by the handler with an error naming the band, and with
    a capped call's softcap halved (Gemma 2) naming the softcap, and a sinks
    call made a sink-less sdpa_forward call (gpt-oss) naming the sinks;
  * times a training step both ways (median of --repeats after warm-up).

Writes jax-models.md to --out; exits 1 on any failure.
"""

import argparse
import math
import os
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
from model_inputs import model_inputs  # noqa: E402
MODELS = os.path.join(ROOT, "test", "Import", "Inputs", "models")
# Fixtures outside models/ that are training steps too.
FIXTURES = {"jax-step": os.path.join(ROOT, "test", "Import", "Inputs",
                                     "jax_cudnn_causal_swa_bwd.mlir")}
DEFAULT_MODELS = ["jax-step", "gptoss_like_cudnn_vg", "mistral_like_cudnn_vg", "gptoss_like_xla_vg",
                  "flax_nnx_mha_window32_vg", "gemma2_like_softcap_xla_vg",
                  "gptoss_sinks_xla_vg"]
# The loss is one f32 sum: bf16 rounding of the activations moves it by
# well under 1e-2; gradients as the other bf16 checks (check_backward.py).
LOSS_TOL = 1e-2
GRAD_TOL = 5e-2
# A gradient at most this fraction of the largest one in float64 is zero.
ZERO = 1e-6


def decomposed_reference(name):
    """The fixture whose float64 evaluation is the reference: the model
    itself on the XLA path (attention written out), its decomposed sibling of
    the same signature for a cuDNN one, None when there is neither."""
    if name in FIXTURES:
        return None
    if "_cudnn_" not in name:
        return name
    sibling = name.replace("_cudnn_", "_xla_")
    return sibling if os.path.exists(os.path.join(MODELS, sibling + ".mlir")) else None


def result_names(text):
    """@main's jax.result_info names, in order."""
    main = re.search(r"func\.func public @main\(.*?\) -> \((.*?)\) \{", text)
    return re.findall(r'jax\.result_info = "([^"]*)"', main.group(1)) if main else []


def to_f64(text):
    """The module with every float tensor type made f64 (and f32 -inf); a
    dot_general's algorithm (bf16 operands, f32 accumulation) is dropped, so
    the products run in f64 too."""
    text = re.sub(r"(tensor<(?:[0-9]+x)*)(?:bf16|f16|f32)>", r"\1f64>", text)
    text = re.sub(r", algorithm = <[^>]*>", "", text)
    return text.replace("0xFF800000", "0xFFF0000000000000")


class Runner:
    def __init__(self, platform):
        import jax
        from jax._src import compiler, xla_bridge
        from jax._src.interpreters import mlir
        from jax._src.lib import xla_client as xc
        from jax._src.lib.mlir import ir
        self.jax, self.compiler, self.mlir, self.xc, self.ir = jax, compiler, mlir, xc, ir
        self.backend = xla_bridge.get_backend(platform)
        self.device = self.backend.local_devices()[0]

    def signature(self, text):
        """(shape, dtype name) of each argument of @main."""
        with self.mlir.make_ir_context():
            module = self.ir.Module.parse(text)
            for op in module.body.operations:
                if op.operation.name == "func.func" and \
                        self.ir.StringAttr(op.attributes["sym_name"]).value == "main":
                    ftype = self.ir.FunctionType(self.ir.TypeAttr(op.attributes["function_type"]).value)
                    return [(tuple(self.ir.RankedTensorType(t).shape),
                             str(self.ir.RankedTensorType(t).element_type)) for t in ftype.inputs]
        raise RuntimeError("no @main")

    def compile(self, text):
        with self.mlir.make_ir_context():
            module = self.ir.Module.parse(text)
            options = self.compiler.get_compile_options(num_replicas=1, num_partitions=1)
            devices = self.xc.DeviceList((self.device,))
            return self.compiler.backend_compile_and_load(self.backend, module, devices,
                                                          options, [])

    def put(self, array):
        return self.jax.device_put(array, self.device)

    def run(self, executable, args):
        results = executable.execute_sharded(args)
        outs = [shards[0] for shards in results.disassemble_into_single_device_arrays()]
        for o in outs:
            o.block_until_ready()
        return outs


def cast(arrays, signature, f64=False):
    import jax.numpy as jnp
    import numpy as np
    names = {"bf16": jnp.bfloat16, "f16": jnp.float16, "f32": jnp.float32}
    return [a.astype(np.float64) if f64 else jnp.asarray(a).astype(names[dt])
            for a, (_, dt) in zip(arrays, signature)]


def rel(x, ref, floor=0.0):
    """max|x - ref| / max(max|ref|, floor), on host copies in float64."""
    import numpy as np
    x, ref = np.asarray(x, np.float64), np.asarray(ref, np.float64)
    diff = float(np.max(np.abs(x - ref))) if ref.size else 0.0
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, floor)
    return diff / scale if scale > 0 else diff


def drop_sinks(text):
    """`text` with its first sdpa_forward_sinks call made a sink-less
    sdpa_forward call (its last operand, operand layout and operand type
    dropped), or None without one: the handler must refuse it (the artifact
    was compiled with sinks)."""
    m = re.search(r"^.*custom_call @sdpa_forward_sinks\(.*$", text, re.M)
    if not m:
        return None
    line = m.group(0)
    new = re.sub(r"@sdpa_forward_sinks\((.*?), %[\w#]+\)", r"@sdpa_forward(\1)", line, count=1)
    new = re.sub(r"(operand_layouts = \[.*?), dense<0> : tensor<1xindex>\]", r"\1]", new,
                 count=1)
    new = re.sub(r": \(([^()]*), tensor<[0-9]+xf32>\) ->", r": (\1) ->", new, count=1)
    return text[:m.start()] + new + text[m.end():]


def poison_pool(runner, nbytes):
    """Fills the device allocator's free memory with NaN, then frees it."""
    import jax.numpy as jnp
    buf = runner.put(jnp.full((max(nbytes // 4, 1),), jnp.nan, jnp.float32))
    buf.block_until_ready()
    del buf


def median_ms(runner, executable, args, repeats):
    for _ in range(3):
        runner.run(executable, args)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        runner.run(executable, args)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def refusal(runner, dev, text, what):
    """(verdict, failures) of running the changed module `text`: refused with
    an error starting '<what>:' is right, anything else a failure."""
    try:
        runner.run(runner.compile(text), dev)
        return f"FAIL ({what} ran)", 1
    except Exception as e:  # noqa: BLE001 (the handler's refusal is an exception)
        if f"{what}:" in str(e):
            return f"refused ({what})", 0
        return f"FAIL ({str(e)[:80]})", 1


def check_model(name, args, runner, cpu, rng, lines, details):
    """One model; returns the number of failures."""
    import numpy as np
    directory = os.path.join(args.artifacts, name)
    original = open(FIXTURES.get(name) or os.path.join(MODELS, name + ".mlir")).read()
    rewritten_path = os.path.join(directory, "module.mlir")
    if not os.path.exists(rewritten_path):
        lines.append(f"| {name} | not compiled (no <artifacts>/{name}/module.mlir) "
                     f"| | | | | | | | SKIPPED |")
        return 0
    rewritten = open(rewritten_path).read()
    calls = len(re.findall(r"custom_call @sdpa_(?:forward|backward)", rewritten))
    if calls == 0:
        lines.append(f"| {name} | 0 (no site imported: the module is the original) "
                     f"| | | | | | | | SKIPPED |")
        return 0
    os.environ["SDPA_ARTIFACT_DIR"] = directory
    signature = runner.signature(original)
    host = model_inputs(signature, original, rng)
    dev = [runner.put(a) for a in cast(host, signature)]

    ours_exe = runner.compile(rewritten)
    theirs_exe = runner.compile(original)
    theirs = [np.asarray(o.astype("float32")) for o in runner.run(theirs_exe, dev)]
    poison_pool(runner, 8 * sum(o.nbytes for o in theirs) + (64 << 20))
    ours = [np.asarray(o.astype("float32")) for o in runner.run(ours_exe, dev)]

    ref = None
    sibling = decomposed_reference(name)
    if sibling and cpu is not None:
        try:
            text = to_f64(open(os.path.join(MODELS, sibling + ".mlir")).read())
            if cpu.signature(text) == [(s, "f64") for s, _ in signature]:
                exe = cpu.compile(text)
                ref = [np.asarray(o) for o in cpu.run(exe, [cpu.put(a) for a in
                                                            cast(host, signature, f64=True)])]
        except Exception as e:  # the reference is optional: say why it is missing
            print(f"{name}: no float64 reference ({type(e).__name__}: {str(e)[:200]})")

    failures = 0
    # value_and_grad: the loss (a scalar) first; grad alone: gradients only.
    has_loss = theirs[0].ndim == 0
    first = 1 if has_loss else 0
    e_loss = abs(float(ours[0]) - float(theirs[0])) / max(abs(float(theirs[0])), 1e-30) \
        if has_loss else 0.0
    names = result_names(original)
    grads = []  # (name, max|ref|, zero, ours vs original, ours vs f64, original vs f64, ok)
    largest = max(float(np.max(np.abs(r))) for r in (ref or theirs)[first:])
    for i in range(first, len(theirs)):
        gname = names[i] if i < len(names) else f"result[{i}]"
        if ref is not None:
            magnitude = float(np.max(np.abs(ref[i])))
            zero = magnitude <= ZERO * largest
        else:
            magnitude, zero = float(np.max(np.abs(theirs[i]))), False
        # A gradient that is zero in float64 (Flax's key bias: the softmax
        # ignores the q . b_k it adds to a row) holds rounding noise only:
        # its errors are measured against the largest gradient's scale.
        floor = largest if zero else 0.0
        e_orig = rel(ours[i], theirs[i], floor)
        e_ours = rel(ours[i], ref[i], floor) if ref is not None else None
        e_theirs = rel(theirs[i], ref[i], floor) if ref is not None else None
        g_ok = e_orig <= GRAD_TOL and (e_ours is None or e_ours <= GRAD_TOL)
        g_ok &= not math.isnan(e_orig) and not (e_ours is not None and math.isnan(e_ours))
        grads.append((gname, magnitude, zero, e_orig, e_ours, e_theirs, g_ok))
    worst = max((g[3] for g in grads), default=0.0)
    ok = e_loss <= LOSS_TOL and not math.isnan(e_loss) and all(g[6] for g in grads)
    ref_text = "n/a"
    if ref is not None:
        ref_text = f"{max(g[4] for g in grads):.2e} / {max(g[5] for g in grads):.2e}"
    failures += not ok
    details.append(f"### {name}")
    details.append("")
    details.append("| gradient | max abs (ref) | ours vs original | ours vs float64 | "
                   "original vs float64 | result |")
    details.append("|---|---|---|---|---|---|")
    for gname, magnitude, zero, e_orig, e_ours, e_theirs, g_ok in grads:
        f64 = (f"{e_ours:.2e} | {e_theirs:.2e}" if e_ours is not None else "n/a | n/a")
        details.append(f"| {gname} | {magnitude:.2e}{' (zero)' if zero else ''} | "
                       f"{e_orig:.2e} | {f64} | {'ok' if g_ok else 'FAIL'} |")
    details.append("")

    # Negative controls, each a changed module the handler must refuse with
    # an error naming what was changed: the first call's left edge; a capped
    # call's cap (Gemma 2); a sinks call (gpt-oss) through the sink-less target.
    tampered = re.sub(r"left = (-?[0-9]+) : i64",
                      lambda m: f"left = {int(m.group(1)) + 1} : i64", rewritten, count=1)
    capped = re.sub(r"softcap = ([0-9.e+-]+) : f32",
                    lambda m: f"softcap = {float(m.group(1)) * 0.5:e} : f32"
                    if float(m.group(1)) else m.group(0), rewritten, count=1)
    verdicts = []
    for what, changed in (("band", tampered), ("softcap", capped),
                          ("sinks", drop_sinks(rewritten))):
        if changed is None or changed == rewritten:
            continue
        verdict, failed = refusal(runner, dev, changed, what)
        verdicts.append(verdict)
        failures += failed
    control = ", ".join(verdicts) or "n/a"

    t_theirs = median_ms(runner, theirs_exe, dev, args.repeats)
    t_ours = median_ms(runner, ours_exe, dev, args.repeats)
    loss = f"{float(theirs[0]):.6g} | {e_loss:.2e}" if has_loss else "(no loss) | "
    lines.append(f"| {name} | {calls} | {loss} | {worst:.2e} "
                 f"({len(grads)} grads) | {ref_text} | {control} | {t_theirs:.3f} | "
                 f"{t_ours:.3f} | {'ok' if ok else 'FAIL'} |")
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", default=".artifacts/kernels")
    p.add_argument("--lib", default=None, help="libsdpa_ffi.so (default: $SDPA_FFI_LIB)")
    p.add_argument("--models", default=",".join(DEFAULT_MODELS))
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--out", default=".")
    args = p.parse_args()

    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax
    # The float64 references: without x64 JAX puts f64 arrays as f32 (the
    # 027d401 run lost them so: "expected parameter 0 ... f64[256]").
    jax.config.update("jax_enable_x64", True)
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "runtime", "ffi"))
    import sdpa_jax
    lib = sdpa_jax.register(args.lib)
    runner = Runner("cuda")
    try:
        cpu = Runner("cpu")
    except Exception:
        cpu = None
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = np.random.default_rng(seed)

    rows, details, failures = [], [], 0
    for name in args.models.split(","):
        try:
            failures += check_model(name, args, runner, cpu, rng, rows, details)
        except Exception as e:
            rows.append(f"| {name} | error: {type(e).__name__}: {str(e)[:300]} | | | | | | | | FAIL |")
            failures += 1
        print(rows[-1], flush=True)

    lines = [
        "# Whole JAX models, attention as FFI calls to our kernels",
        "",
        f"jax {jax.__version__}, {runner.device.device_kind}; handler {os.path.basename(lib)}; "
        f"seed {seed}. Each model: the original StableHLO (JAX's attention) and the "
        f"module sdpa-stablehlo-pipeline rewrote (attention sites as `sdpa_forward` / "
        f"`sdpa_backward` FFI calls), compiled through JAX's client, on the same fresh "
        f"random inputs. Loss: relative error against the original; gradients: worst "
        f"max|x - ref| / max|ref| over all parameter gradients against the original "
        f"(limits {LOSS_TOL} / {GRAD_TOL}). float64: worst gradient error of ours / of "
        f"the original against the decomposed sibling model in float64 on the CPU. "
        f"Control: one call's band changed must be refused by the handler. Times: "
        f"median of {args.repeats} training steps (value_and_grad) after 3 warm-ups, ms.",
        "",
        "| model | FFI calls | loss | loss err | grads err | float64 (ours / orig) | "
        "control | original ms | ours ms | result |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"{failures} failure(s).",
        "",
        "## Per gradient",
        "",
        f"max|x - ref| / max|ref| of each gradient; '(zero)': zero in float64 (at most "
        f"{ZERO:g} of the largest gradient), its errors measured against the largest "
        f"gradient's max|ref| instead.",
        "",
        *details,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "jax-models.md"), "w") as f:
        f.write(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
