#!/usr/bin/env bash
# with-servers.sh [--mpi] N SERVER_BIN -- COMMAND...
#
# Starts N skmd-servers on this node, each serving two HostDiscrete devices
# (unix:<tmp>/sN.sock, or with --mpi an Open MPI port published through an
# ompi-server of its own, loopback only), runs COMMAND with
# SKMD_TEST_DEVICES=cpu,remote:<each server> and the shared secret set,
# then stops the servers with SIGTERM. Fails when COMMAND fails or a server
# does not stop cleanly; exits 77 (skipped) for --mpi without Open MPI.
set -euo pipefail
mpi=0
if [ "${1:-}" = --mpi ]; then mpi=1; shift; fi
n=$1 server=$2
shift 2
[ "${1:-}" = -- ] && shift

dir=$(mktemp -d /tmp/skmd-servers.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  [ -n "${SKMD_KEEP_SERVER_LOGS:-}" ] && cat "$dir"/s*.log
  rm -rf "$dir"
}
trap cleanup EXIT

export SKMD_SERVER_SECRET=with-servers-test-secret-$$
export SKMD_DISCRETE_THREADS=1
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
if [ $mpi = 1 ]; then
  start_ompi_server with-servers "$server" "$dir"
  pids+=("$ompi_server_pid")
fi

devices=cpu
servers=()
for i in $(seq "$n"); do
  if [ $mpi = 1 ]; then address=mpi:skmd-test-$$-$i; else address=unix:$dir/s$i.sock; fi
  "$server" --listen="$address" --devices=discrete,discrete --name=s$i >"$dir/s$i.log" 2>&1 &
  servers+=($!)
  pids+=($!)
  devices+=",remote:$address"
  # The server says where it serves once it listens.
  wait_for serving "$dir/s$i.log" 10 || { echo "with-servers: server $i did not start"; cat "$dir/s$i.log"; exit 1; }
done

export SKMD_TEST_DEVICES=$devices
echo "with-servers: SKMD_TEST_DEVICES=$devices"
status=0
"$@" || status=$?

for i in "${!servers[@]}"; do
  kill -TERM "${servers[$i]}" 2>/dev/null || true
  if ! timeout 20 tail --pid="${servers[$i]}" -f /dev/null; then
    echo "with-servers: server $((i + 1)) did not stop within 20 s"; status=1
  fi
  grep -q "stopped" "$dir/s$((i + 1)).log" || { echo "with-servers: server $((i + 1)) did not stop cleanly:"; cat "$dir/s$((i + 1)).log"; status=1; }
done
exit $status
