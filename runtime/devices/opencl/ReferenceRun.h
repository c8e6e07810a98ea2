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
                    std::string &DeviceName);

} // namespace skmd

#endif // SKMD_DEVICES_OPENCL_REFERENCERUN_H
