#!/usr/bin/env python3
"""Kernel times of artifacts through the runtime, for quick A/B runs.

Times each named artifact (<artifacts>/<name>.manifest) in the direction its
manifest says: forward (O, LSE) or backward (dQ, dK, dV, with the runtime's
workspaces). Shape: b=2, Hq=Hkv=--heads, bhsd, head_dim from the manifest,
random inputs in the artifact's dtype (for the backward, O and dO random and
LSE = |randn| + 5, which keeps P finite). Median of --iters runs after 3
warm-ups, CUDA events around the runtime call (so the times include what
the runtime does on the host per call: about 0.03-0.09 ms more than the
kernels alone on an H200). No correctness check: that is
check_forward.py / check_backward.py. The full comparison with the anchors
is benchmark.py.

With --baseline DIR[,DIR...], each name is timed from every baseline folder
and --artifacts, alternating, --rounds times, and a row gives every round's
time of each (an A/B of a change: the spread between rounds is the noise
the difference must pass). A folder without a name's manifest shows "-"
for it: an A/B folder may hold only the artifacts its change touches.

usage: time_kernels.py --artifacts DIR NAME[,NAME...] [--sizes 2048,8192,32768]
                       [--baseline DIR[,DIR...] [--rounds 3]]
"""

import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))

import sdpa_runtime  # noqa: E402


def median_ms(fn, iters):
    for _ in range(3):
        fn()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return median(times)


def median(values):
    """The middle value (the upper of the two middle ones of an even count)."""
    return sorted(values)[len(values) // 2]


def time_artifact(art, s, heads, iters):
    dtype = art.torch_dtype
    shape = (2, heads, s, art.head_dim)
    q, k, v, o, do = (torch.randn(shape, device="cuda", dtype=dtype) for _ in range(5))
    # An artifact compiled with sinks takes their logits (f32 [Hq]).
    sinks = torch.randn(heads, device="cuda") if art.sinks else None
    if art.direction == "forward":
        out, lse = art.forward(q, k, v, sinks=sinks)
        return median_ms(lambda: art.forward(q, k, v, out=out, lse=lse, sinks=sinks),
                         iters)
    lse = torch.randn(shape[:3], device="cuda").abs() + 5
    grads = [torch.empty_like(t) for t in (q, k, v)]
    return median_ms(lambda: art.backward(q, k, v, o, lse, do, dq=grads[0],
                                          dk=grads[1], dv=grads[2], sinks=sinks),
                     iters)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", required=True)
    p.add_argument("names", help="comma list of artifact names")
    p.add_argument("--sizes", default="2048,8192,32768")
    p.add_argument("--heads", type=int, default=16)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--baseline",
                   help="folders (comma list) of the same names to time against")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    if args.baseline:
        return compare(args)
    print("| artifact | direction | S | median ms |")
    print("|---|---|---|---|")
    for name in args.names.split(","):
        art = sdpa_runtime.Artifact(os.path.join(args.artifacts, name + ".manifest"))
        for s in (int(x) for x in args.sizes.split(",")):
            ms = time_artifact(art, s, args.heads, args.iters)
            print(f"| {name} | {art.direction} | {s} | {ms:.3f} |", flush=True)
    return 0


def compare(args):
    """Rounds of (baselines..., artifacts) times per name and size."""
    dirs = args.baseline.split(",") + [args.artifacts]
    print(f"sides: {', '.join(dirs)} (the last is this); ms per round")
    head = " | ".join(f"side {i}" for i in range(len(dirs)))
    print(f"| artifact | S | {head} | this / side 0 (medians) |")
    print("|---|---|" + "---|" * len(dirs) + "---|")
    for name in args.names.split(","):
        # A side without the name (an A/B folder holds only what it changes)
        # shows "-" and is not timed.
        paths = [os.path.join(d, name + ".manifest") for d in dirs]
        arts = [sdpa_runtime.Artifact(p) if os.path.exists(p) else None
                for p in paths]
        for s in (int(x) for x in args.sizes.split(",")):
            times = [[] for _ in dirs]
            for _ in range(args.rounds):
                for side, art in enumerate(arts):
                    if art is not None:
                        times[side].append(time_artifact(art, s, args.heads, args.iters))
            cells = " | ".join(" ".join(f"{x:.3f}" for x in t) or "-" for t in times)
            ratio = (f"{median(times[-1]) / median(times[0]):.3f}"
                     if times[0] and times[-1] else "-")
            print(f"| {name} | {s} | {cells} | {ratio} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
