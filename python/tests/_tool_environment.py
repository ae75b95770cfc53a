"""The environment for the tools a test starts (sdpa-opt, the bench scripts)."""

import os


def tool_environment():
    """This process's environment without LD_PRELOAD: scripts/sanitize.sh
    preloads the ASan runtime into the interpreters of the tests labelled
    loads-runtime (they load the instrumented runtime library), and an
    instrumented sdpa-opt that inherited it would hold two ASan runtimes."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
