#!/usr/bin/env bash
# The main job, end to end on a fresh machine: installs what is missing,
# builds SKMD, compiles the example kernels into bundles and shows what each
# holds (variants, kernels, arguments), then profiles the tiled matmul on
# every device (skmd-prof) and runs it across them with the model
# partitioner's plan (skmd-run): partition, predicted and measured times,
# bytes moved, check.
#   scripts/run-example.sh [kernel.cl ...]   (default: examples/*.cl)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build"

out="$root/build/examples"
mkdir -p "$out"
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=("$root"/examples/*.cl)
for cl in "${kernels[@]}"; do
  bundle="$out/$(basename "${cl%.cl}").skmd"
  echo "== skmd-cc $cl -o $bundle"
  "$root/build/bin/skmd-cc" -v "$cl" -o "$bundle"
  "$root/build/bin/skmd-info" "$bundle"
done

# The main job: the tiled matmul (1024x1024) across every device present.
# skmd-prof profiles it on each device (into build/profiles.sqlite unless
# SKMD_PROFILE_DB says otherwise); skmd-run then runs the model
# partitioner's plan, prints the prediction and the measured times, and
# checks the result bit for bit against the CPU alone. Last, a three-way
# split over the CPU and two HostDiscrete devices (private copies, as a GPU
# has) shows the transfers.
export SKMD_PROFILE_DB=${SKMD_PROFILE_DB:-$root/build/profiles.sqlite}
matmul=(build/examples/matmul_tiled.skmd matmul_tiled --global=1024,1024
        --local=16,16 --arg=1048576 --arg=1048576:random:2 --arg=1048576:zero
        --arg=1024)
cd "$root"
echo "== skmd-prof ${matmul[*]}"
build/bin/skmd-prof "${matmul[@]}" | grep -v " groups, kernel "
echo "== skmd-run ${matmul[*]} --plan=auto --explain --check"
build/bin/skmd-run "${matmul[@]}" --plan=auto --explain --check
echo "== skmd-run ... --devices=cpu,discrete,discrete --plan=even --check"
build/bin/skmd-run "${matmul[@]}" --devices=cpu,discrete,discrete --plan=even --check
