#!/bin/bash
# Chunks queued on the GPU's streams (the default) against the same chunks
# handed from host thread to host thread (SKMD_CUDA_QUEUE=0), on a GPU host
# after test/gpu/package.sh: vector add of 50M floats on the GPU alone as one
# piece and in 8, 16 and 32 chunks, and split with the CPU, on page-locked
# and pageable buffers; two rounds, the two modes interleaved. skmd-run's
# rows (the median of 5 runs each) go to $OUT/queued-chunks.txt.
#   bash gpu-run/runtime/queued-chunks.sh
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib
n=52428800
args=(--global=$n --local=256 --arg=$n --arg=$n:random:2 --arg=$n:zero --arg=$n)
run() { # queue memory plan
  echo "== SKMD_CUDA_QUEUE=$1 --memory=$2 --plan=$3"
  SKMD_CUDA_QUEUE=$1 bin/skmd-run examples/vector_add.skmd vector_add --devices=cpu,cuda \
    "${args[@]}" --plan="$3" --memory="$2" --repeat=5 2>&1 |
    grep -E "^  (cpu|gpu0) |total|error|fail"
}
for round in 1 2; do
  for plan in gpu0 gpu0@8 gpu0@16 gpu0@32 manual:cpu=0.6,gpu0=0.4@16; do
    for q in 1 0; do run $q pinned $plan; done
  done
  for plan in gpu0@8; do
    for q in 1 0; do run $q pageable $plan; done
  done
done 2>&1 | tee "$OUT/queued-chunks.txt"
# Once, checked against the CPU alone.
SKMD_CUDA_QUEUE=1 bin/skmd-run examples/vector_add.skmd vector_add --devices=cpu,cuda \
  "${args[@]}" --plan=manual:cpu=0.5,gpu0=0.5@16 --memory=both --check 2>&1 | tail -4
