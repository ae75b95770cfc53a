#!/usr/bin/env python3
"""Runs every artifact once on a small shape, for compute-sanitizer.

    compute-sanitizer --tool memcheck  python3 bench/sanitize_small.py DIR...
    compute-sanitizer --tool racecheck python3 bench/sanitize_small.py DIR...

Forward artifacts: a dense case (s_q != s_kv, lengths the tiles do not
divide, GQA) or a THD case (an empty segment, one longer than a tile).
Backward artifacts (every dQ mode): the same shapes; artifacts with sinks
get random sink logits. No results are checked
here (check_forward.py / check_backward.py do that); the sanitizer's report
is the result. bench/run_gpu.sh's `sanitize` step wraps it.
"""

import glob
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "runtime", "python"))
import sdpa_runtime  # noqa: E402


def run(path):
    art = sdpa_runtime.Artifact(path)
    dtype = art.torch_dtype
    d = art.head_dim
    if art.varlen:
        lens_q, lens_kv = [3, 0, 150, 1], [70, 5, 200, 0]
        cu_q = torch.tensor([0] + lens_q).cumsum(0).to(torch.int32).cuda()
        cu_kv = torch.tensor([0] + lens_kv).cumsum(0).to(torch.int32).cuda()
        q = torch.randn(int(cu_q[-1]), 4, d, device="cuda").to(dtype)
        k = torch.randn(int(cu_kv[-1]), 2, d, device="cuda").to(dtype)
        kw = dict(layout="thd", cu_seqlens_q=cu_q, cu_seqlens_kv=cu_kv)
        lse = torch.randn(4, q.shape[0], device="cuda")
    else:
        q = torch.randn(1, 4, 130, d, device="cuda").to(dtype)
        k = torch.randn(1, 2, 200, d, device="cuda").to(dtype)
        kw = dict(layout="bhsd")
        lse = torch.randn(1, 4, 130, device="cuda")
    v = torch.randn_like(k)
    if art.sinks:  # one f32 sink logit per query head (docs/Semantics.md §7)
        kw["sinks"] = torch.randn(4, device="cuda")
    if art.direction == "forward":
        art.forward(q, k, v, **kw)
    else:
        o, do = torch.randn_like(q), torch.randn_like(q)
        art.backward(q, k, v, o, lse, do, **kw)
    torch.cuda.synchronize()
    print(f"ran {os.path.basename(path)} ({art.direction}"
          f"{', deterministic' if art.deterministic else ''})", flush=True)


if __name__ == "__main__":
    for directory in sys.argv[1:]:
        for path in sorted(glob.glob(os.path.join(directory, "*.manifest"))):
            if os.path.basename(path).startswith("probe"):
                continue  # its parameters are not a forward's
            run(path)
