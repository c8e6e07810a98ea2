#!/usr/bin/env bash
# Packages the shapes corpus for a GPU host (which has no skmd-cc): the
# bundles compiled here, skmd-run, skmd-info and libskmd, and a script that
# runs every kernel split over the CPU and the GPU against NVIDIA's OpenCL
# driver. Then, with the device tool: carry gpu-run, run
#   OUT=$OUT bash gpu-run/corpus-gpu.sh
#   test/corpus/shapes/package-for-gpu-host.sh [build-dir]   (default build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build}
pkg=$root/gpu-run
rm -rf "$pkg/corpus" "$pkg/bin" "$pkg/lib"
mkdir -p "$pkg/corpus" "$pkg/bin" "$pkg/lib"
grep -qx "gpu-run/" "$root/.git/info/exclude" 2>/dev/null || echo "gpu-run/" >> "$root/.git/info/exclude"
python3 "$root/test/corpus/shapes/run-corpus.py" --bin="$build/bin" --keep="$pkg/corpus" | tail -1
cp "$build/bin/skmd-run" "$build/bin/skmd-info" "$pkg/bin/"
cp -a "$build"/lib/libskmd.so* "$pkg/lib/"
cat > "$pkg/corpus-gpu.sh" <<'SCRIPT'
#!/usr/bin/env bash
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
clinfo -l > "$OUT/clinfo.txt" 2>&1
# The NVIDIA device's number among every driver's devices, as
# skmd-run --check=opencl:N counts them.
N=$(awk '/Platform/{p=($0 ~ /NVIDIA/)} /Device/{ if (p && !f) {print n; f=1} n++ }' "$OUT/clinfo.txt")
echo "NVIDIA OpenCL device index: ${N:-none}"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
timeout 540 python3 ../test/corpus/shapes/run-corpus.py --bin=bin --bundles=corpus \
  --devices=cpu,cuda --check=opencl:${N:-0} --jobs=8 --timeout=120 \
  --out="$OUT/corpus-gpu.json" > "$OUT/corpus-gpu.txt" 2>&1
echo "rc=$?"
grep -E "^total|^[a-z-]+ +[0-9]+ +[0-9]+" "$OUT/corpus-gpu.txt"
tail -2 "$OUT/corpus-gpu.txt"
SCRIPT
chmod +x "$pkg/corpus-gpu.sh"
du -sh "$pkg"
