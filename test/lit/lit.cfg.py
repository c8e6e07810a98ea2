# lit configuration for SKMD's regression tests.
#
# Substitutions:
#   %skmd-cc     the compiler          %skmd-info  the bundle reader
#   %skmd-run    runs a kernel of a bundle
#   %skmd-prof   profiles a kernel for the model partitioner
#   %skmd-server a node's devices for other processes
#   %skmd-bench  the benchmark suite
#   %partitioner-time  Algorithm 1's cost (bench/PartitionerTime.cpp)
#   %batch-latency  random batches predicted and run (bench/BatchLatency.cpp)
#   %opt         opt with the SKMD pass plugin loaded
#   %examples    the examples/ folder
# Features: spirv-tools, ptxas (where the CUDA toolkit is installed),
# cuda-driver (where libcuda.so.1 loads).
import os
import sys

import lit.formats

config.name = "SKMD"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cl", ".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.skmd_obj_root, "test", "lit")

# FileCheck and not come from LLVM's tools folder, ahead of anything else.
config.environment["PATH"] = os.pathsep.join(
    [config.skmd_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Sanitized binaries must not fail on leaks from LLVM's global state.
config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
for var in ["HOME", "TMPDIR", "CUDA_HOME"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Plans never see the user's profiles: a database that planning does not
# create. Tests that profile name their own.
config.environment["SKMD_PROFILE_DB"] = os.path.join(config.test_exec_root, "no-profiles.sqlite")

opt = os.path.join(config.llvm_tools_dir, "opt")
config.substitutions.append(("%skmd-cc", os.path.join(config.skmd_tools_dir, "skmd-cc")))
config.substitutions.append(("%skmd-info", os.path.join(config.skmd_tools_dir, "skmd-info")))
config.substitutions.append(("%skmd-run", os.path.join(config.skmd_tools_dir, "skmd-run")))
config.substitutions.append(("%skmd-prof", os.path.join(config.skmd_tools_dir, "skmd-prof")))
config.substitutions.append(("%skmd-server", os.path.join(config.skmd_tools_dir, "skmd-server")))
config.substitutions.append(("%skmd-bench", os.path.join(config.skmd_tools_dir, "skmd-bench")))
config.substitutions.append(
    ("%partitioner-time", os.path.join(config.skmd_tools_dir, "partitioner-time")))
config.substitutions.append(
    ("%batch-latency", os.path.join(config.skmd_tools_dir, "batch-latency")))
config.substitutions.append(("%opt", "%s -load-pass-plugin=%s" % (opt, config.skmd_plugin)))
config.substitutions.append(("%llvm-link", os.path.join(config.llvm_tools_dir, "llvm-link")))
# SKMD's x86 builtins library as the build made it, to link as skmd-cc does.
config.substitutions.append(
    ("%x86-builtins", os.path.join(config.skmd_obj_root, "lib", "skmd-builtins-x86.bc")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%examples", os.path.join(config.skmd_src_root, "examples")))

if config.spirv_dis and config.spirv_val:
    config.available_features.add("spirv-tools")
    config.substitutions.append(("spirv-dis", config.spirv_dis))
    config.substitutions.append(("spirv-val", config.spirv_val))
if config.ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))

import ctypes
try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass

# An OpenCL driver that takes SPIR-V, from scripts/setup-spirv-opencl.sh
# (Intel's CPU runtime, unpacked in .deps/): tests of SKMD's OpenCL device
# point the ICD loader at it alone.
spirv_opencl = os.path.join(config.skmd_src_root, ".deps", "spirv-opencl", "vendors")
if os.path.exists(os.path.join(spirv_opencl, "intel-cpu.icd")):
    config.available_features.add("spirv-opencl")
    config.substitutions.append(("%spirv-opencl-vendors", spirv_opencl))
if os.path.exists("/etc/OpenCL/vendors/pocl.icd"):
    config.available_features.add("pocl-icd")
