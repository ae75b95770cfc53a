#!/usr/bin/env bash
# Builds the runtime's GPU test artifacts into $1 (default .artifacts/runtime-test):
# the probe (mma_probe.mlir; needs mlir-opt-22) and the copy kernels (needs nvcc). Each is
# skipped with a message when its tool is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-.artifacts/runtime-test}"
mkdir -p "$out"
probe="$here/mma_probe.mlir"
if command -v mlir-opt-22 >/dev/null; then
  mlir-opt-22 "$probe" --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa kernel-bare-ptr-calling-convention=1 opt-level=3" \
    | python3 "$here/extract_ptx.py" > "$out/probe.ptx"
  cp "$here/probe.manifest" "$out/"
  echo "probe artifact: $out/probe.ptx"
else
  echo "mlir-opt-22 missing: probe artifact skipped"
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
  "$nvcc" -ptx -arch=sm_80 -O3 -o "$out/copy_kernels.ptx" "$here/copy_kernels.cu"
  cp "$here/copy_dense.manifest" "$here/copy_thd.manifest" "$out/"
  echo "copy artifacts: $out/copy_kernels.ptx"
else
  echo "nvcc missing: copy artifacts skipped"
fi
