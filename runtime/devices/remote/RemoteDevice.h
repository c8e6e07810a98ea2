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
// Released allocations of up to MaxKeptBytes / 4 are kept for the next
// allocation of the same size (a launch's own buffers are allocated anew
// each launch), up to MaxKeptBytes a device, and let go when the server's
// device runs out of memory: an allocation costs a round trip.
//
// A bundle crosses once per server: loadModule names it by its SHA-256,
// and sends the bytes only when the server does not have them; a Run
// sends only the arguments that changed since the kernel's last one.
//
// It queues its work (DeviceInfo::QueuesWork) on the server's device: a
// piece's copies in, its kernel and its copies out go out one after the
// other without waiting (the launcher queues every piece of a device whose
// calls cost a round trip), the server runs them in that order, and only
// the marks' answers (and the copies' bytes) come back; so a piece costs
// about one round trip, not one per step and copied rectangle.
// SKMD_REMOTE_QUEUE=0 keeps the host's hand-offs between a piece's steps,
// a round trip each (as profiles do).
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

#include <chrono>
#include <map>
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
  /// Asks the server (wire::Load) at most every 100 ms; a failure keeps
  /// the last answer (the next call reports a lost server).
  void refreshOtherUsers() override;
  /// Posts a Step: the server may gather it with its other clients'.
  void beginStep(const StepForecast &F) override;
  bool isPinnedHost(const void *Host, uint64_t Bytes) const override;
  Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args, const NDRange &Range,
             uint64_t First, uint64_t Count) override;
  Status queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                  const NDRange &Range, uint64_t First, uint64_t Count) override;
  Status queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                          const Rect &R) override;
  /// Marks follow everything sent to the device before them (the
  /// server keeps the order), so there is nothing to wait for between
  /// streams: waitFor is the base class's no-op.
  Result<uint64_t> mark(DeviceStream S) override;
  Status finish(uint64_t Mark) override;
  void releaseMark(uint64_t Mark) override;
  ~RemoteDevice() override;

  /// Every device \p Link's server offers.
  static std::vector<std::unique_ptr<Device>> offered(const std::shared_ptr<ServerLink> &Link);

private:
  /// Where an error of this device's names it.
  Failure failed(const Failure &F) const;
  /// Sends request \p K (and \p DataBytes of data) and waits for its Done;
  /// any other reply, or an Error, fails naming this device.
  Result<wire::Done> request(wire::Kind K, const wire::Writer &Payload,
                             const void *Data = nullptr, uint64_t DataBytes = 0);
  /// A copy out whose reply is still to come: its bytes land in Host,
  /// or in Packed first where the host's rows are strided.
  struct PendingRead {
    ServerLink::Ticket Reply;
    std::vector<char> Packed;
    wire::Region Where;
    char *Host = nullptr;
  };
  /// Copies between the device's region \p Where and the host rows at
  /// \p Host (at Where's pitch), by the cheapest way the link has.
  Status write(const wire::Region &Where, const char *Host);
  Status read(const wire::Region &Where, char *Host);
  /// Starts a copy out: none pending where it ran at once (the staging
  /// ring's copies, which wait for their pieces).
  Result<std::optional<PendingRead>> startRead(const wire::Region &Where, char *Host);
  /// Waits for \p R's bytes and puts them in place.
  Status completeRead(PendingRead &R);
  /// The Run of \p Kernel, naming the arguments unchanged since its last
  /// Run as such; under the kernel's lock until the Run is sent.
  wire::Run runRequest(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                       const NDRange &Range, uint64_t First, uint64_t Count);
  /// The copy between \p Where and the host rows at \p Host as one of
  /// a shared segment's rows, shared with the server first; none where
  /// the rows are in no published segment.
  Result<std::optional<wire::SharedTransfer>> sharedCopy(const wire::Region &Where,
                                                         const char *Host);
  /// The staging ring, made on first use; null where it cannot be.
  StagingRing *ring();
  /// Releases every kept allocation; whether there was any.
  bool dropKept();

  std::shared_ptr<ServerLink> Link;
  uint32_t Index;
  /// The marks on the server's device (the client's numbers), each with
  /// the copies out queued before it.
  struct QueuedMark {
    ServerLink::Ticket Reply;
    std::vector<PendingRead> Reads;
  };
  std::mutex QueueLock;
  uint64_t NextMark = 1;
  std::map<uint64_t, QueuedMark> Marks;
  /// Copies out queued since the last mark.
  std::vector<PendingRead> Unmarked;
  /// Released allocations kept for reuse: bytes -> address.
  std::mutex KeptLock;
  std::multimap<uint64_t, uint64_t> Kept;
  uint64_t KeptBytes = 0;
  std::chrono::steady_clock::time_point LoadAsked{};
  std::mutex RingLock;
  std::unique_ptr<StagingRing> Ring;
  bool RingFailed = false;
};

/// The most released memory a remote device keeps for reuse.
constexpr uint64_t MaxKeptBytes = 64ull << 20;

/// Below this, a copy of ordinary memory travels on the socket even where
/// the server shares memory.
constexpr uint64_t SharedCopyMinBytes = 1ull << 20;

/// SHA-256 of \p Bytes: how a server knows a bundle.
wire::Token bundleHash(const std::vector<uint8_t> &Bytes);

} // namespace skmd

#endif // SKMD_DEVICES_REMOTE_REMOTEDEVICE_H
