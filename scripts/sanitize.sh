#!/usr/bin/env bash
# Builds the whole project with AddressSanitizer + UndefinedBehaviorSanitizer
# (clang-22; our code only, libMLIR.so stays uninstrumented) in build-asan/
# (scripts/configure-asan.sh: the fuzz targets' build as well) and runs every
# unit and lit test under it. Any sanitizer report fails.
#   SDPA_SANITIZE_JOBS  ninja -j for the build (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=build-asan
jobs=${SDPA_SANITIZE_JOBS:-2}

# The sanitized build scripts/fuzz.sh fuzzes too (scripts/configure-asan.sh).
scripts/configure-asan.sh "$build"
ninja -C "$build" -j "$jobs"

# allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into our
# instrumented code, poisons slabs that uninstrumented libMLIR.so then hands
# out without unpoisoning; those reports are artifacts of the mix (see
# fuzz/SanitizerDefaults.cpp). detect_leaks=0: MLIR keeps its contexts and
# registries alive until exit on purpose.
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
cd "$build"
jobs_test=$(nproc)
# The tests labelled loads-runtime load the instrumented runtime into an
# uninstrumented Python interpreter: they need the ASan runtime preloaded.
ctest --output-on-failure -j "$jobs_test" -LE loads-runtime
LD_PRELOAD="$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so)" \
  ctest --output-on-failure -j "$jobs_test" -L loads-runtime

# The emitted IR must not depend on the compiler that built sdpa-opt: C++
# leaves the order of evaluating call arguments unspecified, so two
# op-creating calls as sibling arguments emit in another order under clang
# than under gcc. Every artifact bench/make_artifacts.py writes (PTX and
# manifest) from this clang build must equal the gcc build's (build/,
# scripts/build.sh).
# --ptxas "": only the output's identity counts here (the PTX lit tests
# check spills), so no artifact is refused.
cd ..
scripts/build.sh
if ! grep -qs 'set(CMAKE_CXX_COMPILER_ID "GNU")' \
    build/CMakeFiles/*/CMakeCXXCompiler.cmake; then
  echo "build/ is not a gcc build: no compiler to compare against" >&2
  exit 1
fi
rm -rf "$build/artifacts-gcc" "$build/artifacts-clang"
python3 bench/make_artifacts.py --sdpa-opt build/bin/sdpa-opt --ptxas "" \
  --out "$build/artifacts-gcc" >/dev/null
python3 bench/make_artifacts.py --sdpa-opt "$build/bin/sdpa-opt" --ptxas "" \
  --out "$build/artifacts-clang" >/dev/null
# The rewritten modules (module.mlir) name their artifact directory, which
# differs between the two output folders by design: compare the kernels.
diff -r -x module.mlir "$build/artifacts-gcc" "$build/artifacts-clang"
echo "clang and gcc builds: every artifact's PTX and manifest identical"
