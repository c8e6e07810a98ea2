#!/bin/bash
# Two builds of skmd-bench on one GPU host, interleaved per application so
# that both see the same machine: bin/ (this package) and before/bin (a
# package of an earlier commit: its skmd-bench and libskmd.so in
# before/bin and before/lib). Same profile database for both, so the plans
# differ only where the runtimes do. Results go to $OUT/compare-*.
#   bash gpu-run/bench/compare.sh APPS [skmd-bench options...]
cd "$(dirname "$0")"
apps=${1:-all}
shift
if [ "$apps" = all ]; then
  apps=$(bin/skmd-bench --list | awk '{print $1}' | paste -sd, -)
fi
for app in ${apps//,/ }; do
  for tree in before after; do
    if [ $tree = before ]; then
      run=(env LD_LIBRARY_PATH=$PWD/before/lib before/bin/skmd-bench)
    else
      run=(bin/skmd-bench)
    fi
    "${run[@]}" --only="$app" --kernels-dir=kernels --bundles-dir=kernels \
      --db=compare-profiles.sqlite --json="$OUT/compare-$tree-$app.json" \
      --markdown="$OUT/compare-$tree-$app.md" "$@" 2> "$OUT/compare-$tree-$app.log"
    echo "$tree $app rc=$?"
  done
done
