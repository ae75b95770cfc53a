#!/usr/bin/env python3
"""Registers and spills of every kernel of two artifact folders, per target.

    bench/compare_registers.py BEFORE AFTER [--arch sm_80,sm_90] [--all]

Runs `ptxas -arch=<arch> -v` on each PTX file of BEFORE that AFTER also holds
(subfolders included) and prints one row per kernel whose registers or spill
bytes differ (every kernel with --all). The H100 and H200 run the sm_80 PTX
through the driver's JIT, which allocates registers as `ptxas -arch=sm_90`
does, not as sm_80 does (bench/RESULTS.md, 2026-12-05 ba05f90: 224 registers
for sm_80, 167 on the device): an A/B prepared here reads its occupancy off
the sm_90 columns.
"""

import argparse
import os
import shutil
import sys

from ptxas_resources import PtxasError, kernel_resources


def registers_and_spills(ptxas, arch, ptx):
    """{kernel: (registers, spill store bytes)} of one PTX file."""
    try:
        kernels = kernel_resources(ptxas, arch, ptx)
    except PtxasError as e:
        sys.exit(f"{ptx}: ptxas -arch={arch} failed: {e}")
    return {name: (k.registers, k.spill_stores) for name, k in kernels.items()}


def show(resources):
    """A cell: registers, with the spill bytes where there are any."""
    if resources is None:
        return "-"
    registers, spill = resources
    return f"{registers}" + (f" ({spill})" if spill else "")


def ptx_files(folder):
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".ptx"):
                yield os.path.relpath(os.path.join(root, name), folder)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--arch", default="sm_80,sm_90")
    p.add_argument("--all", action="store_true", help="every kernel, changed or not")
    p.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    args = p.parse_args()
    arches = args.arch.split(",")
    print("| artifact | kernel | " + " | ".join(f"{a} registers (spill bytes)" for a in arches) + " |")
    print("|---|---|" + "---|" * len(arches))
    for rel in ptx_files(args.before):
        after = os.path.join(args.after, rel)
        if not os.path.exists(after):
            continue
        per_arch = [(registers_and_spills(args.ptxas, a, os.path.join(args.before, rel)),
                     registers_and_spills(args.ptxas, a, after)) for a in arches]
        for kernel in per_arch[0][0]:
            cells, changed = [], False
            for old, new in per_arch:
                o, n = old.get(kernel), new.get(kernel)
                changed |= o != n
                cells.append(show(o) if o == n else f"{show(o)} -> {show(n)}")
            if changed or args.all:
                print(f"| {rel} | {kernel} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
