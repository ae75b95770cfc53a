#!/usr/bin/env python3
"""The package installs with Debian's tools and finds its bundled runtime.

`pip install --no-build-isolation --no-index --target DIR` of a copy of
python/ (so the checkout stays clean), then a fresh interpreter that imports
sdpa from DIR alone, with no SDPA_RUNTIME_LIB and the checkout off sys.path,
finds the bundled runtime and searches the bundled prebuilt kernels
(SDPA_PREBUILT_DIR at install time).
Needs pip and setuptools (python3-pip, python3-setuptools) and the runtime
library named by SDPA_RUNTIME_LIB (ctest sets it).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class InstallTest(unittest.TestCase):
    def test_pip_install_bundles_the_runtime(self):
        library = os.environ.get("SDPA_RUNTIME_LIB")
        if not library:
            self.fail("SDPA_RUNTIME_LIB must name the built libsdpa_runtime.so")
        with tempfile.TemporaryDirectory() as tmp:
            source, target = os.path.join(tmp, "src"), os.path.join(tmp, "site")
            shutil.copytree(PACKAGE, source,
                            ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            prebuilt = os.path.join(tmp, "prebuilt")  # stand-ins: only copied, never parsed
            os.makedirs(prebuilt)
            for name in ("k.ptx", "k.manifest", "notes.txt"):
                with open(os.path.join(prebuilt, name), "w") as f:
                    f.write(name)
            env = dict(os.environ, SDPA_BUILD_RUNTIME="0", SDPA_PREBUILT_DIR=prebuilt)
            res = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                                  "--no-index", "--no-deps", "--no-cache-dir", "--quiet",
                                  "--target", target, source],
                                 env=env, capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            bundled = os.path.join(target, "sdpa", "_lib", "libsdpa_runtime.so")
            self.assertTrue(os.path.isfile(bundled), res.stderr)
            self.assertEqual(sorted(os.listdir(os.path.join(target, "sdpa", "prebuilt"))),
                             ["k.manifest", "k.ptx"])
            env = {k: v for k, v in os.environ.items()
                   if k not in ("SDPA_RUNTIME_LIB", "PYTHONPATH")}
            env["PYTHONPATH"] = target
            probe = ("import sdpa, sdpa.runtime as r, sdpa.kernels as k; print(sdpa.__version__); "
                     "print(r.find_library()); r.load_library(); "
                     "print(k.KernelCache(sdpa_opt=None).search_path[-1])")
            res = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp,
                                 capture_output=True, text=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            version, found, searched = res.stdout.split()
            self.assertEqual(version, "0.1.0")
            self.assertEqual(os.path.realpath(found), os.path.realpath(bundled))
            self.assertEqual(os.path.realpath(searched),
                             os.path.realpath(os.path.join(target, "sdpa", "prebuilt")))

    def test_missing_library_says_where_it_looked_and_how_to_build(self):
        sys.path.insert(0, PACKAGE)
        from sdpa import runtime
        old = os.environ.pop("SDPA_RUNTIME_LIB", None)
        try:
            os.environ["SDPA_RUNTIME_LIB"] = "/nonexistent/libsdpa_runtime.so"
            with self.assertRaises(runtime.SdpaError) as cm:
                runtime.find_library()
            self.assertEqual(cm.exception.message,
                             "SDPA_RUNTIME_LIB=/nonexistent/libsdpa_runtime.so: no such file")
            del os.environ["SDPA_RUNTIME_LIB"]
            candidates = runtime.library_candidates()
            if not any(os.path.isfile(c) for c in candidates):
                with self.assertRaises(runtime.SdpaError) as cm:
                    runtime.find_library()
                self.assertIn("ninja -C build-runtime", cm.exception.message)
                self.assertIn(candidates[0], cm.exception.message)
        finally:
            os.environ.pop("SDPA_RUNTIME_LIB", None)
            if old is not None:
                os.environ["SDPA_RUNTIME_LIB"] = old


if __name__ == "__main__":
    unittest.main()
