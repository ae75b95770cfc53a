#!/usr/bin/env bash
# Runs kernel artifacts on the PTX emulator (emulator/) against the float64
# reference: compiles bench/make_artifacts.py's configurations (all of them,
# or the comma list in $5 / SDPA_EMULATED_CONFIGS) with sdpa-opt, then runs
# sdpa-kernel-check over them with the emulator's libcuda.so.1 first on the
# library path (SDPA_KERNEL_CHECK_SEED repeats a run's inputs).
#
#   check_emulated.sh SDPA_OPT KERNEL_CHECK EMULATOR_DRIVER_DIR OUT [CONFIGS]
set -euo pipefail
shopt -s nullglob
sdpa_opt=$1 kernel_check=$2 driver_dir=$3 out=$4
configs=${5:-${SDPA_EMULATED_CONFIGS:-}}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
mkdir -p "$out"
python3 "$here/../../bench/make_artifacts.py" --sdpa-opt "$sdpa_opt" \
  --out "$out" --ptxas "" ${configs:+--only "$configs"} \
  > "$out/make_artifacts.log"
# The configurations' manifests, then the imported models' (in subfolders).
manifests=("$out"/*.manifest "$out"/*/*.manifest)
if [ ${#manifests[@]} -eq 0 ]; then
  echo "check_emulated.sh: no manifest in $out (see $out/make_artifacts.log)" >&2
  exit 1
fi
LD_LIBRARY_PATH="$driver_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  exec "$kernel_check" ${SDPA_KERNEL_CHECK_SEED:+--seed "$SDPA_KERNEL_CHECK_SEED"} \
  "${manifests[@]}"
