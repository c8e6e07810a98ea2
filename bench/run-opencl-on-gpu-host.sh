#!/bin/bash
# The SKMD OpenCL platform on a GPU host (after
# bench/package-opencl-for-gpu-host.sh), unmodified OpenCL host code
# building its kernels from source through the build cache:
#   iterative  opencl-iterative: a Jacobi stencil and n-body, 100 steps, on
#              PoCL's CPU, NVIDIA's GPU and the SKMD platform (CPU + GPU)
#   suite      skmd-bench at the paper's sizes: the C API's auto against the
#              same applications' OpenCL host code on the platform
#              (skmd-opencl), beside each device alone and the vendors' drivers
#              (SUITE_VENDORS, default nvidia-gpu0: PoCL takes minutes on matmul);
#              SUITE_APPS and SUITE_OPTIONS narrow or extend it
# Results (JSON, markdown, logs) go to $OUT.
#   bash gpu-run/opencl/run.sh [iterative|suite|all]
cd "$(dirname "$0")"
what=${1:-all}
export LD_LIBRARY_PATH=$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Registered beside the system's platforms: Khronos' loader (the one
# there) adds OCL_ICD_FILENAMES to them. (ocl-icd would need a vendors
# folder: scripts/register-opencl.sh.)
export OCL_ICD_FILENAMES=$PWD/lib/libSKMD_OpenCL.so
# NVIDIA's OpenCL driver where its library is installed but not registered.
if ! clinfo -l 2>/dev/null | grep -q NVIDIA; then
  nv=$(ldconfig -p | awk '/libnvidia-opencl\.so\.1 / { print $NF; exit }')
  [ -n "$nv" ] && OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES:$nv
fi
export SKMD_CACHE=$PWD/cache SKMD_DEVICES=${SKMD_DEVICES:-cpu,cuda}
export SKMD_PROFILE_DB=$PWD/profiles.sqlite SKMD_PROFILE=auto
[ -e "$OUT/machine.txt" ] || { lscpu; nvidia-smi; clinfo -l; } > "$OUT/machine.txt" 2>&1
rc=0
if [ "$what" = iterative ] || [ "$what" = all ]; then
  echo "== opencl-iterative"
  # Each device of SKMD's also alone (SKMD_OPENCL_EXPOSE=each). The first
  # run profiles the kernels SKMD has no profiles of (SKMD_PROFILE=auto,
  # inside its first launch); the second is a program run again.
  for run in first again; do
    SKMD_OPENCL_EXPOSE=each bin/opencl-iterative --kernels-dir=kernels \
      --json="$OUT/iterative-$run.json" ${ITERATIVE_OPTIONS:-} 2> "$OUT/iterative-$run.log" |
      tee "$OUT/iterative-$run.txt"
    rc=$((rc | PIPESTATUS[0]))
  done
  grep -v "^skmd: " "$OUT/iterative-again.log" | tail -5
fi
if [ "$what" = suite ] || [ "$what" = all ]; then
  echo "== skmd-bench"
  apps=${SUITE_APPS:-vector-add,black-scholes,matmul,transpose,histogram,reduction,sobel,nbody}
  bin/skmd-bench --only="$apps" --kernels-dir=kernels --bundles-dir=kernels \
    --db=profiles.sqlite --opencl=${SUITE_VENDORS:-nvidia-gpu0} --plans=single,auto,opencl \
    --json="$OUT/suite.json" --markdown="$OUT/suite.md" ${SUITE_OPTIONS:-} \
    2> "$OUT/suite.log"
  rc=$((rc | $?))
  grep -v "^skmd: " "$OUT/suite.log" | tail -n 30
  cat "$OUT/suite.md"
fi
echo "run.sh rc=$rc"
exit $rc
