#!/usr/bin/env python3
"""Configuration selection and keys (sdpa.config): pure Python, no torch."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sdpa.config import ConfigError, HEAD_DIMS, KernelConfig, describe_dims, resolve_band, \
    select  # noqa: E402
from sdpa.schema_tables import BACKWARD_HEAD_DIMS, FORWARD_HEAD_DIMS  # noqa: E402
from sdpa.kernels import COMMON  # noqa: E402


class SelectTest(unittest.TestCase):
    def test_tiles_are_the_pipelines_rule(self):
        # No tile in any configuration select makes: the pipelines' rule
        # (lib/Analysis/KernelDefaults.cpp), as for bench/make_artifacts.py's
        # table, whose spill check covers it.
        for direction, dims in HEAD_DIMS.items():
            for d in dims:
                cfg = select(direction, "bf16", d, 127, 0)
                self.assertEqual((cfg.tile_q, cfg.tile_kv), (None, None))
                self.assertNotIn("tile-", cfg.pipeline("out"))

    def test_keys(self):
        self.assertEqual(select("forward", "bf16", 64, 127, 0).key,
                         "fwd-bf16-d64-l127-r0-tl-dense-s0.125-i32")
        self.assertEqual(select("backward", "f16", 128, None, 0, "bottom_right", varlen=True,
                                deterministic=True).key,
                         "bwd-f16-d128-linf-r0-br-thd-det-s0.0883883461-i32")
        self.assertEqual(select("forward", "f16", 128).key,
                         "fwd-f16-d128-linf-rinf-tl-dense-s0.0883883461-i32")
        # The bottom-right forwards from d 128 up stay at 64 bits (they spill
        # at 32 for sm_80): no suffix.
        self.assertEqual(select("forward", "bf16", 128, 127, 0, "bottom_right", varlen=True).key,
                         "fwd-bf16-d128-l127-r0-br-thd-s0.0883883461")

    def test_index_bits(self):
        # select's width, its 64-bit twin, the pipeline option, the key.
        cfg = select("backward", "bf16", 64, 127, 0)
        self.assertEqual(cfg.index_bits, 32)
        self.assertIn(" index-bitwidth=32", cfg.pipeline("out"))
        wide = cfg.wide()
        self.assertEqual((wide.index_bits, wide.key), (64, cfg.key[: -len("-i32")]))
        self.assertNotIn("index-bitwidth", wide.pipeline("out"))
        self.assertEqual(select("backward", "bf16", 64, 127, 0, index_bits=64), wide)
        self.assertEqual(KernelConfig.from_key(wide.key), wide)
        self.assertEqual(wide.wide(), wide)
        self.assertEqual(select("forward", "f16", 256, None, 0, "bottom_right").index_bits, 64)
        self.assertEqual(select("forward", "f16", 256, None, 0, varlen=True).index_bits, 32)
        self.assertEqual(select("forward", "f16", 96, None, 0, "bottom_right").index_bits, 32)
        self.assertEqual(select("backward", "f16", 128, None, 0, "bottom_right").index_bits, 32)
        with self.assertRaisesRegex(ConfigError, "index_bits: expected 32 or 64, got 16"):
            select("forward", "bf16", 64, index_bits=16)

    def test_scale_is_canonical(self):
        # 1/sqrt(128) and 128 ** -0.5 differ in the last bit of a double;
        # rounded to float32 (what the kernels use) they are one kernel.
        a = select("forward", "bf16", 128, scale=1 / math.sqrt(128))
        b = select("forward", "bf16", 128, scale=128 ** -0.5)
        self.assertEqual(a, b)
        self.assertEqual(select("forward", "bf16", 64, scale=0.125), select("forward", "bf16", 64))
        self.assertNotEqual(select("forward", "bf16", 64, scale=0.1).key,
                            select("forward", "bf16", 64).key)

    def test_forward_has_one_kernel_for_both_dq_modes(self):
        self.assertEqual(select("forward", "bf16", 64, deterministic=True),
                         select("forward", "bf16", 64))
        self.assertNotEqual(select("backward", "bf16", 64, deterministic=True),
                            select("backward", "bf16", 64))

    def test_keys_are_plain_file_stems(self):
        # sdpa-opt takes artifact names of letters, digits, '_', '-', '.'.
        # float32(3e10) = 14648438 * 2^11 = 30000001024 (ties to even).
        cfg = select("forward", "bf16", 64, scale=3e10)
        self.assertEqual(cfg.key, "fwd-bf16-d64-linf-rinf-tl-dense-s3.0000001e10-i32")
        self.assertEqual(KernelConfig.from_key(cfg.key), cfg)
        self.assertIn("-s9.99999975e-06-", select("forward", "bf16", 64, scale=1e-5).key)

    def test_keys_round_trip(self):
        for cfg in COMMON + (select("backward", "f16", 64, 3, 5, "bottom_right", True, True, 0.3),):
            self.assertEqual(KernelConfig.from_key(cfg.key), cfg)

    def test_common_set(self):
        # 16 attentions of three directions, 4 packed ones; Gemma 2's cap 50 at
        # two bands: three directions at d 64 and 128, at d 256 as the schema has;
        # gpt-oss's sinks: two dtypes, two bands, three directions.
        # Each at select's width (32: the set is top-left), and its 64-bit twin.
        at256 = 3 if 256 in BACKWARD_HEAD_DIMS else 1
        count = 16 * 3 + 4 * 3 + 2 * (3 + 3 + at256) + 2 * 2 * 3
        self.assertEqual(len(COMMON), 2 * count)
        self.assertEqual(len({c.key for c in COMMON}), 2 * count)
        self.assertEqual(sum(c.varlen for c in COMMON), 2 * 12)
        self.assertEqual(sum(c.softcap == 50.0 for c in COMMON), 2 * 2 * (3 + 3 + at256))
        self.assertIn("bwd-bf16-d64-l4095-r0-tl-dense-nd-s0.125-i32", [c.key for c in COMMON])
        self.assertIn("bwd-bf16-d64-l4095-r0-tl-dense-nd-s0.125", [c.key for c in COMMON])
        self.assertEqual(sum(c.sinks for c in COMMON), 2 * 2 * 2 * 3)
        self.assertEqual({c.wide() for c in COMMON if c.index_bits == 32},
                         {c for c in COMMON if c.index_bits == 64})
        self.assertIn(select("backward", "bf16", 64, 127, 0, deterministic=True, sinks=True),
                      COMMON)
        self.assertTrue(select("forward", "f16", 64, None, 0, sinks=True).key.endswith("-sinks-i32"))

    def test_softcap_is_in_the_key(self):
        # Gemma 2's cap: its own kernel, rounded to float32 like the scale; no
        # cap (None or +inf) is the uncapped kernel.
        capped = select("forward", "bf16", 256, None, 0, softcap=50.0)
        self.assertEqual(capped.key, "fwd-bf16-d256-linf-r0-tl-dense-s0.0625-c50-i32")
        self.assertEqual(KernelConfig.from_key(capped.key), capped)
        self.assertEqual(select("forward", "bf16", 64, softcap=float("inf")),
                         select("forward", "bf16", 64))
        self.assertEqual(select("backward", "f16", 64, 127, 0, softcap=0.1).softcap,
                         0.10000000149011612)
        back = select("backward", "f16", 64, 127, 0, deterministic=True, softcap=2.0)
        self.assertEqual(back.key, "bwd-f16-d64-l127-r0-tl-dense-det-s0.125-c2-i32")
        self.assertEqual(KernelConfig.from_key(back.key), back)
        self.assertIn("softcap 2", back.describe())
        self.assertIn("softcap = 2.000000000e+00 : f32", back.mlir())
        self.assertNotIn("softcap", select("forward", "bf16", 64).mlir())

    def test_head_dims_are_the_schemas(self):
        # One table (include/SdpaSchema), read through the generated module;
        # SdpaPython_schema_tables checks that the module is the schema's.
        self.assertEqual(HEAD_DIMS, {"forward": FORWARD_HEAD_DIMS,
                                     "backward": BACKWARD_HEAD_DIMS})
        for direction, dims in HEAD_DIMS.items():
            for d in dims:
                self.assertEqual(select(direction, "f16", d).head_dim, d)

    def test_bad_keys(self):
        cases = {
            "fwd-bf16-d64-l127-r0-tl-dense": "is not a kernel configuration key",
            "fwd-bf16-d64-l127-r0-tl-dense-det-s0.125": "is not a kernel configuration key",
            "bwd-bf16-d64-l127-r0-tl-dense-s0.125": "is not a kernel configuration key",
            "fwd-bf16-d64-l127-r0-tl-dense-s0.1250": "not in canonical form (expected "
                                                    "'fwd-bf16-d64-l127-r0-tl-dense-s0.125')",
        }
        for key, text in cases.items():
            with self.assertRaises(ConfigError) as cm:
                KernelConfig.from_key(key)
            self.assertIn(text, str(cm.exception), key)

    def test_mlir_states_the_configuration(self):
        text = select("backward", "f16", 64, 127, 0, "bottom_right", True, True, 0.5).mlir()
        self.assertIn("mask = #sdpa.band<left = 127, right = 0, align = bottom_right>", text)
        self.assertIn("scale = 5.00000000000000000e-01 : f64", text)
        self.assertIn("layout = #sdpa.layout<thd>", text)
        self.assertIn("deterministic", text)
        self.assertIn("tensor<?x?x64xf16>", text)
        self.assertIn("sdpa.attention_grad", text)

    def test_argument_errors(self):
        cases = [
            (lambda: select("sideways", "bf16", 64), "direction: expected 'forward' or 'backward'"),
            (lambda: select("forward", "f32", 64), "dtype: the kernels take f16 or bf16, got f32"),
            (lambda: select("forward", "bf16", 33), "head_dim: the forward kernels are compiled "
                                                    f"for {describe_dims(FORWARD_HEAD_DIMS)}, "
                                                    "got 33"),
            (lambda: select("backward", "bf16", 33), "head_dim: the backward kernels are "
                                                     "compiled for "
                                                     f"{describe_dims(BACKWARD_HEAD_DIMS)}, got 33"),
            (lambda: select("forward", "bf16", 64, softcap=0), "softcap: expected a positive "
                                                               "number (or None/inf: no cap), "
                                                               "got 0"),
            (lambda: select("forward", "bf16", 64, softcap=float("nan")), "softcap: expected a "
                                                                          "positive number"),
            (lambda: select("forward", "bf16", 64, softcap=True), "softcap: expected a positive"),
            (lambda: select("forward", "bf16", 64, scale=0), "scale: expected a positive finite"),
            (lambda: select("forward", "bf16", 64, scale=float("inf")), "scale: expected a "
                                                                        "positive finite"),
            (lambda: select("forward", "bf16", 64, scale=True), "scale: expected a positive"),
            (lambda: resolve_band(window=(-2, 0)), "window: left edge must be >= 0 (or None/-1: "
                                                   "unbounded), got -2"),
            (lambda: resolve_band(window=(1.5, 0)), "window: left edge must be an integer or "
                                                    "None, got 1.5"),
            (lambda: resolve_band(window=5), "window: expected a pair (left, right), got 5"),
            (lambda: resolve_band(True, (10, 3)), "window: causal=True needs the right edge 0 "
                                                  "or None, got 3"),
            (lambda: resolve_band(align="left"), "align: expected 'top_left' or 'bottom_right', "
                                                 "got 'left'"),
        ]
        for fn, text in cases:
            with self.assertRaises(ConfigError) as cm:
                fn()
            self.assertIn(text, str(cm.exception))

    def test_band(self):
        self.assertEqual(resolve_band(), (None, None, "top_left"))
        self.assertEqual(resolve_band(True), (None, 0, "top_left"))
        self.assertEqual(resolve_band(True, (127, None), "bottom_right"), (127, 0, "bottom_right"))
        self.assertEqual(resolve_band(False, (-1, -1)), (None, None, "top_left"))
        self.assertEqual(resolve_band(False, (3, 4)), (3, 4, "top_left"))


if __name__ == "__main__":
    unittest.main()
