//===- BatchOps.h - Batch operations for the batch tests ----------*- C++ -*-===//
#ifndef SKMD_TEST_COMMON_BATCHOPS_H
#define SKMD_TEST_COMMON_BATCHOPS_H

#include "batch/Prediction.h"

namespace skmd::test {

inline BatchOp copyOp(Route R, uint64_t Bytes, std::vector<unsigned> After = {}) {
  BatchOp Op;
  Op.What = BatchOp::Copy;
  Op.Path = R;
  Op.Bytes = Bytes;
  Op.After = std::move(After);
  return Op;
}

inline BatchOp kernelOp(int Device, double Ms, std::vector<unsigned> After = {},
                        uint64_t HostBytes = 0) {
  BatchOp Op;
  Op.What = BatchOp::Kernel;
  Op.Device = Device;
  Op.KernelMs = Ms;
  Op.HostBytes = HostBytes;
  Op.After = std::move(After);
  return Op;
}

} // namespace skmd::test

#endif // SKMD_TEST_COMMON_BATCHOPS_H
