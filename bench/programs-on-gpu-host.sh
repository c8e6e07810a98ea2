#!/usr/bin/env bash
# On the GPU host, from the folder bench/package-programs-for-gpu-host.sh
# makes: the benchmark-shaped programs through the SKMD platform
# on cuda, cpu,cuda and the default device list (2 runs each), then under
# compute-sanitizer on cuda; NVIDIA's own OpenCL as the programs' check.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/logs" "$here/vendors"
echo "$here/lib/libSKMD_OpenCL.so" > "$here/vendors/skmd.icd"
nv=$(ldconfig -p | awk '/libnvidia-opencl.so.1/{print $NF; exit}')
[ -n "$nv" ] && echo "$nv" > "$here/vendors/nvidia.icd"
export LD_LIBRARY_PATH=$here/icd:$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_ICD_VENDORS=$here/vendors SKMD_CACHE=$here/cache OCL_PROGRAMS_DIR=$here/programs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
progs=$(cd "$here/programs" && ls | grep -v '\.cl$' | grep -v release-then-exit)
table() { printf '%-14s' "$1"; shift; for c in "$@"; do printf ' %-22s' "$c"; done; echo; }
verdict() {
  local rc=$1 log=$2
  if [ "$rc" -eq 0 ]; then echo PASS
  elif [ "$rc" -eq 124 ]; then echo TIMEOUT
  elif [ "$rc" -gt 128 ]; then echo "SIG$(kill -l $((rc - 128)))"
  elif [ "$rc" -eq 1 ]; then echo FAIL
  else echo "ERROR($rc)"; fi
}
lists="cuda cpu,cuda default nvidia"
table program $lists | tee "$OUT/table.txt"
for p in $progs; do
  row=()
  for l in $lists; do
    v=""
    for r in 1 2; do
      log=$OUT/logs/$p.${l//,/+}.$r.txt
      if [ $l = nvidia ]; then
        OCL_PLATFORM=NVIDIA timeout 120 "$here/programs/$p" > "$log" 2>&1; rc=$?
      elif [ $l = default ]; then
        OCL_PLATFORM=SKMD timeout 120 "$here/programs/$p" > "$log" 2>&1; rc=$?
      else
        OCL_PLATFORM=SKMD SKMD_DEVICES=$l timeout 120 "$here/programs/$p" > "$log" 2>&1; rc=$?
      fi
      v="$v$(verdict $rc "$log") "
      [ $l = nvidia ] && break
    done
    row+=("$(echo $v | tr ' ' '\n' | sort | uniq -c | awk '{printf "%s%sx%s", (NR>1?",":""), $1, $2}')")
  done
  table "$p" "${row[@]}" | tee -a "$OUT/table.txt"
done
echo "== work_items on cuda, explained" | tee -a "$OUT/table.txt"
OCL_PLATFORM=SKMD SKMD_DEVICES=cuda SKMD_EXPLAIN=1 timeout 60 "$here/programs/work_items" 2>&1 | grep -v "^skmd:   " | head -40 | tee -a "$OUT/table.txt"
echo "== release-then-exit on cuda, 5 runs" | tee -a "$OUT/table.txt"
for r in 1 2 3 4 5; do OCL_PLATFORM=SKMD SKMD_DEVICES=cuda timeout 60 "$here/programs/opencl-release-then-exit" > "$OUT/logs/release.$r.txt" 2>&1; echo -n "$? "; done | tee -a "$OUT/table.txt"; echo | tee -a "$OUT/table.txt"
cs=/usr/local/cuda/bin/compute-sanitizer
echo "== compute-sanitizer (memcheck) on cuda" | tee -a "$OUT/table.txt"
for p in ${MEMCHECK:-lu gemm jacobi fdtd2d covariance trisolv null_arg buffer_churn}; do
  OCL_PLATFORM=SKMD SKMD_DEVICES=cuda timeout 60 $cs --tool memcheck --error-exitcode 99 \
    "$here/programs/$p" > "$OUT/logs/$p.memcheck.txt" 2>&1
  rc=$?
  echo "$p $(verdict $rc x) $(grep -c '=========.*Invalid\|========= ERROR' "$OUT/logs/$p.memcheck.txt")" | tee -a "$OUT/table.txt"
done
