"""What `ptxas -v` reports per kernel: registers, stack frame and spills.

One parser for bench/make_artifacts.py (which refuses an artifact that
spills for sm_80) and bench/compare_registers.py (registers and spills per
target, before and after a change). ptxas prints, per kernel,

    ptxas info    : Compiling entry function 'NAME' for 'sm_80'
    ptxas info    : Function properties for NAME
        S bytes stack frame, T bytes spill stores, L bytes spill loads
    ptxas info    : Used R registers, ...

and the numbers are read in that order.
"""

import os
import re
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class KernelResources:
    registers: int
    stack_frame: int
    spill_stores: int
    spill_loads: int
    # ptxas's line of the stack frame and spills, as printed (stripped).
    frame_line: str

    @property
    def spills(self):
        """True where the kernel has a stack frame or spills at all."""
        return bool(self.stack_frame or self.spill_stores or self.spill_loads)


class PtxasError(Exception):
    """ptxas failed; the message is the first line it printed."""


_ENTRY = re.compile(r"Compiling entry function '(\w+)'")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                    r"(\d+) bytes spill loads")
_REGISTERS = re.compile(r"Used (\d+) registers")


def parse(report):
    """{kernel: KernelResources} of ptxas -v's output `report`, in order."""
    found, kernel, frame = {}, None, None
    for line in report.splitlines():
        if m := _ENTRY.search(line):
            kernel, frame = m.group(1), None
        elif m := _FRAME.search(line):
            frame = (*map(int, m.groups()), line.strip())
        elif (m := _REGISTERS.search(line)) and kernel:
            stack, stores, loads, text = frame or (0, 0, 0, "")
            found[kernel] = KernelResources(int(m.group(1)), stack, stores, loads, text)
            kernel = None
    return found


def kernel_resources(ptxas, arch, ptx):
    """{kernel: KernelResources} of one PTX file assembled for `arch`;
    raises PtxasError when ptxas fails."""
    res = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx, "-o", os.devnull],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise PtxasError((res.stderr.strip().splitlines() or ["ptxas failed"])[0])
    return parse(res.stderr)
