#!/usr/bin/env python3
"""Host-side tests of the ctypes wrapper: no torch and no GPU needed."""

import ctypes
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdpa_runtime  # noqa: E402
import sdpa.runtime as structs  # noqa: E402  (the ctypes structures)

HERE = os.path.dirname(os.path.abspath(__file__))
GPU_TESTS = os.path.join(HERE, "..", "tests", "gpu")


class WrapperTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def manifest_text(self, name):
        with open(os.path.join(GPU_TESTS, name)) as f:
            return f.read()

    def artifact(self, name, text):
        """The artifact of manifest `text`, written as `name` next to the
        copy manifests' PTX file."""
        self.write("copy_kernels.ptx", ".version 8.0\n")
        return sdpa_runtime.Artifact(self.write(name, text))

    def test_loads_and_reads_the_manifest(self):
        art = self.artifact("a.manifest", self.manifest_text("copy_thd.manifest"))
        self.assertEqual(art.head_dim, 64)
        self.assertEqual(art.tile_q, 64)
        self.assertEqual(art.dtype_name, "bf16")
        self.assertTrue(art.varlen)
        self.assertEqual(art.direction, "forward")
        self.assertIsNone(art.left)
        self.assertIsNone(art.right)
        self.assertEqual(art.align, "top_left")
        self.assertAlmostEqual(art.scale, 0.125)

    def test_band_edges(self):
        text = self.manifest_text("copy_dense.manifest").replace(
            "band inf inf top_left", "band 127 0 bottom_right")
        art = self.artifact("b.manifest", text)
        self.assertEqual((art.left, art.right, art.align), (127, 0, "bottom_right"))

    def test_manifest_errors_name_line_and_key(self):
        self.write("copy_kernels.ptx", ".version 8.0\n")
        text = self.manifest_text("copy_dense.manifest").replace("tile_q 64", "tile_q x")
        path = self.write("c.manifest", text)
        with self.assertRaises(sdpa_runtime.SdpaError) as cm:
            sdpa_runtime.Artifact(path)
        self.assertEqual(cm.exception.status, 2)
        self.assertEqual(cm.exception.message,
                         f"{path}: line 7: key 'tile_q': expected a positive integer "
                         "up to 65536, got 'x'")

    def test_missing_ptx_is_an_io_error(self):
        path = self.write("d.manifest", self.manifest_text("copy_dense.manifest"))
        with self.assertRaises(sdpa_runtime.SdpaError) as cm:
            sdpa_runtime.Artifact(path)
        self.assertEqual(cm.exception.status, 3)
        self.assertIn("key 'ptx': cannot read", cm.exception.message)

    def backward_text(self, deterministic=True, text=None):
        """copy_dense.manifest (or its variant `text`) turned into a backward
        artifact of the same attention (its one kernel as bwd_main)."""
        if text is None:
            text = self.manifest_text("copy_dense.manifest")
        return (text
                .replace("direction forward", "direction backward\ndeterministic "
                         + ("1" if deterministic else "0"))
                .replace("sdpa_copy_dense forward", "sdpa_copy_dense bwd_main"))

    def test_artifact_pair_must_be_one_attention(self):
        fwd = self.artifact("f.manifest", self.manifest_text("copy_dense.manifest"))
        det = self.artifact("b.manifest", self.backward_text())
        nd = self.artifact("n.manifest", self.backward_text(False))
        sdpa_runtime.check_artifact_pair(fwd, det)
        sdpa_runtime.check_artifact_pair(fwd, det, deterministic=True)
        sdpa_runtime.check_artifact_pair(fwd, nd, deterministic=False)
        sdpa_runtime.check_artifact_pair(fwd, None)
        cases = [
            ((det, det), "expected a forward artifact, got a backward one"),
            ((fwd, fwd), "expected a backward artifact, got a forward one"),
            ((fwd, nd, True), "expected a deterministic backward artifact"),
            ((fwd, det, False), "expected a non-deterministic backward artifact"),
        ]
        other = self.artifact("o.manifest", self.backward_text().replace(
            "band inf inf top_left", "band 127 0 top_left"))
        cases.append(((fwd, other), "left is 127, but the forward artifact"))
        scaled = self.artifact("s.manifest", self.backward_text().replace(
            "scale 0.125", "scale 0.0625"))
        cases.append(((fwd, scaled), "scale is 0.0625, but the forward artifact"))
        for args, text in cases:
            with self.assertRaises(sdpa_runtime.SdpaError) as cm:
                sdpa_runtime.check_artifact_pair(*args)
            self.assertIn(text, cm.exception.message)
            self.assertEqual(cm.exception.status, 1)

    def sinks_text(self):
        """copy_dense.manifest as an artifact compiled with sinks."""
        return (self.manifest_text("copy_dense.manifest")
                .replace("varlen 0", "varlen 0\nsinks 1")
                .replace("param lse ptr", "param lse ptr\nparam sinks ptr"))

    def test_sinks_flag(self):
        plain = self.artifact("p.manifest", self.manifest_text("copy_dense.manifest"))
        sinks = self.artifact("s.manifest", self.sinks_text())
        self.assertFalse(plain.sinks)
        self.assertTrue(sinks.sinks)
        with self.assertRaises(sdpa_runtime.SdpaError) as cm:
            sdpa_runtime.check_artifact_pair(plain, self.artifact(
                "b.manifest", self.backward_text(False, self.sinks_text())))
        self.assertIn("sinks is True, but the forward artifact", cm.exception.message)

    def test_sinks_fields_reach_the_runtime(self):
        """The ctypes structures end as the C ones do: the runtime reads the
        sinks the wrapper set (its error names their shape)."""
        art = self.artifact("s.manifest", self.sinks_text())

        def tensor(address, dtype, shape):
            t = structs.Tensor()
            t.data, t.dtype, t.rank = address, dtype, len(shape)
            stride = 1
            for i in reversed(range(len(shape))):
                t.shape[i], t.strides[i] = shape[i], stride
                stride *= shape[i]
            return t

        args = structs.ForwardArgs()
        args.layout = 0
        for i, name in enumerate(("q", "k", "v", "o")):
            setattr(args, name, tensor((i + 1) << 36, 1, (1, 4, 64, 64)))
        args.lse = tensor(5 << 36, 2, (1, 4, 64))
        lib = sdpa_runtime.load_library()
        self.assertEqual(lib.sdpaForwardCheck(art._handle, ctypes.byref(args)), 1)
        self.assertEqual(lib.sdpaGetLastError().decode(),
                         "sinks: missing, the artifact was compiled with sinks "
                         "(f32 [heads_q] = [4])")
        args.sinks = tensor(6 << 36, 2, (3,))
        self.assertEqual(lib.sdpaForwardCheck(art._handle, ctypes.byref(args)), 1)
        self.assertEqual(lib.sdpaGetLastError().decode(),
                         "sinks: expected shape [4] (heads_q), got [3]")
        args.sinks = tensor(6 << 36, 2, (4,))
        self.assertEqual(lib.sdpaForwardCheck(art._handle, ctypes.byref(args)), 0)

        bwd = structs.BackwardArgs()
        sizes = structs.WorkspaceSizes()
        bwd.layout = 0
        for i, name in enumerate(("q", "k", "v", "o", "dout", "dq", "dk", "dv")):
            setattr(bwd, name, tensor((i + 1) << 36, 1, (1, 4, 64, 64)))
        bwd.lse = tensor(9 << 36, 2, (1, 4, 64))
        back = self.artifact("bs.manifest", self.backward_text(False, self.sinks_text()))
        self.assertEqual(lib.sdpaBackwardWorkspace(back._handle, ctypes.byref(bwd),
                                                   ctypes.byref(sizes)), 0)
        self.assertEqual(sizes.dsink_partial_elements, 4)  # B Hq ceil(64 / 64)
        bwd.sinks = tensor(10 << 36, 2, (4,))
        self.assertEqual(lib.sdpaBackwardCheck(back._handle, ctypes.byref(bwd)), 1)
        self.assertIn("grad_sinks: missing", lib.sdpaGetLastError().decode())


if __name__ == "__main__":
    unittest.main()
