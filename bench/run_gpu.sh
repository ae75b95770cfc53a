#!/usr/bin/env bash
# One entry point for the GPU machine: build the runtime, run its tests, check
# the forward artifacts and benchmark them against the anchors. Every step
# runs under a timeout; logs and results go to $OUT (8 files at most come
# back from the device: logs.txt, summary.txt, check_forward.md,
# check_backward.md, check_training.md, benchmark.{md,json,png}).
#
#   OUT=/tmp/out bench/run_gpu.sh                 # every step
#   STEPS="build test runtime anchors" bench/run_gpu.sh
#
# Steps: build (cmake + ninja of runtime/), test (ctest, with the probe
# artifact), runtime (bench/check_runtime.py), selftest (check_forward.py
# --self-test --quick), check (check_forward.py on $ARTIFACTS), checkbwd
# (check_backward.py on $ARTIFACTS: gradients, determinism), kernelcheck
# (runtime/check's sdpa-kernel-check --longer on $ARTIFACTS: the harness CI
# runs on the PTX emulator, here on the GPU's driver; writes
# kernel_check.txt; its processes stop after KERNELCHECK_BUDGET seconds,
# default 240; not in the default STEPS), ab
# (time_kernels.py --baseline: $AB_KERNELS, default the gpt-oss backward,
# from $AB_ARTIFACTS (default $ARTIFACTS) against $AB_BASELINE (one folder
# or several, comma-separated), default .artifacts/baseline, three
# rounds alternating at $AB_SIZES, default 16384, 16 heads; writes ab.txt;
# with AB_BASELINE_SOURCE, one baseline folder through the runtime built from
# that source tree, for an A/B across a change of the artifact format;
# not in the default STEPS), training
# (check_training.py: one SGD step of a small attention layer through the
# autograd Function, f16 d64 window 127, both backwards, against PyTorch's
# SDPA with the dense mask; not in the default STEPS), jaxstep
# (check_jax_step.py: the imported JAX training step against JAX's cuDNN
# path; not in the default STEPS), ffi (the runtime with its XLA FFI handler,
# runtime/ffi; not in the default STEPS), jaxmodels (check_jax_model.py: the
# fixture models' rewritten modules under JAX against the originals; needs
# step ffi; not in the default STEPS), torchop (check_torch_op.py: the
# PyTorch op sdpa.attention: fake tensors, opcheck, torch.compile
# fullgraph, values, a training step), hfmistral (check_hf_mistral.py:
# transformers' Mistral through sdpa.hf against its eager attention),
# hfgptoss (check_hf_gptoss.py: transformers' gpt-oss, sinks and alternating
# sliding/full layers, through sdpa.hf against eager, the sinks' gradients
# included), hfgemma2 (check_hf_gemma2.py: transformers' Gemma 2, softcap 50
# at d 256, through sdpa.hf against eager), jaxfn
# (check_jax_function.py: sdpa.jax_ops.attention against
# jax.nn.dot_product_attention; needs step ffi); these take the
# kernels of $SDPA_KERNELS (default .artifacts/sdpa-kernels, made here by
# `python3 -m sdpa.kernels prebuild --out .artifacts/sdpa-kernels` in
# python/) and are not in the default STEPS, cp (check_cp.py: context
# parallelism, every rank's kernels on one device, bitwise checks, bytes vs
# all-gather; writes check_cp.md; not in the default STEPS), sanitize
# (compute-sanitizer memcheck + racecheck, bench/sanitize_small.py), bench
# (benchmark.py, ours + anchors), anchors (benchmark.py, anchors only, for
# when no kernel artifact exists yet), sweep (sweep.py: every tile shape,
# warp count and dQ mode of bench/sweep_configs.py in $SWEEP_ARTIFACTS,
# default .artifacts/sweep, made by `bench/make_artifacts.py --sweep --out
# .artifacts/sweep`: each checked against float64 on a small case, then
# timed next to the anchors; writes sweep.{md,json}; budget SWEEP_BUDGET
# seconds, default 150; not in the default STEPS), pipes
# (bench/movmatrix_throughput.cu built with nvcc and run: the shared-memory
# and mma pipes' rates; writes pipes.txt; not in the default STEPS).
# Environment: ARTIFACTS (default .artifacts/kernels), TEST_ARTIFACTS
# (default .artifacts/runtime-test), BENCH_ARGS (extra benchmark.py args),
# T_<STEP> (a step's timeout in seconds), DEADLINE (seconds for the whole
# script, default 570: steps are trimmed to it, and skipped once it is near),
# COMMIT (the commit measured; default .artifacts/commit, which
# bench/prepare_gpu.sh writes).
#
# At the end every file in $OUT is renamed to the form bench/results keeps,
# YYYY-MM-DD-<commit>-<what>.<ext> (check_forward.md becomes
# 2026-12-01-16959d4-check-forward.md, logs.txt ...-gpu-log.txt), and the
# machine's paths in them ($OUT, the build folder, the checkout) are
# replaced by their names.
set -u
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/sdpa-gpu-out}"
mkdir -p "$OUT"
STEPS="${STEPS:-build test runtime check bench checkbwd sanitize}"
# Seconds for the whole script (the device tool allows 600 per command).
DEADLINE="${DEADLINE:-570}"
ARTIFACTS="${ARTIFACTS:-.artifacts/kernels}"
TEST_ARTIFACTS="${TEST_ARTIFACTS:-.artifacts/runtime-test}"
BUILD=/tmp/sdpa-build-runtime
COMMIT="${COMMIT:-$(cat .artifacts/commit 2>/dev/null || echo unknown)}"
LOG="$OUT/logs.txt"
SUMMARY="$OUT/summary.txt"
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false
export SDPA_RUNTIME_LIB="$BUILD/lib/libsdpa_runtime.so"
: >"$SUMMARY"
failed=0

step() { # name timeout command...
  local name=$1 limit=$2
  shift 2
  local var="T_${name^^}"
  var="${var//-/_}"
  limit="${!var:-$limit}"
  # Never run past the whole call's deadline: trim the step, or skip it.
  local remaining=$((DEADLINE - SECONDS - 10))
  if [ $remaining -lt 15 ]; then
    echo "step $name: SKIPPED (deadline ${DEADLINE}s reached)" | tee -a "$SUMMARY" "$LOG"
    failed=1
    return 0
  fi
  [ "$limit" -gt $remaining ] && limit=$remaining
  echo "===== $name ($(date -u +%H:%M:%S), limit ${limit}s): $*" | tee -a "$LOG"
  local t0=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >>"$LOG" 2>&1
  local rc=$?
  local line="step $name: rc=$rc, $((SECONDS - t0)) s"
  [ $rc -eq 124 ] && line="$line (TIMED OUT after ${limit}s)"
  echo "$line" | tee -a "$SUMMARY" "$LOG"
  [ $rc -ne 0 ] && failed=1
  return 0
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1
  echo "commit measured: $COMMIT"
} | tee -a "$SUMMARY" "$LOG"

for s in $STEPS; do
  case $s in
  build)
    gtest=""
    [ -d .artifacts/googletest ] && gtest="-DSDPA_GTEST_SOURCE_DIR=$PWD/.artifacts/googletest"
    step build 300 bash -c "cmake -G Ninja -S runtime -B $BUILD -DCMAKE_BUILD_TYPE=Release $gtest && ninja -C $BUILD" ;;
  test)
    if [ ! -f "$TEST_ARTIFACTS/copy_kernels.ptx" ] && command -v nvcc >/dev/null; then
      step artifacts 120 bash runtime/tests/gpu/make_artifacts.sh "$TEST_ARTIFACTS"
    fi
    step test 120 env SDPA_TEST_PROBE_MANIFEST="$PWD/$TEST_ARTIFACTS/probe.manifest" \
      ctest --test-dir "$BUILD" --output-on-failure ;;
  runtime)
    step runtime 180 python3 bench/check_runtime.py "$TEST_ARTIFACTS" ;;
  selftest)
    step selftest 300 python3 bench/check_forward.py --self-test --quick --out "$OUT" ;;
  check)
    step check 600 python3 bench/check_forward.py --artifacts "$ARTIFACTS" --out "$OUT" ;;
  checkbwd)
    step checkbwd 600 python3 bench/check_backward.py --artifacts "$ARTIFACTS" --out "$OUT" ;;
  kernelcheck)
    # One process per manifest, 12 at a time: the float64 reference of the
    # longer shapes is single-threaded and dominates.
    step kernelcheck 300 bash -c "mkdir -p /tmp/kc && ls $ARTIFACTS/*.manifest | timeout ${KERNELCHECK_BUDGET:-240} \
      xargs -P 12 -I{} sh -c '$BUILD/check/sdpa-kernel-check --longer {} \
        > /tmp/kc/\$(basename {}).txt 2>&1'; rc=\$?; cat /tmp/kc/*.txt > $OUT/kernel_check.txt; exit \$rc" ;;
  ab)
    # $AB_ARTIFACTS against the same names in each folder of $AB_BASELINE,
    # alternating.
    ab_this=${AB_ARTIFACTS:-$ARTIFACTS} ab_base=${AB_BASELINE:-.artifacts/baseline}
    ab_args="${AB_KERNELS:-bwd_bf16_d64_win127_nd} --sizes ${AB_SIZES:-16384} --heads 16 --iters 20"
    if [ -z "${AB_BASELINE_SOURCE:-}" ]; then
      step ab 300 bash -c "python3 bench/time_kernels.py --artifacts $ab_this \
        --baseline $ab_base $ab_args --rounds 3 > $OUT/ab.txt"
    else
      # Across a change of the artifact format: the (one) baseline folder
      # through the runtime built from $AB_BASELINE_SOURCE (a `git archive`
      # of the baseline commit's runtime/, lib/Schema, include/SdpaSchema),
      # a process per side and round, alternating.
      base=/tmp/sdpa-build-baseline
      step abbuild 200 bash -c "cmake -G Ninja -S $AB_BASELINE_SOURCE/runtime -B $base \
        -DCMAKE_BUILD_TYPE=Release -DSDPA_RUNTIME_BUILD_TESTS=OFF && ninja -C $base SdpaRuntime"
      step ab 300 bash -c "for r in 1 2 3; do
        echo \"round \$r: $ab_base (baseline runtime)\"
        SDPA_RUNTIME_LIB=$base/lib/libsdpa_runtime.so python3 bench/time_kernels.py \
          --artifacts $ab_base $ab_args
        echo \"round \$r: $ab_this\"
        python3 bench/time_kernels.py --artifacts $ab_this $ab_args
      done > $OUT/ab.txt"
    fi ;;
  training)
    step training 120 python3 bench/check_training.py \
      --forward "$ARTIFACTS/f16_d64_win127.manifest" \
      --backward "$ARTIFACTS/bwd_f16_d64_win127_nd.manifest" \
      --backward-det "$ARTIFACTS/bwd_f16_d64_win127_det.manifest" --out "$OUT" ;;
  jaxstep)
    step jaxstep 300 python3 bench/check_jax_step.py --artifacts "$ARTIFACTS/jax-step" --out "$OUT" ;;
  ffi)
    # The XLA FFI handler, against the FFI headers of the jaxlib installed.
    ffi_include=$(python3 -c 'import jax; print(jax.ffi.include_dir())' 2>>"$LOG")
    step ffi 300 bash -c "cmake -G Ninja -S runtime -B $BUILD -DCMAKE_BUILD_TYPE=Release \
      -DSDPA_RUNTIME_BUILD_FFI=ON -DSDPA_XLA_FFI_INCLUDE_DIR=$ffi_include \
      -DSDPA_RUNTIME_BUILD_TESTS=OFF && ninja -C $BUILD && \
      runtime/tests/check_exports.sh $BUILD/lib/libsdpa_runtime.so $BUILD/lib/libsdpa_ffi.so" ;;
  jaxmodels)
    step jaxmodels 400 python3 bench/check_jax_model.py --artifacts "$ARTIFACTS" \
      --lib "$BUILD/lib/libsdpa_ffi.so" --out "$OUT" ;;
  torchop | hfmistral | hfgptoss | hfgemma2 | jaxfn)
    kernels="${SDPA_KERNELS:-.artifacts/sdpa-kernels}"
    budget=$((DEADLINE - SECONDS - 40))
    case $s in
    torchop) step torchop 400 python3 bench/check_torch_op.py --kernels "$kernels" \
      --budget "$budget" ;;
    hfmistral) step hfmistral 300 python3 bench/check_hf_mistral.py --kernels "$kernels" ;;
    hfgptoss) step hfgptoss 300 python3 bench/check_hf_gptoss.py --kernels "$kernels" ;;
    hfgemma2) step hfgemma2 300 python3 bench/check_hf_gemma2.py --kernels "$kernels" ;;
    jaxfn) step jaxfn 300 python3 bench/check_jax_function.py --kernels "$kernels" \
      --lib "$BUILD/lib/libsdpa_ffi.so" --budget "$budget" ;;
    esac ;;
  cp)
    step cp 300 python3 bench/check_cp.py --artifacts "$ARTIFACTS" --out "$OUT" ;;
  sanitize)
    # compute-sanitizer over every artifact on small shapes (and the copy
    # kernels, which show that the tool ran); only kernels named *sdpa*.
    filter="--kernel-name kns=sdpa"
    compute-sanitizer --help 2>/dev/null | grep -q -- "--kernel-name" || filter="--filter kns=sdpa"
    for tool in memcheck racecheck; do
      step "sanitize-$tool" 600 compute-sanitizer --tool "$tool" $filter --error-exitcode 9 \
        python3 bench/sanitize_small.py "$TEST_ARTIFACTS" "$ARTIFACTS"
    done ;;
  bench)
    # The benchmark stops measuring at its budget and still writes its report.
    step bench 900 python3 bench/benchmark.py --artifacts "$ARTIFACTS" --out "$OUT" \
      --budget $((DEADLINE - SECONDS - 90)) ${BENCH_ARGS:-} ;;
  sweep)
    # The sweep stops measuring at its budget and still writes its report.
    budget=$((DEADLINE - SECONDS - 40))
    [ "$budget" -gt "${SWEEP_BUDGET:-150}" ] && budget=${SWEEP_BUDGET:-150}
    step sweep $((budget + 30)) python3 bench/sweep.py \
      --artifacts "${SWEEP_ARTIFACTS:-.artifacts/sweep}" --out "$OUT" --budget "$budget" ;;
  pipes)
    # bench/movmatrix_throughput.cu: the shared-memory and mma pipes' rates
    # (docs/Performance.md), then the SASS counts of what ran.
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    step pipes 120 bash -c "mkdir -p $BUILD && $nvcc -O3 -arch=sm_90 -o $BUILD/movmatrix_throughput \
        bench/movmatrix_throughput.cu && $BUILD/movmatrix_throughput > $OUT/pipes.txt &&
      \$(dirname $nvcc)/cuobjdump -sass $BUILD/movmatrix_throughput | awk '/Function :/ { f = \$3 }
        { for (i = 1; i <= NF; i++) if (\$i ~ /^(LDSM|MOVM|HMMA)/) { n[f \" \" \$i]++; break } }
        END { for (k in n) print k, n[k] }' | sed 's/.*PatternE\([0-9]*\)EE[^ ]*/pattern \1/' | sort >> $OUT/pipes.txt" ;;
  anchors)
    step anchors 600 python3 bench/benchmark.py --artifacts /nonexistent --out "$OUT" \
      --budget $((DEADLINE - SECONDS - 90)) ${BENCH_ARGS:-} ;;
  *)
    echo "unknown step '$s'" | tee -a "$SUMMARY"
    failed=1 ;;
  esac
done
echo "===== done: $( [ $failed -eq 0 ] && echo all steps passed || echo SOME STEPS FAILED)" | tee -a "$SUMMARY" "$LOG"
cat "$SUMMARY"

# Result names and contents as bench/results keeps them.
DAY="$(date -u +%Y-%m-%d)"
# The machine's Python environment and compiler prefixes, named in the logs
# as $VENV and $GCC (not under /usr: those paths say nothing of a machine).
VENV=$(python3 -c 'import sys; print(sys.prefix)' 2>/dev/null || true)
# cmake's compiler: $CXX where the machine sets it, else g++ on the PATH.
GCC=$(dirname "$(dirname "$(command -v "${CXX:-g++}" 2>/dev/null || echo /usr/bin/g++)")")
case $VENV in /usr | /usr/local | "") VENV= ;; esac
case $GCC in /usr | /usr/local | /) GCC= ;; esac
for f in "$OUT"/*; do
  [ -f "$f" ] || continue
  name=$(basename "$f")
  case $name in
  "$DAY"-*) continue ;; # already renamed
  logs.txt) what=gpu-log.txt ;;
  *) what=${name//_/-} ;;
  esac
  case $name in
  *.md | *.txt | *.json)
    sed -i -e "s|$OUT|\$OUT|g" -e "s|$BUILD|\$BUILD|g" -e "s|$PWD/||g" \
      ${VENV:+-e "s|$VENV|\$VENV|g"} ${GCC:+-e "s|$GCC/|\$GCC/|g"} \
      -e "s|$HOME|~|g" "$f" ;;
  esac
  mv "$f" "$OUT/$DAY-$COMMIT-$what"
done
ls "$OUT"
exit $failed
