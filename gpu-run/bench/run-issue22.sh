#!/bin/bash
# The physical-bound issue's measurements on a GPU host (after
# bench/package-for-gpu-host.sh; a profiles.sqlite from an earlier call
# next to this script skips the profiling). Each part fits one 10-minute
# device call; results go to $OUT, with the profiles.
#   bash gpu-run/bench/run-issue22.sh memory   the six memory-bound
#        applications under every vendor device and SKMD alone and auto,
#        pageable and page-locked, with the bound
#   bash gpu-run/bench/run-issue22.sh others   the other applications,
#        SKMD alone and auto (GPU alone for the four the CPU is 100x
#        slower on), both memories, with the bound
#   bash gpu-run/bench/run-issue22.sh cpu      cpu-vs-pocl on every kernel
#        (--time-limit keeps the paper's sizes within the call)
cd "$(dirname "$0")"
part=${1:-memory}
case "$part" in
memory)
  bash run-suite.sh vector-add,black-scholes,transpose,box-muller,sobel,median-filter \
    --plans=single,auto --memory=both --runs=5 --time-limit=3 > "$OUT/suite.txt" 2>&1
  echo "suite rc=$?"
  tail -n 12 "$OUT/suite.txt" ;;
others)
  bash run-suite.sh matmul,nbody,nbody-float3,binomial-option --plans=gpu0,auto \
    --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 8
  bash run-suite.sh mersenne-twister,fdtd3d,histogram,reduction,reduction-strided,scan,aes-encrypt,aes-decrypt \
    --plans=single,auto --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 14 ;;
cpu)
  bin/cpu-vs-pocl --kernels-dir=kernels --bundles-dir=kernels --time-limit=10 \
    --json="$OUT/cpu-vs-pocl.json" > "$OUT/cpu-vs-pocl.md" 2> "$OUT/cpu-vs-pocl.log"
  echo "cpu-vs-pocl rc=$?"
  cat "$OUT/cpu-vs-pocl.md" ;;
*)
  echo "run-issue22.sh: memory, others or cpu, got '$part'" >&2
  exit 2 ;;
esac
cp profiles.sqlite "$OUT/" 2>/dev/null
exit 0
