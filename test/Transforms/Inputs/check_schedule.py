#!/usr/bin/env python3
"""Checks sdpa-print-schedule against a brute-force evaluation of the mask.

Draws random attention ops with static shapes (both alignments, windows
around the lengths, lengths the tiles don't divide), prints their schedules
with sdpa-opt, and compares every printed line with the schedule computed
here cell by cell from the definition of the band (docs/Semantics.md §1): a key
tile is visited iff it holds a visible cell, interior iff every nominal row
of the query tile sees every key of a full key tile (both directions), and
the relay's first
visitor and count come from the forward visits. Nothing here uses the bound
formulas.

usage: check_schedule.py SDPA_OPT [--cases N] [--seed S]
"""

import argparse
import random
import re
import subprocess
import sys


def visible(q, k, sq, skv, left, right, align):
    """The band of docs/Semantics.md §1; q may exceed Sq for nominal rows."""
    if k < 0 or k >= skv:
        return False
    anchor = q + (skv - sq if align == "bottom_right" else 0)
    if left is not None and k < anchor - left:
        return False
    if right is not None and k > anchor + right:
        return False
    return True


def expected_lines(case, tq, tk, forward):
    sq, skv, left, right, align = case
    nq, nkv = -(-sq // tq), -(-skv // tk)
    any_vis = [[False] * nkv for _ in range(nq)]
    interior = [[True] * nkv for _ in range(nq)]
    for t in range(nq):
        for q in range(t * tq, (t + 1) * tq):
            for k in range(nkv * tk):
                u = k // tk
                v = visible(q, k, sq, skv, left, right, align)
                if v and q < sq:
                    any_vis[t][u] = True
                if not v:
                    interior[t][u] = False

    def run(flags):
        idx = [i for i, f in enumerate(flags) if f]
        if not idx:
            return None
        assert idx == list(range(idx[0], idx[-1] + 1)), "visits not contiguous"
        return idx[0], idx[-1] + 1

    lines = []
    if forward:
        for t in range(nq):
            kv = run(any_vis[t])
            inter = run([interior[t][u] and any_vis[t][u] for u in range(nkv)])
            lines.append((t, kv, inter))
        return lines
    bwd = [(run([any_vis[t][u] for t in range(nq)]),
            run([interior[t][u] and any_vis[t][u] for t in range(nq)]))
           for u in range(nkv)]
    relay = [run(any_vis[t]) for t in range(nq)]
    return bwd, relay


def parse_range(text):
    lo, hi = map(int, re.match(r"\[(-?\d+),(-?\d+)\)", text).groups())
    return lo, hi


def random_case(rng):
    sq = rng.randint(1, 90)
    skv = sq if rng.random() < 0.3 else rng.randint(1, 90)
    scale = max(sq, skv)

    def edge(p_inf):
        if rng.random() < p_inf:
            return None
        return 0 if rng.random() < 0.2 else rng.randint(0, 2 * scale)

    return (sq, skv, edge(0.25), edge(0.35),
            rng.choice(["top_left", "bottom_right"]))


def op_text(i, case, forward):
    sq, skv, left, right, align = case
    fmt = lambda e: "inf" if e is None else str(e)
    mask = "#sdpa.band<left = %s, right = %s, align = %s>" % (fmt(left), fmt(right), align)
    qt, kt, lt = ("tensor<1x1x%dx16xf16>" % sq, "tensor<1x1x%dx16xf16>" % skv,
                  "tensor<1x1x%dxf32>" % sq)
    if forward:
        return ("  %%o%d, %%s%d = sdpa.attention %%q%d, %%k%d, %%k%d {mask = %s} : %s, %s, %s -> %s, %s\n"
                % (i, i, i, i, i, mask, qt, kt, kt, qt, lt))
    return ("  %%a%d, %%b%d, %%c%d = sdpa.attention_grad %%q%d, %%k%d, %%k%d, %%q%d, %%q%d, %%l%d {mask = %s}"
            " : %s, %s, %s, %s, %s, %s -> %s, %s, %s\n"
            % (i, i, i, i, i, i, i, i, i, mask, qt, kt, kt, qt, qt, lt, qt, kt, kt))


def check_batch(sdpa_opt, cases, tq, tk, forward):
    args = []
    body = ""
    for i, (sq, skv, *_rest) in enumerate(cases):
        args += ["%%q%d: tensor<1x1x%dx16xf16>" % (i, sq), "%%k%d: tensor<1x1x%dx16xf16>" % (i, skv),
                 "%%l%d: tensor<1x1x%dxf32>" % (i, sq)]
        body += op_text(i, cases[i], forward)
    module = "func.func @f(%s) {\n%s  return\n}\n" % (", ".join(args), body)
    out = subprocess.run([sdpa_opt, "-sdpa-print-schedule=tile-q=%d tile-kv=%d" % (tq, tk),
                          "-o", "/dev/null", "-"], input=module, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    pos = 0
    for case in cases:
        exp = expected_lines(case, tq, tk, forward)
        where = "case %s Tq=%d Tk=%d" % (case, tq, tk)
        if forward:
            for t, kv, inter in exp:
                m = re.fullmatch(r"sdpa\.schedule fwd q_tile=(\d+) kv=(\S+) interior=(\S+)", out[pos])
                assert m and int(m.group(1)) == t, (where, out[pos])
                got_kv, got_in = parse_range(m.group(2)), parse_range(m.group(3))
                if kv is None:
                    assert got_kv[0] == got_kv[1], (where, out[pos])
                else:
                    assert got_kv == kv, (where, out[pos], kv)
                if inter is None:
                    assert got_in[0] == got_in[1], (where, out[pos])
                else:
                    assert got_in == inter, (where, out[pos], inter)
                assert got_kv[0] <= got_in[0] <= got_in[1] <= got_kv[1], (where, out[pos])
                pos += 1
            continue
        bwd, relay = exp
        for u, (q, inter) in enumerate(bwd):
            m = re.fullmatch(r"sdpa\.schedule bwd kv_tile=(\d+) q=(\S+) interior=(\S+)", out[pos])
            assert m and int(m.group(1)) == u, (where, out[pos])
            got, got_in = parse_range(m.group(2)), parse_range(m.group(3))
            assert (got[0] == got[1]) if q is None else got == q, (where, out[pos], q)
            assert (got_in[0] == got_in[1]) if inter is None else got_in == inter, (where, out[pos], inter)
            assert got[0] <= got_in[0] <= got_in[1] <= got[1], (where, out[pos])
            pos += 1
        for t, kv in enumerate(relay):
            m = re.fullmatch(r"sdpa\.schedule relay q_tile=(\d+) first=(-?\d+) visitors=(\d+)", out[pos])
            assert m and int(m.group(1)) == t, (where, out[pos])
            if kv is None:
                assert int(m.group(3)) == 0, (where, out[pos])
            else:
                assert (int(m.group(2)), int(m.group(3))) == (kv[0], kv[1] - kv[0]), (where, out[pos], kv)
            pos += 1
    assert pos == len(out), "unexpected extra lines: %s" % out[pos:pos + 3]
    return pos


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sdpa_opt")
    parser.add_argument("--cases", type=int, default=240)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = cases_done = 0
    while cases_done < args.cases:
        tq, tk = rng.choice([1, 2, 3, 4, 8, 16, 17, 32, 64]), rng.choice([1, 2, 4, 5, 8, 16, 32, 64])
        batch = [random_case(rng) for _ in range(12)]
        for forward in (True, False):
            lines += check_batch(args.sdpa_opt, batch, tq, tk, forward)
        cases_done += len(batch)
    print("checked %d cases, %d schedule lines: all match the brute-force mask" % (cases_done, lines))


if __name__ == "__main__":
    sys.exit(main())
