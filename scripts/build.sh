#!/usr/bin/env bash
# Installs what is missing, then configures and builds SKMD with Ninja.
#   scripts/build.sh [build-dir] [extra cmake args...]
# Default build dir: build/ (Release). Re-running only rebuilds what changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true

"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  # ccache, where installed, makes a second build tree (the sanitizers')
  # and rebuilds after a branch switch cheap.
  launcher=()
  command -v ccache >/dev/null &&
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@"
fi
cmake --build "$build" -j"$(nproc)"
