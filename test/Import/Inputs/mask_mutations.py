#!/usr/bin/env python3
"""Mutation test of the decomposed-mask import (docs/Import.md §3.1).

Edits the three integer constants and two compare directions of the mask of
jax_xla_causal_swa_fwd.mlir, which states, over query rows q and keys k,

    (k <= q + T)   and   (q CMP_W k + W)   and   (q CMP_C k - C)

(T in @tril, W the window, C the causal offset), runs the importer on each
variant, and checks every import against a brute-force evaluation of that
formula on the 256 x 256 grid with the band semantics of docs/Semantics.md §1:
an import must state exactly the variant's mask; a decline is allowed only
where no band does. Prints one line per variant and a summary; exits 1 on a
wrong import. Usage: mask_mutations.py SDPA_OPT FIXTURE
"""

import re
import subprocess
import sys

S = 256


def mask_cells(t, w, c, cmp_w, cmp_c):
    def ok_w(q, k):
        return q <= k + w if cmp_w == "LE" else q < k + w

    def ok_c(q, k):
        return q >= k - c if cmp_c == "GE" else q > k - c

    return {(q, k) for q in range(S) for k in range(S)
            if k <= q + t and ok_w(q, k) and ok_c(q, k)}


def band_cells(left, right):
    return {(q, k) for q in range(S) for k in range(S)
            if (left is None or k >= q - left)
            and (right is None or k <= q + right)}


def some_band(cells):
    """Whether any band with non-negative widths has exactly these cells."""
    diffs = {k - q for q, k in cells}
    if not diffs or min(diffs) > 0 or max(diffs) < 0:
        return False
    lo, hi = min(diffs), max(diffs)
    return cells == band_cells(None if lo <= -(S - 1) else -lo,
                               None if hi >= S - 1 else hi)


def variant(text, t, w, c, cmp_w, cmp_c):
    edits = [
        ("    %c = stablehlo.constant dense<0> : tensor<i32>",
         f"    %c = stablehlo.constant dense<{t}> : tensor<i32>"),
        ("%c_3 = stablehlo.constant dense<127>",
         f"%c_3 = stablehlo.constant dense<{w}>"),
        ("%c_4 = stablehlo.constant dense<0>",
         f"%c_4 = stablehlo.constant dense<{c}>"),
        ("compare LE, %14, %15", f"compare {cmp_w}, %14, %15"),
        ("compare GE, %21, %22", f"compare {cmp_c}, %21, %22"),
    ]
    for old, new in edits:
        assert text.count(old) == 1, f"the fixture changed: {old}"
        text = text.replace(old, new)
    return text


def main():
    sdpa_opt, fixture = sys.argv[1], sys.argv[2]
    text = open(fixture, encoding="utf-8").read()
    cases = [(0, w, 0, "LE", "GE") for w in (-1, 0, 1, 31, 127, 254, 255, 256, 100000)]
    cases += [(t, 127, c, "LE", "GE") for t in (-2, 5) for c in (-1, 3)]
    cases += [(0, 127, 0, "LT", "GE"), (0, 127, 0, "LE", "GT"),
              (0, 0, 0, "LT", "GE"), (3, 10, 2, "LT", "GT")]
    imported = declined = wrong = 0
    for t, w, c, cmp_w, cmp_c in cases:
        name = f"T={t} W={w} C={c} {cmp_w}/{cmp_c}"
        run = subprocess.run([sdpa_opt, "-sdpa-import-stablehlo"],
                             input=variant(text, t, w, c, cmp_w, cmp_c),
                             capture_output=True, text=True)
        cells = mask_cells(t, w, c, cmp_w, cmp_c)
        found = re.search(r"imported decomposed attention: left = (\w+), "
                          r"right = (\w+), align = top_left", run.stderr)
        if found:
            left, right = (None if x == "inf" else int(x) for x in found.groups())
            if band_cells(left, right) == cells:
                imported += 1
                print(f"{name}: imported left = {found[1]}, right = {found[2]}")
            else:
                wrong += 1
                print(f"{name}: WRONG band left = {found[1]}, right = {found[2]}")
        elif "decomposed attention not imported" in run.stderr:
            if some_band(cells):
                wrong += 1
                print(f"{name}: WRONG decline of a band")
            else:
                declined += 1
                print(f"{name}: declined (no band)")
        else:
            wrong += 1
            print(f"{name}: WRONG: neither imported nor declined (rc {run.returncode})")
    print(f"mask mutations: {imported} imported exactly, {declined} declined, "
          f"{wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
