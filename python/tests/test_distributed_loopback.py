#!/usr/bin/env python3
"""context_parallel_attention with every rank a thread of this process
(LoopbackGroup): forward and backward equal to the unsharded computation
(float64, to 1e-10) over random bands (both alignments, unbounded edges,
Sq != Skv), uneven and empty chunks, GQA, both layouts and both modes; the
bytes moved are the halo's; bad arguments fail with messages naming them.
Needs torch.
"""

import unittest

from _distributed_common import max_errors, random_problem, run_rank, torch

from sdpa.distributed import (Band, HaloPlan, LoopbackGroup,  # noqa: E402
                              RuntimeAttention, context_parallel_attention)


def run_all(p, overlap, layout="bhsd"):
    return LoopbackGroup(p["ranks"], timeout=60).run(
        lambda transport: run_rank(p, transport, overlap, layout))


class LoopbackTest(unittest.TestCase):
    def test_random_problems_equal_unsharded(self):
        with_halo = 0
        for seed in range(60):
            p = random_problem(seed)
            for overlap in (True, False):
                layout = "bshd" if seed % 3 == 0 else "bhsd"
                chunks, transports = run_all(p, overlap, layout)
                errs = max_errors(p, chunks)
                self.assertLess(max(errs), 1e-10,
                                f"seed {seed} overlap={overlap} {p['band']} q={p['q_lengths']} "
                                f"kv={p['kv_lengths']} hq={p['hq']} hkv={p['hkv']}: "
                                f"O, dQ, dK, dV errors {errs}")
                # Forward halo + backward return: each halo key's K and V
                # out, its dK and dV back.
                plan = HaloPlan(p["band"], p["q_lengths"], p["kv_lengths"])
                per_key = 2 * p["b"] * p["hkv"] * p["d"] * 8
                for r, t in enumerate(transports):
                    sent = sum(e - a for _, (a, e) in plan.send[r])
                    back = plan.halo_keys(r)
                    self.assertEqual(t.bytes_sent, (sent + back) * per_key, f"seed {seed}")
                with_halo += any(plan.halo_keys(r) for r in range(p["ranks"]))
        # Most random problems exchange something (else the test shows little).
        self.assertGreater(with_halo, 50)

    def test_window_chunks_move_only_the_halo(self):
        # 4 ranks x 16 rows, causal window of 4 keys: ranks 1..3 each receive
        # the 3 keys before their chunk, and no rank receives more.
        torch.manual_seed(0)
        p = dict(band=Band(3, 0), ranks=4, q_lengths=[16] * 4, kv_lengths=[16] * 4,
                 q=torch.randn(1, 2, 64, 8, dtype=torch.float64),
                 k=torch.randn(1, 2, 64, 8, dtype=torch.float64),
                 v=torch.randn(1, 2, 64, 8, dtype=torch.float64),
                 do=torch.randn(1, 2, 64, 8, dtype=torch.float64))
        plan = HaloPlan(p["band"], p["q_lengths"], p["kv_lengths"])
        self.assertEqual([plan.halo_keys(r) for r in range(4)], [0, 3, 3, 3])
        self.assertEqual([plan.allgather_keys(r) for r in range(4)], [48] * 4)
        chunks, transports = run_all(p, True)
        self.assertLess(max(max_errors(p, chunks)), 1e-10)
        per_key = 2 * 1 * 2 * 8 * 8
        self.assertEqual([t.bytes_sent for t in transports],
                         [3 * per_key, 6 * per_key, 6 * per_key, 3 * per_key])

    def test_errors(self):
        t = LoopbackGroup(2).transport(0)
        q = torch.zeros(1, 2, 4, 8)
        k = torch.zeros(1, 2, 4, 8)
        cases = [
            (dict(cu_seqlens_q=torch.zeros(2, dtype=torch.int32)),
             "cu_seqlens_q, cu_seqlens_kv: packed (thd) sequences are not supported by "
             "context parallelism; shard dense sequences (docs/ContextParallel.md)"),
            (dict(layout="thd"), "layout: expected bhsd or bshd, got 'thd'"),
            (dict(q_lengths=[4, 4, 4]), "q_lengths: expected one length per rank (2), got 3"),
            (dict(kv_lengths=[3, 4]),
             "kv_lengths: rank 0 holds 4 keys, but kv_lengths[0] is 3"),
            (dict(left=-3), "left: expected None (unbounded) or an integer >= 0, got -3"),
        ]
        for kwargs, message in cases:
            with self.assertRaises(ValueError) as cm:
                context_parallel_attention(q, k, k, t, **kwargs)
            self.assertEqual(str(cm.exception), message)
        shape_cases = [
            ((q, torch.zeros(1, 3, 4, 8), torch.zeros(1, 3, 4, 8)),
             "q, k: query heads (2) must be a multiple of kv heads (3)"),
            ((q, k, torch.zeros(1, 2, 5, 8)),
             "k, v: expected the same shape, got (1, 2, 4, 8) and (1, 2, 5, 8)"),
            ((q[0], k, k), "q: expected 4 dimensions [B, H, S, D], got 3"),
            ((q, k.double(), k.double()),
             "q, k, v: expected one dtype, got torch.float32, torch.float64, torch.float64"),
        ]
        for args, message in shape_cases:
            with self.assertRaises(ValueError) as cm:
                context_parallel_attention(*args, t)
            self.assertEqual(str(cm.exception), message)
        with self.assertRaises(ValueError) as cm:
            LoopbackGroup(2).transport(2)
        self.assertEqual(str(cm.exception), "rank: expected 0 <= rank < 2, got 2")


class RuntimeAttentionTest(unittest.TestCase):
    """The kernels' path refuses what it cannot run (no GPU needed: the
    checks come before any launch)."""

    class FakeArtifact:
        def __init__(self, scale):
            self.scale, self.path = scale, "fake.manifest"

    def test_refusals(self):
        asked = []

        def artifacts(band):
            asked.append(band)
            return self.FakeArtifact(0.5), None
        local = RuntimeAttention(artifacts)
        q, k = torch.zeros(1, 1, 4, 8), torch.zeros(1, 1, 6, 8)
        # Rows 0..3 of a 10 x 10 diagonal band against keys 4..9: no row's
        # diagonal lies in the block, and neither alignment describes it.
        with self.assertRaises(ValueError) as cm:
            local.forward(q, k, k, Band(0, 0), 0.5, 10, 10, 0, 4)
        self.assertEqual(str(cm.exception),
                         "block rows [0, 4) x keys [4, 10): Band(left=0, right=0, "
                         "align='top_left') is no band of this block")
        self.assertEqual(asked, [])
        # A block band the artifact was not compiled with a matching scale for.
        with self.assertRaises(ValueError) as cm:
            local.forward(q, k, k, Band(2, 1), 0.25, 10, 10, 4, 4)
        self.assertEqual(str(cm.exception),
                         "scale: the artifact fake.manifest has 0.5, the call 0.25")
        # Rows 4..7 against keys 4..9 of (2, 1): top-left (2, 1) of a 4 x 6 block.
        self.assertEqual(asked, [Band(2, 1)])
        with self.assertRaises(ValueError) as cm:
            local.backward(q, k, k, q, q[..., 0], q, Band(2, 1), 0.5, 10, 10, 4, 4)
        self.assertEqual(str(cm.exception), "backward: no backward artifact for this block band")


if __name__ == "__main__":
    unittest.main()
