#!/usr/bin/env bash
# The main job: install what is missing, build, and compile a whole model (a
# gpt-oss-like JAX training step): the attention sites found and their
# bands, their tile schedules, the kernels and the rewritten module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec scripts/compile-example.sh "$@"
