#!/usr/bin/env python3
"""Benchmark: our kernels against FlexAttention and JAX -> cuDNN.

Cases (bf16, causal sliding window, Sq = Skv = S), in this order (a budget
cut loses the later ones; the first two keep their rows of earlier runs):
  gpt-oss        B=2, H=16, D=64,  window 128 keys (L=127), S in --sizes
  heavy          B=1, H=32, D=128, window 4096 keys (L=4095), S=16384
  gpt-oss-sinks  B=2, H=16 query / 2 kv heads (gpt-oss's GQA ratio 8: 64/8),
                 D=64, window 128, attention sinks (one f32 logit per query
                 head), S in --sinks-sizes
  gemma2         B=1, H=8 query / 4 kv heads, D=256, logit softcap 50
                 (50 tanh(s / 50) before the mask), window 4096 keys,
                 S=--gemma-size (8192)
Forwards of the first two first, then their forward+backwards, then the same
for the last two.

Ours: the forward (and backward, if present) artifacts in --artifacts whose
manifest matches the case (bench/bench_cases.py: dtype, head_dim, band
L = window-1, R = 0, dense, the same softcap and sinks: a sinks artifact never
times a sink-less case nor the reverse); --ours-gptoss / --ours-heavy name one
explicitly. Anchors: torch.compile'd flex_attention with a sliding-window
block mask (GQA by enable_gqa; the softcap as a score_mod; the sinks as
O * sigmoid(LSE - sink) from return_lse, exact; if Flex's LSE has no
gradient, its fwd+bwd row leaves the correction's LSE gradient out and says
so), and jax.nn.dot_product_attention(implementation='cudnn') in a separate
process (no softcap, no sinks: n/a for the last two cases). Every timed
output of ours is checked against the same run's Flex output: the worst
max |ours - flex| / max |flex| of O (fwd) and of dQ, dK, dV (fwd+bwd; and
dsinks) is reported.

Times are medians in ms (triton.testing.do_bench, CUDA events, after
warm-up; JAX: per-call wall time around block_until_ready). TFLOP/s count the
visible cells only (fwd 4*D flops per cell, fwd+bwd 14*D: 2 + 5 matmuls);
GB/s count Q, K, V, O once in the forward and additionally Q, K, V, O, dO read
and dQ, dK, dV written in the backward, against the measured device copy
bandwidth. Ratios are ours/anchor time (< 1: we are faster). A deterministic backward artifact is
timed as "ours-det".

Writes benchmark.md, benchmark.json and benchmark.png to --out.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
sys.path.insert(0, HERE)

from bench_cases import Case, artifact_matches, read_overrides  # noqa: E402

# Cases with modifiers JAX's dot_product_attention does not have.
JAX_NA = "n/a: jax.nn.dot_product_attention has no softcap or sinks"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", default=".artifacts/kernels")
    p.add_argument("--out", default=os.environ.get("OUT", "bench/out"))
    p.add_argument("--sizes", default="2048,4096,8192,16384,32768")
    p.add_argument("--no-heavy", action="store_true", help="skip the d=128 case")
    p.add_argument("--sinks-sizes", default="8192,32768",
                   help="S of the gpt-oss-sinks case (empty: skip it)")
    p.add_argument("--gemma-size", type=int, default=8192,
                   help="S of the gemma2 case (0: skip it)")
    p.add_argument("--anchors", default="flex,jax", help="comma list: flex, jax")
    p.add_argument("--skip-bwd", action="store_true", help="forward only")
    p.add_argument("--budget", type=float, default=1e9,
                   help="seconds; measurements past it are skipped with a note")
    p.add_argument("--ours-gptoss", help="forward manifest for the gpt-oss case")
    p.add_argument("--ours-heavy", help="forward manifest for the heavy case")
    p.add_argument("--graph", action="store_true",
                   help="time forwards as CUDA graph replays (no host overhead; "
                        "triton.testing.do_bench_cudagraph)")
    p.add_argument("--ours-label", default="ours",
                   help="name of our rows in the report (e.g. for a harness check)")
    return p.parse_args()


def find_artifacts(directory, case, explicit):
    """{dtype: (forward, backward, deterministic backward)} artifacts matching
    the case. bf16 is the benchmark's dtype; an f16 set is kept for the
    fwd+bwd rows while the backward lowering supports f16 only (the same
    mma.sync rate, the same bytes)."""
    import sdpa_runtime
    found = {}
    paths = [explicit] if explicit else sorted(glob.glob(os.path.join(directory, "*.manifest")))
    # An artifact compiled with the rule's choice overridden never stands
    # for a case (unless named).
    overridden = {} if explicit else read_overrides(directory)
    for path in paths:
        if os.path.basename(path)[:-len(".manifest")] in overridden:
            continue
        try:
            art = sdpa_runtime.Artifact(path)
        except sdpa_runtime.SdpaError as e:
            print(f"note: {path}: {e}")
            continue
        match = explicit or artifact_matches(case, art)
        if not match:
            continue
        slot = ("fwd" if art.direction == "forward"
                else "det" if art.deterministic else "bwd")
        per_dtype = found.setdefault(art.dtype_name, {"fwd": None, "bwd": None, "det": None})
        if per_dtype[slot] is None:
            per_dtype[slot] = art
    return {dtype: (a["fwd"], a["bwd"], a["det"]) for dtype, a in found.items()}


def copy_bandwidth(torch, do_bench):
    """Device copy rate in bytes/s, counting bytes read plus bytes written."""
    n = 1 << 30  # 1 Gi bf16 elements: 2 GiB per buffer
    src = torch.empty(n, dtype=torch.bfloat16, device="cuda").normal_()
    dst = torch.empty_like(src)
    ms = do_bench(lambda: dst.copy_(src), warmup=50, rep=300, return_mode="median")
    src = dst = None
    torch.cuda.empty_cache()
    return 2 * n * 2 / (ms * 1e-3)


def run_jax(cases, skip_bwd, timeout):
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    if skip_bwd:
        env["ANCHOR_SKIP_BWD"] = "1"
    cmd = [sys.executable, os.path.join(HERE, "anchor_jax.py")] + [c.key for c in cases]
    results = []
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        out, err = proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = f"timed out after {timeout:.0f} s"
    for line in out.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "info" in rec:
            print(f"jax: {rec['info']} {rec.get('devices', '')}")
        else:
            results.append(rec)
    if err.strip():
        print("jax stderr (tail):\n" + "\n".join(err.strip().splitlines()[-8:]))
    return results


def main():
    args = parse_args()
    start = time.time()
    os.makedirs(args.out, exist_ok=True)
    import torch
    from triton.testing import do_bench

    def left():
        return args.budget - (time.time() - start)

    sizes = [int(s) for s in args.sizes.split(",") if s]
    cases = [Case("gpt-oss", 2, 16, 64, 128, s) for s in sizes]
    if not args.no_heavy:
        cases.append(Case("heavy", 1, 32, 128, 4096, 16384))
    # The modifier cases come after, so that a budget cut spares the first.
    later = [Case("gpt-oss-sinks", 2, 16, 64, 128, int(s), hkv=2, sinks=True)
             for s in args.sinks_sizes.split(",") if s]
    if args.gemma_size:
        later.append(Case("gemma2", 1, 8, 256, 4096, args.gemma_size, hkv=4, softcap=50.0))
    anchors = set(a for a in args.anchors.split(",") if a)
    passes = ["fwd"] if args.skip_bwd else ["fwd", "fwd+bwd"]
    device = torch.cuda.get_device_name()
    print(f"device {device}, torch {torch.__version__}")
    results = []  # dicts: case, S, impl, pass, ms | error

    # JAX first, before this process holds much GPU memory.
    if "jax" in anchors:
        t0 = time.time()
        recs = run_jax(cases, args.skip_bwd, timeout=max(30, left() * 0.45))
        for r in recs:
            results.append(r)
            print(f"jax-cudnn {r['case']} S={r['S']} {r['pass']}: "
                  f"{r.get('ms', r.get('error'))}")
        print(f"jax anchors took {time.time() - t0:.1f} s")
        for case in later:
            for pass_ in passes:
                results.append({"case": case.name, "S": case.s, "impl": "jax-cudnn",
                                "pass": pass_, "error": JAX_NA})

    bw = copy_bandwidth(torch, do_bench)
    print(f"device copy bandwidth: {bw / 1e12:.2f} TB/s (read + write)")

    flex = make_flex() if "flex" in anchors else None

    # Every forward first, then every forward+backward, so that a budget cut
    # loses the least.
    artifacts = {}
    for group in (cases, later):
        for pass_ in passes:
            for case in group:
                measure(args, torch, do_bench, flex, case, pass_, artifacts, results, left)
                torch.cuda.empty_cache()

    write_report(args, cases + later, results, bw, device, torch.__version__,
                 time.time() - start)


def make_flex():
    """torch.compile'd flex_attention, compiled once per shape and pass."""
    import warnings
    import torch
    from torch.nn.attention.flex_attention import flex_attention
    # One static compile per shape and pass: 12 and more, past dynamo's
    # default limit of 8, beyond which flex_attention silently runs eager
    # (materializing the scores; seen on 2026-12-01: 150 ms and OOM).
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, 64)
    if hasattr(torch._dynamo.config, "accumulated_recompile_limit"):
        torch._dynamo.config.accumulated_recompile_limit = 512
    # And should it still fall back, fail the cell instead of timing it.
    warnings.filterwarnings("error", message=".*flex_attention called without "
                            "torch.compile.*")
    return torch.compile(flex_attention, dynamic=False)


def flex_lse(flex, q, k, v, kw):
    """O, LSE (natural log, [B, H, S] f32) of FlexAttention."""
    try:
        return flex(q, k, v, return_lse=True, **kw)
    except TypeError:  # a torch where return_lse is gone: return_aux
        from torch.nn.attention.flex_attention import AuxRequest
        o, aux = flex(q, k, v, return_aux=AuxRequest(lse=True), **kw)
        return o, aux.lse


def flex_fn(flex, case):
    """(fn, kw): fn(q, k, v, sinks, lse_grad=True) -> O, FlexAttention on the
    case's function (the block mask built here, outside any timing), and the
    flex_attention keywords it uses. Sinks: O * sigmoid(LSE - sink), exact
    (docs/Semantics.md §7: the sink's exp joins the denominator); lse_grad
    False detaches the LSE (for a torch whose Flex has no LSE gradient)."""
    import torch
    from torch.nn.attention.flex_attention import create_block_mask
    n = case.window

    def mask_mod(b, h, qi, ki):
        return (qi >= ki) & (qi - ki < n)

    kw = {"block_mask": create_block_mask(mask_mod, None, None, case.s, case.s,
                                          device="cuda")}
    if case.hkv != case.h:
        kw["enable_gqa"] = True
    if case.softcap:
        cap = float(case.softcap)

        def score_mod(score, b, h, qi, ki):
            return cap * torch.tanh(score / cap)
        kw["score_mod"] = score_mod
    if not case.sinks:
        return (lambda q, k, v, sinks, lse_grad=True: flex(q, k, v, **kw)), kw

    def with_sinks(q, k, v, sinks, lse_grad=True):
        o, lse = flex_lse(flex, q, k, v, kw)
        if not lse_grad:
            lse = lse.detach()
        keep = torch.sigmoid(lse - sinks[None, :, None]).unsqueeze(-1)
        return (o.float() * keep).to(o.dtype)
    return with_sinks, kw


def flex_lse_has_grad(flex, kw, q, k, v):
    """Whether Flex's LSE carries a gradient to q (d sum(LSE) / dq != 0)."""
    qg = q.detach().requires_grad_()
    try:
        _, lse = flex_lse(flex, qg, k, v, kw)
        lse.sum().backward()
    except Exception as e:  # noqa: BLE001 (any refusal means: no gradient)
        print(f"flex: no LSE gradient: {' '.join(str(e).split())[:200]}")
        return False
    ok = qg.grad is not None and bool(qg.grad.abs().max() > 0)
    if not ok:
        print("flex: LSE gradient is zero or missing")
    return ok


NO_LSE_GRAD = "LSE not differentiated: Flex has no LSE gradient"


def flex_ms(do_bench, time_fwd, flex, case, pass_, q, k, v, do, sinks=None):
    """Median ms of FlexAttention on the case (bench/sweep.py's entry)."""
    return flex_run(do_bench, time_fwd, flex, case, pass_, q, k, v, do, sinks)[0]


def flex_run(do_bench, time_fwd, flex, case, pass_, q, k, v, do, sinks):
    """(median ms, reference outputs, note) of FlexAttention on the case: the
    forward through `time_fwd` (reference: O), the forward+backward (dQ, dK,
    dV and dsinks reset per call) through `do_bench` (reference: the
    gradients). note: NO_LSE_GRAD when the sinks correction's LSE had to be
    detached (then only dV and dsinks are exact)."""
    fn, kw = flex_fn(flex, case)
    if pass_ == "fwd":
        ms = time_fwd(lambda: fn(q, k, v, sinks))
        return ms, (fn(q, k, v, sinks),), None
    leaves = [t.detach().requires_grad_() for t in (q, k, v)]
    if sinks is not None:
        leaves.append(sinks.detach().requires_grad_())
    sink_arg = leaves[3] if sinks is not None else None
    lse_grad = not case.sinks or flex_lse_has_grad(flex, kw, q, k, v)

    def step():
        fn(leaves[0], leaves[1], leaves[2], sink_arg, lse_grad).backward(do)
    ms = do_bench(step, grad_to_none=leaves, return_mode="median")
    for t in leaves:
        t.grad = None
    step()
    return ms, tuple(t.grad for t in leaves), None if lse_grad else NO_LSE_GRAD


def max_abs(got, ref, which):
    """The worst over the tensors at indices `which` of max |got - ref| /
    max |ref|: relative, since dsinks sums over every row of a head (at
    S = 32k its entries are far larger than dQ's), and an absolute maximum
    over all four says nothing of the others (2026-12-02: 0.471 absolute)."""
    worst = 0.0
    for i in which:
        scale = max(float(ref[i].float().abs().max()), 1e-30)
        worst = max(worst, float((got[i].float() - ref[i].float()).abs().max()) / scale)
    return worst


def measure(args, torch, do_bench, flex, case, pass_, artifacts, results, left):
    """Times ours and FlexAttention on one case and pass, checks ours against
    Flex's output; appends to results."""
    def time_fwd(fn):
        if args.graph:
            from triton.testing import do_bench_cudagraph
            fn()  # compile / load outside the capture
            torch.cuda.synchronize()
            return do_bench_cudagraph(fn, return_mode="median")
        return do_bench(fn, return_mode="median")

    base = {"case": case.name, "S": case.s, "pass": pass_}
    # Ours.
    if case.name not in artifacts:
        explicit = {"gpt-oss": args.ours_gptoss, "heavy": args.ours_heavy}.get(case.name)
        artifacts[case.name] = find_artifacts(args.artifacts, case, explicit)
    by_dtype = artifacts[case.name]
    # The forward row is bf16; fwd+bwd takes bf16 if a bf16 backward exists,
    # else the f16 pair (labelled).
    dtype = "bf16"
    if pass_ == "fwd+bwd" and not (by_dtype.get("bf16", (None, None, None))[1]) \
            and by_dtype.get("f16", (None, None, None))[1]:
        dtype = "f16"
    fwd_art, bwd_art, det_art = by_dtype.get(dtype, (None, None, None))
    gen = torch.Generator(device="cuda").manual_seed(case.s)
    tdtype = torch.bfloat16 if dtype == "bf16" else torch.float16
    qshape = (case.b, case.h, case.s, case.d)
    kvshape = (case.b, case.hkv, case.s, case.d)
    q, k, v, do = (torch.randn(shape, device="cuda", generator=gen).to(tdtype)
                   for shape in (qshape, kvshape, kvshape, qshape))
    # Sink logits near the rows' LSE (about ln 128 + 1), so that they matter.
    sinks = (torch.randn(case.h, device="cuda", generator=gen) + 5.0
             if case.sinks else None)
    extra = {"sinks": sinks} if case.sinks else {}
    outputs = {}  # impl: what it computed, for the check against Flex
    variants = ([("ours", bwd_art)] if pass_ == "fwd"
                else [("ours", bwd_art), ("ours-det", det_art)])
    for impl, bwd in variants:
        if fwd_art is None or (pass_ == "fwd+bwd" and bwd is None):
            print(f"{impl} {case.name} S={case.s} {pass_}: no matching artifact in "
                  f"{args.artifacts}")
            continue
        if left() < 0:
            results.append({**base, "impl": impl, "error": "budget"})
            continue
        try:
            o = torch.empty_like(q)
            lse = torch.empty(case.b, case.h, case.s, device="cuda")
            if pass_ == "fwd":
                ms = time_fwd(lambda: fwd_art.forward(q, k, v, out=o, lse=lse, **extra))
                outputs[impl] = (o,)
            else:
                grads = {}

                def step(bwd=bwd):
                    fwd_art.forward(q, k, v, out=o, lse=lse, **extra)
                    grads["g"] = bwd.backward(q, k, v, o, lse, do, **extra)
                ms = do_bench(step, return_mode="median")
                outputs[impl] = tuple(grads["g"])
            timed = {"artifact": fwd_art.path}
            if pass_ == "fwd+bwd":
                timed["backward_artifact"] = bwd.path
            results.append({**base, "impl": impl, "ms": ms, **timed, "dtype": dtype})
        except Exception as e:  # report and go on
            results.append({**base, "impl": impl, "error": str(e)[:300]})
    # FlexAttention, and the check of ours against it.
    if flex is not None:
        if left() < 0:
            results.append({**base, "impl": "flex", "error": "budget"})
        else:
            try:
                t0 = time.time()
                ms, ref, note = flex_run(do_bench, time_fwd, flex, case, pass_, q, k, v,
                                         do, sinks)
                rec = {**base, "impl": "flex", "ms": ms,
                       "setup_s": round(time.time() - t0, 1)}
                if note:
                    rec["note"] = note
                results.append(rec)
                # O; or dQ, dK, dV (and dsinks); only dV, dsinks without LSE grad.
                which = range(len(ref)) if note is None else range(2, len(ref))
                for r in results:
                    if (r["case"], r["S"], r["pass"]) == (case.name, case.s, pass_) \
                            and r["impl"] in outputs and "ms" in r:
                        r["maxabs"] = max_abs(outputs[r["impl"]], ref, which)
                        r["checked"] = ("O" if pass_ == "fwd" else
                                        ",".join(["dQ", "dK", "dV", "dsinks"][i]
                                                 for i in which))
                ref = None
            except Exception as e:
                results.append({**base, "impl": "flex", "error": str(e)[:300]})
    outputs = None
    for r in results:
        if r["case"] == case.name and r["S"] == case.s and "printed" not in r:
            r["printed"] = True
            print(f"{r['impl']} {case.name} S={case.s} {r['pass']}: "
                  f"{r.get('ms', r.get('error'))}" +
                  (f" (setup {r['setup_s']} s)" if "setup_s" in r else "") +
                  (f" max rel vs flex {r['maxabs']:.3g} ({r['checked']})"
                   if "maxabs" in r else "") +
                  (f" [{r['note']}]" if "note" in r else ""))


def describe(case):
    """One line naming a case's shape and modifiers, for the report."""
    heads = f"H={case.h}" if case.hkv == case.h else f"H={case.h}/{case.hkv} (q/kv)"
    mods = (f", softcap {case.softcap:g}" if case.softcap else "") + (
        ", sinks" if case.sinks else "")
    return f"{case.name}: B={case.b}, {heads}, D={case.d}, window {case.window}{mods}"


def write_report(args, cases, results, bw, device, torch_version, elapsed):
    def get(case, impl, pass_):
        for r in results:
            if (r["case"], r["S"], r["impl"], r["pass"]) == (case.name, case.s, impl, pass_):
                return r
        return None

    lines = [
        f"# Benchmark {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"Device: {device}; torch {torch_version}; measured copy bandwidth "
        f"{bw / 1e12:.2f} TB/s (read + write). Command: `{' '.join(sys.argv)}` "
        f"({elapsed:.0f} s)." + (" Forwards timed as CUDA graph replays." if args.graph else ""),
        "",
        "Median ms. TFLOP/s on visible cells; GB/s over the minimal tensor traffic "
        "and its share of the copy bandwidth; ratio = ours / anchor (< 1: ours faster); "
        "max rel = max |ours - flex| / max |flex| against the same run's Flex output (O; fwd+bwd: the gradients "
        "named).",
        "",
        "Cases: " + "; ".join(dict.fromkeys(describe(c) for c in cases)) + ".",
        "",
        "| case | S | pass | impl | ms | TFLOP/s | GB/s | % copy BW | ours/flex | ours/jax "
        "| max rel vs flex |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case in cases:
        for pass_ in ("fwd", "fwd+bwd"):
            for impl in ("ours", "ours-det", "flex", "jax-cudnn"):
                r = get(case, impl, pass_)
                if r is None:
                    continue
                name = args.ours_label + impl[4:] if impl.startswith("ours") else impl
                if "note" in r:
                    name += f" ({r['note']})"
                if "ms" not in r:
                    error = " ".join(str(r["error"]).split()).replace("|", "/")[:100]
                    if not error.startswith("n/a"):
                        error = "error: " + error
                    lines.append(f"| {case.name} | {case.s} | {pass_} | {name} | "
                                 f"{error} | | | | | | |")
                    continue
                ms = r["ms"]
                tflops = case.flops(pass_) / (ms * 1e-3) / 1e12
                gbs = case.bytes(pass_) / (ms * 1e-3) / 1e9
                ratios = []
                for anchor in ("flex", "jax-cudnn"):
                    a = get(case, anchor, pass_)
                    if impl.startswith("ours") and a and "ms" in a:
                        ratios.append(f"{ms / a['ms']:.2f}")
                    else:
                        ratios.append("")
                check = (f"{r['maxabs']:.3g} ({r['checked']})" if "maxabs" in r else "")
                lines.append(f"| {case.name} | {case.s} | {pass_} | {name} | {ms:.3f} | "
                             f"{tflops:.0f} | {gbs:.0f} | {100 * gbs * 1e9 / bw:.0f}% | "
                             f"{ratios[0]} | {ratios[1]} | {check} |")
    # Which artifacts our rows timed (bench_cases.read_overrides keeps those
    # compiled with a rule choice overridden out).
    timed = {}
    for r in results:
        if r["impl"].startswith("ours") and "ms" in r:
            for key in ("artifact", "backward_artifact"):
                if key in r:
                    timed.setdefault(r["case"], {})[os.path.basename(r[key])] = None
    if timed:
        lines += ["", "Artifacts timed (ours): " + "; ".join(
            f"{case}: {', '.join(names)}" for case, names in timed.items()) + "."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "benchmark.md"), "w") as f:
        f.write(text)
    with open(os.path.join(args.out, "benchmark.json"), "w") as f:
        json.dump({"device": device, "copy_bandwidth": bw, "results": results}, f, indent=1)
    print(text)
    plot(args, cases, results)


def plot(args, cases, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not available: plot skipped")
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, pass_ in zip(axes, ("fwd", "fwd+bwd")):
        for impl, style in (("ours", "o-"), ("ours-det", "d-"), ("flex", "s--"),
                            ("jax-cudnn", "^:")):
            pts = sorted((r["S"], r["ms"]) for r in results
                         if r["case"] == "gpt-oss" and r["impl"] == impl
                         and r["pass"] == pass_ and "ms" in r)
            if pts:
                label = args.ours_label + impl[4:] if impl.startswith("ours") else impl
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("S (tokens)")
        ax.set_ylabel("median ms")
        ax.set_title(f"gpt-oss case {pass_} (B=2, H=16, D=64, window 128)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    path = os.path.join(args.out, "benchmark.png")
    fig.savefig(path, dpi=110)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
