#!/usr/bin/env python3
"""Builds a libFuzzer seed corpus from the lit inputs.

Every .mlir file under the given source directories is split on `// -----`
(as -split-input-file does); lines that only drive lit (RUN, CHECK, comments)
are dropped, and each distinct chunk becomes one corpus file named by its
hash. Usage: make-seeds.py OUT_DIR SRC_DIR...
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
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for src in sys.argv[2:]:
        for path in sorted(pathlib.Path(src).rglob("*.mlir")):
            for body in chunks(path):
                name = hashlib.sha1(body.encode()).hexdigest()[:16]
                target = out / name
                if not target.exists():
                    target.write_text(body, encoding="utf-8")
                    count += 1
    print(f"{count} seeds in {out}")


if __name__ == "__main__":
    main()
