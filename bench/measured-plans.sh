#!/usr/bin/env bash
# Splits held to what they measured (runtime/planning/MeasuredPlans.h), on
# this machine: the discrete device is profiled with copies at the host's
# memory speed, then launched with copies at 5 MB/s, which its profiles do
# not know. The model keeps predicting its split; with measured plans on,
# the launches after the first two run the device whose side held to its
# prediction alone. Prints each launch's plan with measured plans on, then
# off. Timing decides what it prints, so it is a benchmark, not a test (the
# decisions themselves are MeasuredPlans.* unit tests).
#   bench/measured-plans.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/skmd-cc" --targets=x86 "$root/bench/kernels/spin.cl" -o "$work/spin.skmd"
launch=("$work/spin.skmd" spin --global=262144 --local=64 --arg=262144 --arg=300
        --devices=cpu,discrete)
export SKMD_PROFILE_DB=$work/profiles.db SKMD_CPU_THREADS=1
echo "== profiling (SKMD_PROFILE=auto): the first plan"
SKMD_PROFILE=auto "$build/bin/skmd-run" "${launch[@]}" 2>/dev/null | grep -E "^  (cpu|discrete)"
for on in 1 0; do
  echo "== copies at 5 MB/s, SKMD_MEASURED_PLANS=$on: five launches"
  SKMD_PROFILE=off SKMD_DISCRETE_GBPS=0.005 SKMD_MEASURED_PLANS=$on \
    "$build/bin/skmd-run" "${launch[@]}" --repeat=5 --explain --check 2>&1 |
    grep -E "kernel 'spin'|^  total|check:"
done
