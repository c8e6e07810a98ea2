#!/usr/bin/env bash
# clients.sh SKMD_SERVER SKMD_CORPUS_TESTS SKMD_RUN BUNDLE
#
# Many processes sharing one node's skmd-server (devices `shared`), each
# with streams of its own on the server's devices (two HostDiscrete
# devices that queue their work as a GPU does). Bounded: every step has a
# timeout.
#  - the differential corpus from 4 client processes at once, their steps
#    gathered at a barrier and issued in the order the model picks: every
#    split launch of each matches the CPU alone, and the server explains
#    batches of several clients' steps;
#  - a client killed during a launch while three others launch: the others'
#    results are all correct and none of their devices fails (steps
#    gathered in a window, issued in PS-1 order: the others wait for the
#    killed one's stages a bounded time); the server drops the killed one
#    and serves a client after it.
# BUNDLE is the corpus's matmul_tiled.skmd. SKMD_KEEP_LOGS=1 keeps the
# logs' folder (/tmp/skmd-shared.*).
set -uo pipefail
server=$1 corpus=$2 run=$3 bundle=$4
dir=$(mktemp -d /tmp/skmd-shared.XXXXXX)
trap 'pkill -9 -P $$ 2>/dev/null; [ -n "${SKMD_KEEP_LOGS:-}" ] || rm -rf "$dir"' EXIT
# shellcheck source=../remote/common.sh
. "$(dirname "$0")/../remote/common.sh"
export SKMD_SERVER_SECRET=shared-clients-test-secret-$$ SKMD_REMOTE_TIMEOUT_MS=5000
export SKMD_PROFILE_DB=$dir/profiles.sqlite SKMD_DISCRETE_THREADS=1
fail() { echo "FAIL: $*"; for f in "$dir"/*.log; do echo "== $f"; tail -n 30 "$f"; done; exit 1; }

start_server() { # name, server options, extra environment
  local name=$1 options=$2; shift 2
  # shellcheck disable=SC2086
  env SKMD_DISCRETE_QUEUE=1 "$@" "$server" --listen=unix:$dir/$name.sock \
    --devices=discrete,discrete --name=$name $options >"$dir/$name.log" 2>&1 &
  wait_for serving "$dir/$name.log" 10 || fail "server $name did not start"
}

echo "== the differential corpus from 4 clients at once"
start_server s "--gather=barrier --explain"
pids=()
for c in 1 2 3 4; do
  SKMD_TEST_DEVICES=cpu,shared:$dir/s.sock timeout 600 "$corpus" --gtest_filter='Cpu*' \
    >"$dir/corpus-$c.log" 2>&1 &
  pids+=($!)
done
for c in 1 2 3 4; do
  wait "${pids[$((c - 1))]}" || fail "client $c's differential runs failed"
  grep -q "PASSED" "$dir/corpus-$c.log" || fail "client $c ran no tests"
done
[ "$(grep -c arrived "$dir/s.log")" -ge 4 ] || fail "the server saw fewer than 4 clients"
grep -Eq "batch [0-9]+: [2-4] steps, .*measured [0-9.]+ ms" "$dir/s.log" ||
  fail "the server explained no batch of several clients' steps"
echo "$(grep -c ' batch ' "$dir/s.log") batches, $(grep -Ec 'batch [0-9]+: [2-4] steps' \
  "$dir/s.log") of several clients' steps"

echo "== a client killed during a launch while three others launch"
# A slowed link (0.5 MB/s): the victim's 2 MB of inputs take 4 s, the kill
# comes at 1.5 s; the others' 128 KB take a quarter of a second a launch.
start_server k "--gather=window:500 --order=ps1" SKMD_DISCRETE_GBPS=0.0005
small=("$bundle" matmul_tiled --global=128,128 --local=16,16 --arg=128*128 --arg=128*128
       --arg=128*128:zero --arg=128)
"$run" "$bundle" matmul_tiled --global=512,512 --local=16,16 --arg=512*512 --arg=512*512 \
  --arg=512*512:zero --arg=512 --devices=cpu,shared:$dir/k.sock --plan=k.discrete0 \
  >"$dir/victim.log" 2>&1 &
victim=$!
others=()
for c in 1 2 3; do
  (for i in 1 2 3 4 5 6; do
     timeout 60 "$run" "${small[@]}" --devices=cpu,shared:$dir/k.sock --plan=even --check \
       || exit 1
   done) >"$dir/other-$c.log" 2>&1 &
  others+=($!)
done
wait_for arrived "$dir/k.log" 10
sleep 1.5
kill -9 $victim
wait $victim 2>/dev/null || true
for c in 1 2 3; do
  wait "${others[$((c - 1))]}" || fail "client $c failed beside the killed one"
  [ "$(grep -c 'check: ok' "$dir/other-$c.log")" = 6 ] || fail "client $c got a wrong result"
  grep -q "FAILED" "$dir/other-$c.log" && fail "a device of client $c failed"
done
wait_for dropped "$dir/k.log" 30 || fail "the server did not drop the killed client"
SKMD_DISCRETE_GBPS= timeout 60 "$run" "${small[@]}" --devices=cpu,shared:$dir/k.sock \
  --plan=even --check >"$dir/after.log" 2>&1 || fail "the client after the kill failed"
grep -q "check: ok" "$dir/after.log" || fail "the client after the kill got no correct result"
echo "clients: ok"
