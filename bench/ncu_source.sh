#!/usr/bin/env bash
# Where a kernel's warps stall, instruction by instruction: Nsight Compute's
# source counters (warp-state samples and executed instructions per SASS
# instruction) of the first launch of KERNEL when time_kernels.py runs
# artifact NAME of DIR at S = SIZE (b 2, H 16):
#
#   bench/ncu_source.sh KERNEL DIR NAME SIZE OUT
#
# writes OUT/<KERNEL>-<NAME>-<SIZE>.ncu-rep and .csv (ncu's source page, the
# SASS of the JIT-compiled kernel with a row of counters per instruction);
# bench/sass_stalls.py summarizes the CSV here, without ncu.
set -uo pipefail
kernel=$1 dir=$2 name=$3 size=$4 out=$5
here=$(cd "$(dirname "$0")" && pwd)
base="$out/$kernel-$name-$size"
ncu --clock-control none --kernel-name "$kernel" --launch-count 1 \
    --section SourceCounters --section WarpStateStats -f -o "$base" \
    python3 "$here/time_kernels.py" --artifacts "$dir" "$name" --sizes "$size" \
    --iters 1 >"$base.log" 2>&1 || { tail -20 "$base.log"; exit 1; }
ncu -i "$base.ncu-rep" --page source --csv --print-source sass >"$base.csv" 2>&1
head -c 600 "$base.csv"; echo
