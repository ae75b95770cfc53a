"""The tools the bench tests start: their environment, bench/make_artifacts.py
with this build's sdpa-opt, where ptxas is, and a ptxas stand-in."""

import os
import shutil
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "bench")


def tool_environment():
    """This process's environment without LD_PRELOAD: scripts/sanitize.sh
    preloads the ASan runtime into the interpreters of the tests labelled
    loads-runtime (they load the instrumented runtime library), and an
    instrumented sdpa-opt that inherited it would hold two ASan runtimes."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def find_ptxas():
    """ptxas as CMake found it (SDPA_PTXAS, python/CMakeLists.txt), else on
    PATH, else None."""
    return os.environ.get("SDPA_PTXAS") or shutil.which("ptxas")


def make_artifacts(out, *args):
    """bench/make_artifacts.py --out `out` with SDPA_OPT (ctest sets it) and
    `args`, run to completion."""
    return subprocess.run([sys.executable, os.path.join(BENCH, "make_artifacts.py"),
                           "--sdpa-opt", os.environ.get("SDPA_OPT", "sdpa-opt"),
                           "--out", out, *args],
                          capture_output=True, text=True, env=tool_environment())


def fake_ptxas(directory, name, frames):
    """A ptxas stand-in `directory`/`name` that prints, as ptxas -v does for
    -arch=ARCH, one kernel sdpa_fwd_0 of 128 registers whose line of stack
    frame and spills is frames[ARCH]."""
    path = os.path.join(directory, name)
    cases = "".join(f"  *-arch={arch}*) frame='{line}' ;;\n" for arch, line in frames.items())
    with open(path, "w") as f:
        f.write("#!/bin/sh\ncase \"$*\" in\n" + cases + "esac\n"
                "echo \"ptxas info    : Compiling entry function 'sdpa_fwd_0' for 'sm_x'\" >&2\n"
                "echo \"    $frame\" >&2\n"
                "echo \"ptxas info    : Used 128 registers, used 1 barriers\" >&2\n")
    os.chmod(path, 0o755)
    return path
