#!/bin/bash
# The batch-transfer issue's measurements on a GPU host (after
# bench/package-for-gpu-host.sh; profiles.sqlite next to this script is
# kept between calls on one machine). Each part fits one 10-minute device
# call; results go to $OUT, with the profiles.
#   bash gpu-run/bench/run-issue23.sh links    the machine's topology and
#        routes (skmd-info --topology, skmd-prof --links)
#   bash gpu-run/bench/run-issue23.sh memory   the six memory-bound
#        applications, SKMD alone and auto, pageable and page-locked: auto's
#        launches predicted as batches (predicted_ms) beside Algorithm 1's
#        estimate (estimated_ms)
#   bash gpu-run/bench/run-issue23.sh others   the other applications, the
#        same way (GPU alone for the four the CPU is 100x slower on)
#   bash gpu-run/bench/run-issue23.sh batches  batch-latency: 200 random
#        batches predicted and run, with the paper's two baselines
#   bash gpu-run/bench/run-issue23.sh exchange  (several GPUs, after links)
#        matmul and n-body split evenly over the GPUs, with and without the
#        exchange of the input they all read (SKMD_PEER_EXCHANGE), the two
#        configurations interleaved; one traced matmul shows the operations
#   bash gpu-run/bench/run-issue23.sh waits  (after links) batch-latency over
#        the CPU and the first GPU under each way of waiting for the GPU
#        (SKMD_CUDA_SYNC) and with half the CPU threads, interleaved
cd "$(dirname "$0")"
export SKMD_PROFILE_DB=$PWD/profiles.sqlite
part=${1:-links}
case "$part" in
links)
  bin/skmd-info --topology > "$OUT/topology.txt" 2>&1
  cat "$OUT/topology.txt"
  bin/skmd-prof --links --db=profiles.sqlite 2>&1 | tee "$OUT/links.txt" | tail -n 40 ;;
memory)
  bash run-suite.sh vector-add,black-scholes,transpose,box-muller,sobel,median-filter \
    --plans=single,auto --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 12 ;;
others)
  bash run-suite.sh matmul,nbody,nbody-float3,binomial-option --plans=gpu0,auto \
    --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 8
  bash run-suite.sh mersenne-twister,fdtd3d,histogram,reduction,reduction-strided,scan,aes-encrypt,aes-decrypt \
    --plans=single,auto --memory=both --runs=3 --time-limit=2 --opencl=none | tail -n 14 ;;
batches)
  bin/batch-latency --db=profiles.sqlite --bundles-dir=kernels --compare \
    --json="$OUT/batch-latency.json" > "$OUT/batch-latency.txt" 2>&1
  echo "batch-latency rc=$?"
  tail -n 30 "$OUT/batch-latency.txt" ;;
exchange)
  for round in 1 2 3; do
    for on in 1 0; do
      SKMD_PEER_EXCHANGE=$on bin/skmd-bench --only=matmul,nbody --devices=cuda \
        --plans=manual:gpu0=0.5,gpu1=0.5 --memory=both --runs=5 --time-limit=3 --opencl=none \
        --kernels-dir=kernels --bundles-dir=kernels --db=profiles.sqlite \
        --json="$OUT/exchange-$on-$round.json" --markdown="$OUT/exchange-$on-$round.md" \
        2> "$OUT/exchange-$on-$round.log"
      echo "exchange=$on round $round rc=$?"
      grep "^| [mn]" "$OUT/exchange-$on-$round.md"
    done
  done
  n=8192
  for memory in pageable pinned; do
    for on in 1 0; do
      SKMD_PEER_EXCHANGE=$on bin/skmd-run kernels/matmul_tiled.skmd matmul_tiled \
        --global=$n,$n --local=16,16 --arg=$((n*n)) --arg=$((n*n)) --arg=$((n*n)):zero \
        --arg=$n --devices=cuda --plan=manual:gpu0=0.5,gpu1=0.5 --memory=$memory --repeat=5 \
        --trace="$OUT/matmul-trace-$memory-$on.json" > "$OUT/matmul-run-$memory-$on.txt" 2>&1
      echo "skmd-run $memory exchange=$on rc=$?"; tail -n 5 "$OUT/matmul-run-$memory-$on.txt"
      grep -o '"name": *"[^"]*share[^"]*"' "$OUT/matmul-trace-$memory-$on.json" | sort | uniq -c
    done
  done ;;
waits)
  half=$(( $(nproc) / 2 ))
  for round in 1 2; do
    for config in auto blocking yield half; do
      env_=(SKMD_CUDA_SYNC=$config)
      [ $config = half ] && env_=(SKMD_CPU_THREADS=$half)
      env "${env_[@]}" bin/batch-latency --devices=cpu,cuda:0 --db=profiles.sqlite \
        --bundles-dir=kernels --batches=100 --seed=$round \
        --json="$OUT/waits-$config-$round.json" > "$OUT/waits-$config-$round.txt" 2>&1
      echo "$config round $round rc=$?: $(tail -n 3 "$OUT/waits-$config-$round.txt" | tr '\n' ' ')"
    done
  done ;;
*)
  echo "run-issue23.sh: links, memory, others, batches, exchange or waits, got '$part'" >&2
  exit 2 ;;
esac
cp profiles.sqlite "$OUT/" 2>/dev/null
exit 0
