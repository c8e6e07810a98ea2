#!/usr/bin/env bash
# Installs the outside test suites test/outside/run.py runs (docs/outside.md):
# Debian's clblast-tests, clpeak, hashcat and piglit (apt-get), PyOpenCL
# (scripts/setup-pyopencl.sh), and from PyPI, into .deps/outside: pytest
# and PyOpenCL's source distribution, whose test/ folder is PyOpenCL's own
# test suite. Every PyPI file is pinned by version and digest. Nothing of
# theirs enters the repository.
# Idempotent; exits 1 when something cannot be installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.deps/outside

PACKAGES=(clblast-tests clpeak hashcat hashcat-data piglit pocl-opencl-icd)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup-outside: installing ${missing[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

"$root/scripts/setup-pyopencl.sh"

# The PyOpenCL that setup-pyopencl.sh pins, as a source distribution.
version=2026.1.4
sdist_sha256=6cb9544a004609061e86873fe36500da6c2101042e9c7b9c3b804a29a12b98bf
sdist_url=https://files.pythonhosted.org/packages/0a/a9/b6133777fc20be05faa88c4dbae9cc0d26d6dc1395c45770ec49b56edc4b/pyopencl-$version.tar.gz
installed=$("$root/.deps/pyopencl/bin/python" -c 'import importlib.metadata as m; print(m.version("pyopencl"))')
if [ "$installed" != "$version" ]; then
  echo "setup-outside: .deps/pyopencl has PyOpenCL $installed, its tests here are $version" >&2
  exit 1
fi
if [ ! -f "$dest/pyopencl-tests/VERSION" ] || [ "$(cat "$dest/pyopencl-tests/VERSION")" != "$version" ]; then
  echo "setup-outside: downloading PyOpenCL $version's source distribution from PyPI"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 - "$sdist_url" "$sdist_sha256" "$tmp/sdist.tar.gz" <<'PY'
import hashlib, sys, urllib.request
url, digest, path = sys.argv[1:]
data = urllib.request.urlopen(url, timeout=300).read()
if hashlib.sha256(data).hexdigest() != digest:
    sys.exit(f"setup-outside: {url}: sha256 differs from the pinned {digest}")
open(path, "wb").write(data)
PY
  mkdir -p "$tmp/x"
  tar -xzf "$tmp/sdist.tar.gz" -C "$tmp/x" "pyopencl-$version/test"
  rm -rf "$dest/pyopencl-tests"
  mkdir -p "$dest"
  mv "$tmp/x/pyopencl-$version" "$dest/pyopencl-tests"
  echo "$version" > "$dest/pyopencl-tests/VERSION"
fi

# pytest and what it imports, for PyOpenCL's Python (3.11); beside the
# virtual environment, on PYTHONPATH when the tests run.
if [ ! -f "$dest/pytest/pytest/__init__.py" ]; then
  req=$(mktemp)
  cat > "$req" <<'REQ'
pytest==9.2.0 --hash=sha256:07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588
pluggy==1.7.0 --hash=sha256:7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec
iniconfig==2.3.1 --hash=sha256:9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7
packaging==26.4 --hash=sha256:81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2
pygments==2.21.0 --hash=sha256:2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9
REQ
  echo "setup-outside: installing pytest from PyPI into $dest/pytest"
  rm -rf "$dest/pytest"
  "$root/.deps/pyopencl/bin/python" -m pip install --quiet --no-deps --require-hashes \
    --only-binary=:all: --target "$dest/pytest" -r "$req"
  rm -f "$req"
fi
echo "setup-outside: present (Debian packages, $dest)"
