#!/usr/bin/env python3
"""The GPU scripts of the frontends run as far as this machine allows: each
parses its arguments (--help), and check_torch_op.py's CPU-only checks pass
(the argument errors, through the package as the GPU run imports it)."""

import os
import subprocess
import sys
import unittest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "bench")
SCRIPTS = ("check_torch_op.py", "check_hf_mistral.py", "check_hf_gptoss.py",
           "check_hf_gemma2.py", "check_jax_function.py")


class BenchScriptsTest(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(BENCH, args[0]), *args[1:]],
                              capture_output=True, text=True)

    def test_help(self):
        for script in SCRIPTS:
            res = self.run_script(script, "--help")
            self.assertEqual(res.returncode, 0, script + res.stderr)
            self.assertIn("usage:", res.stdout)

    def test_torch_op_cpu_checks(self):
        try:
            import torch  # noqa: F401
        except ImportError:
            self.skipTest("needs torch (python3-torch)")
        res = self.run_script("check_torch_op.py", "--cpu-only")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertIn("PASS errors: CPU tensor refused", res.stdout)


if __name__ == "__main__":
    unittest.main()
