#!/usr/bin/env bash
# faults.sh [--mpi] SKMD_SERVER SKMD_RUN BUNDLE
#
# Remote devices when things go wrong, with real processes on a Unix
# socket, or with --mpi over Open MPI through an ompi-server of its own
# (loopback only; exits 77 where SKMD is built without MPI). Bounded:
# every step has a timeout.
#  - the server killed (SIGKILL) during a launch: the launch completes,
#    correct, with the lost server named and its groups re-run on the CPU;
#  - a client killed during a transfer: the server frees it and serves the
#    next client;
#  - a wrong secret, no secret, no server: a clear error, nothing run.
# BUNDLE is the corpus's matmul_tiled.skmd.
set -uo pipefail
mpi=0
if [ "${1:-}" = --mpi ]; then mpi=1; shift; fi
server=$1 run=$2 bundle=$3
dir=$(mktemp -d /tmp/skmd-faults.XXXXXX)
trap 'pkill -9 -P $$ 2>/dev/null; rm -rf "$dir"' EXIT
address() { if [ $mpi = 1 ]; then echo "mpi:skmd-faults-$$-$1"; else echo "unix:$dir/$1.sock"; fi; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
[ $mpi = 1 ] && start_ompi_server faults "$server" "$dir"
export SKMD_SERVER_SECRET=faults-test-secret-$$ SKMD_REMOTE_TIMEOUT_MS=3000
export SKMD_PROFILE_DB=$dir/profiles.sqlite
fail() { echo "FAIL: $*"; for f in "$dir"/*.log; do echo "== $f"; cat "$f"; done; exit 1; }
matmul=("$bundle" matmul_tiled --global=512,512 --local=16,16 --arg=512*512
        --arg=512*512 --arg=512*512:zero --arg=512)

start_server() { # name, extra environment
  local name=$1; shift
  env "$@" "$server" --listen=$(address $name) --devices=discrete --name=$name \
    >"$dir/$name.log" 2>&1 &
  wait_for serving "$dir/$name.log" 10 || fail "server $name did not start"
}

echo "== a server killed during a launch"
# A slowed link (0.5 MB/s): the 2 MB of inputs take 4 s, the kill comes at 1.5 s.
start_server a SKMD_DISCRETE_GBPS=0.0005
spid=$!
(wait_for arrived "$dir/a.log" 10; sleep 1.5; kill -9 $spid) &
timeout 60 "$run" "${matmul[@]}" --devices=cpu,remote:$(address a) \
  --plan=manual:cpu=0.1,a.discrete0=0.9 --check >"$dir/run-a.log" 2>&1
rc=$?
# 2: the launch completed and says a device failed (SKMD_ERROR_DEVICE_FAILED).
[ $rc = 2 ] || fail "skmd-run exited $rc, not 2"
grep -q "check: ok" "$dir/run-a.log" || fail "no correct result"
grep -q "skmd-server a, $(address a) is lost" "$dir/run-a.log" || fail "the lost server is not named"
grep -q "FAILED, re-run on the CPU" "$dir/run-a.log" || fail "the groups were not re-run"

echo "== a client killed during a transfer; the server serves the next one"
start_server b SKMD_DISCRETE_GBPS=0.0005
"$run" "${matmul[@]}" --devices=cpu,remote:$(address b) \
  --plan=b.discrete0 >"$dir/run-b1.log" 2>&1 &
cpid=$!  # skmd-run itself (killed below), so no timeout in between
wait_for arrived "$dir/b.log" 10
sleep 1.5
kill -9 $cpid
wait $cpid 2>/dev/null
wait_for dropped "$dir/b.log" 30 || fail "the server did not drop the killed client"
SKMD_DISCRETE_GBPS= timeout 60 "$run" "${matmul[@]}" --devices=cpu,remote:$(address b) \
  --plan=even --check >"$dir/run-b2.log" 2>&1 || fail "the next client failed"
grep -q "check: ok" "$dir/run-b2.log" || fail "the next client got no correct result"
grep -q "FAILED" "$dir/run-b2.log" && fail "the next client's remote device failed"

if [ $mpi = 1 ]; then echo "faults: ok"; exit 0; fi

echo "== a wrong secret, no secret, no server"
out=$(SKMD_SERVER_SECRET=another-secret-entirely timeout 30 "$run" "${matmul[@]}" \
      --devices=cpu,remote:$(address b) 2>&1) && fail "ran with a wrong secret"
grep -q "wrong secret" <<<"$out" || fail "no 'wrong secret' in: $out"
out=$(env -u SKMD_SERVER_SECRET timeout 30 "$run" "${matmul[@]}" \
      --devices=cpu,remote:$(address b) 2>&1) && fail "ran without a secret"
grep -q "secret" <<<"$out" || fail "no word of the secret in: $out"
out=$(SKMD_REMOTE_TIMEOUT_MS=200 timeout 30 "$run" "${matmul[@]}" \
      --devices=cpu,remote:unix:$dir/none.sock 2>&1) && fail "ran without a server"
grep -q "no skmd-server at unix:$dir/none.sock" <<<"$out" || fail "no clear error in: $out"
echo "faults: ok"
