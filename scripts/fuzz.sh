#!/usr/bin/env bash
# Builds SKMD's libFuzzer targets (the bundle loader, the metadata parser,
# the wire format between clients and skmd-server, skmd-cc's path from
# source to bundle) with clang, AddressSanitizer and
# UBSan, and runs each for a bounded time from the seeds in test/fuzz/corpus
# (the compiler's also from kernel files of test/corpus drawn at random).
# Any crash or sanitizer report fails;
# the input that caused it is kept in build-fuzz/findings/ (add it to the
# seeds, and a regression test, once fixed).
#   scripts/fuzz.sh [seconds per target]   (default 60)
#   SKMD_FUZZ_SEEDS=all scripts/fuzz.sh 3600   (the compiler from every
#                                               corpus kernel file)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=$root/build-fuzz

"$root/scripts/setup.sh"
CC=clang-22 CXX=clang++-22 cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSKMD_BUILD_COMPILER=ON -DSKMD_BUILD_TESTS=OFF \
  -DSKMD_FUZZ=ON -DSKMD_SANITIZE=address,undefined,fuzzer-no-link >/dev/null
cmake --build "$build" --target skmd-fuzzers -j"$(nproc)"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p "$build/findings"
for target in bundle metadata wire compiler; do
  # The seeds stay as they are; what the fuzzer adds goes to a scratch copy.
  work=$(mktemp -d)
  extra=()
  if [ "$target" = compiler ]; then
    # Each input runs Clang and three backends: seconds, not microseconds,
    # and libFuzzer runs every seed before its clock starts. So a few
    # kernel files of the corpora join the seeds each run, drawn at random
    # (SKMD_FUZZ_SEEDS of them, default 8; "all" for long runs).
    mapfile -t files < <(find "$root/test/corpus" -name '*.cl' | sort)
    if [ "${SKMD_FUZZ_SEEDS:-8}" != all ]; then
      mapfile -t files < <(printf '%s\n' "${files[@]}" | shuf -n "${SKMD_FUZZ_SEEDS:-8}")
    fi
    for f in "${files[@]}"; do
      echo "  seed ${f#$root/}"
      cp "$f" "$work/$(echo "${f#$root/}" | tr / _)"
    done
    extra=(-dict="$root/test/fuzz/opencl.dict" -timeout=120 -report_slow_units=120
           -rss_limit_mb=4096)
  else
    extra=(-timeout=10 -rss_limit_mb=2048)
  fi
  cp "$root/test/fuzz/corpus/$target/"* "$work/"
  echo "== fuzz-$target for ${seconds}s"
  if ! "$build/bin/fuzz-$target" "$work" -max_total_time="$seconds" "${extra[@]}" \
       -print_final_stats=1 -artifact_prefix="$build/findings/$target-" \
       2>"$build/fuzz-$target.log"; then
    tail -n 60 "$build/fuzz-$target.log"
    echo "fuzz-$target: a finding, kept in $build/findings/" >&2
    rm -rf "$work"
    exit 1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/fuzz-$target.log" | sed 's/^/  /'
  rm -rf "$work"
done
echo "== fuzzing found nothing"
