#!/usr/bin/env bash
# Installs an OpenCL driver that takes SPIR-V, for the tests of SKMD's
# OpenCL device: Intel's CPU runtime, from PyPI (intel-opencl-rt with its
# tbb and compiler runtime libraries), unpacked into .deps/spirv-opencl
# with an ICD file of its own. Nothing system-wide changes: tests point
# the ICD loader at it with OCL_ICD_VENDORS=.deps/spirv-opencl/vendors.
# Debian 12 has no such driver (its Mesa rusticl and PoCL take no SPIR-V).
# Idempotent; prints where it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.deps/spirv-opencl
if [ -f "$dest/vendors/intel-cpu.icd" ] && [ -f "$dest/lib/libintelocl.so" ]; then
  echo "setup-spirv-opencl: present in $dest"
  exit 0
fi
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
# Pinned wheels, each checked against its digest.
cat > "$wheels/requirements.txt" <<'REQ'
intel-opencl-rt==2026.2.0 --hash=sha256:6b6215a420598b4999ee01caca6d5cbe106aa4155c46c52377619c5aafce9f67
tbb==2023.2.0 --hash=sha256:7d80615b6e970f11671fa05b6eaa9483ac864fbfe525ac280271a78b37870b7c
intel-cmplr-lib-rt==2026.2.0 --hash=sha256:9f713083073a820d2496a6da8e8d4f3482aba6640f74521d25ea48dcebe72748
REQ
echo "setup-spirv-opencl: downloading Intel's OpenCL CPU runtime from PyPI (about 250 MB)"
python3 -m pip download --quiet --no-deps --require-hashes --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --dest "$wheels" -r "$wheels/requirements.txt"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/lib" "$dest.tmp/vendors"
python3 - "$dest.tmp/lib" "$wheels"/*.whl <<'PY'
import os, sys, zipfile
out, wheels = sys.argv[1], sys.argv[2:]
seen = {}  # (size, crc) -> name written: wheels store symlinks as copies
for wheel in wheels:
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            name = os.path.basename(info.filename)
            # Each wheel keeps its libraries in <name>.data/data/lib/; the
            # ICD loader is the system's, and the compiler's LTO plugin is
            # not needed to run kernels.
            if '/data/lib/' not in info.filename or not name or name.endswith('.py') \
                    or name.startswith('libOpenCL') or name == 'icx-lto.so':
                continue
            target = os.path.join(out, name)
            key = (info.file_size, info.CRC)
            if key in seen:
                os.symlink(seen[key], target)
                continue
            seen[key] = name
            with z.open(info) as src, open(target, 'wb') as dst:
                dst.write(src.read())
PY
# The loader opens the driver by this path; its own libraries are found
# beside it ($ORIGIN).
echo "$dest/lib/libintelocl.so" > "$dest.tmp/vendors/intel-cpu.icd"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "setup-spirv-opencl: installed in $dest"
