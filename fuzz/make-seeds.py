#!/usr/bin/env python3
"""Builds a libFuzzer seed corpus from the lit inputs.

Every .mlir file under the given source directories is split on `// -----`
(as -split-input-file does); lines that only drive lit (RUN, CHECK, comments)
are dropped, and each distinct chunk becomes one corpus file named by its
hash. With --match REGEX only the chunks REGEX finds are kept (the lowering
fuzzer wants chunks with sdpa ops only). Usage:
make-seeds.py [--match REGEX] OUT_DIR SRC_DIR...
"""

import hashlib
import pathlib
import re
import sys

# Lit directives and comments: noise to the parser, weight to the mutator.
DROP = re.compile(r"^\s*//")


def chunks(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        kept = [line for line in chunk.splitlines() if not DROP.match(line)]
        body = "\n".join(kept).strip()
        if body:
            yield body + "\n"


def main():
    args = sys.argv[1:]
    match = None
    if args[:1] == ["--match"] and len(args) > 1:
        match = re.compile(args[1])
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    out = pathlib.Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for src in args[1:]:
        for path in sorted(pathlib.Path(src).rglob("*.mlir")):
            for body in chunks(path):
                if match and not match.search(body):
                    continue
                name = hashlib.sha1(body.encode()).hexdigest()[:16]
                target = out / name
                if not target.exists():
                    target.write_text(body, encoding="utf-8")
                    count += 1
    print(f"{count} seeds in {out}")


if __name__ == "__main__":
    main()
