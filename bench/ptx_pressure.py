#!/usr/bin/env python3
"""Register pressure of PTX kernels in PTX order: what is live, and where.

    bench/ptx_pressure.py FILE.ptx [--kernel NAME] [--top 5]

Per kernel: the liveness of its virtual registers over its basic blocks
(dataflow to a fixed point), then per block the most 32-bit registers live
between two of its instructions (a 64-bit register counts 2, a predicate
none) and what they are, grouped by the instruction that defines them:
`mma 128, add imm (64-bit) 32, ldmatrix 16, ...` (`add imm`: a register
plus a literal, such as a shared-memory address a loop reads at, which
ptxas folds back into the ldmatrix: docs/Performance.md). ptxas schedules and allocates
on its own, so the peak is not its register count; the groups show what the
PTX order keeps alive where a kernel spills (docs/Performance.md, "Spills").
"""

import argparse
import collections
import re
import sys
from dataclasses import dataclass, field

# Instructions without a destination register: every register they name is
# read.
_NO_DEST = ("st.", "cp.async", "bar.", "bra", "ret", "exit", "red.", "membar",
            "fence", "prefetch", "trap", "barrier.")
_REG_DECL = re.compile(r"\.reg\s+\.(\w+)\s+(%\w+?)<(\d+)>")
_ENTRY = re.compile(r"\.entry\s+(\w+)\s*\(")
_LABEL = re.compile(r"^(\$?\w+):$")
_REGISTER = re.compile(r"%[A-Za-z_]+\d+")


@dataclass
class Statement:
    line: int  # 1-based line of the statement's first token
    opcode: str
    defs: list
    uses: list
    target: str = ""  # a branch's label
    guarded: bool = False
    # The last source is an integer literal (`add.s64 %rd2, %rd1, 9216`).
    literal: bool = False


@dataclass
class Block:
    label: str
    statements: list = field(default_factory=list)
    successors: list = field(default_factory=list)


def register_width(ptx_type):
    """32-bit registers one register of `ptx_type` takes (0 for .pred)."""
    if ptx_type == "pred":
        return 0
    return 2 if ptx_type.endswith("64") else 1


def split_operands(text):
    """`text`'s operands, split at the commas outside braces and brackets."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def parse_statement(line, text, known):
    """The Statement of one PTX instruction `text` (no `;`), or None for a
    directive. `known` filters register names (the declared prefixes)."""
    guarded = False
    uses = []
    if text.startswith("@"):
        guard, text = text.split(None, 1)
        uses += [r for r in _REGISTER.findall(guard) if known(r)]
        guarded = True
    words = text.split(None, 1)
    opcode, rest = words[0], (words[1] if len(words) > 1 else "")
    if opcode.startswith("."):
        return None
    operands = split_operands(rest)
    defs = []
    if operands and not opcode.startswith(_NO_DEST):
        # The destination: one register, a brace group, or `%p|%q`.
        defs = [r for r in _REGISTER.findall(operands[0]) if known(r)]
        operands = operands[1:]
    for operand in operands:
        uses += [r for r in _REGISTER.findall(operand) if known(r)]
    target = operands[-1] if opcode.startswith("bra") and operands else ""
    literal = bool(operands) and re.fullmatch(r"-?\d+", operands[-1]) is not None
    return Statement(line, opcode, defs, uses, target, guarded, literal)


def parse_kernels(ptx):
    """{kernel: (blocks in order, {register: width})} of a PTX module."""
    kernels = {}
    lines = ptx.split("\n")
    i = 0
    while i < len(lines):
        m = _ENTRY.search(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        while lines[i].strip() != "{":
            i += 1
        widths = {}
        blocks = [Block("entry")]
        pending, start = "", 0
        i += 1
        while lines[i].rstrip() != "}":
            raw = lines[i].split("//")[0].strip()
            i += 1
            if raw in ("", "{", "}"):  # an inline scope's braces
                continue
            for decl in _REG_DECL.finditer(raw):
                ptx_type, prefix, count = decl.groups()
                for n in range(int(count)):
                    widths[f"{prefix}{n}"] = register_width(ptx_type)
            if raw.startswith(".reg"):
                continue
            label = _LABEL.match(raw)
            if label and not pending:
                blocks.append(Block(label.group(1)))
                continue
            if not pending:
                start = i
            pending += " " + raw
            while ";" in pending:
                text, pending = pending.split(";", 1)
                pending = pending.strip()
                s = parse_statement(start, text.strip(), widths.__contains__)
                if s is None:
                    continue
                blocks[-1].statements.append(s)
                if s.opcode.startswith(("bra", "ret", "exit")):
                    blocks.append(Block(f"after line {start}"))
        # A block opened after a branch and left empty (a label follows).
        blocks = [b for b in blocks
                  if b.statements or not b.label.startswith("after line")]
        link(blocks)
        kernels[name] = (blocks, widths)
        i += 1
    return kernels


def link(blocks):
    """Fills each block's successors: its branch target, and the next block
    unless it ends in an unconditional branch or a return."""
    index = {b.label: n for n, b in enumerate(blocks)}
    for n, b in enumerate(blocks):
        last = b.statements[-1] if b.statements else None
        falls = True
        if last and last.opcode.startswith("bra"):
            b.successors.append(index[last.target])
            falls = last.guarded
        elif last and last.opcode.startswith(("ret", "exit")):
            falls = False
        if falls and n + 1 < len(blocks):
            b.successors.append(n + 1)


def live_in_out(blocks):
    """Per block, the registers live on entry and on exit."""
    use_def = []
    for b in blocks:
        used, defined = set(), set()
        for s in b.statements:
            used |= set(s.uses) - defined
            defined |= set(s.defs)
        use_def.append((used, defined))
    live_in = [set() for _ in blocks]
    live_out = [set() for _ in blocks]
    changed = True
    while changed:
        changed = False
        for n in reversed(range(len(blocks))):
            out = set().union(*(live_in[s] for s in blocks[n].successors))
            used, defined = use_def[n]
            new_in = used | (out - defined)
            if out != live_out[n] or new_in != live_in[n]:
                live_out[n], live_in[n] = out, new_in
                changed = True
    return live_in, live_out


@dataclass
class Peak:
    block: str
    line: int  # the statement before which the most registers are live
    registers: int
    live: frozenset


def block_peaks(blocks, widths):
    """Each block's Peak, in block order."""
    _, live_out = live_in_out(blocks)
    peaks = []
    for b, out in zip(blocks, live_out):
        live = set(out)
        best = Peak(b.label, b.statements[-1].line if b.statements else 0,
                    sum(widths[r] for r in live), frozenset(live))
        for s in reversed(b.statements):
            live -= set(s.defs)
            live |= set(s.uses)
            size = sum(widths[r] for r in live)
            if size >= best.registers:
                best = Peak(b.label, s.line, size, frozenset(live))
        peaks.append(best)
    return peaks


def definers(blocks, widths):
    """{register: its group}: the opcode's first word of the first
    instruction defining it (`add imm` where it adds a literal: a base plus
    a constant offset), with `(64-bit)` for a 64-bit register."""
    group = {}
    for b in blocks:
        for s in b.statements:
            for r in s.defs:
                if r not in group:
                    kind = s.opcode.split(".")[0]
                    if kind == "add" and s.literal:
                        kind = "add imm"
                    group[r] = kind + (" (64-bit)" if widths[r] == 2 else "")
    return group


def describe(peak, group, widths):
    """`group registers, ...` of a peak's live set, largest first (ties by
    name)."""
    counts = collections.Counter()
    for r in peak.live:
        counts[group.get(r, "parameter")] += widths[r]
    ranked = sorted(counts.items(), key=lambda gn: (-gn[1], gn[0]))
    return ", ".join(f"{g} {n}" for g, n in ranked if n)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("ptx")
    p.add_argument("--kernel", help="only this kernel")
    p.add_argument("--top", type=int, default=5, help="blocks shown per kernel")
    args = p.parse_args()
    with open(args.ptx) as f:
        kernels = parse_kernels(f.read())
    for name, (blocks, widths) in kernels.items():
        if args.kernel and name != args.kernel:
            continue
        peaks = block_peaks(blocks, widths)
        group = definers(blocks, widths)
        print(f"{name}: at most {max(pk.registers for pk in peaks)} registers live "
              f"(PTX order)")
        for pk in sorted(peaks, key=lambda pk: -pk.registers)[:args.top]:
            print(f"  {pk.block:<14} {pk.registers:>4} before line {pk.line}: "
                  f"{describe(pk, group, widths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
