#!/usr/bin/env bash
# Compiles a whole model with the built sdpa-opt: a gpt-oss-like training
# step (jax.value_and_grad, two layers: a window of 128 keys, then causal)
# that JAX printed on its XLA path. Prints the attention sites the import
# found with their bands and the tile schedule of each, writes the kernels
# (PTX + manifest, docs/Artifact.md) and the rewritten module (each site an
# XLA FFI call, docs/Export.md) to build/example/ and, where CUDA's ptxas
# exists, assembles the PTX.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-test/Import/Inputs/models/gptoss_like_xla_vg.mlir}
out=build/example
rm -rf "$out" && mkdir -p "$out"

echo "== attention sites of $model"
build/bin/sdpa-opt "$model" -mlir-print-op-on-diagnostic=false -o "$out/module.mlir" \
  --sdpa-stablehlo-pipeline="lowering=artifact-dir=$out" 2> "$out/remarks.txt"
sed -nE 's/^[^:]*:([0-9]+):[0-9]+: remark: /  line \1: /p' "$out/remarks.txt"

# The schedule of each site at the tiles its kernels use (their manifests).
tiles() { # direction -> "tile-q=.. tile-kv=.."
  local m; m=$(grep -l "^direction $1\$" "$out"/*.manifest | head -n 1) || return 1
  echo "tile-q=$(sed -n 's/^tile_q //p' "$m") tile-kv=$(sed -n 's/^tile_kv //p' "$m")"
}
for direction in forward backward; do
  t=$(tiles "$direction") || continue
  echo "== $direction schedules ($t)"
  build/bin/sdpa-opt "$model" -mlir-print-op-on-diagnostic=false -o /dev/null \
    -sdpa-import-stablehlo -canonicalize -sdpa-derive-bounds="$t" -sdpa-print-schedule 2>&1 |
    if [ "$direction" = forward ]; then grep '^sdpa.schedule fwd'; else grep -E '^sdpa.schedule (bwd|relay)'; fi
done

echo "== $out/module.mlir: the model with its attention sites as FFI calls (left = -1: unbounded)"
grep -oE 'custom_call @sdpa_[a-z]+\(|artifact = "[^"]*"|left = -?[0-9]+ : i64, right = -?[0-9]+' \
  "$out/module.mlir" | paste -d ' ' - - - |
  sed -E 's/custom_call @(sdpa_[a-z]+)\(/  \1/; s/artifact = "([^"]*)"/\1:/; s/ : i64//'
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
for ptx in "$out"/*.ptx; do
  echo "== $ptx ($(grep -c 'mma.sync' "$ptx") mma.sync)"
  if [ -x "$ptxas" ]; then
    "$ptxas" -arch=sm_80 -v "$ptx" -o /dev/null 2>&1 | grep -E "registers|spill" | sort -u
  fi
done
