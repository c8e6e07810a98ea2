#!/usr/bin/env bash
# Registers the SKMD OpenCL platform (libSKMD_OpenCL.so) with the ICD
# loader for this shell, beside the platforms already installed:
#
#   eval "$(scripts/register-opencl.sh)"            # the build tree's build/
#   eval "$(scripts/register-opencl.sh BUILD-DIR)"
#   scripts/register-opencl.sh --system [BUILD-DIR]  # /etc/OpenCL/vendors (root)
#
# It makes BUILD-DIR/opencl/vendors-all: SKMD's .icd file and links to the
# system's (/etc/OpenCL/vendors), and prints the variables both loaders
# read: OCL_ICD_VENDORS (ocl-icd, Debian's: a folder that replaces the
# system's, hence the links) and OCL_ICD_FILENAMES (Khronos', the one the
# CUDA toolkit installs: libraries added to the system's). Nothing
# system-wide changes unless --system is given.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
system=0
if [ "${1:-}" = "--system" ]; then
  system=1
  shift
fi
build=$(cd "${1:-$root/build}" && pwd)
lib=$build/lib/libSKMD_OpenCL.so
if [ ! -f "$lib" ]; then
  echo "register-opencl: no $lib: build first (scripts/build.sh)" >&2
  exit 1
fi
if [ $system -eq 1 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO mkdir -p /etc/OpenCL/vendors
  echo "$lib" | $SUDO tee /etc/OpenCL/vendors/skmd.icd > /dev/null
  echo "register-opencl: /etc/OpenCL/vendors/skmd.icd names $lib" >&2
  exit 0
fi
vendors=$build/opencl/vendors-all
rm -rf "$vendors"
mkdir -p "$vendors"
echo "$lib" > "$vendors/skmd.icd"
for icd in /etc/OpenCL/vendors/*.icd; do
  [ -e "$icd" ] || continue
  [ "$(basename "$icd")" = skmd.icd ] && continue
  ln -s "$icd" "$vendors/$(basename "$icd")"
done
echo "export OCL_ICD_VENDORS=$vendors"
echo "export OCL_ICD_FILENAMES=$lib"
