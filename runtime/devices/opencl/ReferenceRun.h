//===- ReferenceRun.h - A kernel's source on an installed OpenCL driver -*- C++ -*-===//
//
// An independent reference for SKMD's results: the kernel as written,
// built from the source a bundle carries by whatever OpenCL driver is
// installed (PoCL or Intel's CPU runtime on a development machine,
// NVIDIA's on a GPU host), run once over the same launch. skmd-run
// --check=opencl[:N] compares SKMD's outputs with it.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_OPENCL_REFERENCERUN_H
#define SKMD_DEVICES_OPENCL_REFERENCERUN_H

#include "bundle/Bundle.h"
#include "support/Result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace skmd {

/// One kernel argument of a reference run.
struct ReferenceArg {
  enum Kind { Buffer, Value, Local } K = Value;
  std::vector<uint8_t> *Data = nullptr; ///< Buffer: the input, then the output.
  std::vector<uint8_t> Bytes;           ///< Value.
  size_t LocalBytes = 0;                ///< Local.
};

/// How the reference builds the source.
enum class ReferencePrecision {
  AsWritten,
  /// Every float type promoted to double (`float` is `double`, `float4` is
  /// `double4`, native_ and half_ functions their full-precision names):
  /// the same computation with 29 more bits, an oracle for telling rounding
  /// from a fault. The caller passes buffers, values and __local sizes of
  /// the promoted types. Fails where the device has no cl_khr_fp64 or the
  /// promoted source does not build (bit casts such as as_uint(float)).
  Double,
};

/// The OpenCL devices of every installed driver, as "device (platform)",
/// in the order --check=opencl:N counts them.
Result<std::vector<std::string>> referenceDevices();

/// Builds \p Source with the driver of device \p Device and runs \p Kernel
/// once on \p Args over the launch (offsets may be null); buffers come back
/// into their Data. \p DeviceName says which device ran it. Errors name
/// what failed: no driver, no such device, the build (with its log), the
/// launch.
Status runReference(const BundleSource &Source, const std::string &Kernel, unsigned Device,
                    unsigned WorkDim, const size_t *Offset, const size_t *Global,
                    const size_t *Local, std::vector<ReferenceArg> &Args,
                    std::string &DeviceName,
                    ReferencePrecision Precision = ReferencePrecision::AsWritten);

} // namespace skmd

#endif // SKMD_DEVICES_OPENCL_REFERENCERUN_H
