#!/usr/bin/env python3
"""The configuration sweep's two ends without a GPU (bench/sweep_configs.py):
the table's default entries are byte for byte the benchmark's artifacts,
make_artifacts.py --sweep drops an artifact ptxas reports spills for, every
entry of the table compiles and (where ptxas exists) assembles without spills,
and bench/sweep.py parses its arguments and writes its report when it has
nothing to measure."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from _tool_environment import BENCH, fake_ptxas, find_ptxas, make_artifacts

sys.path.insert(0, BENCH)

from sweep_configs import DEFAULT, SWEEP  # noqa: E402

# The benchmark's artifact (bench/make_artifacts.py CONFIGS) of each default.
BENCHMARK_TWIN = {("gpt-oss", "fwd"): "bf16_d64_win127",
                  ("heavy", "fwd"): "bf16_d128_win4096",
                  ("gpt-oss", "bwd"): "bwd_bf16_d64_win127_nd",
                  ("gpt-oss", "det"): "bwd_bf16_d64_win127_det",
                  ("heavy", "bwd"): "bwd_bf16_d128_win4096_nd"}


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_defaults_are_the_benchmark_artifacts(self):
        for key, twin in BENCHMARK_TWIN.items():
            name = DEFAULT[key]
            a, b = os.path.join(self.tmp, "sweep"), os.path.join(self.tmp, "bench")
            res = make_artifacts(a, "--sweep", "--only", name, "--ptxas", "")
            self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
            res = make_artifacts(b, "--only", twin, "--ptxas", "")
            self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
            with open(os.path.join(a, name + ".ptx")) as f, \
                    open(os.path.join(b, twin + ".ptx")) as g:
                self.assertEqual(f.read(), g.read(), f"{name} differs from {twin}")
        # A different tile shape is different code (the comparison can fail).
        other = "sweep_gptoss_fwd_q128k64w8"
        res = make_artifacts(self.tmp, "--sweep", "--only", other, "--ptxas", "")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        with open(os.path.join(self.tmp, other + ".ptx")) as f, \
                open(os.path.join(self.tmp, "bench", "bf16_d64_win127.ptx")) as g:
            self.assertNotEqual(f.read(), g.read())

    def test_spills_are_refused(self):
        name = DEFAULT[("gpt-oss", "fwd")]
        spill = "8 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads"
        spills = fake_ptxas(self.tmp, "spills", {"sm_80": spill, "sm_90": spill})
        out = os.path.join(self.tmp, "out")
        res = make_artifacts(out, "--sweep", "--only", name, "--ptxas", spills)
        self.assertEqual(res.returncode, 1, res.stdout + res.stderr)
        self.assertIn(f"REFUSED {name}: ptxas:", res.stdout)
        self.assertIn("8 bytes spill stores", res.stdout)
        self.assertFalse(os.path.exists(os.path.join(out, name + ".ptx")))
        self.assertFalse(os.path.exists(os.path.join(out, name + ".manifest")))
        none = "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
        clean = fake_ptxas(self.tmp, "clean", {"sm_80": none, "sm_90": none})
        res = make_artifacts(out, "--sweep", "--only", name, "--ptxas", clean)
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, name + ".manifest")))

    def test_every_entry_compiles_without_spills(self):
        ptxas = find_ptxas()
        res = make_artifacts(self.tmp, "--sweep", "--ptxas", ptxas or "")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        written = sorted(f[:-len(".manifest")] for f in os.listdir(self.tmp)
                         if f.endswith(".manifest"))
        self.assertEqual(written, sorted(SWEEP))
        if not ptxas:
            self.skipTest("no ptxas: compiled, spills not checked")

    def test_sweep_script_without_artifacts(self):
        script = os.path.join(BENCH, "sweep.py")
        res = subprocess.run([sys.executable, script, "--help"], capture_output=True,
                             text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("--budget", res.stdout)
        out = os.path.join(self.tmp, "out")
        res = subprocess.run([sys.executable, script, "--artifacts",
                              os.path.join(self.tmp, "none"), "--anchors", "", "--out", out,
                              "--budget", "0"], capture_output=True, text=True)
        self.assertEqual(res.returncode, 1, res.stdout + res.stderr)  # nothing measured
        with open(os.path.join(out, "sweep.md")) as f:
            report = f.read()
        for name in SWEEP:
            self.assertIn(f"| {name} | ", report)
        self.assertEqual(report.count("| not found |"), len(SWEEP))


if __name__ == "__main__":
    unittest.main()
