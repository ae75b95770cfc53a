#!/usr/bin/env python3
"""Prints the causal XLA forward fixture with its tril mask passed through
N chained `stablehlo.and %x, %x` (each the identity).

With memoized mask analysis the chain costs N steps; read naively, each `and`
reads its operand twice and the chain costs 2^N. Past the analyses' depth
limit the import declines. Usage: mask_chain.py FIXTURE N
"""

import sys

path, count = sys.argv[1], int(sys.argv[2])
text = open(path, encoding="utf-8").read()
ret = "    return %6 : tensor<256x256xi1>\n"
assert text.count(ret) == 1, "the fixture's @tril changed"
lines, prev = [], "%6"
for i in range(count):
    lines.append(f"    %and{i} = stablehlo.and {prev}, {prev} : tensor<256x256xi1>\n")
    prev = f"%and{i}"
lines.append(f"    return {prev} : tensor<256x256xi1>\n")
sys.stdout.write(text.replace(ret, "".join(lines)))
