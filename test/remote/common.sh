# Sourced by the remote tests.
#
# wait_for PATTERN FILE SECONDS: succeeds once FILE has a line matching
# PATTERN (a server's log saying it serves, a client arrived, ...), fails
# when SECONDS pass first.
wait_for() {
  local pattern=$1 file=$2 tenths=$(($3 * 10))
  for _ in $(seq "$tenths"); do grep -q "$pattern" "$file" 2>/dev/null && return 0; sleep 0.1; done
  grep -q "$pattern" "$file" 2>/dev/null
}

# start_ompi_server TOOL SKMD_SERVER DIR
# starts an ompi-server of the test's own on loopback only, its URI in
# DIR/uri, and exports what Open MPI's singletons need to find it; its pid
# is then in $ompi_server_pid. Exits 77 (skipped) where Open MPI or
# libskmd-mpi.so is missing, 1 where ompi-server does not start.
start_ompi_server() {
  local tool=$1 server=$2 dir=$3
  command -v ompi-server >/dev/null || { echo "$tool: no ompi-server: skipped"; exit 77; }
  [ -e "$(dirname "$server")/../lib/libskmd-mpi.so" ] ||
    { echo "$tool: SKMD built without Open MPI: skipped"; exit 77; }
  # Loopback only: without these ompi-server binds a non-loopback address.
  export OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  ompi-server --no-daemonize --report-uri "$dir/uri" >"$dir/ompi-server.txt" 2>&1 &
  ompi_server_pid=$!
  wait_for . "$dir/uri" 10 || { echo "$tool: ompi-server did not start"; cat "$dir/ompi-server.txt"; exit 1; }
  export OMPI_MCA_pmix_server_uri=file:$dir/uri
}
