#!/usr/bin/env bash
# Run HERE (not on the GPU machine) before the device call: fills the ignored
# folder .artifacts/ with what the GPU machine lacks, to be passed as
# carry=[".artifacts"]:
#   .artifacts/googletest     Debian's GoogleTest sources (no gtest there)
#   .artifacts/runtime-test   the runtime's test artifacts (probe PTX from
#                             mlir-opt-22, copy kernels from nvcc)
# Kernel artifacts from sdpa-opt go to .artifacts/kernels (not made here).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .artifacts
if [ -d /usr/src/googletest ]; then
  rm -rf .artifacts/googletest
  cp -r /usr/src/googletest .artifacts/googletest
  echo "googletest sources: .artifacts/googletest"
fi
bash runtime/tests/gpu/make_artifacts.sh .artifacts/runtime-test
du -sh .artifacts
