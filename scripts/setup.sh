#!/usr/bin/env bash
# Installs everything SKMD needs to build and test, from Debian's packages.
# Idempotent: when every package is already present it only checks and returns.
set -euo pipefail

PACKAGES=(
  llvm-22-dev libclang-22-dev clang-22 libclc-22 libclc-22-dev llvm-22-tools
  spirv-tools ninja-build cmake g++ python3 python3-pip python3-venv python3-matplotlib
  libgtest-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  libeigen3-dev libsqlite3-dev nlohmann-json3-dev libclang-rt-22-dev
  libhwloc-dev  # the machine's topology (runtime/batch/Topology.h)
  libssl-dev  # skmd-server's shared secret, HMAC-SHA256 (runtime/devices/remote/Secret.h)
  openmpi-bin libopenmpi-dev  # remote devices over MPI (runtime/devices/remote/mpi)
  pkgconf dpkg-dev  # ctest install-package (pkg-config); cpack -G DEB (dpkg-shlibdeps)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
