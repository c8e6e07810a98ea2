#!/bin/bash
# The remote-devices issue's measurements on a GPU host (after
# bench/package-for-gpu-host.sh): a client and an skmd-server as separate
# processes on the one host, over a Unix socket (the GPU hosts have no
# Open MPI). Results go to $OUT.
#   bash gpu-run/bench/run-issue24.sh bandwidth   copies of 256 MiB each way
#        and a round trip, the GPU opened here against the same GPU through
#        the server, from page-locked and from ordinary memory, three rounds
#        interleaved (remote-overhead); then the same through the socket
#        alone (SKMD_REMOTE_SHARE=0), as across nodes
#   bash gpu-run/bench/run-issue24.sh slots   ordinary memory through the
#        staging ring with each slot size and number of copier threads
#   bash gpu-run/bench/run-issue24.sh apps   the compute-bound applications
#        (matmul, n-body) on the GPU opened here and on the same GPU through
#        the server, interleaved by skmd-bench
#   bash gpu-run/bench/run-issue24.sh launch   the time of one small launch
#        (vector_add, one group) on the GPU opened here and through the
#        server, its pieces queued and (SKMD_REMOTE_QUEUE=0) with a round
#        trip per step, three rounds interleaved
#   bash gpu-run/bench/run-issue24.sh check   every application of the
#        suite (small sizes) on the GPU through the server alone and split
#        evenly over the CPU, the GPU opened here and the GPU through the
#        server, each result checked against its C++ reference
# Logs are named after the part and SERVER_GPUS (bandwidth-cuda-1.txt).
cd "$(dirname "$0")"
export SKMD_PROFILE_DB=$PWD/profiles.sqlite
export SKMD_SERVER_SECRET=gpu-host-benchmark-secret-$$
sock=/tmp/skmd-bench-$$.sock
# SERVER_GPUS=cuda:1 on a host with two GPUs: the server serves the second
# (its s.gpu0) and the client opens the first (cuda:0) next to it.
bin/skmd-server --listen=unix:$sock --devices="${SERVER_GPUS:-cuda}" --name=s \
  >"$OUT/server.log" 2>&1 &
server=$!
for _ in $(seq 200); do grep -q serving "$OUT/server.log" && break; sleep 0.1; done
cat "$OUT/server.log"
part=${1:-bandwidth}
case "$part" in
bandwidth)
  for round in 1 2 3; do
    echo "== round $round"
    bin/remote-overhead --devices=cuda:0,remote:unix:$sock --mb=256 --runs=5 --calls=2000
  done 2>&1 | tee "$OUT/bandwidth-$(echo "${SERVER_GPUS:-cuda}" | tr : -).txt"
  echo "== through the socket alone" | tee -a "$OUT/bandwidth-$(echo "${SERVER_GPUS:-cuda}" | tr : -).txt"
  SKMD_REMOTE_SHARE=0 bin/remote-overhead --devices=remote:unix:$sock --mb=256 --runs=5 \
    --calls=200 --host=ordinary 2>&1 | tee -a "$OUT/bandwidth-$(echo "${SERVER_GPUS:-cuda}" | tr : -).txt" ;;
slots)
  for round in 1 2; do
    for mb in 1 2 4 8; do
      for n in 4 8 12; do
        echo "== round $round: slots of $mb MiB, $n copiers"
        SKMD_REMOTE_SLOT_MB=$mb SKMD_REMOTE_COPY_THREADS=$n bin/remote-overhead \
          --devices=remote:unix:$sock --mb=256 --runs=3 --calls=10 --host=ordinary | tail -n 1
      done
    done
  done 2>&1 | tee "$OUT/slots.txt" ;;
apps)
  bin/skmd-bench --only=matmul,nbody --kernels-dir=kernels --bundles-dir=kernels \
    --db=profiles.sqlite --devices=cuda:0,remote:unix:$sock --plans=gpu0,s.gpu0 \
    --runs=5 --opencl=none --memory=both 2>&1 | tee "$OUT/apps.txt" | tail -n 30 ;;
launch)
  for round in 1 2 3; do
    for queue in 1 0; do
      echo "== round $round, SKMD_REMOTE_QUEUE=$queue"
      SKMD_REMOTE_QUEUE=$queue bin/remote-overhead --devices=cuda:0,remote:unix:$sock --mb=64 \
        --runs=3 --calls=2000 --host=ordinary --launch=kernels/vector_add.skmd
    done
  done 2>&1 | tee "$OUT/launch.txt" ;;
check)
  bin/skmd-bench --size=small --runs=1 --warmup=0 --kernels-dir=kernels --bundles-dir=kernels \
    --db=profiles.sqlite --devices=cpu,cuda:0,remote:unix:$sock --plans=s.gpu0,even \
    --opencl=none 2>&1 | tee "$OUT/check-$(echo "${SERVER_GPUS:-cuda}" | tr : -).txt" | tail -n 30
  echo "skmd-bench exit status: ${PIPESTATUS[0]}" | tee -a "$OUT/check-$(echo "${SERVER_GPUS:-cuda}" | tr : -).txt" ;;
*)
  echo "unknown part '$part'"; kill $server; exit 2 ;;
esac
kill -TERM $server
wait $server
tail -n 5 "$OUT/server.log"
