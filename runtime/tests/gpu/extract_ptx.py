#!/usr/bin/env python3
"""Prints the PTX held in the first `assembly = "..."` of a gpu.binary (stdin).

MLIR prints the string with \\XX hex escapes (\\0A for a newline, \\09 a tab,
\\22 a quote, \\5C a backslash); this undoes them.
"""
import re
import sys

text = sys.stdin.read()
match = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not match:
    sys.exit("extract_ptx: no 'assembly = \"...\"' in the input")
body = match.group(1)
out = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), body)
sys.stdout.write(out.replace('\\\\', '\\'))
