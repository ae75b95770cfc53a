#!/usr/bin/env bash
# Compiles the bundled gpt-oss example with the built sdpa-opt: prints the
# derived schedule maps (in the IR) and the concrete tile schedule, then
# lowers the forward to sm_80 PTX + manifest (docs/Artifact.md) in
# build/artifacts/ and, where CUDA's ptxas exists, assembles it.
set -euo pipefail
cd "$(dirname "$0")/.."
input=${1:-examples/gpt-oss.mlir}
echo "== derived schedule of $input (Tq = 128, Tk = 64)"
build/bin/sdpa-opt "$input" -mlir-print-op-on-diagnostic=false -canonicalize \
  -sdpa-derive-bounds="tile-q=128 tile-kv=64" \
  -sdpa-print-schedule

echo "== lowering examples/gpt-oss-forward.mlir to sm_80 PTX"
mkdir -p build/artifacts
build/bin/sdpa-opt examples/gpt-oss-forward.mlir -o /dev/null \
  --sdpa-forward-pipeline="artifact-dir=build/artifacts artifact-name=gpt_oss_forward"
grep -v '^param' build/artifacts/gpt_oss_forward.manifest
echo "PTX: build/artifacts/gpt_oss_forward.ptx ($(grep -c 'mma.sync' build/artifacts/gpt_oss_forward.ptx) mma.sync)"
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ -x "$ptxas" ]; then
  "$ptxas" -arch=sm_80 -v build/artifacts/gpt_oss_forward.ptx -o /dev/null 2>&1 | grep -E "registers|spill"
fi
