#!/usr/bin/env python3
"""context_parallel_attention over torch.distributed (gloo, 3 processes of
torch.multiprocessing): TorchDistributedTransport's batch_isend_irecv path,
forward and backward equal to the unsharded computation for a causal window,
a bottom-right band with Sq != Skv and uneven chunks, and GQA. Needs torch.
"""

import os
import sys
import tempfile
import unittest

from _distributed_common import max_errors, random_problem, run_rank, torch

import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

from sdpa.distributed import Band, TorchDistributedTransport  # noqa: E402

RANKS = 3


def problems():
    torch.manual_seed(3)
    window = dict(band=Band(5, 0), ranks=RANKS, b=1, hq=4, hkv=2, d=8,
                  q_lengths=[12, 12, 12], kv_lengths=[12, 12, 12])
    br = dict(band=Band(4, 2, "bottom_right"), ranks=RANKS, b=2, hq=2, hkv=1, d=4,
              q_lengths=[7, 0, 9], kv_lengths=[10, 6, 3])
    out = []
    for p in (window, br):
        sq, skv = sum(p["q_lengths"]), sum(p["kv_lengths"])
        p["q"] = torch.randn(p["b"], p["hq"], sq, p["d"], dtype=torch.float64)
        p["k"] = torch.randn(p["b"], p["hkv"], skv, p["d"], dtype=torch.float64)
        p["v"] = torch.randn(p["b"], p["hkv"], skv, p["d"], dtype=torch.float64)
        p["do"] = torch.randn(p["b"], p["hq"], sq, p["d"], dtype=torch.float64)
        out.append(p)
    # One random problem with 3 ranks, for variety.
    seed = next(s for s in range(100) if random_problem(s)["ranks"] == RANKS)
    out.append(random_problem(seed))
    return out


def worker(rank, init, results):
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=RANKS)
    try:
        transport = TorchDistributedTransport()
        for i, p in enumerate(problems()):
            for overlap in (True, False):
                results[(i, overlap, rank)] = run_rank(p, transport, overlap)
        dist.barrier()
    finally:
        dist.destroy_process_group()


class GlooTest(unittest.TestCase):
    def test_three_processes_equal_unsharded(self):
        with tempfile.TemporaryDirectory() as tmp:
            init = "file://" + os.path.join(tmp, "store")
            with mp.Manager() as manager:
                results = manager.dict()
                mp.spawn(worker, args=(init, results), nprocs=RANKS, join=True)
                results = dict(results)
        for i, p in enumerate(problems()):
            for overlap in (True, False):
                chunks = [results[(i, overlap, r)] for r in range(RANKS)]
                errs = max_errors(p, chunks)
                self.assertLess(max(errs), 1e-10,
                                f"problem {i} overlap={overlap} {p['band']}: {errs}")


if __name__ == "__main__":
    sys.exit(unittest.main())
