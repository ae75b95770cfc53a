#!/usr/bin/env bash
# Run HERE (not on the GPU machine) before the device call: fills the ignored
# folder .artifacts/ with what the GPU machine lacks, to be passed as
# carry=[".artifacts"]:
#   .artifacts/googletest     Debian's GoogleTest sources (no gtest there)
#   .artifacts/runtime-test   the runtime's test artifacts (probe PTX from
#                             mlir-opt-22, copy kernels from nvcc)
#   .artifacts/commit         the commit the run measures (the device copy
#                             has no usable git history); run_gpu.sh names
#                             the result files by it
# Kernel artifacts from sdpa-opt go to .artifacts/kernels (not made here).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .artifacts
commit=$(git rev-parse --short=7 HEAD)
git diff --quiet HEAD -- . ':!bench/results' || commit="$commit-dirty"
echo "$commit" > .artifacts/commit
echo "commit measured: $commit (.artifacts/commit)"
if [ -d /usr/src/googletest ]; then
  rm -rf .artifacts/googletest
  cp -r /usr/src/googletest .artifacts/googletest
  echo "googletest sources: .artifacts/googletest"
fi
bash runtime/tests/gpu/make_artifacts.sh .artifacts/runtime-test
du -sh .artifacts
