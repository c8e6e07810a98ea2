//===- RemoteDevice.h - A device of an skmd-server ---------------*- C++ -*-===//
//
// One device a server offers (its CPU, a GPU, a HostDiscrete device),
// behind the same interface as a local one: each call is a request over
// the server's ServerLink. Its memory is the server's: allocations are the
// server device's addresses, which the launcher offsets and hands back in
// kernel arguments as it does a GPU's. Writes and releases do not wait for
// a reply; their failures come back with the next call (finishCopies,
// run, a copy out), so nothing the launcher trusts was written by a failed
// request.
//
// A bundle crosses once per server: loadModule names it by its SHA-256,
// and sends the bytes only when the server does not have them.
//
// With a server on this node (unix:), a copy's bytes do not cross the
// socket (devices/remote/SharedMemory.h): page-locked host memory is a
// segment the server maps, which the server's GPU reads and writes by
// DMA; ordinary memory goes through the device's staging ring. Copies
// under SharedCopyMinBytes still travel on the socket, where a posted
// write costs no round trip.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_REMOTE_REMOTEDEVICE_H
#define SKMD_DEVICES_REMOTE_REMOTEDEVICE_H

#include "devices/Device.h"
#include "devices/remote/ServerLink.h"
#include "devices/remote/StagingRing.h"

#include <mutex>
#include <optional>

namespace skmd {

class RemoteDevice : public Device {
public:
  /// The server's device \p Index, over \p Link: named
  /// "<server>.<device>".
  RemoteDevice(std::shared_ptr<ServerLink> Link, uint32_t Index);

  Result<std::shared_ptr<DeviceModule>> loadModule(const Bundle &B) override;
  Result<std::unique_ptr<DeviceKernel>> loadKernel(const std::shared_ptr<DeviceModule> &Module,
                                                   const KernelInfo &Kernel) override;
  Result<DeviceMemory> allocate(uint64_t Bytes) override;
  void release(DeviceMemory Memory) override;
  Status copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src, uint64_t Bytes) override;
  Status copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset, uint64_t Bytes) override;
  Status copyInRect(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                    const Rect &R) override;
  Status copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset, const Rect &R) override;
  Status finishCopies() override;
  /// A segment shared with the server (unix: servers only; null
  /// otherwise), found by every remote device of this process.
  void *allocPinnedHost(uint64_t Bytes) override;
  void freePinnedHost(void *Ptr) override;
  bool isPinnedHost(const void *Host, uint64_t Bytes) const override;
  Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override;

  /// Every device \p Link's server offers.
  static std::vector<std::unique_ptr<Device>> offered(const std::shared_ptr<ServerLink> &Link);

private:
  /// Where an error of this device's names it.
  Failure failed(const Failure &F) const;
  /// Sends request \p K (and \p DataBytes of data) and waits for its Done;
  /// any other reply, or an Error, fails naming this device.
  Result<wire::Done> request(wire::Kind K, const wire::Writer &Payload,
                             const void *Data = nullptr, uint64_t DataBytes = 0);
  /// Copies between the device's region \p Where and the host rows at
  /// \p Host (at Where's pitch), by the cheapest way the link has.
  Status write(const wire::Region &Where, const char *Host);
  Status read(const wire::Region &Where, char *Host);
  /// The copy between \p Where and the host rows at \p Host as one of
  /// a shared segment's rows, shared with the server first; none where
  /// the rows are in no published segment.
  Result<std::optional<wire::SharedTransfer>> sharedCopy(const wire::Region &Where,
                                                         const char *Host);
  /// The staging ring, made on first use; null where it cannot be.
  StagingRing *ring();

  std::shared_ptr<ServerLink> Link;
  uint32_t Index;
  std::mutex RingLock;
  std::unique_ptr<StagingRing> Ring;
  bool RingFailed = false;
};

/// Below this, a copy of ordinary memory travels on the socket even where
/// the server shares memory.
constexpr uint64_t SharedCopyMinBytes = 1ull << 20;

/// SHA-256 of \p Bytes: how a server knows a bundle.
wire::Token bundleHash(const std::vector<uint8_t> &Bytes);

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_REMOTEDEVICE_H
