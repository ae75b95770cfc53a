#!/usr/bin/env python3
"""Checks that the library edges of the tree point one way.

The layers, bottom first (docs/Rationale.md, "Layering"):

    Analysis <- Dialect <- Utils <- Transforms <- Conversion <- Pipelines <- Import
    (Utils: IR builders of the bounds, shared by Transforms and Conversion)
    StableHLO (the imported op set) <- Import, Export
    Export (attention sites to XLA FFI calls) <- Import (its pipeline)
    tools/, fuzz/: may use every layer
    runtime/: no MLIR or LLVM at all (it may include only IR-free headers)
    Schema (the artifact schema, include/SdpaSchema): IR-free, below every
    layer and the runtime; it uses nothing of MLIR or LLVM

Two kinds of edge are read, per directory:
  * `#include "SdpaDialect/..."` (and `include "SdpaDialect/..."` in .td
    files) in lib/, include/, tools/, unittests/, fuzz/ and runtime/;
  * the targets a CMake target names in `target_link_libraries`,
    `add_dependencies` or a fuzzer's `LIBS`, where both are targets this tree
    defines (libraries, executables, tablegen targets).
An edge from a layer to one it may not use is printed with its file and
line, and the exit status is 1. A tree in which no edge of a kind is found
fails too, so that a wrong root cannot pass.

Usage: check_layering.py [ROOT]   (default: the repository this file is in)
"""

import os
import re
import sys

# What each layer may use (itself included).
ALLOWED = {
    "Schema": {"Schema"},
    "Analysis": {"Schema", "Analysis"},
    "StableHLO": {"Schema", "StableHLO"},
    "Dialect": {"Schema", "Analysis", "Dialect"},
    "Utils": {"Schema", "Analysis", "Dialect", "Utils"},
    "Transforms": {"Schema", "Analysis", "Dialect", "Utils", "Transforms"},
    "Conversion": {"Schema", "Analysis", "Dialect", "Utils", "Transforms",
                   "Conversion"},
    "Pipelines": {"Schema", "Analysis", "Dialect", "Utils", "Transforms",
                  "Conversion", "Pipelines"},
    "Import": {"Schema", "Analysis", "Dialect", "Utils", "Transforms",
               "Conversion", "Pipelines", "StableHLO", "Export", "Import"},
    "Export": {"Schema", "Analysis", "Dialect", "Utils", "Transforms",
               "Conversion", "Pipelines", "StableHLO", "Export"},
    "Runtime": {"Schema", "Runtime"},
}
LAYERS = ["Schema", "Analysis", "StableHLO", "Dialect", "Utils", "Transforms",
          "Conversion", "Pipelines", "Import", "Export"]
# Directories whose code may use every layer.
TOP = "Tool"

SOURCE_EXTS = (".cpp", ".h", ".td", ".inc", ".c")
SOURCE_DIRS = ("lib", "include", "tools", "unittests", "fuzz", "runtime")


def header_layer(path):
    """The layer of an include path rooted at include/ ("SdpaDialect/...")."""
    parts = path.split("/")
    if parts[0] == "SdpaSchema":
        return "Schema"
    if len(parts) >= 3 and parts[1] in LAYERS:
        return parts[1]
    if len(parts) == 2 and parts[1].startswith("SdpaPasses."):
        return "Transforms"  # the Transforms passes' ODS and header
    if len(parts) == 2:
        return "Dialect"  # SdpaOps.h, SdpaAttrs.h, AttentionShape.h, ...
    return None


def file_layer(rel):
    """The layer a file of the tree (a repository-relative path) sits in."""
    parts = rel.split("/")
    if parts[0] == "runtime":
        return "Runtime"
    if parts[0] in ("tools", "fuzz"):
        return TOP
    if parts[0] in ("lib", "unittests") and len(parts) >= 2:
        return parts[1] if parts[1] in LAYERS else TOP
    if parts[0] == "include" and len(parts) >= 3:
        return header_layer("/".join(parts[1:]))
    return None


def allowed(src, dst):
    return src == TOP or dst in ALLOWED.get(src, set())


INCLUDE = re.compile(r'^\s*#?\s*include\s+["<]((?:SdpaDialect|SdpaSchema|mlir|llvm)/[^">]+)[">]')


def walk(root, dirs, exts):
    for top in dirs:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d != "build")
            for name in sorted(filenames):
                if name.endswith(exts):
                    path = os.path.join(dirpath, name)
                    yield path, os.path.relpath(path, root).replace(os.sep, "/")


def check_includes(root, errors):
    """Checks every include edge; returns the number of edges read."""
    edges = 0
    for path, rel in walk(root, SOURCE_DIRS, SOURCE_EXTS):
        src = file_layer(rel)
        if src is None:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                if src == "Schema" and not target.startswith("SdpaSchema/"):
                    edges += 1
                    errors.append(f"{rel}:{lineno}: the schema includes "
                                  f"{target} (it must stay IR-free)")
                    continue
                if src == "Runtime":
                    # The runtime has no MLIR dependency: no MLIR or LLVM
                    # header, and only headers of this tree that are IR-free.
                    if not target.startswith(("SdpaDialect/", "SdpaSchema/")):
                        edges += 1
                        errors.append(f"{rel}:{lineno}: the runtime includes "
                                      f"{target} (MLIR/LLVM)")
                    elif not ir_free(root, target):
                        edges += 1
                        errors.append(f"{rel}:{lineno}: the runtime includes "
                                      f"{target}, which includes MLIR/LLVM")
                    continue
                if not target.startswith(("SdpaDialect/", "SdpaSchema/")):
                    continue
                dst = header_layer(target)
                if dst is None:
                    continue
                edges += 1
                if not allowed(src, dst):
                    errors.append(f"{rel}:{lineno}: {src} includes {target} "
                                  f"({dst})")
    return edges


def ir_free(root, target):
    path = os.path.join(root, "include", target)
    if not os.path.exists(path):
        return True  # generated or absent: nothing to read
    with open(path, encoding="utf-8", errors="replace") as f:
        return not any(re.match(r'\s*#\s*include\s+["<](mlir|llvm)/', l)
                       for l in f)


def strip_comments(text):
    return "\n".join(l.split("#", 1)[0] for l in text.split("\n"))


DEFINE = re.compile(
    r"\b(add_library|add_executable|add_llvm_executable|add_sdpa_fuzzer|"
    r"add_public_tablegen_target|add_custom_target)\s*\(\s*([A-Za-z0-9_.-]+)")
USES = re.compile(
    r"\b(target_link_libraries|add_dependencies|add_sdpa_fuzzer)\s*\(([^)]*)\)",
    re.S)
TD_SOURCE = re.compile(r"set\s*\(\s*LLVM_TARGET_DEFINITIONS\s+([^\s)]+)\s*\)")
KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "LIBS", "STATIC", "SHARED"}


def check_links(root, errors):
    """Checks every CMake edge between targets of the tree; returns the
    number of edges read."""
    layer_of = {}
    uses = []  # (target, [deps], file, line)
    for path, rel in walk(root, SOURCE_DIRS, ("CMakeLists.txt",)):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = strip_comments(f.read())
        directory = os.path.dirname(rel)
        td = None
        events = sorted(
            [(m.start(), "td", m) for m in TD_SOURCE.finditer(text)] +
            [(m.start(), "def", m) for m in DEFINE.finditer(text)])
        for _, kind, m in events:
            if kind == "td":
                td = m.group(1)
                continue
            name = m.group(2)
            if name.startswith("${"):
                continue
            if m.group(1) == "add_public_tablegen_target" and td:
                # A tablegen target sits in the layer of its .td file.
                layer = file_layer(directory + "/" + td)
            else:
                layer = file_layer(directory + "/CMakeLists.txt")
            if layer is not None:
                layer_of[name] = layer
        for m in USES.finditer(text):
            words = m.group(2).split()
            if not words:
                continue
            line = text.count("\n", 0, m.start()) + 1
            if m.group(1) == "add_sdpa_fuzzer":
                if "LIBS" not in words:
                    continue
                deps = words[words.index("LIBS") + 1:]
            else:
                deps = words[1:]
            uses.append((words[0], [d for d in deps if d not in KEYWORDS],
                         rel, line))
    edges = 0
    for target, deps, rel, line in uses:
        src = layer_of.get(target)
        if src is None:
            continue
        for dep in deps:
            dst = layer_of.get(dep)
            if dst is None:
                if src in ("Runtime", "Schema") and dep in ("MLIR", "LLVM"):
                    errors.append(f"{rel}:{line}: the {src.lower()} target "
                                  f"{target} links {dep}")
                continue
            edges += 1
            if not allowed(src, dst):
                errors.append(f"{rel}:{line}: {target} ({src}) links {dep} "
                              f"({dst})")
    return edges


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    errors = []
    includes = check_includes(root, errors)
    links = check_links(root, errors)
    if includes == 0:
        errors.append("no #include \"SdpaDialect/...\" edge found under " +
                      root)
    if links == 0:
        errors.append("no CMake edge between this tree's targets found under "
                      + root)
    for e in errors:
        print("layering: " + e)
    if errors:
        print(f"layering: {len(errors)} edge(s) against the order "
              "Analysis <- Dialect <- Utils <- Transforms <- Conversion <- Pipelines "
              "<- Import <- tools")
        return 1
    print(f"layering: {includes} include edges and {links} CMake edges, all "
          "pointing down")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
