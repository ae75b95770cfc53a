#!/usr/bin/env python3
"""The kernel cache (sdpa.kernels): compile once per configuration, lookups,
stale entries, the missing-configuration message and its command.

Needs sdpa-opt ($SDPA_OPT; ctest sets it). No torch, no GPU.
"""

import io
import os
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(PACKAGE)
sys.path.insert(0, PACKAGE)
from sdpa import kernels  # noqa: E402
from sdpa.config import select  # noqa: E402

SDPA_OPT = os.environ.get("SDPA_OPT")
FWD = select("forward", "bf16", 64, 127, 0)
BWD = select("backward", "bf16", 64, 127, 0, deterministic=True)


@unittest.skipUnless(SDPA_OPT and os.path.isfile(SDPA_OPT), "needs SDPA_OPT (sdpa-opt)")
class CacheTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.tmp.name, "cache")
        env = {"SDPA_KERNEL_PATH": "", "SDPA_CACHE_DIR": self.root}
        self.env = mock.patch.dict(os.environ, env)
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def make_reference(self, name):
        """bench/make_artifacts.py's artifact `name`, compiled into a fresh
        folder under the test's; returns the folder."""
        ref = os.path.join(self.tmp.name, "ref")
        res = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_artifacts.py"),
                              "--sdpa-opt", SDPA_OPT, "--out", ref, "--only", name],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        return ref

    def assert_same_ptx(self, ref, name, path):
        """The PTX of the reference artifact `name` is the cached manifest
        `path`'s, byte for byte."""
        with open(os.path.join(ref, name + ".ptx")) as a, \
                open(path[: -len("manifest")] + "ptx") as b:
            self.assertEqual(a.read(), b.read())

    def stale_error(self, cache, config, path, text):
        """The StaleKernelError's message once the manifest `path` reads
        `text` and the cache is asked for `config`."""
        with open(path, "w") as f:
            f.write(text)
        with self.assertRaises(kernels.StaleKernelError) as cm:
            cache.manifest(config)
        return str(cm.exception)

    def test_compiles_once_and_matches_make_artifacts(self):
        cache = kernels.KernelCache(sdpa_opt=SDPA_OPT)
        path = cache.manifest(FWD)
        self.assertEqual(path, os.path.join(self.root, "v1", FWD.key + ".manifest"))
        self.assertEqual(cache.manifest(FWD), path)
        self.assertEqual(cache.compiled, [FWD])
        # Another process (a fresh cache object, no sdpa-opt) finds it.
        again = kernels.KernelCache(sdpa_opt=None)
        self.assertEqual(again.manifest(FWD), path)
        self.assertEqual(again.compiled, [])
        self.assertEqual(sorted(os.listdir(os.path.join(self.root, "v1"))),
                         [FWD.key + ".manifest", FWD.key + ".ptx"])
        # The configuration is the one the GPU checks cover: the same PTX as
        # bench/make_artifacts.py's bf16_d64_win127, the same manifest but
        # for the PTX file's name.
        ref = self.make_reference("bf16_d64_win127")
        self.assert_same_ptx(ref, "bf16_d64_win127", path)
        with open(os.path.join(ref, "bf16_d64_win127.manifest")) as a, open(path) as b:
            self.assertEqual(a.read().replace("ptx bf16_d64_win127.ptx", f"ptx {FWD.key}.ptx"),
                             b.read())
        header, kernel_list = kernels.read_manifest(path)
        self.assertEqual(header["band"], "127 0 top_left")
        self.assertEqual(kernel_list, [("sdpa_fwd_0", "forward")])

    def test_stale_entries_are_errors(self):
        cache = kernels.KernelCache(sdpa_opt=SDPA_OPT)
        path = cache.manifest(FWD)
        with open(path) as f:
            text = f.read()
        band = text.replace("band 127 0 top_left", "band 128 0 top_left")
        self.assertEqual(self.stale_error(cache, FWD, path, band),
                         f"{path}: band is '128 0 top_left', but its key {FWD.key} says "
                         "'127 0 top_left' (a stale or misplaced artifact: delete it to rebuild)")
        self.assertRegex(self.stale_error(cache, FWD, path,
                                          text.replace("scale 0.125", "scale 0.25")),
                         "scale is '0.25', but its key")
        with open(path, "w") as f:
            f.write(text)
        os.remove(path[: -len("manifest")] + "ptx")
        with self.assertRaisesRegex(kernels.StaleKernelError, "its PTX .* is missing"):
            cache.manifest(FWD)

    def test_softcap_kernels(self):
        # Gemma 2's cap: compiled with the cap in the manifest, byte for byte
        # bench/make_artifacts.py's (one writer of the op's text, sdpa.config);
        # an artifact whose cap differs from its key's is stale.
        cache = kernels.KernelCache(sdpa_opt=SDPA_OPT)
        capped = select("backward", "f16", 64, 127, 0, deterministic=True, softcap=2.0)
        path = cache.manifest(capped)
        header, _ = kernels.read_manifest(path)
        self.assertEqual(header["softcap"], "2")
        self.assert_same_ptx(self.make_reference("bwd_f16_d64_win127_softcap2_det"),
                             "bwd_f16_d64_win127_softcap2_det", path)
        with open(path) as f:
            text = f.read()
        self.assertEqual(self.stale_error(cache, capped, path,
                                          text.replace("softcap 2\n", "softcap 3\n")),
                         f"{path}: softcap is '3', but its key {capped.key} says 2 (a stale or "
                         "misplaced artifact: delete it to rebuild)")
        self.assertRegex(self.stale_error(cache, capped, path, text.replace("softcap 2\n", "")),
                         "softcap is 'none', but its key")
        # The uncapped kernel under a capped key, and the reverse.
        plain = cache.manifest(FWD)
        os.replace(plain, os.path.join(os.path.dirname(plain),
                                       select("forward", "bf16", 64, 127, 0, softcap=50.0).key
                                       + ".manifest"))
        with self.assertRaisesRegex(kernels.StaleKernelError, "softcap is 'none', but its key"):
            cache.manifest(select("forward", "bf16", 64, 127, 0, softcap=50.0))

    def test_index_width_kernels(self):
        # The 32-bit kernel under its 64-bit twin's key, and the reverse: the
        # width is the manifest's `index_bits` (absent: 64).
        cache = kernels.KernelCache(sdpa_opt=SDPA_OPT)
        path = cache.manifest(FWD)
        with open(path) as f:
            text = f.read()
        self.assertIn("\nindex_bits 32\n", text)
        with open(path.replace(FWD.key, FWD.wide().key), "w") as f:
            f.write(text)
        with self.assertRaisesRegex(kernels.StaleKernelError,
                                    "index_bits is '32', but its key .* says '64'"):
            cache.manifest(FWD.wide())
        with open(path, "w") as f:
            f.write(text.replace("index_bits 32\n", ""))
        with self.assertRaisesRegex(kernels.StaleKernelError,
                                    "index_bits is None, but its key .* says '32'"):
            cache.manifest(FWD)

    def test_sinks_kernels(self):
        # gpt-oss's sinks (the JAX function's `sinks=`): compiled with `sinks 1`;
        # the sink-less kernel under a sinks key is stale (it would drop the
        # sink column), and the reverse.
        cache = kernels.KernelCache(sdpa_opt=SDPA_OPT)
        sinks = select("forward", "bf16", 64, 127, 0, sinks=True)
        path = cache.manifest(sinks)
        header, _ = kernels.read_manifest(path)
        self.assertEqual(header["sinks"], "1")
        plain = cache.manifest(FWD)
        with open(plain) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text)
        with self.assertRaises(kernels.StaleKernelError) as cm:
            cache.manifest(sinks)
        self.assertEqual(str(cm.exception),
                         f"{path}: sinks is None, but its key {sinks.key} says '1' (a stale or "
                         "misplaced artifact: delete it to rebuild)")
        with open(plain, "w") as f:
            f.write(text.replace("varlen 0\n", "varlen 0\nsinks 1\n"))
        with self.assertRaisesRegex(kernels.StaleKernelError, "sinks is '1', but its key"):
            cache.manifest(FWD)

    def test_missing_configuration_says_which_and_the_command_builds_it(self):
        cache = kernels.KernelCache(sdpa_opt=None)
        with self.assertRaises(kernels.MissingKernelError) as cm:
            cache.manifest(BWD)
        message = str(cm.exception)
        self.assertEqual(message, (
            "no kernel for backward bf16 head_dim 64 band(left=127, right=0, top_left) dense "
            f"scale 0.125 deterministic, 32-bit index (key {BWD.key}): not in {os.path.join(self.root, 'v1')}, "
            "and no sdpa-opt to compile it (set SDPA_OPT or put sdpa-opt on PATH). Build it where "
            "sdpa-opt is installed with `python3 -m sdpa.kernels build --out DIR "
            f"{BWD.key}` and set SDPA_KERNEL_PATH=DIR here"))
        # The command, as the message gives it (python3 -m sdpa.kernels ...).
        out = os.path.join(self.tmp.name, "prebuilt")
        command = message.split("`")[1].replace("DIR", out).split()
        res = subprocess.run([sys.executable] + command[1:], cwd=PACKAGE, capture_output=True,
                             text=True, env=dict(os.environ, SDPA_OPT=SDPA_OPT))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertRegex(res.stdout, rf"^\[1/1\] {BWD.key}: compiled in [0-9.]+ s\n1 of 1 in ")
        with mock.patch.dict(os.environ, {"SDPA_KERNEL_PATH": out}):
            found = kernels.KernelCache(sdpa_opt=None).manifest(BWD)
        self.assertEqual(found, os.path.join(out, BWD.key + ".manifest"))
        header, kernel_list = kernels.read_manifest(found)
        self.assertEqual((header["direction"], header["deterministic"]), ("backward", "1"))
        # A band of 128 keys at d 64: the default dq-mode recomputes dQ
        # (bwd_dq, docs/Semantics.md §4.5).
        self.assertEqual([r for _, r in kernel_list], ["bwd_preprocess", "bwd_main",
                                                       "bwd_dq"])
        # A second build skips what is there.
        log = io.StringIO()
        self.assertEqual(kernels._build([BWD], out, SDPA_OPT, log), 0)
        self.assertEqual(log.getvalue(), f"[1/1] {BWD.key}: present\n")

    def test_a_refused_configuration_is_reported(self):
        fake = os.path.join(self.tmp.name, "fake-sdpa-opt")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'error: tile-kv: not today' >&2\nexit 1\n")
        os.chmod(fake, 0o755)
        with self.assertRaises(RuntimeError) as cm:
            kernels.KernelCache(sdpa_opt=fake).manifest(FWD)
        self.assertEqual(str(cm.exception), f"sdpa-opt refused {FWD.key} ({FWD.describe()}): "
                                            "error: tile-kv: not today")
        self.assertEqual(os.listdir(os.path.join(self.root, "v1")), [])  # nothing left behind
        log = io.StringIO()
        self.assertEqual(kernels._build([FWD, BWD], self.root, fake, log, jobs=2), 2)
        lines = log.getvalue().splitlines()
        self.assertEqual([line[:6] for line in lines], ["[1/2] ", "[2/2] "])
        self.assertTrue(all("REFUSED: sdpa-opt refused" in line for line in lines), lines)

    def test_cli(self):
        res = subprocess.run([sys.executable, "-m", "sdpa.kernels", "list"], cwd=PACKAGE,
                             capture_output=True, text=True)
        self.assertEqual(res.stdout.split(), [c.key for c in kernels.COMMON])
        res = subprocess.run([sys.executable, "-m", "sdpa.kernels", "build", "--out",
                              self.root, "fwd-bf16-d64"], cwd=PACKAGE, capture_output=True,
                             text=True)
        self.assertEqual(res.returncode, 2)
        self.assertIn("key: 'fwd-bf16-d64' is not a kernel configuration key", res.stderr)


PTXAS = os.environ.get("SDPA_PTXAS")


@unittest.skipUnless(SDPA_OPT and os.path.isfile(SDPA_OPT) and PTXAS, "needs sdpa-opt and ptxas")
class PrebuiltSpillTest(unittest.TestCase):
    def test_select_widths_assemble_without_spills_for_sm_80(self):
        # The configurations the frontends select (the prebuilt set at
        # select's index width: the tile rule and default_index_bits), as
        # bench/make_artifacts.py's table: no stack frame for sm_80. (Their
        # 64-bit twins serve only calls past 2^31 - 1 elements; the causal
        # packed d 64 backward's spills 40 bytes there.)
        sys.path.insert(0, os.path.join(ROOT, "bench"))
        from ptxas_resources import kernel_resources
        configs = [c for c in kernels.COMMON if c == select(
            c.direction, c.dtype, c.head_dim, c.left, c.right, c.align, c.varlen,
            c.deterministic, c.scale, c.softcap, c.sinks)]
        self.assertEqual(len(configs), len(kernels.COMMON) // 2)
        with tempfile.TemporaryDirectory() as out:
            self.assertEqual(kernels._build(configs, out, SDPA_OPT, log=io.StringIO(),
                                            jobs=os.cpu_count() or 1), 0)

            def spills(cfg):
                found = kernel_resources(PTXAS, "sm_80", os.path.join(out, cfg.key + ".ptx"))
                return [f"{cfg.key} {k}: {r.frame_line}" for k, r in found.items() if r.spills]
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                found = [line for lines in pool.map(spills, configs) for line in lines]
        self.assertEqual(found, [])


class DefaultsTest(unittest.TestCase):
    def test_cache_dir(self):
        with mock.patch.dict(os.environ, {"SDPA_CACHE_DIR": "/x/y"}):
            self.assertEqual(kernels.default_cache_dir(), "/x/y")
        with mock.patch.dict(os.environ, {"SDPA_CACHE_DIR": "", "XDG_CACHE_HOME": "/c"}):
            self.assertEqual(kernels.default_cache_dir(), "/c/sdpa-dialect")

    def test_search_path(self):
        with mock.patch.dict(os.environ, {"SDPA_KERNEL_PATH": "/a:/b"}):
            cache = kernels.KernelCache(root="/r", sdpa_opt=None)
        self.assertEqual(cache.search_path, ["/a", "/b"])
        self.assertEqual(cache.dir, "/r/v1")


if __name__ == "__main__":
    unittest.main()
