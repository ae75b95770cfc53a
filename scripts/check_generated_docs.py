#!/usr/bin/env python3
"""Checks that the committed generated docs match what the build generates.

The build writes the dialect and pass reference from ODS into
build/docs/Sdpa/*.md (mlir-tblgen, with every build); docs/generated/ keeps a
copy for readers of the repository. This compares the two directories file
by file and fails, with the command that refreshes the copy, on a missing,
extra or differing file.

Usage: check_generated_docs.py GENERATED_DIR COMMITTED_DIR
"""

import difflib
import os
import sys

REFRESH = "ninja -C build sdpa-docs-update"


def markdown(directory):
    return sorted(n for n in os.listdir(directory) if n.endswith(".md"))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1])
        return 2
    generated, committed = argv[1], argv[2]
    fresh, kept = markdown(generated), markdown(committed)
    if not fresh:
        print(f"generated docs: nothing generated in {generated}")
        return 1
    problems = []
    for name in sorted(set(fresh) | set(kept)):
        if name not in kept:
            problems.append(f"{name}: generated but not committed")
            continue
        if name not in fresh:
            problems.append(f"{name}: committed but no longer generated")
            continue
        with open(os.path.join(generated, name), encoding="utf-8") as f:
            new = f.read().splitlines()
        with open(os.path.join(committed, name), encoding="utf-8") as f:
            old = f.read().splitlines()
        if new != old:
            diff = list(difflib.unified_diff(old, new, "committed/" + name,
                                             "generated/" + name, n=1,
                                             lineterm=""))
            problems.append(f"{name}: differs\n" + "\n".join(diff[:40]))
    if problems:
        for p in problems:
            print("generated docs: " + p)
        print(f"generated docs: docs/generated is stale; refresh it with "
              f"`{REFRESH}` and commit the result")
        return 1
    print(f"generated docs: {len(fresh)} files match docs/generated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
