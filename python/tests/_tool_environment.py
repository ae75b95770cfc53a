"""The environment for the tools a test starts (sdpa-opt, the bench scripts)
and where ptxas is."""

import os
import shutil


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
