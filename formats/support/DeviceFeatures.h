//===- DeviceFeatures.h - The OpenCL C that SKMD's devices offer -*- C++ -*-===//
//
// One list for the compiler and the OpenCL platform: a program is compiled
// for a set of variants (x86, PTX, SPIR-V) with exactly the extensions
// that every one of them implements predefined (clang's -cl-ext=-all,+...,
// whatever each triple would predefine), and the platform reports those of
// the variants its devices run as CL_DEVICE_EXTENSIONS. Half arithmetic
// (cl_khr_fp16) is none of them: SKMD's x86 builtins only convert halves.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_SUPPORT_DEVICEFEATURES_H
#define SKMD_SUPPORT_DEVICEFEATURES_H

#include "bundle/Metadata.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace skmd {

/// The extensions every variant implements.
inline constexpr const char *DeviceExtensions[] = {
    "cl_khr_byte_addressable_store",     "cl_khr_fp64",
    "cl_khr_global_int32_base_atomics",  "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",   "cl_khr_local_int32_extended_atomics",
};

/// The extensions the x86 variant alone implements: the 64-bit atomics are
/// in SKMD's x86 builtins, not in libclc's PTX library, and SPIR-V's
/// validator refuses their capability under its OpenCL rules.
inline constexpr const char *X86OnlyExtensions[] = {
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
};

/// The extensions of a program compiled for \p Variants (none: all three).
inline std::vector<std::string> extensionsFor(const std::vector<TargetKind> &Variants) {
  std::vector<std::string> Out(std::begin(DeviceExtensions), std::end(DeviceExtensions));
  bool X86Only = !Variants.empty() &&
                 std::all_of(Variants.begin(), Variants.end(),
                             [](TargetKind K) { return K == TargetKind::X86; });
  if (X86Only)
    Out.insert(Out.end(), std::begin(X86OnlyExtensions), std::end(X86OnlyExtensions));
  return Out;
}

/// The OpenCL C 3.0 optional features the variants implement, for programs
/// built with -cl-std=CL3.0 (skmd-cc's default) or CL2.0 (whose builtins
/// Clang declares by the same features). Images are declared so that a
/// helper no kernel calls may take one; SKMD refuses the images a kernel
/// reaches with its own diagnostic. Not the work-group collectives nor
/// sub-groups: no variant has their builtins.
inline constexpr const char *DeviceOpenCLC30Features[] = {
    "__opencl_c_fp64",
    "__opencl_c_int64",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_images",
    "__opencl_c_read_write_images",
};

/// The OpenCL version of the devices, as __OPENCL_VERSION__ has it (and
/// CL_DEVICE_VERSION, "OpenCL 1.2 SKMD").
inline constexpr int DeviceOpenCLVersion = 120;

/// Where every device starts each __local argument (and a CPU thread its
/// __local memory): a multiple of the size of OpenCL's largest type,
/// long16 and double16, as the specification aligns each type to its size
/// (CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE).
inline constexpr uint64_t LocalArgumentAlignment = 128;

/// extensionsFor(\p Variants) as CL_DEVICE_EXTENSIONS lists them.
inline std::string extensionList(const std::vector<TargetKind> &Variants) {
  std::string List;
  for (const std::string &E : extensionsFor(Variants))
    List += (List.empty() ? "" : " ") + E;
  return List;
}

} // namespace skmd

#endif // SKMD_SUPPORT_DEVICEFEATURES_H
