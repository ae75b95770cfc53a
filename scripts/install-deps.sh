#!/usr/bin/env bash
# Installs the Debian 12 packages the build and tests need, if any are missing.
set -euo pipefail
packages=(cmake ninja-build g++ python3 libgtest-dev
          python3-pip python3-setuptools python3-wheel python3-numpy python3-torch  # python/: the package, its tests
          llvm-22-dev libmlir-22-dev libmlir-22 mlir-22-tools llvm-22-tools
          clang-22 libclang-rt-22-dev)  # clang: sanitize.sh and fuzz.sh
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
