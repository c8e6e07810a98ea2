#!/bin/sh
# Runs a test command with the ICD loader pointed at the OpenCL driver that
# scripts/setup-spirv-opencl.sh installs (Intel's CPU runtime, which takes
# SPIR-V), and no other; exits 77 (skipped) when it is not installed.
vendors=$(cd "$(dirname "$0")/.." && pwd)/.deps/spirv-opencl/vendors
if [ ! -f "$vendors/intel-cpu.icd" ]; then
  echo "no OpenCL driver that takes SPIR-V: run scripts/setup-spirv-opencl.sh"
  exit 77
fi
# Under AddressSanitizer: the driver's own leaks are not SKMD's.
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan-third-party.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
OCL_ICD_VENDORS=$vendors exec "$@"
