#!/usr/bin/env bash
# The main job: install what is missing, build, compile the bundled gpt-oss
# example and print its derived bounds and tile schedule.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec scripts/compile-example.sh "${1:-examples/gpt-oss.mlir}"
