#!/usr/bin/env python3
"""Feeds every artifact the lowering writes to the runtime (no GPU).

Every `// -----` chunk of the lit inputs (test/**/*.mlir), of examples/ and
of fuzz/seeds/lowering that holds an sdpa op is lowered with
convert-sdpa-to-gpu and convert-sdpa-grad-to-gpu, under the passes' default
options and under a second tiling. Each manifest the lowering records (the
`sdpa.artifacts` dictionary that sdpa-write-artifact writes out, with the
`ptx` line it adds) goes to sdpa-artifact-check, which loads it through the
runtime's C API and runs the forward or backward checks, grid formation and
parameter packing on consistent tensors. A chunk the lowering refuses is
skipped (the lowering said why); an artifact the runtime refuses fails the
test: the two sides must agree on every artifact (lib/Schema).

  check_lowered_artifacts.py --sdpa-opt build/bin/sdpa-opt \\
      --checker build/runtime/tests/sdpa-artifact-check --root .
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

OPTIONS = [
    [],
    ["--convert-sdpa-to-gpu=tile-q=128 tile-kv=32 warps=8",
     "--convert-sdpa-grad-to-gpu=tile-q=64 tile-kv=128"],
]
ENTRY = re.compile(r'(\w+) = "((?:[^"\\]|\\.)*)"')


def unescape(text):
    """The string of an MLIR string attribute's body."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out.append(c)
            i += 1
        elif text[i + 1] in '\\"':
            out.append(text[i + 1])
            i += 2
        else:
            out.append(chr(int(text[i + 1:i + 3], 16)))
            i += 3
    return "".join(out)


def manifests(ir):
    """{module name: manifest text} of the sdpa.artifacts dictionary."""
    start = ir.find("sdpa.artifacts = {")
    if start < 0:
        return {}
    body = ir[start + len("sdpa.artifacts = {"):]
    result = {}
    for m in ENTRY.finditer(body):
        if not m.group(2).startswith("sdpa-artifact"):
            break
        result[m.group(1)] = unescape(m.group(2))
    return result


def chunks(root):
    paths = sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"), recursive=True)
                   + glob.glob(os.path.join(root, "examples", "*.mlir"))
                   + glob.glob(os.path.join(root, "fuzz", "seeds", "lowering", "*.mlir")))
    for path in paths:
        with open(path) as f:
            text = f.read()
        for i, chunk in enumerate(re.split(r"^// -----$", text, flags=re.M)):
            if re.search(r"sdpa\.attention(_grad)?\s", chunk):
                yield f"{os.path.relpath(path, root)}#{i}", chunk


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sdpa-opt", required=True)
    p.add_argument("--checker", required=True)
    p.add_argument("--root", required=True)
    args = p.parse_args()
    written, lowered, refused_chunks = 0, 0, 0
    with tempfile.TemporaryDirectory() as out:
        paths = []
        for name, chunk in chunks(args.root):
            for k, options in enumerate(OPTIONS):
                cmd = [args.sdpa_opt, "-", *(options or ["--convert-sdpa-to-gpu",
                                                         "--convert-sdpa-grad-to-gpu"])]
                run = subprocess.run(cmd, input=chunk, capture_output=True, text=True)
                if run.returncode != 0:
                    refused_chunks += 1
                    continue
                lowered += 1
                # Only what this lowering wrote: an input may carry records
                # of modules it holds already (hand-written test fixtures).
                given = manifests("\n".join(
                    line for line in chunk.splitlines()
                    if not line.lstrip().startswith("//")))
                for module, text in manifests(run.stdout).items():
                    if module in given:
                        continue
                    stem = re.sub(r"[^A-Za-z0-9_]", "_", f"{name}_{k}_{module}")
                    header, rest = text.split("\n", 1)
                    with open(os.path.join(out, stem + ".manifest"), "w") as f:
                        f.write(f"{header}\nptx {stem}.ptx\n{rest}")
                    with open(os.path.join(out, stem + ".ptx"), "w") as f:
                        f.write(".version 8.0\n.target sm_80\n.address_size 64\n")
                    paths.append(os.path.join(out, stem + ".manifest"))
                    written += 1
        check = subprocess.run([args.checker, *paths], capture_output=True, text=True)
        bad = [line for line in check.stdout.splitlines() if not line.startswith("ok ")]
    print(f"{lowered} lowerings ({refused_chunks} refused by the lowering), "
          f"{written} artifacts, {len(bad)} refused by the runtime")
    for line in bad:
        print(line)
    if check.returncode not in (0, 1) or check.stderr:
        print(check.stderr)
        return 1
    if written == 0:
        print("no artifact was written: the corpus or the lowering is broken")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
