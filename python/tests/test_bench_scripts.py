#!/usr/bin/env python3
"""The GPU scripts of the frontends run as far as this machine allows: each
parses its arguments (--help), and check_torch_op.py's CPU-only checks pass
(the argument errors, through the package as the GPU run imports it);
make_artifacts.py --set compiles a table entry with one field changed under
its own name (the other side of an A/B) and lists it as an override, which
the benchmark then never times for its case; make_artifacts.py's spill check
refuses what spills for sm_80 and any sm_90 spill SM90_SPILLS does not list
exactly, and (with ptxas) the whole table passes it."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from _tool_environment import BENCH, fake_ptxas, find_ptxas, make_artifacts, tool_environment

SCRIPTS = ("check_torch_op.py", "check_hf_mistral.py", "check_hf_gptoss.py",
           "check_hf_gemma2.py", "check_jax_function.py")


class BenchScriptsTest(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(BENCH, args[0]), *args[1:]],
                              capture_output=True, text=True, env=tool_environment())

    def test_help(self):
        for script in SCRIPTS:
            res = self.run_script(script, "--help")
            self.assertEqual(res.returncode, 0, script + res.stderr)
            self.assertIn("usage:", res.stdout)

    def test_sass_stalls_sums_samples_per_opcode(self):
        # ncu's source page as CSV (a note line first, as ncu may print one):
        # 200 samples, 150 of them at the two LDSM, predicates and modifiers
        # past the first dropped from the opcode.
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write('==PROF== a note\n'
                    '"Address","Source","Warp Stall Sampling (All Samples)",'
                    '"Warp Stall Sampling (Not-issued Samples)","Instructions Executed"\n'
                    '"0x10","LDSM.16.M88.4 R4, [R2]","120","100","64"\n'
                    '"0x20","@!P0 LDSM.16.MT88.4 R8, [R3]","30","20","64"\n'
                    '"0x30","HMMA.16816.F32.BF16 R8, R4, R12, R8","50","10","128"\n')
        try:
            res = self.run_script("sass_stalls.py", f.name, "--top", "2")
        finally:
            os.unlink(f.name)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("3 instructions, 200 stall samples", res.stdout)
        self.assertIn("| LDSM.16 | 150 | 75.0% |", res.stdout)
        self.assertIn("| HMMA.16816 | 50 | 25.0% |", res.stdout)
        self.assertIn("| 120 | 60.0% | 64 | `LDSM.16.M88.4 R4, [R2]` |", res.stdout)
        self.assertNotIn("| 30 | 15.0%", res.stdout)  # --top 2
        # Executed warp-instructions per opcode: 128 of 256 each.
        self.assertIn("256 warp-instructions executed", res.stdout)
        self.assertIn("| LDSM.16 | 128 | 50.0% |", res.stdout)
        self.assertIn("| HMMA.16816 | 128 | 50.0% |", res.stdout)
        # Runs of one executed count: the two LDSM (64 each, 128 of 256),
        # then the HMMA (128).
        self.assertIn("| 0x10 | 2 | 64 | 50.0% | LDSM.16 2 |", res.stdout)
        self.assertIn("| 0x30 | 1 | 128 | 50.0% | HMMA.16816 1 |", res.stdout)

    def test_ptxas_resources_per_kernel(self):
        # ptxas -v of two kernels (as ptxas 13.0 prints them for sm_90): each
        # kernel's frame line and registers, not its neighbour's.
        sys.path.insert(0, BENCH)
        from ptxas_resources import parse
        kernels = parse(
            "ptxas info    : 0 bytes gmem\n"
            "ptxas info    : Compiling entry function 'sdpa_bwd_dq' for 'sm_90'\n"
            "ptxas info    : Function properties for sdpa_bwd_dq\n"
            "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
            "ptxas info    : Used 230 registers, used 1 barriers, 1 bytes smem\n"
            "ptxas info    : Compile time = 222.052 ms\n"
            "ptxas info    : Compiling entry function 'sdpa_bwd_main' for 'sm_90'\n"
            "ptxas info    : Function properties for sdpa_bwd_main\n"
            "    8 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads\n"
            "ptxas info    : Used 168 registers, used 1 barriers, 8 bytes cumulative stack size\n")
        self.assertEqual(list(kernels), ["sdpa_bwd_dq", "sdpa_bwd_main"])
        dq, main = kernels["sdpa_bwd_dq"], kernels["sdpa_bwd_main"]
        self.assertEqual((dq.registers, dq.spills), (230, False))
        self.assertEqual((main.registers, main.stack_frame, main.spill_stores, main.spill_loads),
                         (168, 8, 16, 8))
        self.assertTrue(main.spills)
        self.assertEqual(main.frame_line,
                         "8 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads")

    def test_spill_check_per_target(self):
        sys.path.insert(0, BENCH)
        from make_artifacts import ptxas_problem
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        clean = "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
        spill = "8 bytes stack frame, 4 bytes spill stores, 16 bytes spill loads"
        sm90 = fake_ptxas(tmp, "sm90", {"sm_80": clean, "sm_90": spill})
        ptx = [os.path.join(tmp, "a.ptx")]
        # An sm_90 spill passes only where the list gives its bytes exactly.
        self.assertEqual(ptxas_problem(sm90, "a", ptx, {}),
                         f"ptxas: sdpa_fwd_0 for sm_90: {spill}")
        self.assertEqual(ptxas_problem(sm90, "a", ptx, {("a", "sdpa_fwd_0"): 4}), "")
        self.assertEqual(ptxas_problem(sm90, "a", ptx, {("b", "sdpa_fwd_0"): 4}),
                         f"ptxas: sdpa_fwd_0 for sm_90: {spill}")
        self.assertEqual(ptxas_problem(sm90, "a", ptx, {("a", "sdpa_fwd_0"): 8}),
                         f"ptxas: sdpa_fwd_0 for sm_90: {spill}; SM90_SPILLS lists 8 bytes")
        # A listed kernel that no longer spills is reported too.
        both_clean = fake_ptxas(tmp, "clean", {"sm_80": clean, "sm_90": clean})
        self.assertEqual(ptxas_problem(both_clean, "a", ptx, {("a", "sdpa_fwd_0"): 4}),
                         f"ptxas: sdpa_fwd_0 for sm_90: {clean}; SM90_SPILLS lists 4 bytes")
        self.assertEqual(ptxas_problem(both_clean, "a", ptx, {}), "")
        # The list is for sm_90 only: an sm_80 spill is refused.
        sm80 = fake_ptxas(tmp, "sm80", {"sm_80": spill, "sm_90": spill})
        self.assertEqual(ptxas_problem(sm80, "a", ptx, {("a", "sdpa_fwd_0"): 4}),
                         f"ptxas: sdpa_fwd_0 for sm_80: {spill}")
        # Not checked for sm_90 (an A/B side: compare_registers.py reads both).
        self.assertEqual(ptxas_problem(sm90, "a", ptx, None), "")
        self.assertEqual(ptxas_problem(sm80, "a", ptx, None),
                         f"ptxas: sdpa_fwd_0 for sm_80: {spill}")
        # Through the script: refused, nothing left behind; with --set only
        # sm_80 counts.
        out = os.path.join(tmp, "out")
        res = make_artifacts(out, "--only", "bf16_d64_win127", "--ptxas", sm90)
        self.assertEqual(res.returncode, 1, res.stdout + res.stderr)
        self.assertIn(f"REFUSED bf16_d64_win127: ptxas: sdpa_fwd_0 for sm_90: {spill}",
                      res.stdout)
        self.assertFalse(os.path.exists(os.path.join(out, "bf16_d64_win127.ptx")))
        self.assertFalse(os.path.exists(os.path.join(out, "bf16_d64_win127.manifest")))
        res = make_artifacts(out, "--only", "bf16_d64_win127", "--ptxas", sm90,
                             "--set", "stages=3")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, "bf16_d64_win127.ptx")))

    def test_table_passes_the_spill_check(self):
        # Every artifact the GPU scripts use, the imported models' too:
        # no spill for sm_80, and for sm_90 exactly SM90_SPILLS.
        ptxas = find_ptxas()
        if not ptxas:
            self.skipTest("no ptxas")
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        res = make_artifacts(tmp, "--ptxas", ptxas, "--jobs", str(os.cpu_count() or 1))
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertIn(" written, 0 refused", res.stdout)

    def test_index_bitwidth_follows_the_frontends_rule(self):
        # The gpt-oss forward at the rule's width (32: sdpa.config's
        # default_index_bits, what the frontends select) and at 64 (--set
        # index_bitwidth=64, the pipeline option): the manifests differ only
        # in `index_bits 32`, and the 32-bit PTX has no 64-bit compare left
        # (the 64-bit artifact's band and copy bounds are 64-bit compares).
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        narrow, wide = os.path.join(tmp, "rule"), os.path.join(tmp, "i64")
        name = "bf16_d64_win127"
        for out, args in ((narrow, ()), (wide, ("--set", "index_bitwidth=64"))):
            res = make_artifacts(out, "--only", name, "--ptxas", "", *args)
            self.assertEqual(res.returncode, 0, res.stdout + res.stderr)

        def read(folder, ext):
            with open(os.path.join(folder, name + ext)) as f:
                return f.read()
        wide_manifest = read(wide, ".manifest")
        self.assertNotIn("index_bits", wide_manifest)
        self.assertEqual(read(narrow, ".manifest"),
                         wide_manifest.replace("varlen 0\n", "varlen 0\nindex_bits 32\n"))
        compare64 = re.compile(r"\bsetp\.\w+\.[su]64\b")
        self.assertGreater(len(compare64.findall(read(wide, ".ptx"))), 0)
        self.assertEqual(compare64.findall(read(narrow, ".ptx")), [])
        # A bottom-right d 128 forward stays at 64 bits by the rule.
        res = make_artifacts(narrow, "--only", "f16_d128_causal_br", "--ptxas", "")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        with open(os.path.join(narrow, "f16_d128_causal_br.manifest")) as f:
            self.assertNotIn("index_bits", f.read())

    def test_ptx_pressure_liveness(self):
        # A loop carrying r1 and r2, with rd2 (a base plus a literal) read
        # after it: 4 registers live through the loop (rd2 counts 2), 3 in
        # the exit block; rd1 dies at the add, the predicate counts none.
        sys.path.insert(0, BENCH)
        from ptx_pressure import block_peaks, definers, describe, parse_kernels
        ptx = (".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
               "\t.reg .pred \t%p<2>;\n\t.reg .b32 \t%r<3>;\n\t.reg .b64 \t%rd<3>;\n\n"
               "\tld.param.b64 \t%rd1, [k_param_0];\n"
               "\tadd.s64 \t%rd2, %rd1, 64;\n"
               "\tmov.b32 \t%r1, 0;\n\tmov.b32 \t%r2, 0;\n"
               "$L__BB0_1:\n"
               "\tadd.s32 \t%r2, %r2, 1;\n\tadd.s32 \t%r1, %r1, %r2;\n"
               "\tsetp.lt.u32 \t%p1, %r2, 10;\n\t@%p1 bra \t$L__BB0_1;\n"
               "\tst.global.b32 \t[%rd2], %r1;\n\tret;\n\n}\n")
        (blocks, widths), = parse_kernels(ptx).values()
        self.assertEqual([b.label for b in blocks], ["entry", "$L__BB0_1", "after line 17"])
        self.assertEqual([b.successors for b in blocks], [[1], [1, 2], []])
        peaks = block_peaks(blocks, widths)
        self.assertEqual([p.registers for p in peaks], [4, 4, 3])
        self.assertEqual(peaks[1].live, {"%rd2", "%r1", "%r2"})
        self.assertEqual(peaks[2].live, {"%rd2", "%r1"})
        self.assertEqual(describe(peaks[1], definers(blocks, widths), widths),
                         "add imm (64-bit) 2, mov 2")
        with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
            f.write(ptx)
            f.flush()
            res = self.run_script("ptx_pressure.py", f.name, "--top", "1")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("k: at most 4 registers live (PTX order)", res.stdout)

    def test_pin_occupancy_after_the_kernels_maxntid(self):
        # Two kernels: the pin goes to the named one only, after its
        # .maxntid; a kernel without one is refused.
        sys.path.insert(0, BENCH)
        from pin_occupancy import pin
        ptx = (".visible .entry sdpa_bwd_preprocess(\n.param .u64 a\n)\n"
               ".maxntid 128, 1, 1\n{\nret;\n}\n"
               ".visible .entry sdpa_bwd_main(\n.param .u64 a\n)\n"
               ".maxntid 128, 1, 1\n{\nret;\n}\n")
        pinned = pin(ptx, "sdpa_bwd_main", ".minnctapersm 3")
        self.assertEqual(pinned.count(".minnctapersm 3"), 1)
        self.assertIn("sdpa_bwd_main(\n.param .u64 a\n)\n.maxntid 128, 1, 1\n"
                      ".minnctapersm 3\n{", pinned)
        self.assertEqual(pinned.replace(".minnctapersm 3\n", ""), ptx)
        with self.assertRaises(ValueError):
            pin(ptx, "sdpa_bwd_dq", ".minnctapersm 3")
        with self.assertRaises(ValueError):
            pin(".visible .entry k(\n)\n{\nret;\n}\n.maxntid 1, 1, 1\n", "k", ".maxnreg 8")

    def test_make_artifacts_set_changes_one_field_keeps_the_name(self):
        # bf16_d64_win127 with stages=3 is the table's own bf16_d64_win127_s3
        # (compiled from its entry), written under the name bf16_d64_win127.
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)

        def make(out, *args):
            return make_artifacts(os.path.join(tmp, out), "--ptxas", "", *args)

        res = make("set", "--only", "bf16_d64_win127", "--set", "stages=3")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        res = make("table", "--only", "bf16_d64_win127_s3,bf16_d64_win127")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)

        def read(out, name, ext):
            with open(os.path.join(tmp, out, name + ext)) as f:
                return f.read()

        changed = read("set", "bf16_d64_win127", ".ptx")
        self.assertEqual(changed, read("table", "bf16_d64_win127_s3", ".ptx"))
        self.assertNotEqual(changed, read("table", "bf16_d64_win127", ".ptx"))
        # The overrides file names the artifacts that do not show the rule's
        # choice: here the --set one and the table's stages=3 entry; the
        # rule's bf16_d64_win127 is not listed.
        self.assertEqual(read("set", "overrides", ".txt"), "bf16_d64_win127 stages=3\n")
        self.assertEqual(read("table", "overrides", ".txt"), "bf16_d64_win127_s3 stages=3\n")
        # So the benchmark's gpt-oss case times the rule's forward, and none
        # from a folder whose only match overrides the rule (the runtime reads
        # the manifests: CI's SDPA_RUNTIME_LIB).
        if os.environ.get("SDPA_RUNTIME_LIB"):
            sys.path.insert(0, BENCH)
            import benchmark
            from bench_cases import Case
            gptoss = Case("gpt-oss", 2, 16, 64, 128, 8192)
            found = benchmark.find_artifacts(os.path.join(tmp, "table"), gptoss, None)
            self.assertEqual(os.path.basename(found["bf16"][0].path), "bf16_d64_win127.manifest")
            self.assertEqual(benchmark.find_artifacts(os.path.join(tmp, "set"), gptoss, None), {})
        manifest = read("set", "bf16_d64_win127", ".manifest")
        self.assertIn("\nptx bf16_d64_win127.ptx\n", manifest)
        self.assertEqual(manifest.replace("bf16_d64_win127.ptx", "X"),
                         read("table", "bf16_d64_win127_s3", ".manifest")
                         .replace("bf16_d64_win127_s3.ptx", "X"))
        # Bad settings name the problem and write nothing.
        for setting, message in (("stage=3", "expected FIELD=VALUE"),
                                 ("stages", "expected FIELD=VALUE"),
                                 ("stages=two", "stages takes an integer, got 'two'"),
                                 ("thd=1", "thd takes true or false"),
                                 ("head_dim=none", "head_dim is not optional")):
            res = make("bad", "--only", "bf16_d64_win127", "--set", setting)
            self.assertNotEqual(res.returncode, 0, setting)
            self.assertIn(message, res.stderr, setting)
        res = make("bad", "--only", "gptoss_like_cudnn_vg", "--set", "stages=3")
        self.assertIn("not to the imported model(s) gptoss_like_cudnn_vg", res.stderr)
        self.assertFalse(os.path.exists(os.path.join(tmp, "bad")))

    def test_torch_op_cpu_checks(self):
        try:
            import torch  # noqa: F401
        except ImportError:
            self.skipTest("needs torch (python3-torch)")
        res = self.run_script("check_torch_op.py", "--cpu-only")
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertIn("PASS errors: CPU tensor refused", res.stdout)

    def test_movmatrix_throughput_compiles_without_spills(self):
        # bench/movmatrix_throughput.cu (docs/Performance.md) is built on the
        # GPU machine with nvcc: here its seven patterns must compile for
        # sm_80 and sm_90 with nothing spilled, so a recorded result can be
        # reproduced from the tree.
        ptxas = find_ptxas()
        nvcc = ptxas and os.path.join(os.path.dirname(ptxas), "nvcc")
        if not nvcc or not os.access(nvcc, os.X_OK):
            self.skipTest("no nvcc beside ptxas")
        source = os.path.join(BENCH, "movmatrix_throughput.cu")
        with tempfile.TemporaryDirectory() as tmp:
            for arch in ("sm_80", "sm_90"):
                res = subprocess.run([nvcc, "-O3", f"-arch={arch}", "-cubin", "-Xptxas", "-v",
                                      "-o", os.path.join(tmp, arch + ".cubin"), source],
                                     capture_output=True, text=True, env=tool_environment())
                self.assertEqual(res.returncode, 0, res.stderr)
                self.assertEqual(len(re.findall(r"Used \d+ registers", res.stderr)), 7,
                                 res.stderr)
                self.assertEqual(len(re.findall(r" 0 bytes spill stores", res.stderr)), 7,
                                 res.stderr)


if __name__ == "__main__":
    unittest.main()
