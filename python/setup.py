"""Installs the sdpa package and bundles the kernel runtime into it.

The metadata is in pyproject.toml; this file only adds libsdpa_runtime.so as
package data (sdpa/_lib/), taken from the first of: $SDPA_RUNTIME_LIB, the
checkout's build/lib or build-runtime/lib, or a fresh CMake build of
runtime/ (when cmake is on PATH; SDPA_BUILD_RUNTIME=0 skips it). Without any
of them the package installs without the library and sdpa.runtime says at
first use where it looked and how to build it. With $SDPA_PREBUILT_DIR the
kernel artifacts in it are bundled too (sdpa/prebuilt/, docs/Frontends.md).
"""

import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIBRARY = "libsdpa_runtime.so"


def _built_library(build_temp):
    """An existing runtime library, or one built now; None (with a note on
    stderr) when there is none."""
    env = os.environ.get("SDPA_RUNTIME_LIB")
    if env:
        if not os.path.isfile(env):
            sys.exit(f"SDPA_RUNTIME_LIB={env}: no such file")
        return env
    for build in ("build", "build-runtime"):
        candidate = os.path.join(ROOT, build, "lib", LIBRARY)
        if os.path.isfile(candidate):
            return candidate
    runtime = os.path.join(ROOT, "runtime")
    if os.environ.get("SDPA_BUILD_RUNTIME") == "0" or not os.path.isdir(runtime):
        reason = "SDPA_BUILD_RUNTIME=0" if os.path.isdir(runtime) else f"no {runtime}"
    elif shutil.which("cmake") is None:
        reason = "cmake is not on PATH"
    else:
        out = os.path.join(build_temp, "sdpa-runtime")
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        print(f"sdpa: building the runtime with cmake in {out}", file=sys.stderr)
        subprocess.check_call(["cmake", *generator, "-S", runtime, "-B", out,
                               "-DCMAKE_BUILD_TYPE=Release",
                               "-DSDPA_RUNTIME_BUILD_TESTS=OFF"])
        subprocess.check_call(["cmake", "--build", out, "--target", "SdpaRuntime"])
        return os.path.join(out, "lib", LIBRARY)
    print(f"sdpa: {LIBRARY} is not bundled ({reason}); set SDPA_RUNTIME_LIB at run time",
          file=sys.stderr)
    return None


def _bundle_prebuilt(build_lib):
    """Copies the artifacts of $SDPA_PREBUILT_DIR (a set made by
    `python3 -m sdpa.kernels prebuild`) into sdpa/prebuilt/, the folder the
    kernel cache searches after $SDPA_KERNEL_PATH."""
    source = os.environ.get("SDPA_PREBUILT_DIR")
    if not source:
        return
    if not os.path.isdir(source):
        sys.exit(f"SDPA_PREBUILT_DIR={source}: no such directory")
    target = os.path.join(build_lib, "sdpa", "prebuilt")
    os.makedirs(target, exist_ok=True)
    names = [n for n in sorted(os.listdir(source)) if n.endswith((".ptx", ".manifest"))]
    for name in names:
        shutil.copy2(os.path.join(source, name), os.path.join(target, name))
    print(f"sdpa: bundled {len(names)} prebuilt files from {source}", file=sys.stderr)


class BuildPyWithRuntime(build_py):
    def run(self):
        super().run()
        build_temp = os.path.join(os.path.dirname(self.build_lib), "temp-sdpa")
        library = _built_library(build_temp)
        if library:
            target = os.path.join(self.build_lib, "sdpa", "_lib")
            os.makedirs(target, exist_ok=True)
            shutil.copy2(library, os.path.join(target, LIBRARY))
            print(f"sdpa: bundled {library}", file=sys.stderr)
        _bundle_prebuilt(self.build_lib)


class PlatformDistribution(Distribution):
    """The wheel holds a shared library, so it is tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithRuntime}, distclass=PlatformDistribution)
