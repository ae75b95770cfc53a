#!/usr/bin/env python3
"""The PyTorch op sdpa.attention on the GPU: fake tensors, torch.compile, training.

Checks, each one line `PASS|FAIL|SKIP <name>: <detail>` on stdout:

* fake: under FakeTensorMode the op gives O (q's shape and dtype) for bhsd,
  bshd and thd without running a kernel, with sinks too (and the backward
  op's d sinks has the sinks' shape and dtype); torch.library.opcheck of
  both custom ops (schema, fake against real, autograd registration),
  without and with softcap and with sinks;
* values: O and dQ, dK, dV against the float64 reference
  (bench/attention_ref.py) for bhsd GQA causal-window, bshd views sliced
  out of one packed qkv buffer (non-contiguous), thd packed sequences
  (each sequence against its own reference), d 64 and 128, f16 and bf16,
  Gemma 2's softcap 50 (against the capped reference; the uncapped one must
  be more than twice the bf16 limit away, so the cap is tested); gpt-oss's
  sinks (float32 and bfloat16 sinks [Hq] requiring grad: O, dQ, dK, dV and
  d sinks against the reference with the sink column, d sinks in the sinks'
  dtype; the sink-less reference must be more than twice the limit away);
* deterministic: two backward runs bitwise equal; a side stream gives the
  default stream's result;
* compile: torch.compile(fullgraph=True) of the op (forward and backward,
  no graph break) gives the eager op's O, dQ, dK, dV bitwise
  (deterministic backward), and with sinks O, dQ, dK, dV, d sinks;
* training: one SGD step of a small attention layer (f16 compute, float32
  master parameters) eager and compiled with fullgraph=True, against the
  same step in float64 with the reference attention: loss, every
  parameter's gradient and the updated parameters;
* errors: a CPU tensor and a configuration with no kernel are refused with
  their messages.

Kernels come from the cache (sdpa.kernels): --kernels names a prebuilt set
(`python3 -m sdpa.kernels prebuild --out DIR`, made where sdpa-opt is),
put first on SDPA_KERNEL_PATH. --budget seconds: checks not started by then
are SKIPped (reported, and the exit status is 1). --cpu-only runs what needs
no GPU (the argument errors) so the script can be tried anywhere.

    python3 bench/check_torch_op.py --kernels .artifacts/sdpa-kernels
"""

import argparse
import itertools
import math
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

#: Of max |ref|, against float64: bench/check_backward.py's gradient limits.
TOL = {"bf16": 5e-2, "f16": 2e-2}
#: Multiplies q in the softcap cases: scores of standard deviation ~20.
CAP_BOOST = 20.0


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernels", help="a prebuilt kernel set (put first on SDPA_KERNEL_PATH)")
    p.add_argument("--budget", type=float, default=300, help="seconds for all checks")
    p.add_argument("--tol-scale", type=float, default=1.0,
                   help="multiplies the tolerances (bf16 5e-2, f16 2e-2 of max |ref|)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cpu-only", action="store_true", help="only the checks that need no GPU")
    return p.parse_args(argv)


class Report:
    def __init__(self, budget):
        self.t0, self.budget, self.failed = time.monotonic(), budget, 0

    def run(self, name, fn, *args):
        if time.monotonic() - self.t0 > self.budget:
            print(f"SKIP {name}: budget of {self.budget:.0f} s spent", flush=True)
            self.failed += 1
            return
        t = time.monotonic()
        try:
            ok, detail = fn(*args)
        except Exception as e:  # a check that raises fails, and the rest still run
            ok, detail = False, f"{type(e).__name__}: {e}"
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail} ({time.monotonic() - t:.1f} s)",
              flush=True)
        self.failed += 0 if ok else 1


def band(causal, window):
    left, right = window
    return left, 0 if causal else right


def check_errors(torch, sdpa):
    from sdpa import kernels, torch_ops
    q = torch.zeros(1, 2, 8, 64, dtype=torch.bfloat16)
    try:
        sdpa.attention(q, q, q)
        return False, "a CPU tensor was taken"
    except ValueError as e:
        if str(e) != "q: expected a CUDA tensor, got one on cpu":
            return False, f"message: {e}"
    if not torch.cuda.is_available():
        return True, "CPU tensor refused (no GPU: missing-kernel case skipped)"
    with tempfile.TemporaryDirectory() as tmp:
        torch_ops.set_kernel_cache(kernels.KernelCache(root=tmp, search_path=[], sdpa_opt=None))
        try:
            q = torch.zeros(1, 2, 8, 64, dtype=torch.bfloat16, device="cuda")
            sdpa.attention(q, q, q, window=(5, 3))
            return False, "a configuration with no kernel ran"
        except kernels.MissingKernelError as e:
            text = str(e)
        finally:
            torch_ops.set_kernel_cache(None)
    ok = "python3 -m sdpa.kernels build --out DIR fwd-bf16-d64-l5-r3-tl-dense" in text
    return ok, f"CPU tensor and missing kernel refused: {text[:160]}..."


def check_fake(torch, sdpa):
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        q = torch.empty(2, 8, 300, 64, dtype=torch.bfloat16, device="cuda")
        kv = torch.empty(2, 2, 300, 64, dtype=torch.bfloat16, device="cuda")
        o = sdpa.attention(q, kv, kv, causal=True, window=(127, 0))
        shapes = [tuple(o.shape) == tuple(q.shape) and o.dtype == q.dtype]
        qs = torch.empty(2, 300, 8, 64, dtype=torch.float16, device="cuda")
        o = sdpa.attention(qs, qs, qs, causal=True, layout="bshd")
        shapes.append(tuple(o.shape) == tuple(qs.shape))
        qt = torch.empty(500, 8, 128, dtype=torch.bfloat16, device="cuda")
        cu = torch.tensor([0, 200, 500], dtype=torch.int32, device="cuda")
        o, lse = torch.ops.sdpa_dialect.attention_forward(qt, qt, qt, cu, cu, None, 300, 300,
                                                          -1, 0, False, -1.0, 0.0, "thd", False)
        shapes.append(tuple(o.shape) == (500, 8, 128) and tuple(lse.shape) == (8, 500))
        # gpt-oss's sinks: one bf16 logit per query head, converted to f32.
        sinks = torch.empty(8, dtype=torch.bfloat16, device="cuda")
        o = sdpa.attention(q, kv, kv, causal=True, window=(127, 0), sinks=sinks)
        shapes.append(tuple(o.shape) == tuple(q.shape) and o.dtype == q.dtype)
        s32 = torch.empty(8, dtype=torch.float32, device="cuda")
        o, lse = torch.ops.sdpa_dialect.attention_forward(q, kv, kv, None, None, s32, -1, -1,
                                                          127, 0, False, -1.0, 0.0, "bhsd",
                                                          False)
        grads = torch.ops.sdpa_dialect.attention_backward(
            q, kv, kv, o, lse, o, None, None, s32, -1, -1, 127, 0, False, -1.0, 0.0, "bhsd",
            False)
        shapes.append(len(grads) == 4 and tuple(grads[3].shape) == (8,)
                      and grads[3].dtype == torch.float32)
        grads = torch.ops.sdpa_dialect.attention_backward(
            q, kv, kv, o, lse, o, None, None, None, -1, -1, 127, 0, False, -1.0, 0.0, "bhsd",
            False)
        shapes.append(tuple(grads[3].shape) == (0,))  # no sinks: an empty d sinks
    return all(shapes), f"fake shapes {shapes}"


def check_opcheck(torch, sdpa):
    g = torch.Generator(device="cuda").manual_seed(1)
    mk = lambda *s: torch.randn(*s, device="cuda", dtype=torch.bfloat16, generator=g)  # noqa
    q, k, v = mk(1, 4, 130, 64), mk(1, 2, 130, 64), mk(1, 2, 130, 64)
    for t in (q, k, v):
        t.requires_grad_(True)
    sinks = (torch.rand(4, device="cuda", generator=g) * 4 - 2).requires_grad_(True)
    # Uncapped (window 128), capped (softcap 50, causal) and with sinks
    # (window 128): sdpa.kernels' COMMON.
    for left, cap, s in ((127, 0.0, None), (-1, 50.0, None), (127, 0.0, sinks)):
        args = (q, k, v, None, None, s, -1, -1, left, 0, False, -1.0, cap, "bhsd", True)
        torch.library.opcheck(torch.ops.sdpa_dialect.attention_forward, args)
        o, lse = torch.ops.sdpa_dialect.attention_forward(*args)
        bargs = (q.detach(), k.detach(), v.detach(), o.detach(), lse, torch.randn_like(o),
                 None, None, None if s is None else s.detach(), -1, -1, left, 0, False, -1.0,
                 cap, "bhsd", True)
        torch.library.opcheck(torch.ops.sdpa_dialect.attention_backward, bargs)
    return True, ("opcheck of attention_forward and attention_backward, without and with "
                  "softcap, with sinks")


def to_bhsd(t, layout):
    return t.transpose(1, 2) if layout == "bshd" else t


def check_values(torch, sdpa, scale_tol):
    import attention_ref as ref
    g = torch.Generator(device="cuda").manual_seed(2)
    worst, lines = 0.0, []  # worst: error / the case's tolerance
    cases = [  # layout, dtype, d, (B, Hq, Hkv, S), causal, window, softcap, sinks' dtype
        ("bhsd", torch.bfloat16, 64, (2, 8, 2, 300), True, (127, None), None, None),
        ("bshd", torch.float16, 128, (2, 4, 4, 257), True, (None, None), None, None),
        ("bhsd", torch.bfloat16, 128, (1, 4, 1, 1000), True, (4095, None), None, None),
        ("bshd", torch.float16, 64, (2, 4, 2, 190), False, (None, None), None, None),
        # Gemma 2's cap 50, q scaled by CAP_BOOST so that scores reach it.
        ("bhsd", torch.bfloat16, 64, (2, 8, 2, 300), True, (None, None), 50.0, None),
        ("bshd", torch.bfloat16, 128, (1, 4, 2, 600), True, (4095, None), 50.0, None),
        # gpt-oss's sinks (its d 64, window 128 and full causal layers).
        ("bhsd", torch.bfloat16, 64, (2, 8, 2, 300), True, (127, None), None, torch.float32),
        ("bshd", torch.float16, 64, (2, 8, 1, 333), True, (None, None), None, torch.bfloat16),
    ]
    for layout, dtype, d, (b, hq, hkv, s), causal, window, softcap, sinks_dtype in cases:
        if layout == "bshd":  # q, k, v as views of one packed [B, S, Hq + 2 Hkv, D] buffer
            qkv = torch.randn(b, s, hq + 2 * hkv, d, device="cuda", dtype=dtype, generator=g)
            q, k, v = qkv[:, :, :hq], qkv[:, :, hq:hq + hkv], qkv[:, :, hq + hkv:]
        else:
            q = torch.randn(b, hq, s, d, device="cuda", dtype=dtype, generator=g)
            k = torch.randn(b, hkv, s, d, device="cuda", dtype=dtype, generator=g)
            v = torch.randn(b, hkv, s, d, device="cuda", dtype=dtype, generator=g)
        if softcap:
            q = q * CAP_BOOST
        q, k, v = (t.detach().requires_grad_(True) for t in (q, k, v))
        sinks = None
        if sinks_dtype is not None:  # within a few units of the scores, one head above
            sinks = torch.rand(hq, device="cuda", generator=g) * 6 - 3
            sinks[0] = 4.0
            sinks = sinks.to(sinks_dtype).requires_grad_(True)
        o = sdpa.attention(q, k, v, causal=causal, window=window, layout=layout,
                           softcap=softcap, sinks=sinks)
        do = torch.randn_like(o)
        o.backward(do)
        left, right = band(causal, window)
        scale = 1 / math.sqrt(d)
        args = [to_bhsd(t.detach(), layout) for t in (q, k, v)]
        mods = dict(softcap=softcap, sinks=None if sinks is None else sinks.detach())
        ro, _ = ref.reference(*args, left, right, "top_left", scale, **mods)
        # Delta from the O the kernels were handed (bench/attention_ref.py).
        rg = ref.reference_grads(*args, to_bhsd(do, layout), left, right, "top_left", scale,
                                 out=to_bhsd(o.detach(), layout), **mods)
        errs = [ref.rel(to_bhsd(o.detach(), layout), ro)] + [
            ref.rel(to_bhsd(t.grad, layout), r) for t, r in zip((q, k, v), rg)]
        if sinks is not None:  # d sinks, in the sinks' dtype
            errs.append(ref.rel(sinks.grad, rg[3]) if sinks.grad is not None
                        and sinks.grad.dtype == sinks_dtype else math.inf)
        tol = scale_tol * TOL["bf16" if dtype == torch.bfloat16 else "f16"]
        worst = max([worst] + [e / tol for e in errs])
        if softcap or sinks is not None:  # the cap or the sinks must matter on these inputs
            # Without the sinks (the cap kept), or without the cap.
            plain, _ = ref.reference(*args, left, right, "top_left", scale,
                                     softcap=softcap if sinks is not None else None)
            apart = ref.rel(plain, ro)
            worst = max(worst, 2 * TOL["bf16"] / max(apart, 1e-30))
            errs.append(apart)
        what = (f" cap {softcap:g}" if softcap else "") + (
            f" sinks {str(sinks_dtype)[6:]}" if sinks is not None else "")
        lines.append(f"{layout} {str(dtype)[6:]} d{d} {s}{what}: "
                     + " ".join(f"{e:.1e}" for e in errs))
    # Packed sequences: each against its own reference.
    lens = [100, 37, 250, 0, 64]
    cu = torch.tensor([0] + list(itertools.accumulate(lens)), dtype=torch.int32, device="cuda")
    t = sum(lens)
    q = torch.randn(t, 4, 64, device="cuda", dtype=torch.bfloat16, generator=g).requires_grad_()
    k = torch.randn(t, 2, 64, device="cuda", dtype=torch.bfloat16, generator=g).requires_grad_()
    v = torch.randn(t, 2, 64, device="cuda", dtype=torch.bfloat16, generator=g).requires_grad_()
    o = sdpa.attention(q, k, v, causal=True, window=(127, 0), layout="thd", cu_seqlens_q=cu,
                       cu_seqlens_kv=cu)
    do = torch.randn_like(o)
    o.backward(do)
    errs = [0.0] * 4
    for i in range(len(lens)):
        a, e = int(cu[i]), int(cu[i + 1])
        if a == e:
            continue
        seq = [x[a:e].detach().transpose(0, 1)[None] for x in (q, k, v)]
        ro, _ = ref.reference(*seq, 127, 0, "top_left", 0.125)
        rg = ref.reference_grads(*seq, do[a:e].transpose(0, 1)[None], 127, 0, "top_left", 0.125)
        got = [o[a:e]] + [x.grad[a:e] for x in (q, k, v)]
        for j, (x, r) in enumerate(zip(got, [ro] + list(rg))):
            errs[j] = max(errs[j], ref.rel(x.detach().transpose(0, 1)[None], r))
    worst = max([worst] + [e / (scale_tol * TOL["bf16"]) for e in errs])
    lines.append("thd bf16 d64 lens " + ",".join(map(str, lens)) + ": "
                 + " ".join(f"{e:.1e}" for e in errs))
    return worst <= 1, (f"worst {worst:.2f} of the tolerance (O dQ dK dV per case: "
                        f"{'; '.join(lines)})")


def random_inputs(torch, seed, b, hq, hkv, s, d, dtype):
    """q [b, hq, s, d], k and v [b, hkv, s, d], dO like q: normal, on the GPU."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    return [torch.randn(b, h, s, d, device="cuda", dtype=dtype, generator=g)
            for h in (hq, hkv, hkv, hq)]


def outputs_and_grads(fn, q, k, v, do):
    """[O, dQ, dK, dV] of fn(q, k, v) with the output gradient `do`."""
    xs = [t.clone().requires_grad_(True) for t in (q, k, v)]
    o = fn(*xs)
    o.backward(do)
    return [o.detach()] + [x.grad for x in xs]


def bitwise(a, b):
    """Every tensor of `a` equals its partner in `b` element for element."""
    return all(x.shape == y.shape and bool((x == y).all()) for x, y in zip(a, b))


def check_deterministic_and_streams(torch, sdpa):
    q, k, v, do = random_inputs(torch, 3, 2, 8, 2, 700, 64, torch.bfloat16)
    fn = lambda *xs: sdpa.attention(*xs, causal=True, window=(127, 0),  # noqa: E731
                                    deterministic=True)
    a, b = outputs_and_grads(fn, q, k, v, do), outputs_and_grads(fn, q, k, v, do)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        c = outputs_and_grads(fn, q, k, v, do)
    torch.cuda.current_stream().wait_stream(side)
    same, on_side = bitwise(a, b), bitwise(a, c)
    return same and on_side, f"repeat bitwise {same}, side stream bitwise {on_side}"


def check_compile(torch, sdpa):
    q, k, v, do = random_inputs(torch, 4, 2, 4, 4, 333, 64, torch.float16)

    def fn(q, k, v):
        return sdpa.attention(q, k, v, causal=True, window=(127, 0), deterministic=True)

    eager = outputs_and_grads(fn, q, k, v, do)
    compiled = outputs_and_grads(torch.compile(fn, fullgraph=True), q, k, v, do)
    same = bitwise(eager, compiled)
    # With sinks (bf16 [Hq], requiring grad): O, dQ, dK, dV and d sinks.
    g = torch.Generator(device="cuda").manual_seed(7)
    sinks = (torch.rand(4, device="cuda", generator=g) * 4 - 2).to(torch.bfloat16)

    def with_sinks(q, k, v, s):
        return sdpa.attention(q, k, v, causal=True, window=(127, 0), deterministic=True,
                              sinks=s)

    def run(f):
        xs = [t.clone().requires_grad_(True) for t in (q, k, v, sinks)]
        o = f(*xs)
        o.backward(do)
        return [o.detach()] + [x.grad for x in xs]

    eager_s = run(with_sinks)
    compiled_s = run(torch.compile(with_sinks, fullgraph=True))
    same_s = bitwise(eager_s, compiled_s) and compiled_s[4].dtype == torch.bfloat16
    return same and same_s, (f"fullgraph compile traced; O, dQ, dK, dV bitwise equal to "
                             f"eager: {same}; with sinks, and d sinks (bf16): {same_s}")


def make_layer(torch, d_model, heads, kv_heads, head_dim, seed):
    g = torch.Generator().manual_seed(seed)
    w = lambda o, i: (torch.randn(o, i, generator=g) / math.sqrt(i))  # noqa: E731
    return {"wq": w(heads * head_dim, d_model), "wk": w(kv_heads * head_dim, d_model),
            "wv": w(kv_heads * head_dim, d_model), "wo": w(d_model, heads * head_dim)}


def layer_loss(torch, params, x, target, attend, heads, kv_heads, head_dim, dtype):
    b, s, _ = x.shape
    p = {n: t.to(dtype) for n, t in params.items()}
    xx = x.to(dtype)
    q = (xx @ p["wq"].T).view(b, s, heads, head_dim).transpose(1, 2)
    k = (xx @ p["wk"].T).view(b, s, kv_heads, head_dim).transpose(1, 2)
    v = (xx @ p["wv"].T).view(b, s, kv_heads, head_dim).transpose(1, 2)
    o = attend(q, k, v).transpose(1, 2).reshape(b, s, heads * head_dim)
    y = o @ p["wo"].T
    return ((y.double() - target) ** 2).sum() / (b * s)


def check_training(torch, sdpa, scale_tol):
    import attention_ref as ref
    heads, kv_heads, head_dim, d_model, b, s, lr = 8, 2, 64, 256, 2, 400, 0.05
    g = torch.Generator().manual_seed(5)
    x = torch.randn(b, s, d_model, generator=g).cuda()
    target = torch.randn(b, s, d_model, generator=g, dtype=torch.float64).cuda()
    init = make_layer(torch, d_model, heads, kv_heads, head_dim, 6)

    ours = lambda q, k, v: sdpa.attention(q, k, v, causal=True, window=(127, 0),  # noqa: E731
                                          deterministic=True)

    def reference_attention(q, k, v):
        g_ = q.shape[1] // k.shape[1]
        k, v = k.repeat_interleave(g_, 1), v.repeat_interleave(g_, 1)
        mask = ref.band_mask(q.shape[2], k.shape[2], 127, 0, "top_left", q.device)
        sc = (q @ k.transpose(-1, -2)) / math.sqrt(head_dim)
        return torch.softmax(sc.masked_fill(~mask, -math.inf), -1) @ v

    def step(attend, dtype, compiled=False):
        params = {n: t.cuda().double().requires_grad_(True) if dtype == torch.float64
                  else t.cuda().requires_grad_(True) for n, t in init.items()}
        f = lambda p: layer_loss(torch, p, x, target, attend, heads, kv_heads,  # noqa: E731
                                 head_dim, dtype)
        if compiled:
            f = torch.compile(f, fullgraph=True)
        loss = f(params)
        loss.backward()
        grads = {n: t.grad.double() for n, t in params.items()}
        new = {n: t.detach().double() - lr * grads[n] for n, t in params.items()}
        return loss.detach(), grads, new

    rl, rg, rn = step(reference_attention, torch.float64)
    out, worst = [], 0.0
    results = {}
    for name, compiled in (("eager", False), ("compiled", True)):
        loss, grads, new = step(ours, torch.float16, compiled)
        results[name] = (loss, grads)
        errs = [ref.rel(loss.reshape(1), rl.reshape(1))]
        errs += [ref.rel(grads[n], rg[n]) for n in rg] + [ref.rel(new[n], rn[n]) for n in rn]
        worst = max([worst] + errs)
        out.append(f"{name}: loss {errs[0]:.1e}, grads max {max(errs[1:5]):.1e}, "
                   f"params max {max(errs[5:]):.1e}")
    apart = max(ref.rel(results["compiled"][1][n], results["eager"][1][n]) for n in rg)
    tol = scale_tol * TOL["f16"]
    return worst <= tol, (f"worst {worst:.2e} vs float64 (limit {tol:.0e}); compiled vs "
                          f"eager gradients {apart:.1e} apart; " + "; ".join(out))


def main():
    args = parse_args()
    if args.kernels:
        os.environ["SDPA_KERNEL_PATH"] = os.pathsep.join(
            [os.path.abspath(args.kernels)] + [p for p in os.environ.get("SDPA_KERNEL_PATH", "")
                                               .split(os.pathsep) if p])
    import torch
    import sdpa
    from sdpa import torch_ops
    print(f"torch {torch.__version__}, custom op {torch_ops.HAVE_CUSTOM_OP}, kernel path "
          f"{os.environ.get('SDPA_KERNEL_PATH', '')}", flush=True)
    report = Report(args.budget)
    report.run("errors", check_errors, torch, sdpa)
    if args.cpu_only:
        return 1 if report.failed else 0
    if not torch.cuda.is_available():
        print("FAIL gpu: no CUDA device")
        return 1
    report.run("fake", check_fake, torch, sdpa)
    report.run("opcheck", check_opcheck, torch, sdpa)
    report.run("values", check_values, torch, sdpa, args.tol_scale)
    report.run("deterministic", check_deterministic_and_streams, torch, sdpa)
    report.run("compile", check_compile, torch, sdpa)
    report.run("training", check_training, torch, sdpa, args.tol_scale)
    print(f"check_torch_op: {'all passed' if not report.failed else f'{report.failed} failed'}")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
