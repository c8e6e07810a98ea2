#!/bin/bash
# Runs skmd-bench on a GPU host (after bench/package-for-gpu-host.sh): the
# paper's applications at the paper's sizes under every vendor OpenCL device
# and SKMD's plans. Results (JSON, markdown, log, machine description) go
# to $OUT. The profile database stays next to this script, so that later
# calls on the same machine reuse the profiles.
#   bash gpu-run/bench/run-suite.sh APPS [skmd-bench options...]
# APPS: all, or a comma-separated list (skmd-bench --list).
cd "$(dirname "$0")"
apps=${1:-all}
shift
only=()
[ "$apps" != all ] && only=(--only="$apps")
if [ ! -e "$OUT/machine.txt" ]; then
  { lscpu; echo; free -g; echo; nvidia-smi; echo; nvidia-smi topo -m; echo; clinfo -l; } \
    > "$OUT/machine.txt" 2>&1
fi
name=suite-${apps//,/-}
bin/skmd-bench "${only[@]}" --kernels-dir=kernels --bundles-dir=kernels --db=profiles.sqlite \
  --json="$OUT/$name.json" --markdown="$OUT/$name.md" "$@" 2> "$OUT/$name.log"
rc=$?
grep -v "^skmd: " "$OUT/$name.log" | tail -n 60
cat "$OUT/$name.md"
echo "skmd-bench rc=$rc"
