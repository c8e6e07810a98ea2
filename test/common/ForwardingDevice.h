//===- ForwardingDevice.h - A test device that forwards to a real one ----*- C++ -*-===//
//
// Tests that watch or break one step of a device (count its allocations,
// fail its copies) derive from this and override that step; everything
// else goes to the real device.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TEST_FORWARDINGDEVICE_H
#define SKMD_TEST_FORWARDINGDEVICE_H

#include "devices/Device.h"

namespace skmd::test {

class ForwardingDevice : public Device {
public:
  explicit ForwardingDevice(Device &Real) : Device(Real.info()), Real(Real) {}
  Result<std::shared_ptr<DeviceModule>> loadModule(const Bundle &B) override {
    return Real.loadModule(B);
  }
  Result<std::unique_ptr<DeviceKernel>> loadKernel(const std::shared_ptr<DeviceModule> &M,
                                                   const KernelInfo &K) override {
    return Real.loadKernel(M, K);
  }
  Result<DeviceMemory> allocate(uint64_t Bytes) override { return Real.allocate(Bytes); }
  void release(DeviceMemory M) override { Real.release(M); }
  Status copyIn(DeviceMemory Dst, uint64_t At, const void *Src, uint64_t Bytes) override {
    return Real.copyIn(Dst, At, Src, Bytes);
  }
  Status copyOut(void *Dst, DeviceMemory Src, uint64_t At, uint64_t Bytes) override {
    return Real.copyOut(Dst, Src, At, Bytes);
  }
  Status run(DeviceKernel &K, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override {
    return Real.run(K, Args, Range, First, Count);
  }
  Status finishCopies() override { return Real.finishCopies(); }
  Status queueRun(DeviceKernel &K, const std::vector<DeviceArg> &Args, const NDRange &Range,
                  uint64_t First, uint64_t Count) override {
    return Real.queueRun(K, Args, Range, First, Count);
  }
  Status queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t At, const Rect &R) override {
    return Real.queueCopyOutRect(Dst, Src, At, R);
  }
  Result<uint64_t> mark(DeviceStream S) override { return Real.mark(S); }
  Status waitFor(DeviceStream S, uint64_t Mark) override { return Real.waitFor(S, Mark); }
  Status finish(uint64_t Mark) override { return Real.finish(Mark); }
  void releaseMark(uint64_t Mark) override { Real.releaseMark(Mark); }

protected:
  Device &Real;
};

} // namespace skmd::test

#endif // SKMD_TEST_FORWARDINGDEVICE_H
