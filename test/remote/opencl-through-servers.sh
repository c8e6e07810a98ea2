#!/usr/bin/env bash
# opencl-through-servers.sh VECTOR_ADD API_TESTS   (run by with-servers.sh)
#
# Unmodified OpenCL programs on SKMD's platform with remote devices in its
# one device: SKMD_DEVICES names the servers' devices beside the CPU, as a
# user's job script would, and nothing else changes.
set -euo pipefail
export SKMD_DEVICES=$SKMD_TEST_DEVICES
"$1" SKMD
"$2"
