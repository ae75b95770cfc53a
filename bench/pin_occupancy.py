#!/usr/bin/env python3
"""Copies artifacts with an occupancy pin added to one kernel, for an A/B.

    bench/pin_occupancy.py SRC DST KERNEL DIRECTIVE NAME[,NAME...]

writes DST/NAME.{ptx,manifest} for each NAME of SRC, the PTX with the line
DIRECTIVE (`.minnctapersm 3`, `.maxnreg 168`) after KERNEL's `.maxntid`, the
manifest unchanged. ptxas (and the driver's JIT) then allocates registers
for that many blocks an SM: read the result off
`bench/compare_registers.py SRC DST --arch sm_80,sm_90` before timing it
(`run_gpu.sh` step `ab` with AB_BASELINE=DST). A PTX file without KERNEL,
or whose KERNEL has no `.maxntid`, is refused.
"""

import argparse
import os
import re
import shutil
import sys


def pin(ptx, kernel, directive):
    """`ptx` with `directive` on the line after `kernel`'s .maxntid."""
    lines = ptx.splitlines(keepends=True)
    entry = re.compile(r"^\.visible \.entry " + re.escape(kernel) + r"\(")
    inside = False
    for i, line in enumerate(lines):
        if entry.match(line):
            inside = True
        elif inside and line.startswith(".maxntid"):
            return "".join(lines[:i + 1] + [directive + "\n"] + lines[i + 1:])
        elif inside and line.startswith("{"):
            break  # the body began without a .maxntid
    raise ValueError(f"no .maxntid of kernel {kernel}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("kernel")
    p.add_argument("directive")
    p.add_argument("names")
    args = p.parse_args()
    os.makedirs(args.dst, exist_ok=True)
    for name in args.names.split(","):
        with open(os.path.join(args.src, name + ".ptx")) as f:
            ptx = f.read()
        try:
            pinned = pin(ptx, args.kernel, args.directive)
        except ValueError as e:
            sys.exit(f"{name}: {e}")
        with open(os.path.join(args.dst, name + ".ptx"), "w") as f:
            f.write(pinned)
        shutil.copy(os.path.join(args.src, name + ".manifest"), args.dst)
        print(f"wrote {args.dst}/{name}.{{ptx,manifest}}: {args.kernel} {args.directive}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
