#!/usr/bin/env bash
# How well the performance model predicts, and what its plans do: for each
# kernel, skmd-prof profiles every device at three sizes and validates the
# models (dry runs at 10%..100% of the groups) at those sizes and at one it
# has not seen; then skmd-run runs the middle-sized launch with the model
# plan (auto), linear partitioning and each device alone, with --explain.
#
#   bench/prediction-error.sh BIN BUNDLES DEVICES OUT [small|full]
#
# CASES (e.g. CASES="matmul nbody") runs some of the kernels only;
# PINNED=1 runs the launches (not the profiles) on page-locked buffers
# (skmd-run --pinned), which GPUs copy by DMA.
# BIN holds skmd-prof and skmd-run, BUNDLES the bench kernels' bundles
# (bench/kernels/*.cl through skmd-cc), DEVICES a device list
# (cpu,discrete,discrete here; cpu,cuda on a GPU host); logs and a summary
# (summary.md) go to OUT. small: sizes for a 2-core machine; full: for a
# GPU host.
set -euo pipefail
bin=$1 bundles=$2 devices=$3 out=$4 scale=${5:-small}
mkdir -p "$out"
export SKMD_PROFILE_DB=$out/profiles.sqlite
rm -f "$SKMD_PROFILE_DB" "$SKMD_PROFILE_DB"-*
summary=$out/summary.md
{
  echo "| kernel | median error, profiled sizes | median error, unseen size | auto: ms (launch error) | linear ms | each device alone, ms |"
  echo "|---|---|---|---|---|---|"
} > "$summary"
cases=${CASES:-vector-add black-scholes matmul sobel nbody}
pinned=()
if [ "${PINNED:-0}" = 1 ]; then
  pinned=(--pinned)
  echo "(launches on page-locked buffers: skmd-run --pinned)" >> "$summary"
fi

# case NAME BUNDLE KERNEL "SIZES" UNSEEN RUNSIZE -- ARGS (with {n})
case_() {
  local name=$1 bundle=$2 kernel=$3 sizes=$4 unseen=$5 runsize=$6
  shift 7
  case " $cases " in *" $name "*) ;; *) return 0 ;; esac
  local log=$out/$name
  echo "== $name"
  "$bin/skmd-prof" "$bundles/$bundle.skmd" "$kernel" --devices="$devices" "$@" \
    --sizes="$sizes" --validate > "$log-profile.txt" 2>&1
  "$bin/skmd-prof" "$bundles/$bundle.skmd" "$kernel" --devices="$devices" "$@" \
    --sizes="$sizes" --validate-sizes="$unseen" --no-profile > "$log-unseen.txt" 2>&1
  local seen unseen_err
  seen=$(grep "median prediction error" "$log-profile.txt" | sed 's/median prediction error: \([^ ]*\).*/\1/')
  unseen_err=$(grep "median prediction error" "$log-unseen.txt" | sed 's/median prediction error: \([^ ]*\).*/\1/')
  # The launch at RUNSIZE: {n} replaced in the arguments.
  local args=()
  for a in "$@"; do args+=("${a//\{n\}/$runsize}"); done
  local auto linear singles=""
  # The check compares with the CPU alone; GPUs round floats differently,
  # and n-body's sums of 10^4-10^5 forces in another order drift further.
  local tol=1e-3
  [ "$name" = nbody ] && tol=1e-2
  "$bin/skmd-run" "$bundles/$bundle.skmd" "$kernel" --devices="$devices" "${args[@]}" \
    "${pinned[@]}" --plan=auto --explain --repeat=5 --check --tolerance=$tol > "$log-auto.txt" 2>&1 || true
  # The launch error: the median over the 5 runs (the --check run after
  # them is the CPU alone).
  local err
  err=$(grep -o 'predicted [0-9.]* ms: error [-+0-9.]*%' "$log-auto.txt" | head -5 |
        sed 's/.*error //; s/%//' | sort -g | sed -n 3p)
  auto="$(grep -o 'total [0-9.]* ms' "$log-auto.txt" | head -1 | cut -d' ' -f2) (${err}%)"
  grep -q "check: ok" "$log-auto.txt" || auto+=" CHECK FAILED"
  "$bin/skmd-run" "$bundles/$bundle.skmd" "$kernel" --devices="$devices" "${args[@]}" \
    "${pinned[@]}" --plan=linear --repeat=5 > "$log-linear.txt" 2>&1
  linear=$(grep -o 'total [0-9.]* ms' "$log-linear.txt" | head -1 | cut -d' ' -f2)
  for d in $(sed -n 's/^  devices: //p' "$log-auto.txt" | grep -oE '\b(cpu|gpu[0-9]+|discrete[0-9]+) \(' | tr -d ' ('); do
    "$bin/skmd-run" "$bundles/$bundle.skmd" "$kernel" --devices="$devices" "${args[@]}" \
      "${pinned[@]}" --plan="$d" --repeat=5 > "$log-$d.txt" 2>&1
    singles+="$d $(grep -o 'total [0-9.]* ms' "$log-$d.txt" | head -1 | cut -d' ' -f2), "
  done
  echo "| $name | $seen | $unseen_err | $auto | $linear | ${singles%, } |" >> "$summary"
  tail -1 "$summary"
}

if [ "$scale" = full ]; then
  va="16777216,33554432,67108864" va_u=50331648 va_r=33554432
  bs="4194304,8388608,16777216" bs_u=12582912 bs_r=8388608
  mm="1024,2048,3072" mm_u=2560 mm_r=2048
  so="2048,4096,8192" so_u=6144 so_r=4096
  nb="16384,32768,65536" nb_u=49152 nb_r=32768
else
  va="1048576,4194304,8388608" va_u=6291456 va_r=4194304
  bs="262144,1048576,2097152" bs_u=1572864 bs_r=1048576
  mm="256,512,768" mm_u=640 mm_r=512
  so="512,1024,2048" so_u=1536 so_r=1024
  nb="2048,4096,8192" nb_u=6144 nb_r=4096
fi

case_ vector-add vector_add vector_add "$va" "$va_u" "$va_r" -- \
  --global={n} --local=256 --arg={n} --arg={n} --arg={n}:zero --arg={n}
case_ black-scholes black_scholes black_scholes "$bs" "$bs_u" "$bs_r" -- \
  --global={n} --local=256 --arg={n} --arg={n} --arg={n} --arg={n}:zero --arg={n}:zero \
  --arg=0.02 --arg=0.3 --arg={n}
case_ matmul matmul_tiled matmul_tiled "$mm" "$mm_u" "$mm_r" -- \
  --global={n},{n} --local=16,16 --arg={n}*{n} --arg={n}*{n} --arg={n}*{n}:zero --arg={n}
case_ sobel sobel sobel "$so" "$so_u" "$so_r" -- \
  --global={n},{n} --local=16,16 --arg={n}*{n} --arg={n}*{n}:zero --arg={n} --arg={n}
case_ nbody nbody nbody_step "$nb" "$nb_u" "$nb_r" -- \
  --global={n} --local=256 --arg={n} --arg={n} --arg={n}:zero --arg={n}:zero \
  --arg=0.01 --arg=0.0001 --arg={n}
echo "summary: $summary"
# One file to fetch from a GPU host.
tar -C "$out" -czf "$out.tar.gz" --exclude=profiles.sqlite-wal --exclude=profiles.sqlite-shm .
