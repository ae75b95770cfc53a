#!/usr/bin/env python3
"""GPU check of the SM80 forward kernel against a float64 PyTorch reference.

Two steps, because the GPU machine has no MLIR:

  check_forward.py gen --sdpa-opt build/bin/sdpa-opt --out .artifacts/kernel
      compiles one artifact (PTX + manifest, docs/Artifact.md) per
      configuration in CONFIGS with sdpa-forward-pipeline;

  check_forward.py run --dir .artifacts/kernel [--bench]
      (on the GPU) loads each PTX with CuPy, runs it on fresh random inputs
      with poisoned (NaN-filled) outputs over many shapes (s_q != s_kv, both
      layouts through strides, GQA, lengths that the tiles do not divide),
      compares O and LSE with a float64 reference, and prints a table. With
      --bench it also times the gpt-oss case (b=2, h=16, d=64, bf16, causal
      window of 128 keys) at S = 2k..32k.

Exit status 1 if any case fails.
"""
import argparse
import math
import os
import subprocess
import sys

# name: (dtype, head_dim, left, right, align)
CONFIGS = {
    "f16_d64_full": ("f16", 64, None, None, "top_left"),
    "bf16_d64_causal": ("bf16", 64, None, 0, "top_left"),
    "bf16_d64_win127": ("bf16", 64, 127, 0, "top_left"),
    "f16_d64_diag": ("f16", 64, 0, 0, "top_left"),
    "f16_d64_local16_br": ("f16", 64, 16, 16, "bottom_right"),
    "f16_d128_causal_br": ("f16", 128, None, 0, "bottom_right"),
    "bf16_d128_win127_br": ("bf16", 128, 127, 0, "bottom_right"),
    "bf16_d128_left32": ("bf16", 128, 32, None, "top_left"),
}


def edge(value):
    return "inf" if value is None else str(value)


def gen(args):
    os.makedirs(args.out, exist_ok=True)
    failures = 0
    for name, (dtype, d, left, right, align) in CONFIGS.items():
        t = f"tensor<1x1x?x{d}x{dtype}>"
        src = (
            f"func.func @{name}(%q: {t}, %k: {t}, %v: {t}) -> ({t}, tensor<1x1x?xf32>) {{\n"
            f"  %o, %lse = sdpa.attention %q, %k, %v {{mask = #sdpa.band<left = {edge(left)}, "
            f"right = {edge(right)}, align = {align}>}} : {t}, {t}, {t} -> {t}, tensor<1x1x?xf32>\n"
            f"  return %o, %lse : {t}, tensor<1x1x?xf32>\n}}\n")
        opts = (f"tile-q={args.tile_q} tile-kv={args.tile_kv} warps={args.warps} "
                f"artifact-dir={args.out} artifact-name={name}")
        if args.only and name not in args.only.split(","):
            continue
        res = subprocess.run([args.sdpa_opt, f"--sdpa-forward-pipeline={opts}", "-o", os.devnull],
                             input=src, text=True)
        if res.returncode != 0:
            print("FAILED to compile", name)
            failures += 1
            continue
        print("wrote", os.path.join(args.out, name + ".ptx"))
    return 1 if failures else 0


def read_manifest(path):
    info = {"params": []}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, *vals = line.split(" ")
            if key == "param":
                info["params"].append((vals[0], vals[1]))
            else:
                info[key] = vals
    return info


def reference(q, k, v, scale, left, right, align):
    """float64 O and LSE; q [B,Hq,Sq,D], k/v [B,Hkv,Skv,D]."""
    import torch
    B, Hq, Sq, D = q.shape
    Hkv, Skv = k.shape[1], k.shape[2]
    g = Hq // Hkv
    k = k.repeat_interleave(g, dim=1).double()
    v = v.repeat_interleave(g, dim=1).double()
    s = torch.matmul(q.double(), k.transpose(-1, -2)) * scale
    qi = torch.arange(Sq, device=q.device).view(-1, 1)
    ki = torch.arange(Skv, device=q.device).view(1, -1)
    anchor = qi + (Skv - Sq if align == "bottom_right" else 0)
    vis = torch.ones(Sq, Skv, dtype=torch.bool, device=q.device)
    if left is not None:
        vis &= ki >= anchor - left
    if right is not None:
        vis &= ki <= anchor + right
    s = s.masked_fill(~vis, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse.unsqueeze(-1))
    p = torch.nan_to_num(p, nan=0.0)
    o = torch.matmul(p, v)
    return o, lse


class Kernel:
    def __init__(self, directory, name):
        import cupy
        self.info = read_manifest(os.path.join(directory, name + ".manifest"))
        self.module = cupy.RawModule(path=os.path.join(directory, self.info["ptx"][0]))
        self.func = self.module.get_function(self.info["kernel"][0])
        self.shared = int(self.info["shared_bytes"][0])
        if self.shared > 48 * 1024:
            self.func.max_dynamic_shared_size_bytes = self.shared
        self.block = tuple(int(x) for x in self.info["block"])
        self.tile_q = int(self.info["tile_q"][0])

    def __call__(self, q, k, v, o, lse):
        """q/k/v/o are [B,H,S,D] views (any strides, head_dim contiguous)."""
        import cupy
        import numpy as np
        B, Hq, Sq, D = q.shape
        Hkv, Skv = k.shape[1], k.shape[2]
        tensors = {"q": q, "k": k, "v": v, "o": o, "lse": lse}
        vals = {"seq_q": Sq, "seq_kv": Skv, "heads_q": Hq, "heads_kv": Hkv}
        for t in "qkvo":
            st = tensors[t].stride()
            vals[f"{t}_stride_b"], vals[f"{t}_stride_h"], vals[f"{t}_stride_s"] = st[0], st[1], st[2]
        vals["lse_stride_b"], vals["lse_stride_h"] = lse.stride()[0], lse.stride()[1]
        args = []
        for name, kind in self.info["params"]:
            if kind == "ptr":
                args.append(cupy.uint64(tensors[name].data_ptr()))
            elif kind == "i32":
                args.append(np.int32(vals[name]))
            else:
                args.append(np.int64(vals[name]))
        grid = ((Sq + self.tile_q - 1) // self.tile_q, Hq, B)
        if grid[0] == 0:
            return
        self.func(grid, self.block, tuple(args), shared_mem=self.shared)


def make_inputs(B, Hq, Hkv, Sq, Skv, D, dtype, layout, gen):
    import torch
    def t(H, S):
        if layout == "bshd":
            x = torch.randn(B, S, H, D, generator=gen, device="cuda", dtype=torch.float32)
            return x.to(dtype).transpose(1, 2)
        return torch.randn(B, H, S, D, generator=gen, device="cuda", dtype=torch.float32).to(dtype)
    q, k, v = t(Hq, Sq), t(Hkv, Skv), t(Hkv, Skv)
    o = torch.full_like(q, float("nan"))
    lse = torch.full((B, Hq, Sq), float("nan"), device="cuda", dtype=torch.float32)
    return q, k, v, o, lse


def run(args):
    import torch
    names = sorted(n[:-9] for n in os.listdir(args.dir) if n.endswith(".manifest"))
    shapes = [  # (B, Hq, Hkv, Sq, Skv, layout)
        (1, 2, 2, 1, 1, "bhsd"), (1, 2, 1, 17, 17, "bshd"), (2, 4, 4, 128, 128, "bhsd"),
        (1, 2, 2, 17, 300, "bhsd"), (1, 2, 2, 300, 17, "bshd"), (2, 16, 4, 1000, 1000, "bshd"),
        (1, 2, 1, 128, 1000, "bhsd"), (1, 2, 2, 1000, 128, "bhsd"), (1, 1, 1, 4096, 4096, "bhsd"),
        (1, 4, 2, 1000, 4096, "bshd"), (1, 4, 4, 4096, 1000, "bhsd"), (1, 2, 2, 63, 65, "bhsd"),
    ]
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1234)
    failures = 0
    rows = []
    for name in names:
        kern = Kernel(args.dir, name)
        info = kern.info
        dtype = torch.bfloat16 if info["dtype"][0] == "bf16" else torch.float16
        D = int(info["head_dim"][0])
        left = None if info["band"][0] == "inf" else int(info["band"][0])
        right = None if info["band"][1] == "inf" else int(info["band"][1])
        align = info["band"][2]
        scale = float(info["scale"][0])
        worst_o = worst_l = 0.0
        for (B, Hq, Hkv, Sq, Skv, layout) in shapes:
            q, k, v, o, lse = make_inputs(B, Hq, Hkv, Sq, Skv, D, dtype, layout, gen)
            kern(q, k, v, o, lse)
            torch.cuda.synchronize()
            ro, rl = reference(q, k, v, scale, left, right, align)
            empty = torch.isinf(rl)
            bad = []
            if torch.isnan(o).any() or torch.isnan(lse).any():
                bad.append("nan")
            if not torch.equal(torch.isinf(lse) & (lse < 0), empty):
                bad.append("lse-inf-mismatch")
            if empty.any() and o.double()[empty].abs().max().item() != 0.0:
                bad.append("empty-row-O-nonzero")
            err_o = ((o.double() - ro).abs().max() / max(ro.abs().max().item(), 1e-6)).item()
            fin = ~empty
            err_l = (lse.double()[fin] - rl[fin]).abs().max().item() if fin.any() else 0.0
            tol_o = 2e-2 if dtype == torch.bfloat16 else 4e-3
            if not (err_o <= tol_o) or not (err_l <= 2e-3):
                bad.append(f"err o={err_o:.2e} lse={err_l:.2e}")
            worst_o, worst_l = max(worst_o, err_o), max(worst_l, err_l)
            if bad:
                failures += 1
                print(f"FAIL {name} B={B} Hq={Hq} Hkv={Hkv} Sq={Sq} Skv={Skv} {layout}: {', '.join(bad)}")
        rows.append((name, worst_o, worst_l))
    print("| artifact | max rel err O | max abs err LSE |")
    print("|---|---|---|")
    for name, eo, el in rows:
        print(f"| {name} | {eo:.2e} | {el:.2e} |")
    if args.bench:
        bench(args)
    print("FAILURES", failures)
    return 1 if failures else 0


def bench(args):
    import torch
    name = args.bench_artifact
    kern = Kernel(args.dir, name)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)
    print("| S | ms (median) | TFLOP/s visible |")
    print("|---|---|---|")
    for S in (2048, 4096, 8192, 16384, 32768):
        q, k, v, o, lse = make_inputs(2, 16, 16, S, S, 64, torch.bfloat16, "bhsd", gen)
        for _ in range(5):
            kern(q, k, v, o, lse)
        torch.cuda.synchronize()
        times = []
        for _ in range(30):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            kern(q, k, v, o, lse)
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b))
        ms = sorted(times)[len(times) // 2]
        visible = sum(min(i + 1, 128) for i in range(S))
        flops = 4 * 2 * 16 * visible * 64
        print(f"| {S} | {ms:.4f} | {flops / ms / 1e9:.1f} |")


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--sdpa-opt", required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--tile-q", type=int, default=64)
    g.add_argument("--tile-kv", type=int, default=64)
    g.add_argument("--warps", type=int, default=4)
    g.add_argument("--only", default="", help="comma-separated config names")
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--bench", action="store_true")
    r.add_argument("--bench-artifact", default="bf16_d64_win127")
    a = p.parse_args()
    return gen(a) if a.cmd == "gen" else run(a)


if __name__ == "__main__":
    sys.exit(main())
