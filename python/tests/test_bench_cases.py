#!/usr/bin/env python3
"""The benchmark's case-to-artifact matching without a GPU
(bench/bench_cases.py): a sinks or softcap artifact never times a case
without them nor the reverse, the band and head dim must agree, and both
alignments serve the square cases; and the traffic model counts GQA's
smaller K and V."""

import os
import sys
import unittest
from types import SimpleNamespace

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "bench")
sys.path.insert(0, BENCH)

import shutil  # noqa: E402
import tempfile  # noqa: E402

from bench_cases import (Case, artifact_matches, read_overrides,  # noqa: E402
                         write_overrides)


def art(d=64, left=127, right=0, dtype="bf16", softcap=None, sinks=False, varlen=False):
    """The fields of sdpa.runtime.Artifact that the matching reads (the
    runtime reports no cap as None, and a manifest's cap as an f32)."""
    return SimpleNamespace(dtype_name=dtype, head_dim=d, left=left, right=right,
                           softcap=softcap, sinks=sinks, varlen=varlen)


GPTOSS = Case("gpt-oss", 2, 16, 64, 128, 8192)
SINKS = Case("gpt-oss-sinks", 2, 16, 64, 128, 8192, hkv=2, sinks=True)
HEAVY = Case("heavy", 1, 32, 128, 4096, 16384)
GEMMA = Case("gemma2", 1, 8, 256, 4096, 8192, hkv=4, softcap=50.0)


class Matching(unittest.TestCase):
    def test_plain_case_takes_plain_artifact_only(self):
        self.assertTrue(artifact_matches(GPTOSS, art()))
        self.assertTrue(artifact_matches(GPTOSS, art(dtype="f16")))
        self.assertFalse(artifact_matches(GPTOSS, art(sinks=True)))
        self.assertFalse(artifact_matches(GPTOSS, art(softcap=2.0)))

    def test_sinks_case_takes_sinks_artifact_only(self):
        self.assertTrue(artifact_matches(SINKS, art(sinks=True)))
        self.assertFalse(artifact_matches(SINKS, art()))
        self.assertFalse(artifact_matches(SINKS, art(sinks=True, softcap=50.0)))

    def test_heavy_refuses_the_softcap_and_sinks_twins(self):
        # The table has bf16 d 128 L 4095 artifacts with a cap of 50 and with
        # sinks; sorted by name they come before the plain one.
        self.assertTrue(artifact_matches(HEAVY, art(d=128, left=4095)))
        self.assertFalse(artifact_matches(HEAVY, art(d=128, left=4095, softcap=50.0)))
        self.assertFalse(artifact_matches(HEAVY, art(d=128, left=4095, sinks=True)))

    def test_softcap_value_must_agree(self):
        self.assertTrue(artifact_matches(GEMMA, art(d=256, left=4095, softcap=50.0)))
        self.assertFalse(artifact_matches(GEMMA, art(d=256, left=4095)))
        self.assertFalse(artifact_matches(GEMMA, art(d=256, left=4095, softcap=30.0)))
        self.assertFalse(artifact_matches(GEMMA, art(d=256, left=4095, softcap=50.0,
                                                     sinks=True)))

    def test_band_head_dim_layout_dtype(self):
        self.assertFalse(artifact_matches(GPTOSS, art(left=126)))
        self.assertFalse(artifact_matches(GPTOSS, art(right=None)))
        self.assertFalse(artifact_matches(GPTOSS, art(left=None)))
        self.assertFalse(artifact_matches(GPTOSS, art(d=128)))
        self.assertFalse(artifact_matches(GPTOSS, art(varlen=True)))
        self.assertFalse(artifact_matches(GPTOSS, art(dtype="f32")))


class Traffic(unittest.TestCase):
    def test_bytes(self):
        # MHA: 4 (fwd) and 12 (fwd+bwd) tensors of B*H*S*D bf16.
        t = 2 * 16 * 8192 * 64 * 2
        self.assertEqual(GPTOSS.bytes("fwd"), 4 * t)
        self.assertEqual(GPTOSS.bytes("fwd+bwd"), 12 * t)
        # GQA 16/2: Q, O (and dO, dQ) at 16 heads, K, V (dK, dV) at 2.
        kv = 2 * 2 * 8192 * 64 * 2
        self.assertEqual(SINKS.bytes("fwd"), 2 * t + 2 * kv)
        self.assertEqual(SINKS.bytes("fwd+bwd"), 6 * t + 6 * kv)

    def test_key_is_what_anchor_jax_parses(self):
        self.assertEqual(GPTOSS.key, "gpt-oss:2:16:64:128:8192")


class Overrides(unittest.TestCase):
    def test_written_entries_read_back_and_rule_entries_leave(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        self.assertEqual(read_overrides(tmp), {})
        write_overrides(tmp, {"a_acc": "dq_mode=accumulate", "b": ""})
        write_overrides(tmp, {"c": "tile_q=32 tile_kv=64"})
        self.assertEqual(read_overrides(tmp), {"a_acc": "dq_mode=accumulate",
                                               "c": "tile_q=32 tile_kv=64"})
        # Recompiled by the rule: the entry goes; the last one removes the file.
        write_overrides(tmp, {"a_acc": ""})
        self.assertEqual(read_overrides(tmp), {"c": "tile_q=32 tile_kv=64"})
        write_overrides(tmp, {"c": ""})
        self.assertFalse(os.listdir(tmp))


class Report(unittest.TestCase):
    def test_report_names_the_artifacts_our_rows_timed(self):
        # bench/benchmark.py's report, from results as measure() records them
        # (no GPU: write_report reads only the records).
        import benchmark
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        args = SimpleNamespace(out=tmp, graph=False, ours_label="ours")
        fwd = "/k/bf16_d64_win127.manifest"
        rows = [
            {"case": "gpt-oss", "S": 8192, "pass": "fwd", "impl": "ours", "ms": 0.08,
             "artifact": fwd},
            {"case": "gpt-oss", "S": 8192, "pass": "fwd+bwd", "impl": "ours", "ms": 0.35,
             "artifact": fwd, "backward_artifact": "/k/bwd_bf16_d64_win127_nd.manifest"},
            {"case": "gpt-oss", "S": 8192, "pass": "fwd+bwd", "impl": "ours-det",
             "ms": 0.35, "artifact": fwd,
             "backward_artifact": "/k/bwd_bf16_d64_win127_det.manifest"},
            {"case": "gpt-oss", "S": 8192, "pass": "fwd+bwd", "impl": "flex", "ms": 0.5},
        ]
        plot = benchmark.plot
        benchmark.plot = lambda *a: None
        self.addCleanup(setattr, benchmark, "plot", plot)
        case = Case("gpt-oss", 2, 16, 64, 128, 8192)
        case.cells = lambda: 1  # (visible_cells imports torch)
        benchmark.write_report(args, [case], rows, 3e12, "test device", "0", 1.0)
        with open(os.path.join(tmp, "benchmark.md")) as f:
            text = f.read()
        self.assertIn("Artifacts timed (ours): gpt-oss: bf16_d64_win127.manifest, "
                      "bwd_bf16_d64_win127_nd.manifest, bwd_bf16_d64_win127_det.manifest.",
                      text)
        self.assertIn("| gpt-oss | 8192 | fwd+bwd | ours | 0.350 |", text)


if __name__ == "__main__":
    unittest.main()
