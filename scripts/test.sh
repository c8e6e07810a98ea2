#!/usr/bin/env bash
# The one test command: installs what is missing, builds, and runs every
# test (GoogleTest unit tests and the lit suite), then does the same in an
# AddressSanitizer + UndefinedBehaviorSanitizer build.
#   scripts/test.sh            # both builds
#   scripts/test.sh --quick    # the Release build only
# The full run ends with the fuzzers (scripts/fuzz.sh), SKMD_FUZZ_SECONDS
# each (default 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
[ "${1:-}" = "--quick" ] && quick=1

# Each stage says how long it took, so a slow CI run shows where.
stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "== $name"
  "$@"
  echo "== $name: $((SECONDS - start)) s"
}

run_suite() {
  local build=$1; shift
  stage "building $build" "$root/scripts/build.sh" "$build" "$@"
  stage "testing $build" ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
}

# The OpenCL driver the tests of SKMD's OpenCL device run on (PyPI).
"$root/scripts/setup-spirv-opencl.sh"
# PyOpenCL and numpy (PyPI), for the test of unmodified Python programs.
"$root/scripts/setup-pyopencl.sh"
# Outside projects' OpenCL kernel files (silx's wheel, PyPI), which the
# corpus-outside test runs by the launches its manifest gives.
"$root/scripts/setup-outside-kernels.sh"
# Other people's OpenCL test suites (Debian, PyPI), for the ctest "outside".
"$root/scripts/setup-outside.sh"
run_suite "$root/build"
if [ $quick -eq 0 ]; then
  # The sanitizers must not report leaks from LLVM's global state at exit;
  # every other report is fatal (-fno-sanitize-recover=all).
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1
  run_suite "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSKMD_SANITIZE=address,undefined
  # The libFuzzer targets, a bounded time each (a finding fails the run).
  stage "fuzzing" "$root/scripts/fuzz.sh" "${SKMD_FUZZ_SECONDS:-60}"
fi
echo "== all tests passed ($SECONDS s)"
