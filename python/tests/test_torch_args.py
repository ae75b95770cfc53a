#!/usr/bin/env python3
"""Argument errors of sdpa.attention and the Hugging Face glue's checks, on
the CPU with any torch (Debian's 1.13 included): each bad argument is refused
with a message naming it before any kernel is looked up; arguments that pass
every check end at the CUDA-device check (the last one)."""

import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

CUDA = "q: expected a CUDA tensor, got one on cpu"


@unittest.skipIf(torch is None, "needs torch (python3-torch)")
class ArgumentTest(unittest.TestCase):
    def setUp(self):
        import sdpa
        self.attention = sdpa.attention
        self.q = torch.zeros(2, 4, 16, 64, dtype=torch.bfloat16)
        self.kv = torch.zeros(2, 2, 16, 64, dtype=torch.bfloat16)

    def refused(self, text, *args, exc=ValueError, **kwargs):
        args = args or (self.q, self.kv, self.kv)
        with self.assertRaises(exc) as cm:
            self.attention(*args, **kwargs)
        self.assertEqual(str(cm.exception), text)

    def test_valid_arguments_reach_the_device_check(self):
        self.refused(CUDA)
        self.refused(CUDA, causal=True, window=(127, 0), align="bottom_right", scale=0.2,
                     deterministic=True)
        self.refused(CUDA, softcap=50.0)
        self.refused(CUDA, softcap=float("inf"))
        t = torch.zeros(2, 16, 4, 64, dtype=torch.float16)
        self.refused(CUDA, t, t[:, :, :2], t[:, :, :2], layout="bshd")
        cu = torch.tensor([0, 5, 16], dtype=torch.int32)
        p = torch.zeros(16, 4, 128, dtype=torch.float16)
        self.refused(CUDA, p, p, p, layout="thd", cu_seqlens_q=cu, cu_seqlens_kv=cu,
                     max_seqlen_q=11)

    def test_tensor_errors(self):
        q, kv = self.q, self.kv
        self.refused("q: expected a torch.Tensor, got list", [1], kv, kv, exc=TypeError)
        self.refused("k: expected 4 dimensions for layout bhsd, got 3", q, kv[0], kv)
        self.refused("q: the kernels take float16 or bfloat16, got torch.float32",
                     q.float(), kv, kv)
        self.refused("k, v: expected q's dtype torch.bfloat16, got torch.float16 and "
                     "torch.bfloat16", q, kv.half(), kv)
        self.refused("v: shape [2, 2, 15, 64] differs from k's [2, 2, 16, 64]",
                     q, kv, kv[:, :, :15])
        # The schema's tables (sdpa.config.HEAD_DIMS, generated from it): a head
        # dim outside the forward's, and one only the forward has with autograd.
        from sdpa.config import HEAD_DIMS, describe_dims
        odd = torch.zeros(2, 4, 16, 33, dtype=torch.bfloat16)
        self.refused(f"q: head_dim (last dimension) must be "
                     f"{describe_dims(HEAD_DIMS['forward'])}, got 33", odd, odd, odd)
        forward_only = [d for d in HEAD_DIMS["forward"] if d not in HEAD_DIMS["backward"]]
        if forward_only:
            d = forward_only[0]
            t = torch.zeros(2, 4, 16, d, dtype=torch.bfloat16)
            self.refused(CUDA, t, t, t)
            self.refused(f"q: head_dim (last dimension) must be "
                         f"{describe_dims(HEAD_DIMS['backward'])} (with autograd), got {d}",
                         t.clone().requires_grad_(), t, t)
        big = torch.zeros(2, 2, 16, 128, dtype=torch.bfloat16)
        self.refused("k: head_dim 128 differs from q's 64", q, big, big)
        self.refused("k: batch 1 differs from q's 2", q, kv[:1], kv[:1])
        odd = torch.zeros(2, 3, 16, 64, dtype=torch.bfloat16)
        self.refused("k: query heads (4) are not a multiple of kv heads (3)", q, odd, odd)

    def test_band_and_option_errors(self):
        self.refused("window: causal=True needs the right edge 0 or None, got 4",
                     causal=True, window=(10, 4))
        self.refused("window: left edge must be >= 0 (or None/-1: unbounded), got -3",
                     window=(-3, 0))
        self.refused("align: expected 'top_left' or 'bottom_right', got 'br'", align="br")
        self.refused("layout: expected 'bhsd', 'bshd' or 'thd', got 'bsd'", layout="bsd")
        self.refused("scale: expected a positive finite number, got -1.0", scale=-1.0)
        self.refused("deterministic: expected a bool, got 1", deterministic=1, exc=TypeError)
        self.refused("softcap: expected a positive number (or None/inf: no cap), got -1.0",
                     softcap=-1.0)
        self.refused("softcap: expected a positive number (or None/inf: no cap), got 0",
                     softcap=0)
        self.refused("softcap: expected a positive number (or None/inf: no cap), got '50'",
                     softcap="50")
        self.refused("max_seqlen_q: only for layout thd", max_seqlen_q=16)

    def test_sinks_pass(self):
        # One logit per query head (Hq = 4), any float dtype, every layout.
        for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
            self.refused(CUDA, sinks=torch.zeros(4, dtype=dtype), causal=True, window=(127, 0))
        t = torch.zeros(2, 16, 4, 64, dtype=torch.float16)
        self.refused(CUDA, t, t[:, :, :2], t[:, :, :2], layout="bshd", sinks=torch.zeros(4))
        cu = torch.tensor([0, 5, 16], dtype=torch.int32)
        p = torch.zeros(16, 8, 64, dtype=torch.float16)
        self.refused(CUDA, p, p[:, :2], p[:, :2], layout="thd", cu_seqlens_q=cu,
                     cu_seqlens_kv=cu, sinks=torch.zeros(8, requires_grad=True))

    def test_sinks_errors(self):
        # Hq is 4 (q [2, 4, 16, 64]), Hkv 2: the length is the query heads'.
        self.refused("sinks: expected a torch.Tensor, got list", sinks=[0.0] * 4,
                     exc=TypeError)
        self.refused("sinks: expected shape [4] (one logit per query head), got [2, 2]",
                     sinks=torch.zeros(2, 2))
        self.refused("sinks: expected shape [4] (one logit per query head), got []",
                     sinks=torch.zeros(()))
        self.refused("sinks: expected shape [4] (one logit per query head), got [2]",
                     sinks=torch.zeros(2))
        self.refused("sinks: expected a floating-point tensor, got torch.int64",
                     sinks=torch.zeros(4, dtype=torch.long))
        # Checked before the CUDA check: a meta tensor is not on q's CPU.
        self.refused("sinks: expected q's device cpu, got meta",
                     sinks=torch.zeros(4, device="meta"))
        # bshd: the heads are dimension 2.
        t = torch.zeros(2, 16, 8, 64, dtype=torch.float16)
        self.refused("sinks: expected shape [8] (one logit per query head), got [16]",
                     t, t[:, :, :2], t[:, :, :2], layout="bshd", sinks=torch.zeros(16))

    def test_packed_sequence_errors(self):
        p = torch.zeros(16, 4, 64, dtype=torch.float16)
        cu = torch.tensor([0, 5, 16], dtype=torch.int32)
        self.refused("cu_seqlens_q: required for layout thd", p, p, p, layout="thd")
        self.refused("cu_seqlens_kv: expected a 1-D int32 tensor", p, p, p, layout="thd",
                     cu_seqlens_q=cu, cu_seqlens_kv=cu.long())
        self.refused("cu_seqlens_kv: 2 offsets, but cu_seqlens_q has 3", p, p, p, layout="thd",
                     cu_seqlens_q=cu, cu_seqlens_kv=cu[:2])
        self.refused("cu_seqlens_q: given for the dense layout bhsd (packed sequences take "
                     "layout='thd')", cu_seqlens_q=cu)
        self.refused("max_seqlen_kv: expected a non-negative integer, got -1", p, p, p,
                     layout="thd", cu_seqlens_q=cu, cu_seqlens_kv=cu, max_seqlen_kv=-1)

    def test_old_torch_is_named(self):
        from sdpa import torch_ops
        if torch_ops.HAVE_CUSTOM_OP:
            self.skipTest("this torch has torch.library.custom_op")
        # Past every argument check (CUDA faked), the op itself needs torch 2.4.
        class FakeCuda:
            type = "cuda"

            def __eq__(self, other):
                return isinstance(other, FakeCuda)

        with mock.patch.object(torch.Tensor, "device", FakeCuda()):
            self.refused("sdpa.attention needs torch >= 2.4 (torch.library.custom_op), this is "
                         f"torch {torch.__version__}", exc=RuntimeError)


@unittest.skipIf(torch is None, "needs torch (python3-torch)")
class StridesTest(unittest.TestCase):
    """Which inputs the op hands the runtime as they are (docs/Runtime.md's
    stride rules) and which it copies."""

    def test_views_the_runtime_takes_are_not_copied(self):
        from sdpa.torch_ops import _usable
        qkv = torch.zeros(2, 100, 12, 64, dtype=torch.bfloat16)  # [B, S, Hq + 2 Hkv, D]
        q, k = qkv[:, :, :8], qkv[:, :, 8:10]
        self.assertIs(_usable(q), q)
        self.assertIs(_usable(k), k)
        view = torch.zeros(2, 8, 100, 64, dtype=torch.float16).transpose(1, 2)
        self.assertIs(_usable(view), view)

    def test_other_strides_are_copied(self):
        from sdpa.torch_ops import _usable
        t = torch.zeros(2, 8, 100, 128, dtype=torch.float16)
        for bad in (t[..., ::2],                    # head dim not contiguous
                    t[:, :, :, 4:68],               # seq stride 128 ok, data 8 bytes off
                    torch.zeros(2, 8, 100, 68, dtype=torch.float16)[..., :64]):  # 136-byte rows
            got = _usable(bad)
            self.assertIsNot(got, bad)
            self.assertTrue(got.is_contiguous())
            self.assertTrue(torch.equal(got, bad))

    def test_lse_shapes(self):
        from sdpa.torch_ops import _lse_shape
        self.assertEqual(_lse_shape(torch.zeros(2, 8, 100, 64), "bhsd"), (2, 8, 100))
        self.assertEqual(_lse_shape(torch.zeros(2, 100, 8, 64), "bshd"), (2, 8, 100))
        self.assertEqual(_lse_shape(torch.zeros(300, 8, 64), "thd"), (8, 300))


@unittest.skipIf(torch is None, "needs torch (python3-torch)")
class SelectionTest(unittest.TestCase):
    """The configuration the op's implementations look up (sdpa.torch_ops._config
    and _artifact), recorded by a cache that builds nothing, and the fallback
    to the 64-bit twin (sdpa.torch_ops._run)."""

    class Recorder:
        def __init__(self):
            self.asked = []

        def manifest(self, cfg):
            self.asked.append(cfg)
            raise LookupError("recorded")

    def setUp(self):
        from sdpa import torch_ops
        self.torch_ops = torch_ops
        self.cache = self.Recorder()
        torch_ops.set_kernel_cache(self.cache)
        self.addCleanup(torch_ops.set_kernel_cache, None)

    def selected(self, direction, q, k, sinks, deterministic=False):
        cfg = self.torch_ops._config(direction, q, k, 127, 0, True, -1.0, 0.0, "bhsd",
                                     deterministic, sinks)
        with self.assertRaisesRegex(LookupError, "^recorded$"):
            self.torch_ops._artifact(cfg)
        self.assertEqual(self.cache.asked[-1], cfg)
        return cfg

    def test_index_range_falls_back_to_the_64_bit_twin(self):
        from sdpa.config import select
        from sdpa.runtime import SDPA_ERROR_INDEX_RANGE, SdpaError
        cfg = select("backward", "bf16", 64, 127, 0)
        loaded = {cfg: "narrow", cfg.wide(): "wide"}
        calls = []

        def call(art, status):
            calls.append(art)
            if art == "narrow" and status:
                raise SdpaError(status, "q: the last element's offset ...")
            return art

        with mock.patch.object(self.torch_ops, "_artifact", loaded.__getitem__):
            # Fits 32 bits: the 32-bit artifact, once.
            self.assertEqual(self.torch_ops._run(cfg, lambda a: call(a, 0)), "narrow")
            self.assertEqual(calls, ["narrow"])
            # Past it: the runtime says so before launching; the twin runs.
            calls.clear()
            self.assertEqual(self.torch_ops._run(cfg, lambda a: call(a, SDPA_ERROR_INDEX_RANGE)),
                             "wide")
            self.assertEqual(calls, ["narrow", "wide"])
            # Any other refusal is the caller's error, not retried.
            calls.clear()
            with self.assertRaisesRegex(SdpaError, r"\[invalid argument\]"):
                self.torch_ops._run(cfg, lambda a: call(a, 1))
            self.assertEqual(calls, ["narrow"])

    def test_sinks_pick_the_sinks_configuration(self):
        from sdpa.config import select
        from sdpa.kernels import COMMON
        # gpt-oss's sliding layer: bf16, d 64, window 128, Sq = Skv (top-left).
        q = torch.zeros(1, 8, 32, 64, dtype=torch.bfloat16)
        k = torch.zeros(1, 2, 32, 64, dtype=torch.bfloat16)
        sinks = torch.zeros(8)
        fwd = self.selected("forward", q, k, sinks)
        self.assertEqual(fwd, select("forward", "bf16", 64, 127, 0, sinks=True))
        self.assertEqual(fwd.key, "fwd-bf16-d64-l127-r0-tl-dense-s0.125-sinks-i32")
        bwd = self.selected("backward", q, k, sinks, deterministic=True)
        self.assertEqual(bwd.key, "bwd-bf16-d64-l127-r0-tl-dense-det-s0.125-sinks-i32")
        self.assertIn(fwd, COMMON)
        self.assertIn(bwd, COMMON)
        # Without sinks: the sink-less kernel of the same band.
        plain = self.selected("forward", q, k, None)
        self.assertFalse(plain.sinks)
        self.assertEqual(plain.key, "fwd-bf16-d64-l127-r0-tl-dense-s0.125-i32")


@unittest.skipIf(torch is None, "needs torch (python3-torch)")
class HuggingFaceMaskTest(unittest.TestCase):
    """sdpa.hf's mask check against transformers-style mask functions
    (index tensors in, visibility out), written here from their definitions."""

    def setUp(self):
        from sdpa import hf
        self.hf = hf
        self.pos = torch.arange(12)

    def check(self, fn, attention_mask=None):
        return self.hf.band_mask(batch_size=2, cache_position=self.pos, kv_length=12,
                                 mask_function=fn, attention_mask=attention_mask)

    def test_bands_pass(self):
        causal = lambda b, h, q, k: k <= q  # noqa: E731
        window = lambda b, h, q, k: (k <= q) & (k > q - 4)  # noqa: E731
        self.assertIsNone(self.check(causal))
        self.assertIsNone(self.check(window))
        self.assertIsNone(self.check(causal, torch.ones(2, 12, dtype=torch.bool)))

    def test_query_positions_of_transformers_5(self):
        # transformers 5 passes q_length/q_offset instead of cache_position.
        doc = torch.tensor([[0] * 5 + [1] * 7, [0] * 12])
        packed = lambda b, h, q, k: (k <= q) & (doc[b, q] == doc[b, k])  # noqa: E731
        causal = lambda b, h, q, k: k <= q  # noqa: E731
        args = dict(batch_size=2, kv_length=12, q_length=12, q_offset=0)
        self.assertIsNone(self.hf.band_mask(mask_function=causal, **args))
        self.assertIsNotNone(self.hf.band_mask(mask_function=packed, **args))

    def test_what_is_not_the_band_is_refused(self):
        doc = torch.tensor([[0] * 5 + [1] * 7, [0] * 12])
        packed = lambda b, h, q, k: (k <= q) & (doc[b, q] == doc[b, k])  # noqa: E731
        padding = torch.ones(2, 12, dtype=torch.bool)
        padding[1, :3] = False
        cases = [
            (self.check(packed), "the model's mask hides the key just before a query (packed "
                                 "sequences or a window of 1; call sdpa.attention with "
                                 "layout='thd' for packed sequences)"),
            (self.check(lambda b, h, q, k: k < q), "the model's mask hides a query's own key "
                                                   "(not a band)"),
            (self.check(lambda b, h, q, k: k <= q, padding),
             "attention_mask has padding (the kernels take no mask tensor: pack the sequences "
             "and call sdpa.attention with layout='thd')"),
        ]
        q = torch.zeros(2, 4, 12, 64, dtype=torch.bfloat16)
        for marker, text in cases:
            self.assertIsNotNone(marker)
            with self.assertRaises(ValueError) as cm:
                self.hf.attention_forward(None, q, q, q, marker)
            self.assertEqual(str(cm.exception), f"attention_mask: {text}")

    def test_attention_function_errors(self):
        q = torch.zeros(2, 4, 12, 64, dtype=torch.bfloat16)

        class Layer:
            is_causal = True

        with self.assertRaisesRegex(ValueError, "^dropout: dialect_attention has no attention "
                                                "dropout, got 0.1$"):
            self.hf.attention_forward(Layer(), q, q, q, None, dropout=0.1)
        # Gemma 2's softcap goes through to the op (then the device check).
        with self.assertRaisesRegex(ValueError, "^q: expected a CUDA tensor, got one on cpu$"):
            self.hf.attention_forward(Layer(), q, q, q, None, softcap=50.0)
        with self.assertRaisesRegex(ValueError, "^softcap: expected a positive number"):
            self.hf.attention_forward(Layer(), q, q, q, None, softcap=-50.0)
        # gpt-oss's sinks (s_aux, one per query head) go to the op too.
        with self.assertRaisesRegex(ValueError, "^q: expected a CUDA tensor, got one on cpu$"):
            self.hf.attention_forward(Layer(), q, q, q, None, s_aux=torch.zeros(4),
                                      sliding_window=128)
        with self.assertRaisesRegex(ValueError, r"^sinks: expected shape \[4\] \(one logit "
                                                r"per query head\), got \[2\]$"):
            self.hf.attention_forward(Layer(), q, q, q, None, s_aux=torch.zeros(2))
        # A valid call (window 4 -> left 3) reaches the device check.
        with self.assertRaisesRegex(ValueError, "^q: expected a CUDA tensor, got one on cpu$"):
            self.hf.attention_forward(Layer(), q, q, q, None, sliding_window=4, scaling=0.125)


if __name__ == "__main__":
    unittest.main()
