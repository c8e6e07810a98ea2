#!/usr/bin/env bash
# Installs PyOpenCL, numpy and Mako (PyOpenCL's reductions and scans are
# Mako templates) from PyPI into .deps/pyopencl (a virtual
# environment of the project's own; nothing system-wide), for the test that
# runs PyOpenCL's run-time generated kernels on the SKMD platform. The
# PyOpenCL wheel carries its own ICD loader (ocl-icd), which finds the
# platform through OCL_ICD_VENDORS like the system's.
# Idempotent; prints where it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.deps/pyopencl
if "$dest/bin/python" -c 'import pyopencl, numpy, mako' 2>/dev/null; then
  echo "setup-pyopencl: present in $dest"
  exit 0
fi
req=$(mktemp)
trap 'rm -f "$req"' EXIT
# Pinned wheels for CPython 3.11 (Debian 12's python3), each checked
# against its digest.
cat > "$req" <<'REQ'
pyopencl==2026.1.4 --hash=sha256:31bed2c185b395ace1315afaf14bb60e4ce740ef8e6a74033de64d8984decd87
numpy==2.4.6 --hash=sha256:89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93
platformdirs==4.14.8 --hash=sha256:1e34af590de4d978631b751eb2202f2fee4497537a17c1720b12fcf57b331392
pytools==2026.1.1 --hash=sha256:1f6d9a39c871b6dc761893373792f10b67886c83e38f2aa09b66e11f8c021436
siphash24==1.9 --hash=sha256:61eb4ba1cfe4950e89ef0bcaf3588fb554efa5b7ab3f75d17648a0582c204874
typing_extensions==4.16.0 --hash=sha256:481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8
mako==1.4.3 --hash=sha256:723296007c870bfd6b3f0c3230dba7198096e5269297ebf5e4eff9e7ffa39d4f
markupsafe==3.0.4 --hash=sha256:6da83a088f8ef93b2d483a8232a4dbf4d69d3d8496b568a03c56becac43e1808
REQ
echo "setup-pyopencl: installing PyOpenCL and numpy from PyPI into $dest"
rm -rf "$dest"
python3 -m venv "$dest"
"$dest/bin/python" -m pip install --quiet --no-deps --require-hashes --only-binary=:all: -r "$req"
echo "setup-pyopencl: installed in $dest"
