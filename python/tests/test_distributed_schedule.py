#!/usr/bin/env python3
"""The halo is the schedule at tile = chunk: sdpa.distributed's key and
query ranges (the runtime's sdpaBandKeyRange/sdpaBandQueryRange) against
what `sdpa-opt -sdpa-print-schedule` prints for the same band and lengths,
with the query tile equal to the chunk and key tiles of one key (forward:
the keys each chunk of rows sees) and the key tile equal to the chunk and
query tiles of one row (backward: the rows each chunk of keys is seen by).
Random bands: both alignments, unbounded edges, Sq != Skv, chunks that do
not divide the lengths. SDPA_OPT names sdpa-opt (ctest sets it). No torch.
"""

import os
import random
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sdpa.distributed import Band, key_range, query_range  # noqa: E402
from _tool_environment import tool_environment  # noqa: E402

LINE = re.compile(r"sdpa\.schedule (fwd|bwd) (?:q_tile|kv_tile)=(\d+) (?:kv|q)=\[(-?\d+),(-?\d+)\)")


def edge(value):
    return "inf" if value is None else str(value)


def function(i, band, sq, skv, backward):
    q, kv = f"tensor<1x1x{sq}x8xf16>", f"tensor<1x1x{skv}x8xf16>"
    lse = f"tensor<1x1x{sq}xf32>"
    mask = (f"mask = #sdpa.band<left = {edge(band.left)}, right = {edge(band.right)}, "
            f"align = {band.align}>")
    if not backward:
        return (f"func.func @f{i}(%q: {q}, %k: {kv}) -> {q} {{\n"
                f"  %o, %lse = sdpa.attention %q, %k, %k {{{mask}}} : {q}, {kv}, {kv} -> {q}, {lse}\n"
                f"  return %o : {q}\n}}\n")
    return (f"func.func @f{i}(%q: {q}, %k: {kv}, %o: {q}, %lse: {lse}) -> {q} {{\n"
            f"  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %o, %o, %lse {{{mask}}}\n"
            f"      : {q}, {kv}, {kv}, {q}, {q}, {lse} -> {q}, {kv}, {kv}\n"
            f"  return %dq : {q}\n}}\n")


def printed_ranges(cases, tile_q, tile_kv, backward):
    """Per case, the printed [begin, end) of each tile, in tile order."""
    text = "".join(function(i, *c, backward) for i, c in enumerate(cases))
    res = subprocess.run([os.environ.get("SDPA_OPT", "sdpa-opt"),
                          f"-sdpa-print-schedule=tile-q={tile_q} tile-kv={tile_kv}",
                          "-o", os.devnull], input=text, text=True, capture_output=True,
                         env=tool_environment())
    if res.returncode != 0:
        raise AssertionError(res.stderr)
    kind = "bwd" if backward else "fwd"
    out = []
    for line in (res.stdout + res.stderr).splitlines():
        m = LINE.match(line)
        if not m or m.group(1) != kind:
            continue
        if m.group(2) == "0":
            out.append([])
        out[-1].append((int(m.group(3)), int(m.group(4))))
    return out


def random_case(rng):
    sq = rng.randint(1, 40)
    skv = sq if rng.random() < 0.3 else rng.randint(1, 40)

    def e():
        return None if rng.random() < 0.2 else rng.choice([0, 1, rng.randint(0, 40)])
    return Band(e(), e(), rng.choice(["top_left", "bottom_right"])), sq, skv


def normalized(r):
    return r if r[0] < r[1] else "empty"


def swapped_edges(band):
    return Band(band.right, band.left, band.align)


def other_alignment(band):
    return Band(band.left, band.right,
                "top_left" if band.align == "bottom_right" else "bottom_right")


class ScheduleTest(unittest.TestCase):
    def check(self, seed, chunks, backward, slip):
        """Every chunk's range against the printed schedule at tile = chunk
        (forward: rows, key tiles of 1; backward: keys, query tiles of 1);
        `slip` must make the comparison fail somewhere (a negative control)."""
        rng = random.Random(seed)
        derive = query_range if backward else key_range
        for chunk in chunks:
            cases = [random_case(rng) for _ in range(40)]
            tiles = (1, chunk) if backward else (chunk, 1)
            printed = printed_ranges(cases, *tiles, backward=backward)
            self.assertEqual(len(printed), len(cases))
            slips = 0
            for (band, sq, skv), ranges in zip(cases, printed):
                length = skv if backward else sq
                want = [normalized(t) for t in ranges]

                def derived(b):
                    return [normalized(derive(b, sq, skv, c, min(length, c + chunk)))
                            for c in range(0, length, chunk)]
                self.assertEqual(derived(band), want, f"{band} Sq={sq} Skv={skv} chunk={chunk}")
                slips += derived(slip(band)) != want
            self.assertGreater(slips, 0)

    def test_halo_is_the_forward_schedule_at_tile_chunk(self):
        self.check(11, (1, 3, 7, 16), backward=False, slip=swapped_edges)

    def test_return_is_the_backward_schedule_at_tile_chunk(self):
        self.check(12, (1, 4, 9), backward=True, slip=other_alignment)


if __name__ == "__main__":
    unittest.main()
