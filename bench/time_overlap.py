#!/usr/bin/env python3
"""Whether the backward's bwd_main and bwd_dq run faster side by side.

The two kernels of a recomputed-dQ backward are independent once
bwd_preprocess has written Delta: bwd_main writes dK and dV, bwd_dq writes
dQ. The runtime launches them one after the other on the caller's stream.
This script launches each kernel by name (`Artifact.launch`) and times, on
one backward artifact (<artifacts>/<name>.manifest, bhsd, b 2, --heads
heads):

* `serial`: preprocess, bwd_main, bwd_dq on one stream (what the runtime
  does; `runtime` is the runtime's own sdpaBackward, for reference);
* `forked`: preprocess, then bwd_main on the stream and bwd_dq on a second
  one that waits on an event after preprocess, joined back;
* `forked_dq_first`: the same, bwd_dq launched first.

Each variant's dQ, dK and dV must equal the serial run's bit for bit
(the kernels use no atomics); a variant that differs is reported and not
timed. Median of --iters runs after warm-ups, CUDA events on the caller's
stream, --rounds rounds alternating the variants.

usage: time_overlap.py --artifacts DIR NAME [--sizes 16384,32768]
"""

import argparse
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
sys.path.insert(0, HERE)

import sdpa_runtime  # noqa: E402
from time_kernels import median, median_ms  # noqa: E402


def manifest_kernels(path):
    """[(kernel name, role, [(param name, type)])] in manifest order."""
    kernels = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words[:1] == ["kernel"]:
                kernels.append((words[1], words[2], []))
            elif words[:1] == ["param"] and kernels:
                kernels[-1][2].append((words[1], words[2]))
    return kernels


class Problem:
    """Random bhsd inputs of one backward and the values of every param."""

    def __init__(self, art, s, heads):
        dtype = art.torch_dtype
        shape = (2, heads, s, art.head_dim)
        self.q, self.k, self.v, self.o, self.do = (
            torch.randn(shape, device="cuda", dtype=dtype) for _ in range(5))
        # LSE = |randn| + 5 keeps P finite (as time_kernels.py).
        self.lse = torch.randn(shape[:3], device="cuda").abs() + 5
        self.delta = torch.empty(shape[:3], device="cuda")
        self.dq, self.dk, self.dv = (torch.empty_like(t) for t in (self.q, self.k, self.v))
        tensors = {"q": self.q, "k": self.k, "v": self.v, "o": self.o, "do": self.do,
                   "lse": self.lse, "delta": self.delta, "dq": self.dq, "dk": self.dk,
                   "dv": self.dv}
        self.values = {"seq_q": ("i32", s), "seq_kv": ("i32", s),
                       "heads_q": ("i32", heads), "heads_kv": ("i32", heads)}
        for name, t in tensors.items():
            self.values[name] = ("ptr", t)
            for axis, letter in enumerate("bhs"):
                if axis < t.dim() - (0 if name in ("lse", "delta") else 1):
                    self.values[f"{name}_stride_{letter}"] = ("i64", t.stride(axis))
        self.grid = {"q_tiles": math.ceil(s / art.tile_q),
                     "kv_tiles": math.ceil(s / art.tile_kv),
                     "heads_q": heads, "heads_kv": heads, "batch": 2,
                     "total_rows": 2 * heads * s}

    def params(self, kernel_params):
        missing = [n for n, _ in kernel_params if n not in self.values]
        if missing:
            raise SystemExit(f"no value for params {missing}")
        return {n: self.values[n] for n, _ in kernel_params}


def variants(art, kernels, p):
    """{variant: a function launching the whole backward}."""
    by_role = {role: (name, p.params(params)) for name, role, params in kernels}
    for role in ("bwd_preprocess", "bwd_main", "bwd_dq"):
        if role not in by_role:
            raise SystemExit(f"{art.path}: no {role} kernel (a recomputed-dQ backward needed)")
    side = torch.cuda.Stream()

    def launch(role, stream):
        name, values = by_role[role]
        art.launch(name, values, p.grid, stream=stream)

    def serial():
        main = torch.cuda.current_stream()
        for role in ("bwd_preprocess", "bwd_main", "bwd_dq"):
            launch(role, main)

    def forked(first, second):
        def run():
            main = torch.cuda.current_stream()
            launch("bwd_preprocess", main)
            side.wait_stream(main)
            for role in (first, second):
                launch(role, side if role == "bwd_dq" else main)
            main.wait_stream(side)
        return run

    def runtime():
        art.backward(p.q, p.k, p.v, p.o, p.lse, p.do, dq=p.dq, dk=p.dk, dv=p.dv)

    return {"serial": serial, "forked": forked("bwd_main", "bwd_dq"),
            "forked_dq_first": forked("bwd_dq", "bwd_main"), "runtime": runtime}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("name")
    ap.add_argument("--sizes", default="16384,32768")
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    path = os.path.join(args.artifacts, args.name + ".manifest")
    art = sdpa_runtime.Artifact(path)
    kernels = manifest_kernels(path)
    print(f"{args.name}: b 2, h {args.heads}, d {art.head_dim}, {torch.cuda.get_device_name()}")
    for s in map(int, args.sizes.split(",")):
        p = Problem(art, s, args.heads)
        runs = variants(art, kernels, p)
        runs["serial"]()
        torch.cuda.synchronize()
        reference = [t.clone() for t in (p.dq, p.dk, p.dv)]
        exact = {}
        for name, fn in runs.items():
            for t in (p.dq, p.dk, p.dv):
                t.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            exact[name] = all(torch.equal(a, b) for a, b in
                              zip((p.dq, p.dk, p.dv), reference))
        times = {name: [] for name in runs if exact[name]}
        for _ in range(args.rounds):
            for name in times:
                times[name].append(median_ms(runs[name], args.iters))
        base = median(times["serial"])
        for name in runs:
            if not exact[name]:
                print(f"S {s:6d} {name:16s} differs from serial: not timed")
                continue
            ms = median(times[name])
            rounds = " ".join(f"{t:.3f}" for t in times[name])
            print(f"S {s:6d} {name:16s} {ms:.3f} ms ({ms / base:.3f}x serial; rounds {rounds})")


if __name__ == "__main__":
    main()
