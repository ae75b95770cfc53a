#!/usr/bin/env python3
"""An artifact of make_artifacts.py's table lowered with a 32-bit `index`.

The pipelines lower the kernels with MLIR's GPU to NVVM pipeline at a 64-bit
index, so every lane decomposition, bound and offset is 64-bit arithmetic.
This builds the other side of that question (docs/Performance.md,
"Registers"): the same gpu.module, every conversion under one LLVM type
converter of index bitwidth 32. The upstream NVGPU to NVVM pass has no index
width option, so its patterns run from a transform script
(`transform.apply_conversion_patterns.nvgpu.nvgpu_to_nvvm` under
`memref_to_llvm_type_converter {index_bitwidth = 32}`), and every other
conversion pass takes `index-bitwidth=32`; mlir-opt runs both.

The variant is an experiment, not a product: it is exact only while every
element offset of every tensor fits 31 bits, which the runtime does not
check, and its flat memrefs are 2^31 - 1 elements. It keeps the artifact's
name and manifest, so bench/time_kernels.py --baseline times it against the
64-bit one, and the emulator (sdpa-kernel-check) checks it.

  bench/index32_variant.py --out .artifacts/ab/i32 bf16_d64_win127,bwd_bf16_d64_win127_nd
  bench/index32_variant.py ... --short-ptr   # 32-bit shared pointers too

(bench/pin_occupancy.py pins a kernel of the result to more blocks an SM.)
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_artifacts  # noqa: E402

# The flat global memrefs' extent at a 64-bit index (KernelParam.h's
# kFlatExtent) and the largest a 32-bit index holds.
FLAT_EXTENT_64 = str(1 << 40)
FLAT_EXTENT_32 = str((1 << 31) - 1)

NVGPU_AT_32_BITS = """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %kernels = transform.structured.match ops{["gpu.module"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %kernels {
      transform.apply_conversion_patterns.nvgpu.nvgpu_to_nvvm
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
        {index_bitwidth = 32, use_bare_ptr_call_conv = true}
    } {legal_dialects = ["llvm", "nvvm"], partial_conversion} : !transform.any_op
    transform.yield
  }
}
"""


def lowering_passes(library, chip, features):
    """mlir-opt's passes after the transform script: the GPU to NVVM
    pipeline's, each conversion at a 32-bit index."""
    return [f"--transform-preload-library=transform-library-paths={library}",
            "--transform-interpreter", "--convert-vector-to-scf", "--convert-scf-to-cf",
            "--convert-nvvm-to-llvm", "--expand-strided-metadata", "--lower-affine",
            "--convert-arith-to-llvm=index-bitwidth=32",
            "--convert-index-to-llvm=index-bitwidth=32", "--canonicalize", "--cse",
            "--convert-gpu-to-nvvm=index-bitwidth=32 use-bare-ptr-memref-call-conv=1",
            "--canonicalize", "--cse", "--reconcile-unrealized-casts",
            f"--nvvm-attach-target=chip={chip} features={features} O=3",
            "--gpu-module-to-binary=format=isa"]


def run(cmd, **kwargs):
    res = subprocess.run(cmd, text=True, capture_output=True, **kwargs)
    if res.returncode != 0:
        sys.exit(f"{os.path.basename(cmd[0])} failed:\n{res.stderr.strip()}")
    return res.stdout


def build_variant(name, args, work):
    c = make_artifacts.CONFIGS.get(name)
    if c is None:
        sys.exit(f"{name}: not in make_artifacts.py's table")
    if make_artifacts.rule_settings(c):
        sys.exit(f"{name}: overrides the tile rule ({make_artifacts.rule_overrides(c)}); "
                 "only the rule's kernels are supported")
    # The 64-bit artifact, for its manifest.
    run([args.sdpa_opt, make_artifacts.pipeline(name, c, work), "-o", os.devnull],
        input=make_artifacts.source(name, c))
    convert = ("--convert-sdpa-to-gpu" if c.direction == make_artifacts.F
               else "--convert-sdpa-grad-to-gpu")
    kernels = run([args.sdpa_opt, "--sdpa-derive-bounds", convert, "--sdpa-strip-host"],
                  input=make_artifacts.source(name, c))
    kernels = kernels.replace(FLAT_EXTENT_64, FLAT_EXTENT_32)
    library = os.path.join(work, "nvgpu_at_32_bits.mlir")
    with open(library, "w") as f:
        f.write(NVGPU_AT_32_BITS)
    cmd = [args.mlir_opt] + (["--nvptx-short-ptr"] if args.short_ptr else [])
    binary = run(cmd + lowering_passes(library, args.chip, args.features), input=kernels)
    written = os.path.join(work, name + ".variant")
    os.makedirs(written)
    run([args.sdpa_opt, f"--sdpa-write-artifact=dir={written}", "-o", os.devnull],
        input=binary)
    (ptx,) = [f for f in os.listdir(written) if f.endswith(".ptx")]
    shutil.copy(os.path.join(written, ptx), os.path.join(args.out, name + ".ptx"))
    shutil.copy(os.path.join(work, name + ".manifest"), args.out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("names", help="comma-separated names of make_artifacts.py's table")
    p.add_argument("--out", required=True)
    p.add_argument("--sdpa-opt", default="build/bin/sdpa-opt")
    p.add_argument("--mlir-opt", default=shutil.which("mlir-opt")
                   or "/usr/lib/llvm-22/bin/mlir-opt")
    p.add_argument("--chip", default="sm_80")
    p.add_argument("--features", default="+ptx80")
    p.add_argument("--short-ptr", action="store_true",
                   help="32-bit shared-memory pointers too (--nvptx-short-ptr)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.names.split(","):
        with tempfile.TemporaryDirectory() as work:
            build_variant(name, args, work)
        print(f"{name}: {os.path.join(args.out, name)}.ptx")


if __name__ == "__main__":
    main()
