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
rm -rf "$work" && mkdir -p "$work/seeds" "$artifacts"
python3 fuzz/make-seeds.py "$work/seeds/ir" test examples
# The lowering fuzzer only lowers chunks with sdpa ops (test/Conversion,
# test/PTX, test/Pipelines and examples among them), plus variants the lit
# inputs lack (fuzz/seeds/lowering).
python3 fuzz/make-seeds.py --match 'sdpa\.attention' "$work/seeds/lowering" \
  test examples fuzz/seeds/lowering

# seed_max_len <floor> <dir>...: a -max_len that keeps every seed whole
# (libFuzzer cuts corpus inputs longer than -max_len: the whole-model import
# seeds are up to 75 KiB): the largest seed's size, at least <floor>.
seed_max_len() {
  local floor=$1 largest
  shift
  largest=$(find "$@" -type f -printf '%s\n' | sort -n | tail -1)
  echo $(( ${largest:-0} > floor ? ${largest:-0} : floor ))
}

summary=$build/fuzz-summary.txt
echo "# sdpa fuzzing, $(date -u +%Y-%m-%dT%H:%MZ), seed 1" > "$summary"

# run_fuzzer <target> <runs> [libFuzzer flags...] -- [seed dirs...]
run_fuzzer() {
  local target=$1 runs=$2
  shift 2
  local flags=()
  while [ "$1" != "--" ]; do flags+=("$1"); shift; done
  shift
  case " ${SDPA_FUZZ_ONLY:-$target} " in *" $target "*) ;; *) return 0 ;; esac
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
  "$bin" -seed=1 -runs="$runs" -timeout="${SDPA_FUZZ_TIMEOUT:-25}" -rss_limit_mb=3072 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
    "${flags[@]}" "$work/corpus-$target" "$@" > "$log" 2>&1 || status=$?
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

run_fuzzer sdpa-bounds-fuzzer 30000 -max_len=64 --
run_fuzzer sdpa-ir-fuzzer 150000 -max_len="$(seed_max_len 4096 "$work/seeds/ir")" -dict=fuzz/sdpa.dict -- "$work/seeds/ir"
# Most of this budget goes to the seeds: each new kernel costs about a
# second of PTX codegen, text mutations mostly stop at the parser.
run_fuzzer sdpa-lowering-fuzzer 5000 -max_len="$(seed_max_len 4096 "$work/seeds/lowering")" -dict=fuzz/sdpa.dict -- "$work/seeds/lowering"
run_fuzzer sdpa-runtime-fuzzer 200000 -max_len="$(seed_max_len 2048 fuzz/seeds/runtime)" -dict=fuzz/runtime.dict -- fuzz/seeds/runtime
if [ -x "$build/bin/sdpa-import-fuzzer" ]; then
  python3 fuzz/make-seeds.py "$work/seeds/import" test/Import test/StableHLO
  run_fuzzer sdpa-import-fuzzer 15000 -max_len="$(seed_max_len 16384 "$work/seeds/import")" -dict=fuzz/import.dict -- "$work/seeds/import"
else
  echo "sdpa-import-fuzzer: not built (needs lib/Import in the build and -DSDPA_FUZZ_IMPORTER=ON)" | tee -a "$summary"
fi
echo "fuzzing passed; summary in $summary"
