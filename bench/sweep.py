#!/usr/bin/env python3
"""Configuration sweep: every artifact of bench/sweep_configs.py, checked and
timed next to the anchors in one run (issue 15, track A).

For each artifact of the sweep table found in --artifacts (made by
`bench/make_artifacts.py --sweep`, ptxas-clean):

1. correctness first (a faster wrong kernel is worthless): one small case
   against the float64 reference (bench/attention_ref.py) with outputs
   poisoned with NaN: the forward's O and LSE (check_forward.compare and its
   limits), the backward's dQ, dK, dV (check_backward.run_case and its
   limits; a deterministic artifact twice, bitwise equal). The shape is
   bhsd, GQA 4/2 heads, S past the window (several key tiles, ragged edges).
   A failing artifact is reported and not timed.
2. the anchors once per case and pass (JAX -> cuDNN in a child process, then
   FlexAttention through torch.compile, as bench/benchmark.py times them).
3. ours: each forward configuration alone ("fwd"), each backward
   configuration after the case's default forward ("fwd+bwd"), then the best
   forward with the best backward of each kind.

Cases: gpt-oss (b 2, h 16, d 64, window 128, S in --sizes) and heavy (b 1,
h 32, d 128, window 4096, S 16384). Stops measuring at --budget seconds and
still writes sweep.md and sweep.json to --out (a cell past the budget reads
"budget").

  bench/sweep.py --artifacts .artifacts/sweep --out $OUT --budget 150
"""

import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
sys.path.insert(0, HERE)

from sweep_configs import CASES, DEFAULT, SWEEP  # noqa: E402

KINDS = ("fwd", "bwd", "det")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", default=".artifacts/sweep")
    p.add_argument("--out", default=os.environ.get("OUT", "bench/out"))
    p.add_argument("--sizes", default="16384,32768", help="gpt-oss sequence lengths")
    p.add_argument("--heavy-size", type=int, default=16384, help="0: no heavy case")
    p.add_argument("--anchors", default="flex,jax", help="comma list: flex, jax")
    p.add_argument("--budget", type=float, default=150.0,
                   help="seconds; measurements past it are skipped, the report written")
    p.add_argument("--no-check", action="store_true",
                   help="time without the correctness check (marked unchecked)")
    return p.parse_args(argv)


def sweep_cases(args):
    """benchmark.Case objects of the run, in the order they are measured."""
    from benchmark import Case
    cases = [Case("gpt-oss", 2, 16, 64, 128, int(s)) for s in args.sizes.split(",") if s]
    if args.heavy_size:
        cases.append(Case("heavy", 1, 32, 128, 4096, args.heavy_size))
    return cases


def check_shape(case_name):
    """(b, Hq, Hkv, S) of the correctness case: past the window, ragged."""
    _, left = CASES[case_name]
    return 1, 4, 2, left + 1 + 2 * 64 + 37


def check_artifact(art, kind, case_name, gen):
    """(max error, '' or the problem) of one small case against float64."""
    import torch
    from attention_ref import reference
    from check_backward import TOL, run_case
    from check_forward import TOL_LSE, TOL_O, compare
    b, hq, hkv, s = check_shape(case_name)
    d = art.head_dim

    def randn(h):
        return torch.randn(b, h, s, d, device="cuda", generator=gen).to(art.torch_dtype)

    q, k, v, do = randn(hq), randn(hkv), randn(hkv), randn(hq)
    if kind == "fwd":
        o = torch.full_like(q, math.nan)
        lse = torch.full((b, hq, s), math.nan, device="cuda")
        art.forward(q, k, v, out=o, lse=lse)
        torch.cuda.synchronize()
        o_ref, l_ref = reference(q, k, v, art.left, art.right, art.align, art.scale)
        eo, el, _, problem = compare(o, lse, o_ref, l_ref)
        if not problem and (eo > TOL_O[art.dtype_name] or el > TOL_LSE):
            problem = f"tolerance (O {eo:.2e}, LSE {el:.2e})"
        return max(eo, el), problem
    errs, repeat = run_case(art, "bhsd", q, k, v, do)
    worst = max(errs)
    if any(math.isnan(e) for e in errs):
        return math.nan, "NaN in a gradient (unwritten or bad)"
    if worst > TOL[art.dtype_name]:
        return worst, "tolerance (dQ, dK, dV " + ", ".join(f"{e:.2e}" for e in errs) + ")"
    if repeat is False:
        return worst, "deterministic runs differ"
    return worst, ""


def load_artifacts(directory):
    """{name: Artifact} of the sweep table's artifacts present in `directory`."""
    import sdpa_runtime
    found = {}
    for name in SWEEP:
        path = os.path.join(directory, name + ".manifest")
        if os.path.exists(path):
            found[name] = sdpa_runtime.Artifact(path)
    return found


def main(argv=None):
    args = parse_args(argv)
    start = time.time()
    os.makedirs(args.out, exist_ok=True)
    def left():
        return args.budget - (time.time() - start)

    cases = sweep_cases(args)
    anchors = set(a for a in args.anchors.split(",") if a)
    arts = load_artifacts(args.artifacts)
    print(f"{len(arts)} of {len(SWEEP)} sweep artifacts in {args.artifacts}")
    checks = {}  # name -> (error, problem)
    rows = []  # dicts: case, S, pass, impl, config, ms | error

    try:
        if not arts and not anchors:
            return 1
        import torch
        from triton.testing import do_bench
        from benchmark import flex_ms, make_flex, run_jax
        gen = torch.Generator(device="cuda").manual_seed(int(time.time()))
        for name, art in arts.items():
            case_name, kind, _ = SWEEP[name]
            if args.no_check or left() < 0:
                checks[name] = (math.nan, "unchecked" if args.no_check else "budget")
                continue
            try:
                checks[name] = check_artifact(art, kind, case_name, gen)
            except Exception as e:  # noqa: BLE001 - reported in the table
                checks[name] = (math.nan, f"{type(e).__name__}: {str(e)[:200]}")
            print(f"check {name}: {checks[name][0]:.2e} {checks[name][1] or 'ok'}",
                  flush=True)
        print(f"checks took {time.time() - start:.1f} s")

        if "jax" in anchors:
            for r in run_jax(cases, False, timeout=max(20.0, min(45.0, left() * 0.3))):
                rows.append({**r, "impl": "jax-cudnn", "config": ""})
        flex = make_flex() if "flex" in anchors else None

        for case in cases:
            measure_case(torch, do_bench, flex, flex_ms, case, arts, checks, rows, left)
            torch.cuda.empty_cache()
    finally:
        write_report(args, cases, arts, checks, rows, time.time() - start)
    failed = [n for n, (_, problem) in checks.items()
              if problem not in ("", "unchecked", "budget")]
    return 1 if failed or not arts else 0


def passed(checks, name):
    return name in checks and checks[name][1] in ("", "unchecked")


def measure_case(torch, do_bench, flex, flex_ms, case, arts, checks, rows, left):
    """Anchors (Flex) and every checked configuration of one case."""
    def timed(fn):
        return do_bench(fn, return_mode="median")

    base = {"case": case.name, "S": case.s}
    gen = torch.Generator(device="cuda").manual_seed(case.s)
    shape = (case.b, case.h, case.s, case.d)
    q, k, v, do = (torch.randn(shape, device="cuda", generator=gen).to(torch.bfloat16)
                   for _ in range(4))
    o = torch.empty_like(q)
    lse = torch.empty(case.b, case.h, case.s, device="cuda")

    def record(pass_, impl, config, fn):
        row = {**base, "pass": pass_, "impl": impl, "config": config}
        if left() < 0:
            row["error"] = "budget"
        else:
            try:
                row["ms"] = fn()
            except Exception as e:  # noqa: BLE001 - reported and go on
                row["error"] = f"{type(e).__name__}: {str(e)[:200]}"
        rows.append(row)
        print(f"{impl} {config} {case.name} S={case.s} {pass_}: "
              f"{row.get('ms', row.get('error'))}", flush=True)
        return row.get("ms")

    if flex is not None:
        for pass_ in ("fwd", "fwd+bwd"):
            record(pass_, "flex", "", lambda: flex_ms(do_bench, timed, flex, case, pass_,
                                                      q, k, v, do))

    mine = {kind: [n for n in arts if SWEEP[n][0] == case.name and SWEEP[n][1] == kind
                   and passed(checks, n)] for kind in KINDS}

    def fwd_ms(art):
        return timed(lambda: art.forward(q, k, v, out=o, lse=lse))

    def step_ms(fwd, bwd):
        def step():
            fwd.forward(q, k, v, out=o, lse=lse)
            bwd.backward(q, k, v, o, lse, do)
        return timed(step)

    fwd_times = {}
    for name in mine["fwd"]:
        fwd_times[name] = record("fwd", "ours", name, lambda: fwd_ms(arts[name]))
    fwd0 = DEFAULT[(case.name, "fwd")]
    if fwd0 not in mine["fwd"]:
        fwd0 = min((n for n in fwd_times if fwd_times[n]), key=fwd_times.get, default=None)
    if fwd0 is None:
        return
    best = {}
    for kind in ("bwd", "det"):
        times = {}
        for name in mine[kind]:
            times[name] = record("fwd+bwd", "ours" if kind == "bwd" else "ours-det",
                                 f"{fwd0} + {name}",
                                 lambda: step_ms(arts[fwd0], arts[name]))
        done = {n: t for n, t in times.items() if t}
        if done:
            best[kind] = min(done, key=done.get)
    done = {n: t for n, t in fwd_times.items() if t}
    if done and min(done, key=done.get) != fwd0:
        fbest = min(done, key=done.get)
        for kind, name in best.items():
            record("fwd+bwd", "ours" if kind == "bwd" else "ours-det", f"{fbest} + {name}",
                   lambda: step_ms(arts[fbest], arts[name]))


def write_report(args, cases, arts, checks, rows, elapsed):
    try:
        import torch
        device = (torch.cuda.get_device_name() if torch.cuda.is_available() else "none") + \
            f"; torch {torch.__version__}"
    except ImportError:
        device = "none; no torch"

    def anchor(case, pass_, impl):
        for r in rows:
            if (r["case"], r["S"], r["pass"], r["impl"]) == (case.name, case.s, pass_, impl) \
                    and "ms" in r:
                return r["ms"]
        return None

    lines = [f"# Configuration sweep {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             "",
             f"Device: {device}. Command: `{' '.join(sys.argv)}` ({elapsed:.0f} s). "
             f"{len(arts)} of {len(SWEEP)} artifacts of bench/sweep_configs.py found.",
             "",
             "## Correctness (one small case per artifact against float64)",
             "",
             "| artifact | case | kind | shape b, Hq/Hkv, S | max rel. error | result |",
             "|---|---|---|---|---|---|"]
    for name in SWEEP:
        case_name, kind, _ = SWEEP[name]
        b, hq, hkv, s = check_shape(case_name)
        if name not in arts:
            lines.append(f"| {name} | {case_name} | {kind} | | | not found |")
            continue
        err, problem = checks.get(name, (math.nan, "not run"))
        lines.append(f"| {name} | {case_name} | {kind} | {b}, {hq}/{hkv}, {s} | {err:.2e} | "
                     f"{problem or 'ok'} |")
    lines += ["", "## Times (median ms; ratio = ours / anchor, < 1: ours faster)", "",
              "| case | S | pass | impl | configuration | ms | TFLOP/s | ours/flex | ours/jax |",
              "|---|---|---|---|---|---|---|---|---|"]
    for case in cases:
        for pass_ in ("fwd", "fwd+bwd"):
            mine = [r for r in rows if (r["case"], r["S"], r["pass"]) ==
                    (case.name, case.s, pass_)]
            ordered = sorted(mine, key=lambda r: (r["impl"].startswith("ours"),
                                                  r.get("ms", math.inf)))
            for r in ordered:
                if "ms" not in r:
                    cell = "error: " + " ".join(str(r["error"]).split()).replace("|", "/")
                    lines.append(f"| {case.name} | {case.s} | {pass_} | {r['impl']} | "
                                 f"{r['config']} | {cell[:100]} | | | |")
                    continue
                ms = r["ms"]
                ratios = []
                for impl in ("flex", "jax-cudnn"):
                    a = anchor(case, pass_, impl)
                    ratios.append(f"{ms / a:.2f}" if a and r["impl"].startswith("ours")
                                  else "")
                tflops = case.flops(pass_) / (ms * 1e-3) / 1e12
                lines.append(f"| {case.name} | {case.s} | {pass_} | {r['impl']} | "
                             f"{r['config']} | {ms:.3f} | {tflops:.0f} | {ratios[0]} | "
                             f"{ratios[1]} |")
    lines += ["", "## Best per case and pass (checked configurations only)", ""]
    for case in cases:
        for pass_, impl in (("fwd", "ours"), ("fwd+bwd", "ours"), ("fwd+bwd", "ours-det")):
            done = [r for r in rows if (r["case"], r["S"], r["pass"], r["impl"]) ==
                    (case.name, case.s, pass_, impl) and "ms" in r]
            if not done:
                continue
            r = min(done, key=lambda r: r["ms"])
            lines.append(f"* {case.name} S={case.s} {pass_} {impl}: {r['config']} "
                         f"{r['ms']:.3f} ms")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "sweep.md"), "w") as f:
        f.write(text)
    with open(os.path.join(args.out, "sweep.json"), "w") as f:
        json.dump({"checks": {n: list(c) for n, c in checks.items()}, "results": rows}, f,
                  indent=1)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
