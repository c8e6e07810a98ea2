#!/usr/bin/env bash
# mpmd.sh SERVER RUN BUNDLE
#
# An application and skmd-server started in one mpirun (MPMD), loopback
# only and without ompi-server: the application's rank 0 names the server
# by its rank (remote:mpi:rank:1), its launch checks against the CPU, and
# the server ends with the job once its client has left. Then the clear
# errors: a rank that is not in the job, the client's own rank. Exits 77
# (skipped) without Open MPI.
set -uo pipefail
server=$1 run=$2 bundle=$3
command -v mpirun >/dev/null || { echo "mpmd: no mpirun: skipped"; exit 77; }
[ -e "$(dirname "$server")/../lib/libskmd-mpi.so" ] ||
  { echo "mpmd: SKMD built without Open MPI: skipped"; exit 77; }
dir=$(mktemp -d /tmp/skmd-mpmd.XXXXXX)
trap 'rm -rf "$dir"' EXIT
export OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SKMD_SERVER_SECRET=mpmd-test-secret-$$ SKMD_PROFILE_DB=$dir/profiles.sqlite
matmul=("$bundle" matmul_tiled --global=512,512 --local=16,16 --arg=512*512
        --arg=512*512 --arg=512*512:zero --arg=512)
fail() { echo "FAIL: $*"; cat "$dir"/*.log; exit 1; }

echo "== the application and the server in one mpirun"
timeout 120 mpirun --oversubscribe -x SKMD_SERVER_SECRET -x SKMD_PROFILE_DB \
  -np 1 "$run" "${matmul[@]}" --devices=cpu,remote:mpi:rank:1 \
        --plan=manual:cpu=0.3,s.discrete0=0.7 --check : \
  -np 1 "$server" --listen=mpi:world --devices=discrete --name=s >"$dir/job.log" 2>&1
rc=$?
[ $rc = 0 ] || fail "the job exited $rc"
grep -q "check: ok" "$dir/job.log" || fail "no check"
grep -q "s.discrete0 \[" "$dir/job.log" || fail "the server's device ran no groups"
grep -q "every client has left" "$dir/job.log" || fail "the server did not end with its client"
cat "$dir/job.log"

echo "== a rank that is no server of the job"
timeout 60 mpirun --oversubscribe -x SKMD_SERVER_SECRET -np 1 "$run" "${matmul[@]}" \
  --devices=cpu,remote:mpi:rank:3 >"$dir/norank.log" 2>&1
grep -q "no other rank of this job (it has 1 ranks" "$dir/norank.log" || fail "rank 3: no clear error"
timeout 60 mpirun --oversubscribe -x SKMD_SERVER_SECRET -np 1 "$run" "${matmul[@]}" \
  --devices=cpu,remote:mpi:rank:0 >"$dir/self.log" 2>&1
grep -q "this is rank 0" "$dir/self.log" || fail "its own rank: no clear error"
echo "ok"
