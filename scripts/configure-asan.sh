#!/usr/bin/env bash
# Configures the one sanitized build that scripts/sanitize.sh tests and
# scripts/fuzz.sh fuzzes, so that CI compiles our code under sanitizers once:
# clang-22, AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer's
# coverage (-fsanitize=fuzzer-no-link) on every file we compile, the unit and
# lit tests and the fuzz targets. libMLIR.so stays uninstrumented.
#   scripts/configure-asan.sh BUILD_DIR [CMAKE_ARGS...]
#                                          (does nothing if BUILD_DIR is configured;
#                                          CMAKE_ARGS are added, e.g. scripts/fuzz-bundle.sh's)
#
# LLVM_USE_SANITIZER (LLVM's CMake) adds -fsanitize=address and
# LLVM_UBSAN_FLAGS (which the installed CMake leaves empty: set here) to
# every file we compile, and drops -Wl,-z,defs so that the runtime's shared
# library may take the ASan runtime from the executable that loads it;
# LLVM_USE_SANITIZE_COVERAGE adds the coverage the fuzz targets need (they
# link -fsanitize=fuzzer, fuzz/CMakeLists.txt). vptr and function checks stay
# off: libMLIR.so is not instrumented.
set -euo pipefail
build=$1
shift
[ -f "$build/build.ninja" ] && exit 0
cmake -G Ninja -S "$(dirname "$0")/.." -B "$build" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DLLVM_USE_SANITIZER="Address;Undefined" \
  -DLLVM_UBSAN_FLAGS="-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all" \
  -DLLVM_USE_SANITIZE_COVERAGE=ON \
  -DSDPA_BUILD_FUZZERS=ON \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "$@"
