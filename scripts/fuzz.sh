#!/usr/bin/env bash
# Builds SKMD's libFuzzer targets (the bundle loader, the metadata parser)
# with clang, AddressSanitizer and UBSan, and runs each for a bounded time
# from the seeds in test/fuzz/corpus. Any crash or sanitizer report fails;
# the input that caused it is kept in build-fuzz/findings/ (add it to the
# seeds, and a regression test, once fixed).
#   scripts/fuzz.sh [seconds per target]   (default 60)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=$root/build-fuzz

"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSKMD_BUILD_COMPILER=OFF -DSKMD_BUILD_TESTS=OFF \
    -DSKMD_FUZZ=ON -DSKMD_SANITIZE=address,undefined,fuzzer-no-link
fi
cmake --build "$build" --target skmd-fuzzers -j"$(nproc)"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p "$build/findings"
for target in bundle metadata; do
  # The seeds stay as they are; what the fuzzer adds goes to a scratch copy.
  work=$(mktemp -d)
  cp "$root/test/fuzz/corpus/$target/"* "$work/"
  echo "== fuzz-$target for ${seconds}s"
  if ! "$build/bin/fuzz-$target" "$work" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/findings/$target-" 2>"$build/fuzz-$target.log"; then
    tail -n 60 "$build/fuzz-$target.log"
    echo "fuzz-$target: a finding, kept in $build/findings/" >&2
    rm -rf "$work"
    exit 1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/fuzz-$target.log" | sed 's/^/  /'
  rm -rf "$work"
done
echo "== fuzzing found nothing"
