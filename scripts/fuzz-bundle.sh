#!/usr/bin/env bash
# Packs the libFuzzer targets for a long campaign on a machine without LLVM
# (docs/Robustness.md, "Campaigns on a lent machine"). Builds the committed
# HEAD, not the work tree: a detached git worktree build-fuzz-campaign/src
# (moved to HEAD on each run), built in build-fuzz-campaign/obj as
# scripts/fuzz.sh builds (scripts/configure-asan.sh: clang-22, ASan + UBSan +
# libFuzzer's coverage on our code) but with -DSDPA_FUZZ_STATIC_MLIR=ON
# (fuzz/StaticMLIR.cmake: MLIR, LLVM, zlib and zstd linked statically, so a
# binary needs glibc >= 2.36 and libstdc++ only). Writes BUNDLE_DIR:
#   bin/<target>.xz    the binaries, stripped, xz -9e
#   seeds.tar.xz       seeds/<name>/, made as scripts/fuzz.sh makes them
#   regressions.tar.xz regressions/<target>/ (fuzz/regressions)
#   dict/*.dict        the dictionaries
#   targets            one line per target: its name, then its libFuzzer
#                      flags and seed directories as scripts/fuzz.sh passes
#                      them (@ stands for the unpacked bundle)
#   BUILD_INFO         the commit, the compiler, the binaries' build ids
# scripts/fuzz-campaign.sh runs it. The unstripped binaries are kept in
# build-fuzz-campaign/unstripped/<commit>/ (for a stack trace from the other
# machine, which has no symbolizer: llvm-symbolizer-22 --obj=BINARY OFFSET).
#   scripts/fuzz-bundle.sh [BUNDLE_DIR]     (default .fuzzbundle)
#   SDPA_FUZZ_BUNDLE  the targets (default: bounds, IR, lowering and import)
#   SDPA_FUZZ_JOBS    ninja -j (default 2; the build runs under nice -n 19)
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=$(realpath -m "${1:-.fuzzbundle}")
targets=${SDPA_FUZZ_BUNDLE:-sdpa-bounds-fuzzer sdpa-ir-fuzzer sdpa-lowering-fuzzer sdpa-import-fuzzer}
jobs=${SDPA_FUZZ_JOBS:-2}
commit=$(git rev-parse HEAD)
src=$PWD/build-fuzz-campaign/src
obj=$PWD/build-fuzz-campaign/obj
if [ -e "$src/.git" ]; then
  git -C "$src" checkout -q --detach "$commit"
else
  git worktree add -q --detach "$src" "$commit"
fi
# LLVM's compression code needs zstd; without libzstd-dev, its libzstd.a is
# taken from the package, unpacked in build-fuzz-campaign/ (nothing is
# installed; without network the binaries need the system's libzstd.so.1).
zstd=/usr/lib/x86_64-linux-gnu/libzstd.a
if [ ! -f "$zstd" ]; then
  zstd=$PWD/build-fuzz-campaign/zstd/usr/lib/x86_64-linux-gnu/libzstd.a
  if [ ! -f "$zstd" ]; then
    (mkdir -p build-fuzz-campaign/zstd && cd build-fuzz-campaign/zstd &&
     apt-get download libzstd-dev && dpkg-deb -x libzstd-dev_*.deb .) ||
      echo "no libzstd.a: the binaries will need libzstd.so.1"
  fi
fi
zstd_arg=(); [ -f "$zstd" ] && zstd_arg=("-DSDPA_STATIC_ZSTD=$zstd")
# From here on everything comes from the commit.
cd "$src"
scripts/configure-asan.sh "$obj" -DSDPA_BUILD_TESTS=OFF -DSDPA_FUZZ_STATIC_MLIR=ON "${zstd_arg[@]}"
# shellcheck disable=SC2086
nice -n 19 ninja -C "$obj" -j "$jobs" $targets

rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/dict"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The seed corpora and flags of scripts/fuzz.sh (one table,
# scripts/fuzz-targets.sh); @ stands for the unpacked bundle.
source scripts/fuzz-targets.sh
make_fuzz_seeds "$stage/seeds"
flags() {
  local f s
  f=$(fuzz_target_flags "$1" "$stage/seeds" @/dict) || return 1
  s=$(fuzz_target_seeds "$1" @/seeds) || return 1
  echo "$f${s:+ $s}"
}
cp fuzz/*.dict "$bundle/dict/"
mkdir -p "$stage/regressions"
cp -r fuzz/regressions/. "$stage/regressions/"
tar -C "$stage" -cf - seeds | xz -9e -T2 > "$bundle/seeds.tar.xz"
tar -C "$stage" -cf - regressions | xz -9e -T2 > "$bundle/regressions.tar.xz"

{
  echo "commit $commit$(git diff --quiet HEAD || echo ' (plus uncommitted changes in build-fuzz-campaign/src)')"
  echo "built $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -m), $(clang++-22 --version | head -1)"
  echo "flags: scripts/configure-asan.sh + -DSDPA_FUZZ_STATIC_MLIR=ON; stripped (--strip-all)"
} > "$bundle/BUILD_INFO"
: > "$bundle/targets"
for target in $targets; do
  bin=$obj/bin/$target
  # Nothing of LLVM's may come from the system: glibc and libstdc++ only.
  if readelf -d "$bin" | grep NEEDED | grep -v -E 'lib(c|m|rt|dl|pthread|resolv|stdc\+\+|gcc_s|zstd)\.so|ld-linux'; then
    echo "FAIL: $target needs a library besides glibc and libstdc++" >&2
    exit 1
  fi
  mkdir -p "$obj/../unstripped/$commit"
  cp "$bin" "$obj/../unstripped/$commit/"
  llvm-strip-22 --strip-all -o "$stage/$target" "$bin"
  xz -9e -T2 -c "$stage/$target" > "$bundle/bin/$target.xz"
  line=$(flags "$target") || exit 1
  echo "$target $line" >> "$bundle/targets"
  echo "$target build-id $(readelf -n "$bin" | sed -n 's/.*Build ID: //p')" >> "$bundle/BUILD_INFO"
done
du -sh "$bundle"
