#!/usr/bin/env python3
"""GPU check of the backward kernels (convert-sdpa-grad-to-gpu).

For every <name>.manifest of direction backward under --artifacts, runs the
three kernels (PTX loaded with cupy.RawModule, launched in manifest order)
on fresh random inputs and compares dQ, dK, dV with a float64 PyTorch
reference written from SEMANTICS.md section 2 (dV = P^T dO, dP = dO V^T,
Delta = rowsum(dO * O), dS = P * (dP - Delta), dQ = scale dS K,
dK = scale dS^T Q; GQA sums dK, dV over the query heads of a kv head; rows
with no visible key give 0). Outputs and workspaces are poisoned first (NaN,
and 12345 in the relay counters, which the preprocessing kernel must zero).
A deterministic artifact runs twice per case and must be bitwise equal
(torch.equal); it must also agree with its non-deterministic twin (same
band, other mode) within rounding.

Every case runs in a worker process under a per-case timeout: a relay that
deadlocks shows up as a TIMEOUT line naming the case, never as a silently
missing one. Exit status 1 on any failure.

With --bench NAME[,NAME...], instead times the three kernels of the named
artifacts (median of 20 after 3 warm-ups, CUDA events) on the gpt-oss shape
b=2, h=16, d=64 at S = 2k, 8k, 32k, in a child process under the timeout.

Usage: check_backward.py --artifacts DIR [--timeout 60] [--out report.md]
       check_backward.py --artifacts DIR --bench w127_det,w127_nd
"""

import argparse
import json
import math
import os
import select
import subprocess
import sys
import time


def parse_manifest(path):
    info = {"kernels": []}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, *vals = line.split()
        if key == "kernel":
            info["kernels"].append({"name": vals[0], "role": vals[1], "params": []})
        elif key == "param":
            info["kernels"][-1]["params"].append((vals[0], vals[1]))
        elif key in ("block", "grid"):
            info["kernels"][-1][key] = vals
        elif key == "shared_bytes":
            info["kernels"][-1][key] = int(vals[0])
        else:
            info[key] = vals if len(vals) > 1 else vals[0]
    info["dir"] = os.path.dirname(path)
    return info


def band_of(info):
    left, right, align = info["band"]
    return (None if left == "inf" else int(left),
            None if right == "inf" else int(right), align)


# --------------------------------------------------------------------------
# Reference (float64), independent of the kernels.
# --------------------------------------------------------------------------

def visible_mask(torch, sq, skv, left, right, align, device):
    q = torch.arange(sq, device=device).view(-1, 1)
    k = torch.arange(skv, device=device).view(1, -1)
    anchor = q + (skv - sq if align == "bottom_right" else 0)
    mask = torch.ones(sq, skv, dtype=torch.bool, device=device)
    if left is not None:
        mask &= k >= anchor - left
    if right is not None:
        mask &= k <= anchor + right
    return mask


def reference(torch, q, k, v, do, band, scale):
    """q, do: [B, Hq, Sq, D]; k, v: [B, Hkv, Skv, D], float64."""
    left, right, align = band
    g = q.shape[1] // k.shape[1]
    kk = k.repeat_interleave(g, dim=1)
    vv = v.repeat_interleave(g, dim=1)
    mask = visible_mask(torch, q.shape[2], k.shape[2], left, right, align, q.device)
    s = scale * q @ kk.transpose(-1, -2)
    s = s.masked_fill(~mask, -math.inf)
    lse = torch.logsumexp(s, dim=-1)  # -inf for rows with no key
    p = torch.exp(s - lse.unsqueeze(-1).masked_fill(torch.isinf(lse).unsqueeze(-1), 0))
    p = p.masked_fill(~mask, 0.0)
    o = p @ vv
    dv = p.transpose(-1, -2) @ do
    dp = do @ vv.transpose(-1, -2)
    delta = (do * o).sum(-1, keepdim=True)
    ds = p * (dp - delta)
    dq = scale * ds @ kk
    dk = scale * ds.transpose(-1, -2) @ q
    b, hq, skv, d = dk.shape
    dk = dk.view(b, hq // g, g, skv, d).sum(2)
    dv = dv.view(b, hq // g, g, skv, d).sum(2)
    return o, lse, dq, dk, dv


# --------------------------------------------------------------------------
# Worker: runs cases, one JSON line per case.
# --------------------------------------------------------------------------

def run_backward(torch, cp, info, modules, t, layout):
    """Launches the three kernels; returns dq, dk, dv in bhsd."""
    launch, outputs = prepare_backward(torch, cp, info, modules, t, layout)
    launch()
    torch.cuda.synchronize()
    return outputs


def prepare_backward(torch, cp, info, modules, t, layout):
    """Allocates and poisons outputs and workspaces; returns (launch, (dq, dk, dv))."""
    dtype = torch.float16 if info["dtype"] == "f16" else torch.bfloat16
    b, hq, sq, d = t["q"].shape
    hkv, skv = t["k"].shape[1], t["k"].shape[2]
    tq, tk = int(info["tile_q"]), int(info["tile_kv"])

    def to_layout(x):  # bhsd -> layout tensor (a view with the layout's strides)
        x = x.to(dtype)
        if layout == "bshd":
            return x.transpose(1, 2).contiguous().transpose(1, 2)
        return x.contiguous()

    ten = {n: to_layout(t[n]) for n in ("q", "k", "v", "o", "do")}
    ten["lse"] = t["lse"].float().contiguous()
    nan = float("nan")
    ten["dq"] = to_layout(torch.full((b, hq, sq, d), nan, device="cuda"))
    ten["dk"] = to_layout(torch.full((b, hkv, skv, d), nan, device="cuda"))
    ten["dv"] = to_layout(torch.full((b, hkv, skv, d), nan, device="cuda"))
    ten["delta"] = torch.full((b, hq, sq), nan, device="cuda")
    ten["dq_accum"] = torch.full((b, hq, sq, d), nan, device="cuda")
    q_tiles, kv_tiles = -(-sq // tq), -(-skv // tk)
    ten["relay_counters"] = torch.full((b, hq, q_tiles), 12345, dtype=torch.int32,
                                       device="cuda")
    scalars = {"seq_q": sq, "seq_kv": skv, "heads_q": hq, "heads_kv": hkv, "batch": b}
    for name in ("q", "k", "v", "o", "do", "dq", "dk", "dv"):
        st = ten[name].stride()
        scalars[name + "_stride_b"], scalars[name + "_stride_h"], scalars[name + "_stride_s"] = st[0], st[1], st[2]
    scalars["lse_stride_b"], scalars["lse_stride_h"] = ten["lse"].stride()[0], ten["lse"].stride()[1]
    terms = {"q_tiles": q_tiles, "kv_tiles": kv_tiles, "heads_q": hq,
             "heads_kv": hkv, "batch": b, "1": 1}
    import numpy as np
    launches = []
    for kernel in info["kernels"]:
        args = []
        for name, ty in kernel["params"]:
            if ty == "ptr":
                args.append(np.uint64(ten[name].data_ptr()))
            elif ty == "i32":
                args.append(np.int32(scalars[name]))
            else:
                args.append(np.int64(scalars[name]))
        grid = tuple(terms[x] for x in kernel["grid"])
        block = tuple(int(x) for x in kernel["block"])
        launches.append((modules[kernel["name"]], grid, block, tuple(args),
                         kernel["shared_bytes"]))

    def launch():
        for fn, grid, block, args, shared in launches:
            fn(grid, block, args, shared_mem=shared)

    return launch, (ten["dq"], ten["dk"], ten["dv"])


def rel_err(x, ref):
    if x.numel() == 0:
        return 0.0
    if not bool(x.isfinite().all()):
        return math.nan
    scale = ref.abs().max().item() or 1.0
    return (x.double() - ref).abs().max().item() / scale


def worker(args):
    import cupy as cp
    import torch
    cases = json.loads(args.worker)
    loaded = {}
    for case in cases:
        info = parse_manifest(case["manifest"])
        key = case["manifest"]
        if key not in loaded:
            mod = cp.RawModule(path=os.path.join(info["dir"], info["ptx"]))
            fns = {}
            for kernel in info["kernels"]:
                fn = mod.get_function(kernel["name"])
                if kernel["shared_bytes"] > 48 * 1024:
                    fn.max_dynamic_shared_size_bytes = kernel["shared_bytes"]
                fns[kernel["name"]] = fn
            loaded[key] = fns
        torch.manual_seed(case["seed"])
        b, hq, hkv, sq, skv = case["shape"]
        d = int(info["head_dim"])
        dtype = torch.float16 if info["dtype"] == "f16" else torch.bfloat16
        rnd = lambda *s: torch.randn(*s, device="cuda", dtype=torch.float64).to(dtype).double()
        q, k, v = rnd(b, hq, sq, d), rnd(b, hkv, skv, d), rnd(b, hkv, skv, d)
        do = rnd(b, hq, sq, d)
        scale = float(info["scale"])
        o, lse, dq_ref, dk_ref, dv_ref = reference(torch, q, k, v, do, band_of(info), scale)
        inputs = {"q": q, "k": k, "v": v, "o": o, "do": do, "lse": lse}
        t0 = time.time()
        dq, dk, dv = run_backward(torch, cp, info, loaded[key], inputs, case["layout"])
        seconds = time.time() - t0
        res = {"id": case["id"], "dq": rel_err(dq, dq_ref), "dk": rel_err(dk, dk_ref),
               "dv": rel_err(dv, dv_ref), "seconds": seconds}
        if info["deterministic"] == "1":
            dq2, dk2, dv2 = run_backward(torch, cp, info, loaded[key], inputs, case["layout"])
            res["bitwise"] = bool(torch.equal(dq, dq2) and torch.equal(dk, dk2) and torch.equal(dv, dv2))
            twin = case.get("twin")
            if twin:
                tinfo = parse_manifest(twin)
                if twin not in loaded:
                    mod = cp.RawModule(path=os.path.join(tinfo["dir"], tinfo["ptx"]))
                    loaded[twin] = {kk["name"]: mod.get_function(kk["name"]) for kk in tinfo["kernels"]}
                    for kk in tinfo["kernels"]:
                        if kk["shared_bytes"] > 48 * 1024:
                            loaded[twin][kk["name"]].max_dynamic_shared_size_bytes = kk["shared_bytes"]
                ndq, ndk, ndv = run_backward(torch, cp, tinfo, loaded[twin], inputs, case["layout"])
                res["vs_nondet"] = max(rel_err(dq, ndq.double()), rel_err(dk, ndk.double()),
                                       rel_err(dv, ndv.double()))
        print(json.dumps(res), flush=True)


def bench(args):
    import cupy as cp
    import torch
    lines = ["| artifact | S | median ms |", "|---|---|---|"]
    for name in args.bench.split(","):
        info = parse_manifest(os.path.join(args.artifacts, name + ".manifest"))
        mod = cp.RawModule(path=os.path.join(info["dir"], info["ptx"]))
        fns = {}
        for kernel in info["kernels"]:
            fns[kernel["name"]] = mod.get_function(kernel["name"])
            if kernel["shared_bytes"] > 48 * 1024:
                fns[kernel["name"]].max_dynamic_shared_size_bytes = kernel["shared_bytes"]
        for s in (2048, 8192, 32768):
            b, h, d = 2, 16, int(info["head_dim"])
            t = {n: torch.randn(b, h, s, d, device="cuda", dtype=torch.float16)
                 for n in ("q", "k", "v", "o", "do")}
            t["lse"] = torch.randn(b, h, s, device="cuda").abs() + 5
            launch, _ = prepare_backward(torch, cp, info, fns, t, "bhsd")
            times = []
            for it in range(23):
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                launch()
                end.record()
                torch.cuda.synchronize()
                if it >= 3:
                    times.append(start.elapsed_time(end))
            times.sort()
            lines.append(f"| {name} | {s} | {times[len(times) // 2]:.3f} |")
            print(lines[-1], flush=True)
    print("\n".join(lines))


# --------------------------------------------------------------------------
# Driver: cases, per-case timeout, report.
# --------------------------------------------------------------------------

SHAPES = [  # (B, Hq, Hkv, Sq, Skv)
    (1, 1, 1, 1, 1), (2, 2, 2, 17, 17), (2, 4, 2, 128, 128), (1, 4, 1, 1000, 1000),
    (2, 2, 1, 300, 700), (2, 2, 1, 700, 300), (1, 2, 2, 4096, 4096),
]
TOL = {"f16": 1e-2, "bf16": 5e-2}


def build_cases(artifact_dir):
    manifests = sorted(os.path.join(artifact_dir, f) for f in os.listdir(artifact_dir)
                       if f.endswith(".manifest"))
    infos = {m: parse_manifest(m) for m in manifests}
    cases = []
    for m, info in infos.items():
        if info.get("direction") != "backward":
            continue
        twin = None
        for m2, i2 in infos.items():
            if (m2 != m and i2.get("band") == info["band"] and i2["deterministic"] != info["deterministic"]
                    and i2["head_dim"] == info["head_dim"] and i2["dtype"] == info["dtype"]):
                twin = m2
        for s, shape in enumerate(SHAPES):
            for layout in ("bhsd", "bshd"):
                if shape[3] >= 4096 and layout == "bshd":
                    continue
                cases.append({"id": len(cases), "manifest": m, "shape": shape, "layout": layout,
                              "seed": 1000 + len(cases),
                              "twin": twin if info["deterministic"] == "1" else None})
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--artifacts", default=".artifacts/bwd")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--out", default=None)
    ap.add_argument("--worker", default=None)
    ap.add_argument("--bench", default=None)
    ap.add_argument("--bench-child", action="store_true")
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    if args.bench and args.bench_child:
        return bench(args)
    if args.bench:
        try:
            return subprocess.run([sys.executable, __file__, "--artifacts", args.artifacts,
                                   "--bench", args.bench, "--bench-child"],
                                  timeout=args.timeout * 4).returncode
        except subprocess.TimeoutExpired:
            print(f"TIMEOUT: benchmark of {args.bench}")
            return 1

    cases = build_cases(args.artifacts)
    results, failures, pending = {}, 0, list(cases)
    while pending:
        proc = subprocess.Popen([sys.executable, __file__, "--worker", json.dumps(pending)],
                                stdout=subprocess.PIPE, text=True, bufsize=1)
        current = pending[0]
        deadline = time.time() + args.timeout + 60  # first case: imports, PTX JIT
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.time()))
            if not ready:
                proc.kill()
                results[current["id"]] = {"timeout": True}
                pending = pending[1:]
                break
            line = proc.stdout.readline()
            if not line:
                proc.wait()
                if pending and pending[0]["id"] not in results:
                    results[pending[0]["id"]] = {"crash": proc.returncode}
                    pending = pending[1:]
                break
            if not line.startswith("{"):
                continue
            res = json.loads(line)
            results[res["id"]] = res
            pending = [c for c in pending if c["id"] != res["id"]]
            if pending:
                current = pending[0]
            deadline = time.time() + args.timeout

    lines = ["| artifact | band | det | shape (B,Hq,Hkv,Sq,Skv) | layout | dQ | dK | dV | bitwise | vs non-det | ok |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for case in cases:
        info = parse_manifest(case["manifest"])
        res = results.get(case["id"], {"missing": True})
        tol = TOL[info["dtype"]]
        if "dq" in res:
            ok = all(res[x] == res[x] and res[x] <= tol for x in ("dq", "dk", "dv"))
            if info["deterministic"] == "1":
                ok = ok and res.get("bitwise", False)
                if "vs_nondet" in res:
                    ok = ok and res["vs_nondet"] <= tol
            cells = [f"{res['dq']:.2e}", f"{res['dk']:.2e}", f"{res['dv']:.2e}",
                     str(res.get("bitwise", "-")),
                     f"{res['vs_nondet']:.1e}" if "vs_nondet" in res else "-"]
        else:
            ok = False
            cells = ["TIMEOUT" if res.get("timeout") else f"FAILED {res}"] + [""] * 4
        failures += not ok
        lines.append(f"| {os.path.basename(case['manifest'])} | {' '.join(info['band'])} | "
                     f"{info['deterministic']} | {case['shape']} | {case['layout']} | "
                     + " | ".join(cells) + f" | {'ok' if ok else 'FAIL'} |")
    report = "\n".join(lines) + f"\n\n{len(cases) - failures}/{len(cases)} cases pass\n"
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
