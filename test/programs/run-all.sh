#!/usr/bin/env bash
# Runs every program of test/programs on the SKMD platform over each of a
# list of device lists and prints a table: program x device list ->
# PASS, FAIL (a wrong result), ERROR (an OpenCL call failed), TIMEOUT, or
# the signal that killed it.
#
#   test/programs/run-all.sh [options] [BUILD-DIR]     (default: build/)
#
#   --fill-cache DIR  run each program once on the CPU with SKMD_CACHE=DIR
#                     where the compiler is: the build cache then holds
#                     every program's kernels, all variants (x86, PTX,
#                     SPIR-V), for a host without LLVM
#   --cache DIR       run with SKMD_CACHE=DIR (on a host without LLVM)
#   --pack DIR        run nothing: copy what a run on another host needs
#                     (the platform's libraries, the programs and their
#                     .cl files, and the --cache folder as DIR/cache) into
#                     DIR, a build folder of its own for this script there
#
# Environment:
#   DEVICE_LISTS  space-separated SKMD_DEVICES values (default
#                 "cpu cpu,discrete,discrete"; a GPU host: "cuda cpu,cuda
#                 default"; "default" leaves SKMD_DEVICES unset: every
#                 device found); "platform=NAME" runs on the system's platform
#                 whose name or vendor contains NAME instead (e.g.
#                 platform=Portable for PoCL)
#   PROGRAMS      the programs to run (default: all)
#   OCL_SIZE, OCL_SCALE  problem sizes (README.md)
#   RUN_TIMEOUT   seconds per run (default 300)
#   LOG_DIR       where each run's output goes (default: a new temporary
#                 folder)
# The exit status is 0 when every run passed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=run
cache=
while [ $# -gt 0 ]; do
  case "$1" in
  --fill-cache) mode=fill; cache=${2:?--fill-cache needs a folder}; shift 2 ;;
  --cache) cache=${2:?--cache needs a folder}; shift 2 ;;
  --pack) mode=pack; pack=${2:?--pack needs a folder}; shift 2 ;;
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  -*) echo "run-all: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
build=$(cd "${1:-$here/../../build}" && pwd) || exit 2
bin=$build/test/programs
lib=$build/lib/libSKMD_OpenCL.so
if [ ! -f "$lib" ] || [ ! -d "$bin" ]; then
  echo "run-all: $build has no lib/libSKMD_OpenCL.so or test/programs/: build it first" >&2
  exit 2
fi
if [ -n "$cache" ]; then
  mkdir -p "$cache" && cache=$(cd "$cache" && pwd) || exit 2
fi
if [ $mode = pack ]; then
  mkdir -p "$pack/lib" "$pack/test/programs" || exit 2
  cp "$build/lib/libskmd.so" "$lib" "$pack/lib/" || exit 2
  for cl in "$bin"/*.cl; do
    [ -x "${cl%.cl}" ] && cp "$cl" "${cl%.cl}" "$pack/test/programs/"
  done
  if [ -n "$cache" ]; then
    mkdir -p "$pack/cache" && cp "$cache"/* "$pack/cache/" || exit 2
  fi
  echo "packed into $pack ($(du -sh "$pack" | cut -f1)): there, run-all.sh${cache:+ --cache $pack/cache} $pack"
  exit 0
fi
log_dir=${LOG_DIR:-$(mktemp -d /tmp/skmd-programs.XXXXXX)}
mkdir -p "$log_dir" || exit 2
timeout_s=${RUN_TIMEOUT:-300}

# SKMD alone, for both ICD loaders: ocl-icd reads OCL_ICD_VENDORS (a
# folder), Khronos' reads OCL_ICD_FILENAMES. The build tree's own vendors
# folder names the library by the path it was built at, so make one here.
vendors=$log_dir/vendors
mkdir -p "$vendors"
echo "$lib" > "$vendors/skmd.icd"

if [ -n "${PROGRAMS:-}" ]; then
  programs=$PROGRAMS
else
  programs=$(cd "$bin" && for cl in *.cl; do
               [ -x "${cl%.cl}" ] && echo "${cl%.cl}"; done)
fi
if [ -z "$programs" ]; then
  echo "run-all: no programs in $bin" >&2
  exit 2
fi
if [ $mode = fill ]; then
  lists=cpu
else
  lists=${DEVICE_LISTS:-cpu cpu,discrete,discrete}
fi

# Runs one program on one device list; prints its outcome.
run_one() {
  local program=$1 list=$2 log=$3
  local -a env
  case "$list" in
  platform=*)
    env=(OCL_PLATFORM="${list#platform=}") ;;
  *)
    env=(OCL_PLATFORM=SKMD OCL_ICD_VENDORS="$vendors" OCL_ICD_FILENAMES="$lib")
    [ "$list" = default ] || env+=(SKMD_DEVICES="$list")
    [ -n "$cache" ] && env+=(SKMD_CACHE="$cache") ;;
  esac
  local -a unset=()
  [ "$list" = default ] && unset=(-u SKMD_DEVICES)
  env "${unset[@]}" "${env[@]}" timeout "$timeout_s" "$bin/$program" > "$log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ] && grep -q '^PASS ' "$log"; then
    echo PASS
  elif [ $rc -eq 1 ]; then
    echo FAIL
  elif [ $rc -eq 2 ]; then
    echo ERROR
  elif [ $rc -eq 124 ]; then
    echo TIMEOUT
  elif [ $rc -gt 128 ]; then
    echo "SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
  else
    echo "rc=$rc"
  fi
}

width=12
for p in $programs; do [ ${#p} -ge $width ] && width=$((${#p} + 1)); done
header=$(printf "%-${width}s" program)
for list in $lists; do header+=$(printf " | %-22s" "$list"); done
echo "$header"
echo "${header//[^|]/-}"
failures=0
for program in $programs; do
  row=$(printf "%-${width}s" "$program")
  for list in $lists; do
    log=$log_dir/$program.${list//[^A-Za-z0-9_.=-]/_}.log
    outcome=$(run_one "$program" "$list" "$log")
    [ "$outcome" = PASS ] || failures=$((failures + 1))
    row+=$(printf " | %-22s" "$outcome")
  done
  echo "$row"
done
echo "logs: $log_dir"
if [ $mode = fill ]; then
  echo "cache: $cache ($(ls "$cache"/*.skmd 2>/dev/null | wc -l) bundles)"
fi
[ $failures -eq 0 ]
