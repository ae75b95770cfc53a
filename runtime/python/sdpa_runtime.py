"""The runtime's ctypes wrapper under its old name, for the bench scripts.

The wrapper is the Python package's `sdpa.runtime` (python/sdpa/runtime.py,
docs/Frontends.md); this module puts the checkout's python/ folder first on
sys.path and re-exports it, so `import sdpa_runtime` from runtime/python
keeps working without installing the package.
"""

import os
import sys

_PACKAGE_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
if os.path.realpath(_PACKAGE_ROOT) not in map(os.path.realpath, sys.path):
    sys.path.insert(0, _PACKAGE_ROOT)

from sdpa.runtime import *  # noqa: E402,F401,F403
from sdpa.runtime import __all__  # noqa: E402,F401
