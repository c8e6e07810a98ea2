#!/usr/bin/env bash
# Fetches the OpenCL kernel files of outside packages that the ctest
# corpus-outside runs (test/corpus/outside/*.manifest give the launches):
# silx's, from its PyPI wheel (MIT; the kernels are plain files in
# silx/resources/opencl). Only the wheel is downloaded, pinned and checked
# against its digest; its kernel files and licence are unpacked into
# .deps/outside-kernels/silx (nothing installed, nothing committed).
# Idempotent; prints where they are.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.deps/outside-kernels/silx
if [ -f "$dest/sift/algebra.cl" ]; then
  echo "setup-outside-kernels: present in $dest"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/req.txt" <<'REQ'
silx==2.2.2 --hash=sha256:962efdfc3d22a7dbca7e5884cd6bfdbb24424e79891444a89cc1d0c5e0fdacb6
REQ
echo "setup-outside-kernels: fetching silx 2.2.2's wheel from PyPI"
# The CPython 3.11 x86-64 wheel whatever the host's Python, so that the
# digest is always that one's.
python3 -m pip download --quiet --no-deps --require-hashes --only-binary=:all: \
  --implementation cp --python-version 3.11 --abi cp311 --platform manylinux_2_17_x86_64 \
  -d "$work" -r "$work/req.txt"
rm -rf "$dest"
mkdir -p "$dest"
python3 - "$work" "$dest" <<'PY'
import glob, os, sys, zipfile
work, dest = sys.argv[1], sys.argv[2]
prefix = "silx/resources/opencl/"
with zipfile.ZipFile(glob.glob(os.path.join(work, "silx-*.whl"))[0]) as z:
    for name in z.namelist():
        if name.startswith(prefix) and name.endswith(".cl"):
            out = os.path.join(dest, name[len(prefix):])
        elif name.endswith("/licenses/LICENSE"):
            out = os.path.join(dest, "LICENSE")
        else:
            continue
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(z.read(name))
PY
echo "setup-outside-kernels: silx's kernels in $dest"
