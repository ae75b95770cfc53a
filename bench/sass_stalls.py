#!/usr/bin/env python3
"""Where a kernel's warps wait, from the CSV of bench/ncu_source.sh (Nsight
Compute's source page: one row per SASS instruction with its warp-state
samples and executed instructions). No GPU and no ncu needed.

Prints the share of the stall samples per opcode (the mnemonic without its
predicate and modifiers past the first, e.g. LDSM, HMMA, MUFU.EX2, BAR.SYNC),
the share of the executed warp-instructions per opcode (what an issue-bound
kernel spends its issue slots on), the runs of consecutive instructions
executed equally often (straight-line code: a kernel's prologue, each loop
body and its epilogue, with the share of the executed instructions each
takes), and the instructions with the most samples, with their executed
counts.

usage: sass_stalls.py CSV [--top 25]
"""

import argparse
import csv
import re
import sys
from collections import Counter


def find_column(header, *needles):
    """The first column whose name holds every needle (case-insensitive)."""
    for i, name in enumerate(header):
        if all(n.lower() in name.lower() for n in needles):
            return i
    return None


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def opcode(sass):
    """LDSM.16.M88.4 -> LDSM.16; @!P0 BRA -> BRA; MUFU.EX2 -> MUFU.EX2."""
    text = re.sub(r"^@!?U?P\w+\s+", "", sass.strip())
    mnemonic = text.split(" ", 1)[0]
    parts = mnemonic.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def read_rows(path):
    with open(path, newline="") as f:
        lines = [line for line in f if line.strip()]
    # ncu may print notes before the table: start at the header row.
    start = next((i for i, line in enumerate(lines) if "Source" in line and "," in line), None)
    if start is None:
        raise SystemExit(f"{path}: no header row with a 'Source' column")
    rows = list(csv.reader(lines[start:]))
    return rows[0], rows[1:]


def runs(rows, header, source, executed):
    """(first address, opcodes, executed count) of each run of consecutive
    instructions with one executed count (runs of 1% of the total or more
    are what main prints)."""
    address = find_column(header, "Address")
    result = []
    for row in rows:
        if len(row) <= max(source, executed):
            continue
        count = number(row[executed])
        if result and result[-1][2] == count:
            result[-1][1].append(opcode(row[source]))
        else:
            first = row[address] if address is not None else ""
            result.append((first, [opcode(row[source])], count))
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    header, rows = read_rows(args.csv)
    source = find_column(header, "Source")
    samples = find_column(header, "Warp Stall Sampling", "All")
    executed = find_column(header, "Instructions Executed")
    if source is None or samples is None:
        raise SystemExit(f"{args.csv}: columns {header} lack Source or stall samples")
    by_op, total = Counter(), 0.0
    issued_by_op, issued = Counter(), 0.0
    ranked = []
    for row in rows:
        if len(row) <= max(source, samples):
            continue
        n = number(row[samples])
        count = number(row[executed]) if executed is not None else 0
        total += n
        issued += count
        by_op[opcode(row[source])] += n
        issued_by_op[opcode(row[source])] += count
        ranked.append((n, row[source].strip(), count))
    if not total:
        raise SystemExit(f"{args.csv}: no stall samples")
    print(f"{len(rows)} instructions, {total:.0f} stall samples ({header[samples]})")
    print("\n| opcode | samples | share |\n|---|---|---|")
    for op, n in by_op.most_common(args.top):
        print(f"| {op} | {n:.0f} | {100 * n / total:.1f}% |")
    if issued:
        print(f"\n{issued:.0f} warp-instructions executed\n"
              "\n| opcode | executed | share |\n|---|---|---|")
        for op, count in issued_by_op.most_common(args.top):
            print(f"| {op} | {count:.0f} | {100 * count / issued:.1f}% |")
    if issued:
        print("\n| run (first address) | instructions | executed each | share | top opcodes |\n"
              "|---|---|---|---|---|")
        for address, ops, count in runs(rows, header, source, executed):
            if count * len(ops) < 0.01 * issued:
                continue
            top = ", ".join(f"{op} {n}" for op, n in Counter(ops).most_common(4))
            print(f"| {address} | {len(ops)} | {count:.0f} | "
                  f"{100 * count * len(ops) / issued:.1f}% | {top} |")
    print(f"\n| samples | share | executed | instruction |\n|---|---|---|---|")
    for n, text, count in sorted(ranked, reverse=True)[:args.top]:
        print(f"| {n:.0f} | {100 * n / total:.1f}% | {count:.0f} | `{text}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
