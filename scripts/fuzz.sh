#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-22, -fsanitize=fuzzer,address,undefined
# on our code) in build-asan/ (shared with scripts/sanitize.sh) and runs each for a fixed, deterministic budget
# (-seed=1, a fixed number of runs, about a minute each on 2 cores) from a
# seed corpus made of the lit inputs. Fails on any crash, sanitizer report,
# timeout or violated invariant; the input that did it is left in
# build-asan/fuzz-artifacts/. Regression inputs in fuzz/regressions/<target>/
# are replayed first.
#   SDPA_FUZZ_SCALE  multiplies every run budget (default 1; 0.1 for a smoke run)
#   SDPA_FUZZ_JOBS   ninja -j for the build (default 2)
#   SDPA_FUZZ_RUNS   every run target's run count, replacing the budgets below
#                    (a campaign: SDPA_FUZZ_RUNS=1000000)
#   SDPA_FUZZ_ONLY   the targets to run, space-separated (default: all)
#   SDPA_FUZZ_TIMEOUT seconds per input before libFuzzer reports a timeout
#                    (default 25; wall-clock, so a campaign on a busy machine
#                    needs more)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
root=$PWD
build=$root/build-asan
jobs=${SDPA_FUZZ_JOBS:-2}
scale=${SDPA_FUZZ_SCALE:-1}

# The sanitized build of scripts/sanitize.sh (scripts/configure-asan.sh:
# ASan, UBSan and libFuzzer's coverage on our code): in CI it is built once
# for both.
scripts/configure-asan.sh "$build"
ninja -C "$build" -j "$jobs" sdpa-fuzzers

export ASAN_OPTIONS="allow_user_poisoning=0:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
work=$build/fuzz-work
artifacts=$build/fuzz-artifacts
rm -rf "$work" && mkdir -p "$work" "$artifacts"
# The seed corpora and each target's flags (one table with
# scripts/fuzz-bundle.sh).
source scripts/fuzz-targets.sh
make_fuzz_seeds "$work/seeds"

summary=$build/fuzz-summary.txt
echo "# sdpa fuzzing, $(date -u +%Y-%m-%dT%H:%MZ), seed 1" > "$summary"

# run_fuzzer <target> <runs>: the table's flags and seeds, the runs scaled.
run_fuzzer() {
  local target=$1 runs=$2
  case " ${SDPA_FUZZ_ONLY:-$target} " in *" $target "*) ;; *) return 0 ;; esac
  local line flags seeds
  # Separate assignments, so that a target the table lacks fails the run.
  line=$(fuzz_target_flags "$target" "$work/seeds" fuzz)
  seeds=$(fuzz_target_seeds "$target" "$work/seeds")
  read -r -a flags <<< "$line"
  runs=${SDPA_FUZZ_RUNS:-$(python3 -c "print(max(1, int($runs * $scale)))")}
  local bin=$build/bin/$target log=$work/$target.log
  local regressions=$root/fuzz/regressions/$target
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== $target: replaying $(ls "$regressions" | wc -l) regression inputs"
    "$bin" "${flags[@]}" "$regressions"/* > "$work/$target.regressions.log" 2>&1 || {
      tail -50 "$work/$target.regressions.log"; echo "FAIL: $target regression"; exit 1; }
  fi
  echo "== $target: $runs runs, seed 1, ${flags[*]}"
  mkdir -p "$work/corpus-$target"
  local start=$SECONDS status=0
  # shellcheck disable=SC2086
  "$bin" -seed=1 -runs="$runs" -timeout="${SDPA_FUZZ_TIMEOUT:-25}" -rss_limit_mb=3072 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
    "${flags[@]}" "$work/corpus-$target" $seeds > "$log" 2>&1 || status=$?
  if [ $status -ne 0 ]; then
    grep -v -E '^#[0-9]+ +(NEW|REDUCE|pulse)' "$log" | tail -80
    echo "FAIL: $target exited with $status; input in $artifacts/"
    exit 1
  fi
  local execs cov
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'DONE *cov: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "$target: $execs executions, coverage $cov, 0 crashes, $((SECONDS - start)) s" | tee -a "$summary"
}

run_fuzzer sdpa-bounds-fuzzer 30000
run_fuzzer sdpa-ir-fuzzer 150000
run_fuzzer sdpa-lowering-fuzzer 5000
run_fuzzer sdpa-runtime-fuzzer 200000
run_fuzzer sdpa-ptx-fuzzer 20000
if [ -x "$build/bin/sdpa-import-fuzzer" ]; then
  run_fuzzer sdpa-import-fuzzer 15000
else
  echo "sdpa-import-fuzzer: not built (needs lib/Import in the build and -DSDPA_FUZZ_IMPORTER=ON)" | tee -a "$summary"
fi
echo "fuzzing passed; summary in $summary"
