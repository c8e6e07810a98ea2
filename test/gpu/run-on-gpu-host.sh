#!/bin/bash
# The runtime's checks on a GPU host (test/gpu/package.sh puts this beside
# the binaries). Results go to $OUT when set.
#   run.sh runtime   differential tests, transfer bandwidth, skmd-run checks
#   run.sh model     partitioner time, model prediction errors, model plans
#   run.sh [all]     both
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
what=${1:-all}
export SKMD_CORPUS_DIR=$PWD/corpus
{ nvidia-smi -L; nvidia-smi topo -m; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
if [ "$what" = model ] || [ "$what" = all ]; then
  echo "== partitioner time (Algorithm 1, 5 devices)"
  bin/partitioner-time 2>&1 | tee "$OUT/partitioner-time.txt"
  echo "== model: prediction errors and plans (CPU + every GPU)"
  bash prediction-error.sh bin bench cpu,cuda "$OUT/prediction" full
  # The logs travel as one archive; the summary beside it.
  cp "$OUT/prediction/summary.md" "$OUT/prediction-summary.md"
  rm -rf "$OUT/prediction"
  cat "$OUT/prediction-summary.md"
fi
[ "$what" = model ] && exit 0
echo "== differential: every corpus kernel, random pieces over the CPU and every GPU"
SKMD_TEST_DEVICES=cpu,cuda bin/skmd-corpus-tests --gtest_brief=1 2>&1 | tee "$OUT/differential.txt" | tail -15
echo "== the SKMD OpenCL platform (no compiler on this host: bundles) over the CPU and every GPU"
# The host's loader may be Khronos' (the CUDA toolkit's), which takes
# OCL_ICD_FILENAMES; ocl-icd takes OCL_ICD_VENDORS.
mkdir -p vendors && echo "$PWD/lib/libSKMD_OpenCL.so" > vendors/skmd.icd
SKMD_CORPUS_DIR=$PWD/corpus OCL_ICD_VENDORS=$PWD/vendors \
  OCL_ICD_FILENAMES=$PWD/lib/libSKMD_OpenCL.so LD_LIBRARY_PATH=$PWD/lib SKMD_DEVICES=cpu,cuda \
  SKMD_OPENCL_COMPILER=$PWD/missing/compiler.so bin/opencl-api-tests \
  --gtest_filter=OpenCL.WithoutTheCompilerBinariesStillRun:OpenCL.PlatformAndDevice* 2>&1 |
  grep -v "^skmd: " | tee "$OUT/opencl-platform.txt" | tail -4
echo "== resident buffers: 100 Jacobi launches split over the CPU and every GPU"
for plan in even auto; do
  SKMD_PROFILE=auto SKMD_PROFILE_DB=$PWD/resident-profiles.sqlite \
    bin/resident-loop --bundle=bench/jacobi2d.skmd --devices=cpu,cuda --plan=$plan 2>&1 |
    grep -v "^skmd: " | tee "$OUT/resident-loop-$plan.md"
done
echo "== transfer bandwidth (three runs of the benchmark)"
for run in 1 2 3; do
  bin/transfer-bandwidth --mb=256 --runs=5 2>&1 | tee "$OUT/transfer-bandwidth-$run.md"
done
echo "== skmd-run: tiled matmul on every device"
bin/skmd-run examples/matmul_tiled.skmd matmul_tiled --global=2048,2048 --local=16,16 \
  --arg=4194304 --arg=4194304:random:2 --arg=4194304:zero --arg=2048 --check \
  --repeat=3 --trace="$OUT/matmul-trace.json" 2>&1 | tee "$OUT/skmd-run-matmul.txt"
echo "== skmd-run: vector add on every device"
bin/skmd-run examples/vector_add.skmd vector_add --global=16777216 --local=256 \
  --arg=16777216 --arg=16777216:random:2 --arg=16777216:zero --arg=16777216 --check \
  --repeat=3 2>&1 | tee "$OUT/skmd-run-vector-add.txt"
echo "== skmd-run: transpose (box-shaped transfers) split evenly over the CPU and every GPU"
bin/skmd-run corpus/transpose.skmd transpose --global=8192,8192 --local=16,16 \
  --arg=67108864 --arg=67108864:zero --arg=8192 --arg=8192 --plan=even --check \
  --repeat=3 2>&1 | tee "$OUT/skmd-run-transpose.txt"
