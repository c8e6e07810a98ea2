#!/bin/sh
# Runs test/opencl/pyopencl_test.py with the PyOpenCL that
# scripts/setup-pyopencl.sh installs; exits 77 (skipped) when it is not
# installed. In a sanitizer build the platform's library needs the
# sanitizers' runtime loaded before Python: it is preloaded.
#   run-pyopencl.sh <libSKMD_OpenCL.so>
root=$(cd "$(dirname "$0")/../.." && pwd)
python=$root/.deps/pyopencl/bin/python
if [ ! -x "$python" ]; then
  echo "no PyOpenCL: run scripts/setup-pyopencl.sh"
  exit 77
fi
preload=$(ldd "$1" | awk '/lib(asan|ubsan)\.so/ { print $3 }' | tr '\n' ' ')
if [ -n "$preload" ]; then
  export LD_PRELOAD="$preload"
  # Python's own allocations are not the subject here.
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
exec "$python" "$root/test/opencl/pyopencl_test.py"
