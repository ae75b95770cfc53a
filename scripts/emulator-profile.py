#!/usr/bin/env python3
"""Where a kernel's instructions go, from the PTX emulator's line profile.

Runs sdpa-kernel-check on one artifact under the emulator (emulator/) with
SDPA_EMU_PROFILE_FILE, then sums the warp-instructions of every launch per
basic block of each kernel's PTX (a block runs from one `$L__` label to the
next) and prints the hottest blocks: their share, how often they ran, their
length and their mix of instructions by the emulator's classes (mma,
ldmatrix, f32, integer, ...; emulator/lib/InstructionMix.cpp).
Counts, not time: the emulator models no latency (docs/Emulator.md).

  scripts/emulator-profile.py --build build ART.manifest [--top 8] [--seed 1]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

def blocks_of(ptx_lines):
    """{line: (kernel, block label)} for every instruction line."""
    owner, kernel, label = {}, None, None
    for number, text in enumerate(ptx_lines, 1):
        t = text.strip()
        m = re.match(r"\.visible \.entry (\w+)", t)
        if m:
            kernel, label = m.group(1), "entry"
        elif t.startswith("$L") and t.endswith(":"):
            label = t[:-1]
        elif kernel and t and not t.startswith(("//", ".", "{", "}", ")")):
            owner[number] = (kernel, label)
    return owner


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("manifest")
    p.add_argument("--build", default="build")
    p.add_argument("--top", type=int, default=8)
    p.add_argument("--seed", default="1")
    p.add_argument("--longer", action="store_true", help="sdpa-kernel-check --longer")
    args = p.parse_args()
    ptx_name = next(line.split()[1] for line in open(args.manifest) if line.startswith("ptx "))
    ptx = open(os.path.join(os.path.dirname(args.manifest), ptx_name)).read().split("\n")
    with tempfile.TemporaryDirectory() as tmp:
        profile = os.path.join(tmp, "profile.txt")
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(args.build, "emulator", "driver"),
                   SDPA_EMU_PROFILE="1", SDPA_EMU_PROFILE_FILE=profile)
        cmd = [os.path.join(args.build, "runtime", "check", "sdpa-kernel-check"),
               "--seed", args.seed] + (["--longer"] if args.longer else []) + [args.manifest]
        res = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if res.returncode:
            sys.exit(res.stdout + res.stderr)
        counts, classes = collections.Counter(), {}
        for line in open(profile):
            _, number, count, op_class = line.split()
            counts[int(number)] += int(count)
            classes[int(number)] = op_class
    owner = blocks_of(ptx)
    per_block = collections.defaultdict(lambda: [0, 0, 0, collections.Counter()])
    totals = collections.Counter()
    for number, (kernel, label) in owner.items():
        if number not in classes:  # not an instruction (a directive)
            continue
        block = per_block[(kernel, label)]
        block[0] += counts[number]
        block[1] = max(block[1], counts[number])
        block[2] += 1
        block[3][classes[number]] += counts[number]
        totals[kernel] += counts[number]
    for kernel in sorted(totals, key=lambda k: -totals[k]):
        print(f"{kernel}: {totals[kernel]} warp-instructions")
        rows = sorted(((k, v) for k, v in per_block.items() if k[0] == kernel),
                      key=lambda kv: -kv[1][0])[:args.top]
        for (_, label), (total, runs, length, mix) in rows:
            if not total:
                continue
            share = 100 * total / totals[kernel]
            parts = ", ".join(f"{c} {100 * n / total:.0f}%" for c, n in mix.most_common(4))
            print(f"  {label:<12} {share:5.1f}%  ran {runs:>7} x {length:>3} instructions: {parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
