#!/usr/bin/env bash
# Nsight Compute counters of every kernel of some artifacts, one folder after
# another (an A/B of a change, before and after, per kernel):
#
#   bench/ncu_kernels.sh NAME[,NAME...] SIZE DIR [DIR...] > profile.txt
#
# Runs time_kernels.py on each NAME of each DIR at S = SIZE (b 2, H 16) under
# ncu (clocks left alone: --clock-control none) and keeps the first launch of
# each kernel. A run whose ncu printed no counter shows ncu's own output
# instead, so that a failing profiler says why.
set -uo pipefail
names=$1 size=$2
shift 2
metrics=gpu__time_duration.sum,launch__registers_per_thread
metrics+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
metrics+=,smsp__inst_executed.sum
metrics+=,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__waves_per_multiprocessor
for stall in barrier long_scoreboard short_scoreboard mio_throttle wait \
             math_pipe_throttle lg_throttle not_selected; do
  metrics+=,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
done
here=$(cd "$(dirname "$0")" && pwd)
for dir in "$@"; do
  for name in ${names//,/ }; do
    echo "=== $dir $name S=$size"
    raw=$(ncu --clock-control none --kernel-name regex:sdpa --launch-count 4 \
              --metrics "$metrics" python3 "$here/time_kernels.py" \
              --artifacts "$dir" "$name" --sizes "$size" --iters 1 2>&1)
    if ! grep -E '^  sdpa|^    [a-z0-9_]+__' <<<"$raw" | sed 's/^  *//'; then
      tail -20 <<<"$raw"
    fi
  done
done
