#!/bin/bash
# GPU sharing (issue 25) on a GPU host, after bench/package-for-gpu-host.sh
# (as run-shared.sh there). N processes start at once, each running the same
# launch STEPS times (skmd-run --repeat) on the one GPU; the turnaround is
# the time until the last one ends. Results go to $OUT.
#   bash gpu-run/bench/run-shared.sh scaling [STEPS]
#        1, 2, 4, 8 and 16 processes, compute-intensive (matmul 1024) and
#        I/O-intensive (vector add of 8M floats, Black-Scholes of 4M
#        options): each process opening the GPU itself (direct) against
#        every process through one skmd-server (shared: a context, streams
#        per client); then the same direct under NVIDIA MPS where
#        nvidia-cuda-mps-control starts (stopped after; NO_MPS=1 skips it)
#        (APPS="matmul vector-add" picks applications)
#   bash gpu-run/bench/run-shared.sh overhead
#        one process, vector add moving 400 MB (two 134 MB inputs, one
#        134 MB output), direct against shared, pageable and page-locked
#   bash gpu-run/bench/run-shared.sh load [STEPS]
#        1, 4, 8 and 16 processes, each planning its launches over its CPU
#        cores and the shared GPU (--plan=auto): plans that count the GPU's
#        other users against plans that do not (SKMD_SHARED_LOAD=0)
#   bash gpu-run/bench/run-shared.sh gather [STEPS]
#        each application profiled on the GPU through the server
#        (skmd-prof), then 4, 8 and 16 processes through a server that
#        issues each client's work as it comes (off), or gathers their
#        steps at a barrier and issues them in the order the model picks
#        (auto), in PS-1 or in PS-2, waiting at most WAIT_US (100000 us)
#        for a client (auto-2ms: the default 2 ms); the server's --explain
#        lines (batches.txt) give each batch's
#        predicted and measured turnaround (gather.txt: the median error
#        over the batches of every process's step) (MODES= picks)
cd "$(dirname "$0")"
export SKMD_PROFILE_DB=$PWD/profiles.sqlite
export SKMD_SERVER_SECRET=gpu-host-shared-secret-$$
sock=/tmp/skmd-shared-$$.sock
logs=$(mktemp -d /tmp/skmd-shared-runs.XXXXXX) # each process's output
trap 'rm -rf "$logs"' EXIT
part=${1:-scaling}
steps=${2:-10}
# SHARED_TEST=1: HostDiscrete devices instead of the GPU, to try the
# script on a machine without one. GPUS=N: the processes take the host's N
# GPUs in turn (scaling; direct processes open every GPU, as an SKMD
# program does by default, and run on theirs).
gpu=cuda direct_plan=gpu0
[ -n "${SHARED_TEST:-}" ] && gpu=discrete direct_plan=discrete0
[ -n "${SHARED_TEST:-}" ] && [ "${GPUS:-1}" -gt 1 ] &&
  gpu=$(printf 'discrete,%.0s' $(seq "$GPUS")) && gpu=${gpu%,}
server=
start_server() { # LOG [OPTIONS]: (re)starts the server
  local log=$1; shift
  if [ -n "$server" ]; then kill -TERM "$server"; wait "$server"; fi
  bin/skmd-server --listen=unix:$sock --devices=$gpu --name=s "$@" >"$log" 2>&1 &
  server=$!
  for _ in $(seq 200); do grep -q serving "$log" && break; sleep 0.1; done
  head -n 1 "$log"
}
start_server "$OUT/server.log"

app_args() { # the skmd-run arguments of application $1
  case $1 in
  matmul) echo "kernels/matmul_tiled.skmd matmul_tiled --global=1024,1024 --local=16,16
    --arg=1024*1024 --arg=1024*1024 --arg=1024*1024:zero --arg=1024" ;;
  vector-add) echo "kernels/vector_add.skmd vector_add --global=8388608 --local=256
    --arg=8388608 --arg=8388608 --arg=8388608:zero --arg=8388608" ;;
  black-scholes) echo "kernels/black_scholes.skmd black_scholes --global=4194304 --local=256
    --arg=4194304:10..100 --arg=4194304:10..100 --arg=4194304:0.2..2 --arg=4194304:zero
    --arg=4194304:zero --arg=0.02 --arg=0.3 --arg=4194304" ;;
  esac
}

apps=${APPS:-matmul vector-add black-scholes}
# profile_apps: each of $apps profiled on the CPU and on the GPU through the
# server, for the clients' plans (skmd-prof).
profile_apps() {
  for app in $apps; do
    # shellcheck disable=SC2046
    bin/skmd-prof $(app_args "$app") --devices=cpu,shared:$sock >>"$OUT/profile.txt" 2>&1 ||
      echo "FAILED: profiling $app" >&2
  done
}

# turnaround APP N MODE: seconds until N processes of APP, started at once,
# have each run STEPS launches; fails when one fails.
turnaround() {
  local app=$1 n=$2 mode=$3 devices plan
  local start end pids=() bad=0
  start=$(date +%s.%N)
  for i in $(seq "$n"); do
    # With GPUS=2 (or more), process i runs on GPU (i - 1) mod GPUS.
    local one=${direct_plan%0}$(((i - 1) % ${GPUS:-1}))
    if [ "$mode" = shared ]; then devices=cpu,shared:$sock plan=s.$one
    elif [ "$mode" = planned ]; then devices=cpu,shared:$sock plan=auto
    else devices=cpu,$gpu plan=$one; fi
    # shellcheck disable=SC2046
    bin/skmd-run $(app_args "$app") --devices=$devices --plan=$plan --repeat="$steps" \
      >"$logs/$app-$mode-$n-$i.txt" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || bad=1; done
  end=$(date +%s.%N)
  [ $bad = 0 ] || { echo "FAILED: $app $mode $n" >&2; tail -n 3 "$logs"/$app-$mode-$n-*.txt >&2; }
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

case "$part" in
scaling)
  modes="direct shared"
  echo "| application | processes | direct s | shared s | direct / shared |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  for app in ${APPS:-matmul vector-add black-scholes}; do
    turnaround "$app" 1 shared >/dev/null # the server's JIT, once
    for n in ${NS:-1 2 4 8 16}; do
      d=$(turnaround "$app" "$n" direct) s=$(turnaround "$app" "$n" shared)
      echo "| $app | $n | $d | $s | $(awk -v d="$d" -v s="$s" 'BEGIN { printf "%.2f", d / s }') |"
    done
  done 2>&1 | tee "$OUT/scaling.txt"
  if [ -n "${NO_MPS:-}" ]; then
    echo "MPS: not tried (NO_MPS)" | tee -a "$OUT/scaling.txt"
  elif ! command -v nvidia-cuda-mps-control >/dev/null; then
    echo "MPS: this host has no nvidia-cuda-mps-control" | tee -a "$OUT/scaling.txt"
  elif ! CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-$$ CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log-$$ \
         nvidia-cuda-mps-control -d >"$OUT/mps.txt" 2>&1; then
    echo "MPS: nvidia-cuda-mps-control -d failed: $(cat "$OUT/mps.txt")" |
      tee -a "$OUT/scaling.txt"
  else
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-$$ CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log-$$
    echo "| application | processes | direct under MPS s |" | tee "$OUT/mps.txt"
    echo "| --- | ---: | ---: |" | tee -a "$OUT/mps.txt"
    for app in ${APPS:-matmul vector-add black-scholes}; do
      for n in ${NS:-1 2 4 8 16}; do
        echo "| $app | $n | $(turnaround "$app" "$n" direct) |"
      done
    done 2>&1 | tee -a "$OUT/mps.txt"
    echo quit | nvidia-cuda-mps-control
  fi ;;
overhead)
  big="kernels/vector_add.skmd vector_add --global=33554432 --local=256 --arg=33554432
       --arg=33554432 --arg=33554432:zero --arg=33554432"
  for round in 1 2 3; do
    for mode in direct shared; do
      if [ $mode = shared ]; then devices=cpu,shared:$sock plan=s.$direct_plan
      else devices=cpu,$gpu plan=$direct_plan; fi
      echo "== round $round, $mode"
      # shellcheck disable=SC2086
      bin/skmd-run $big --devices=$devices --plan=$plan --repeat=5 --memory=both |
        grep -E "^  on |total"
    done
  done 2>&1 | tee "$OUT/overhead.txt" ;;
gather)
  profile_apps
  echo "| application | processes | order | turnaround s | batches | of all | their orders | median error predicted | median error of the model alone |" |
    tee "$OUT/gather.txt"
  echo "| --- | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |" | tee -a "$OUT/gather.txt"
  for mode in ${MODES:-off auto ps1 ps2}; do
    log=$OUT/server-$mode.log
    case $mode in
    off) start_server "$log" ;;
    auto-2ms) start_server "$log" --gather=barrier --explain ;;
    *) start_server "$log" --gather=barrier:${WAIT_US:-100000} --order=$mode --explain ;;
    esac
    for app in $apps; do
      turnaround "$app" 1 shared >/dev/null # the server's JIT, once
      for n in 4 8 16; do
        before=$(wc -l <"$log")
        t=$(turnaround "$app" "$n" shared)
        tail -n +$((before + 1)) "$log" | grep " batch " >"$logs/batches.txt"
        { echo "## $app, $n processes, $mode"; cat "$logs/batches.txt"; } >>"$OUT/batches.txt"
        # Each batch of all n processes' steps: |predicted - measured| /
        # measured, of the prediction (the model times what the batches
        # before measured against it) and of the model alone.
        full=$(grep -E "batch [0-9]+: $n steps" "$logs/batches.txt")
        count=$(echo "$full" | grep -c "measured [0-9]")
        median() { sort -g | awk '{ e[NR] = $1 } END {
          if (NR) printf "%.1f%%", (NR % 2 ? e[(NR + 1) / 2] : (e[NR / 2] + e[NR / 2 + 1]) / 2)
          else printf "-" }'; }
        predicted=$(echo "$full" |
          sed -nE 's/.*predicted ([0-9.]+) ms .*measured ([0-9.]+) ms.*/\1 \2/p' |
          awk '{ d = ($1 - $2) / $2 * 100; print (d < 0 ? -d : d) }' | median)
        model=$(echo "$full" | sed -nE 's/.*\(model ([0-9.]+) ms .*measured ([0-9.]+) ms.*/\1 \2/p' |
          awk '{ d = ($1 - $2) / $2 * 100; print (d < 0 ? -d : d) }' | median)
        orders=$(echo "$full" | grep -oE "PS-[12];" | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = " " }' | tr -d ';')
        echo "| $app | $n | $mode | $t | $(grep -c . "$logs/batches.txt") | $count | ${orders:--} | $predicted | $model |"
      done
    done 2>&1 | tee -a "$OUT/gather.txt"
  done ;;
load)
  # Plans that see the GPU's other users (SKMD_SHARED_LOAD=1, the
  # default) against plans that take it as the process's own (0): each
  # process plans its launch over its CPU cores and the shared GPU
  # (--plan=auto, after the profiles of the gather part or skmd-prof here).
  profile_apps
  echo "| application | processes | plans see the others | turnaround s | GPU's share (median) |" |
    tee "$OUT/load.txt"
  echo "| --- | ---: | --- | ---: | ---: |" | tee -a "$OUT/load.txt"
  for app in $apps; do
    # The server's JIT and the first plan's measurements, once.
    turnaround "$app" 1 planned >/dev/null
    for n in 1 4 8 16; do
      for see in 1 0; do
        t=$(SKMD_SHARED_LOAD=$see turnaround "$app" "$n" planned)
        share=$(cat "$logs"/$app-planned-$n-*.txt | awk -v d="s.$direct_plan" '$1 == d { print $4 }' |
          tr -d % | sort -g | awk '{ e[NR] = $1 } END { if (NR) print e[int((NR + 1) / 2)] "%"; else print "-" }')
        echo "| $app | $n | $([ $see = 1 ] && echo yes || echo no) | $t | $share |"
      done
    done
  done 2>&1 | tee -a "$OUT/load.txt" ;;
*)
  echo "unknown part '$part'"; kill $server; exit 2 ;;
esac
kill -TERM $server
wait $server
tail -n 3 "$OUT/server.log"
