#!/usr/bin/env python3
"""Correctness and determinism sweep of backward artifacts.

Every *.manifest of direction backward in --artifacts is run over the shapes
its manifest admits (as check_forward.py): O and LSE come from the float64
reference (so no forward artifact is needed), dQ, dK, dV are compared with
the float64 gradients of docs/Semantics.md §2 (attention_ref.reference_grads)
as max |x - ref| / max |ref| (for dQ and dK at least 2^-12 of the gradients
formed from |dP| + |Delta|, attention_ref.rel); outputs are poisoned with NaN
first. A deterministic artifact is run twice per case and must be bitwise equal
(torch.equal). An artifact with a softcap (docs/Semantics.md §7) is compared
with the capped reference, whose dS carries the cap's derivative. An
artifact with sinks gets fresh sinks per case (+8, -8, far above, far below:
check_forward.fresh_sinks), LSE and O from the reference with sinks, and its
dsinks are compared with the float64 dsink too (bitwise in deterministic
runs as well); its bottom-right cases hold rows that see no key. Each case
is printed before it runs, so a relay deadlock shows
as the last line before the step's timeout. Writes check_backward.md to --out;
exits 1 on any failure.
"""

import argparse
import glob
import math
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
sys.path.insert(0, HERE)

from attention_ref import reference, reference_grads, rel  # noqa: E402
from check_forward import dense_cases, fresh_sinks, thd_cases, to_bhsd, from_bhsd  # noqa: E402

TOL = {"bf16": 5e-2, "f16": 1e-2}


def run_case(art, layout, q, k, v, do, cu_q=None, cu_kv=None, sinks=None):
    """([dq, dk, dv(, dsinks)] errors, bitwise repeatable or None) for one
    case; with `sinks` [Hq] the reference and the artifact take them."""
    dtype = q.dtype
    band = (art.left, art.right, art.align, art.scale)
    cap = {"softcap": getattr(art, "softcap", None), "sinks": sinks}
    if layout == "thd":
        segs = list(zip(cu_q.tolist()[:-1], cu_q.tolist()[1:],
                        cu_kv.tolist()[:-1], cu_kv.tolist()[1:]))
        o = torch.empty_like(q)
        lse = torch.empty(q.shape[1], q.shape[0], device="cuda")
        ref = [torch.zeros_like(t, dtype=torch.float64) for t in (q, k, v)]
        terms = [torch.zeros_like(t, dtype=torch.float64) for t in (q, k)]
        if sinks is not None:
            ref.append(torch.zeros(sinks.shape, dtype=torch.float64, device="cuda"))
        for a, b, c, d in segs:
            args = [to_bhsd(t, "thd") for t in (q[a:b], k[c:d], v[c:d])]
            o_ref, l_ref = reference(*args, *band, **cap)
            o[a:b] = o_ref[0].transpose(0, 1).to(dtype)
            lse[:, a:b] = l_ref[0].float()
        for a, b, c, d in segs:
            args = [to_bhsd(t, "thd") for t in (q[a:b], k[c:d], v[c:d], do[a:b])]
            sizes = []
            g = reference_grads(*args, *band, **cap, out=to_bhsd(o[a:b], "thd"),
                                terms=sizes)
            ref[0][a:b] = g[0][0].transpose(0, 1)
            ref[1][c:d] += g[1][0].transpose(0, 1)
            terms[0][a:b] = sizes[0][0].transpose(0, 1)
            terms[1][c:d] += sizes[1][0].transpose(0, 1)
            ref[2][c:d] += g[2][0].transpose(0, 1)
            if sinks is not None:
                ref[3] += g[3]
        kw = dict(cu_seqlens_q=cu_q.cuda(), cu_seqlens_kv=cu_kv.cuda())
    else:
        bq, bk, bv, bdo = (to_bhsd(t, layout) for t in (q, k, v, do))
        o_ref, l_ref = reference(bq, bk, bv, *band, **cap)
        o = from_bhsd(o_ref.to(dtype), layout).contiguous()
        lse = l_ref.float().contiguous()
        sizes = []
        g = reference_grads(bq, bk, bv, bdo, *band, **cap, out=to_bhsd(o, layout),
                            terms=sizes)
        ref = [from_bhsd(t, layout) for t in g[:3]] + list(g[3:])
        terms = [from_bhsd(t, layout) for t in sizes]
        kw = {}
    if sinks is not None:
        kw["sinks"] = sinks
    outs = []
    for _ in range(2 if art.deterministic else 1):
        grads = [torch.full_like(t, math.nan) for t in (q, k, v)]
        res = art.backward(q, k, v, o, lse, do, layout=layout, dq=grads[0], dk=grads[1],
                           dv=grads[2], **kw)
        torch.cuda.synchronize()
        outs.append(grads + list(res[3:]))
    # dQ and dK against at least a fraction of their terms' sizes
    # (attention_ref.CANCELLATION_FLOOR); dV and dsinks against max |ref|.
    errs = [rel(x, r, tm) for x, r, tm in zip(outs[0], ref, terms + [None, None])]
    repeat = None
    if art.deterministic:
        repeat = all(torch.equal(a, b) for a, b in zip(outs[0], outs[1]))
    return errs, repeat


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", default=".artifacts/kernels")
    p.add_argument("--out", default=os.environ.get("OUT", "bench/out"))
    p.add_argument("--quick", action="store_true", help="fewer lengths")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import sdpa_runtime
    gen = torch.Generator(device="cuda").manual_seed(int(time.time()))
    rows, failures = [], 0
    for path in sorted(glob.glob(os.path.join(args.artifacts, "*.manifest"))):
        art = sdpa_runtime.Artifact(path)
        if art.direction != "backward":
            continue
        name = os.path.basename(path) + (" (det)" if art.deterministic else "")
        dtype = art.torch_dtype
        d = art.head_dim

        def randn(*shape):
            return torch.randn(*shape, device="cuda", generator=gen).to(dtype)

        if art.varlen:
            cases = [("thd", lq, lk) for lq, lk in thd_cases(art.left)]
        else:
            cases = list(dense_cases(args.quick))
        for case in cases:
            print(f"{name}: {case}", flush=True)
            try:
                if case[0] == "thd":
                    _, lq, lk = case
                    cq = torch.tensor([0] + lq).cumsum(0).to(torch.int32)
                    ck = torch.tensor([0] + lk).cumsum(0).to(torch.int32)
                    q, do = randn(int(cq[-1]), 16, d), randn(int(cq[-1]), 16, d)
                    k, v = randn(int(ck[-1]), 4, d), randn(int(ck[-1]), 4, d)
                    sinks = fresh_sinks(16, gen) if art.sinks else None
                    errs, repeat = run_case(art, "thd", q, k, v, do, cq, ck, sinks)
                    shape = ("thd", len(lq), "16/4", ",".join(map(str, lq)),
                             ",".join(map(str, lk)))
                else:
                    layout, b, hq, hkv, sq, skv = case
                    shp = ((lambda h, s: (b, h, s, d)) if layout == "bhsd"
                           else (lambda h, s: (b, s, h, d)))
                    q, do = randn(*shp(hq, sq)), randn(*shp(hq, sq))
                    k, v = randn(*shp(hkv, skv)), randn(*shp(hkv, skv))
                    sinks = fresh_sinks(hq, gen) if art.sinks else None
                    errs, repeat = run_case(art, layout, q, k, v, do, sinks=sinks)
                    shape = (layout, b, f"{hq}/{hkv}", sq, skv)
                problem = ""
                if any(math.isnan(e) for e in errs):
                    problem = "NaN in a gradient (unwritten or bad)"
                elif any(e > TOL[art.dtype_name] for e in errs):
                    problem = "tolerance"
                elif repeat is False:
                    problem = "deterministic runs differ"
            except Exception as e:  # noqa: BLE001 - reported in the table
                errs, repeat, problem = ([math.nan] * (4 if art.sinks else 3), None,
                                         f"{type(e).__name__}: {e}")
                shape = (case[0], "", "", "", "")
            failures += bool(problem)
            errs = list(errs) + [math.nan] * (4 - len(errs))  # no dsinks: NaN, shown '-'
            rows.append((name, *shape, *errs,
                         "" if repeat is None else ("yes" if repeat else "NO"),
                         problem or "ok"))
            print(*rows[-1], sep="  ", flush=True)
        if rows:  # after every artifact, so that a timeout keeps what was done
            write_report(args, rows, failures)
    if not rows:
        print(f"no backward artifacts in {args.artifacts}")
        return 1
    print(write_report(args, rows, failures))
    return 1 if failures else 0


def fmt(err):
    return "-" if math.isnan(err) else f"{err:.2e}"


def write_report(args, rows, failures):
    text = (f"# Backward check {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n"
            f"Device: {torch.cuda.get_device_name()}; torch {torch.__version__}; command: "
            f"`{' '.join(sys.argv)}`.\nErrors are max|x - ref| / max|ref| against float64 (dQ, dK: "
            "at least 2^-12 of their terms' sizes, attention_ref.rel); "
            f"tolerance {TOL}. 'bitwise' = two runs torch.equal (deterministic only).\n\n"
            "| artifact | layout | B/segs | Hq/Hkv | s_q | s_kv | dQ err | dK err | dV err "
            "| dsinks err | bitwise | result |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            + "".join(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]:.2e} "
                      f"| {r[7]:.2e} | {r[8]:.2e} | {fmt(r[9])} | {r[10]} | {r[11]} |\n"
                      for r in rows)
            + f"\n{failures} failure(s) in {len(rows)} cases.\n")
    with open(os.path.join(args.out, "check_backward.md"), "w") as f:
        f.write(text)
    return text


if __name__ == "__main__":
    sys.exit(main())
