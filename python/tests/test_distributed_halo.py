#!/usr/bin/env python3
"""sdpa.distributed's halo plan against a brute-force count of the keys each
rank's rows see (Band.visible, cell by cell), over random bands: both
alignments, unbounded edges, Sq != Skv, uneven and empty chunks; the block
bands of the GPU path; and the argument errors. No torch needed; the runtime
library comes from SDPA_RUNTIME_LIB (ctest sets it).
"""

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sdpa.distributed import Band, HaloPlan, block_band, key_range, query_range  # noqa: E402
from sdpa.runtime import SdpaError  # noqa: E402


def random_band(rng, n):
    def edge():
        return None if rng.random() < 0.2 else rng.choice([0, 1, 2, rng.randint(0, n)])
    return Band(edge(), edge(), rng.choice(["top_left", "bottom_right"]))


def random_lengths(rng, total, ranks):
    cuts = sorted([0, total] + [rng.randint(0, total) for _ in range(ranks - 1)])
    return [b - a for a, b in zip(cuts, cuts[1:])]


class HaloPlanTest(unittest.TestCase):
    def test_plan_against_brute_force(self):
        rng = random.Random(17)
        for _ in range(400):
            ranks = rng.randint(1, 5)
            seq_q = rng.randint(0, 40)
            seq_kv = seq_q if rng.random() < 0.3 else rng.randint(0, 40)
            band = random_band(rng, 40)
            plan = HaloPlan(band, random_lengths(rng, seq_q, ranks),
                            random_lengths(rng, seq_kv, ranks))
            where = f"{band} Sq={seq_q} Skv={seq_kv} q={plan.q_cuts} kv={plan.kv_cuts}"
            for r in range(ranks):
                q0, q1 = plan.rows(r)
                seen = sorted({k for q in range(q0, q1) for k in range(seq_kv)
                               if band.visible(q, k, seq_q, seq_kv)})
                want = (seen[0], seen[-1] + 1) if seen else (0, 0)
                self.assertEqual(plan.need[r], want, f"{where} rank {r}")
                self.assertEqual(len(seen), want[1] - want[0], f"{where}: not one interval")
                k0, k1 = plan.owned(r)
                outside = [k for k in seen if not k0 <= k < k1]
                self.assertEqual(plan.halo_keys(r), len(outside), f"{where} rank {r}")
                # Each received key comes from its owner, once.
                got = []
                for j, (a, b) in plan.recv[r]:
                    self.assertTrue(plan.kv_cuts[j] <= a < b <= plan.kv_cuts[j + 1], where)
                    got.extend(range(a, b))
                self.assertEqual(got, outside, f"{where} rank {r}")
                # What r sends to j is what j receives from r.
                for j, rng_ in plan.send[r]:
                    self.assertIn((r, rng_), plan.recv[j], where)
                self.assertEqual(plan.allgather_keys(r), seq_kv - (k1 - k0))

    def test_tile_widened_halo(self):
        # Causal window of 128 keys, 4 ranks of 256 rows, key tiles of 64: rank
        # 2 needs keys 385.. and fetches from 384, the start of its key tile.
        plan = HaloPlan(Band(127, 0), [256] * 4, [256] * 4, tile_kv=64)
        self.assertEqual(plan.need[2], (384, 768))
        self.assertEqual(plan.recv[2], [(1, (384, 512))])
        self.assertEqual(HaloPlan(Band(127, 0), [256] * 4, [256] * 4).need[2], (385, 768))

    def test_query_range_is_the_inverse(self):
        rng = random.Random(5)
        for _ in range(300):
            seq_q, seq_kv = rng.randint(0, 30), rng.randint(0, 30)
            band = random_band(rng, 30)
            k0 = rng.randint(0, seq_kv)
            k1 = rng.randint(k0, seq_kv)
            rows = [q for q in range(seq_q)
                    if any(band.visible(q, k, seq_q, seq_kv) for k in range(k0, k1))]
            want = (rows[0], rows[-1] + 1) if rows else (0, 0)
            self.assertEqual(query_range(band, seq_q, seq_kv, k0, k1), want,
                             f"{band} Sq={seq_q} Skv={seq_kv} keys [{k0},{k1})")

    def test_block_band_masks_like_the_sequence(self):
        rng = random.Random(9)
        checked = 0
        for _ in range(600):
            seq_q, seq_kv = rng.randint(1, 30), rng.randint(1, 30)
            band = random_band(rng, 30)
            q0, k0 = rng.randint(0, seq_q - 1), rng.randint(0, seq_kv - 1)
            n, m = rng.randint(1, seq_q - q0), rng.randint(1, seq_kv - k0)
            local = block_band(band, seq_q, seq_kv, q0, n, k0, m)
            if local is None:
                continue
            checked += 1
            for i in range(n):
                for j in range(m):
                    self.assertEqual(local.visible(i, j, n, m),
                                     band.visible(q0 + i, k0 + j, seq_q, seq_kv),
                                     f"{band} -> {local} block ({q0},{n})x({k0},{m})")
        self.assertGreater(checked, 300)

    def test_block_band_of_a_causal_window_chunk(self):
        # Rank 1 of 2 x 256 rows, keys from 128 (tile-aligned halo): the
        # block is anchored at its last key, the window unchanged.
        self.assertEqual(block_band(Band(127, 0), 512, 512, 256, 256, 128, 384),
                         Band(127, 0, "bottom_right"))
        self.assertEqual(block_band(Band(127, 0), 512, 512, 0, 256, 0, 256), Band(127, 0))

    def test_errors(self):
        with self.assertRaises(SdpaError) as cm:
            key_range(Band(1, 1), 4, 4, 2, 5)
        self.assertEqual(cm.exception.message,
                         "q_begin, q_end: expected 0 <= begin <= end <= 4, got [2, 5)")
        with self.assertRaises(SdpaError) as cm:
            query_range(Band(1, 1), 4, 1 << 31, 0, 1)
        self.assertEqual(cm.exception.message,
                         "seq_kv: expected a length in [0, 2147483647], got 2147483648")
        for args, message in [
                ((-1, 0), "left: expected None (unbounded) or an integer >= 0, got -1"),
                ((0, 1.5), "right: expected None (unbounded) or an integer >= 0, got 1.5"),
                ((0, 0, "diagonal"), "align: expected top_left or bottom_right, got 'diagonal'")]:
            with self.assertRaises(ValueError) as cm:
                Band(*args)
            self.assertEqual(str(cm.exception), message)
        with self.assertRaises(ValueError) as cm:
            HaloPlan(Band(0, 0), [4, 4], [8])
        self.assertEqual(str(cm.exception),
                         "q_lengths, kv_lengths: one length per rank each, got 2 and 1")
        with self.assertRaises(ValueError) as cm:
            HaloPlan(Band(0, 0), [4, -4], [4, 4])
        self.assertEqual(str(cm.exception),
                         "q_lengths: expected one length >= 0 per rank, got [4, -4]")
        with self.assertRaises(ValueError) as cm:
            HaloPlan(Band(0, 0), [4], [4], tile_kv=0)
        self.assertEqual(str(cm.exception), "tile_kv: expected an integer >= 1, got 0")


if __name__ == "__main__":
    unittest.main()
