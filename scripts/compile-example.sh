#!/usr/bin/env bash
# Compiles an example with the built sdpa-opt: derives the schedule maps
# (printed in the IR) and prints the concrete tile schedule.
set -euo pipefail
cd "$(dirname "$0")/.."
input=${1:-examples/gpt-oss.mlir}
echo "== derived schedule of $input (Tq = 128, Tk = 64)"
build/bin/sdpa-opt "$input" -mlir-print-op-on-diagnostic=false -canonicalize \
  -sdpa-derive-bounds="tile-q=128 tile-kv=64" \
  -sdpa-print-schedule
