//===- Device.h - What the launcher needs from a device ----------*- C++ -*-===//
//
// A device runs one variant of a bundle (x86, PTX or SPIR-V) on memory it
// owns. The launcher (runtime/launch) decides which groups each device runs
// and which bytes move; a device only allocates, copies, and runs the
// partition-ready kernel over a range of flattened groups. Devices that
// compute on the host's own memory (the CPU) say so and are handed the
// user's buffers directly.
//
// Every call may fail; a failure is a Status naming the device and what
// went wrong, and the launcher recovers from it (docs/design.md, "Device
// failures").
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_DEVICE_H
#define SKMD_DEVICES_DEVICE_H

#include "bundle/Bundle.h"
#include "devices/NDRange.h"
#include "support/Result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skmd {

/// Remote: a device of an skmd-server (devices/remote/RemoteDevice.h).
enum class DeviceKind { Cpu, HostDiscrete, Cuda, OpenCL, Remote };
std::string_view deviceKindName(DeviceKind Kind);

struct DeviceInfo {
  /// How plans and reports name it: cpu, discrete0, gpu0, ...
  std::string Name;
  /// What it is, for people: "AMD EPYC (2 threads)", "NVIDIA H100 80GB HBM3".
  std::string Description;
  DeviceKind Kind = DeviceKind::Cpu;
  /// The bundle variant it runs.
  TargetKind Variant = TargetKind::X86;
  uint64_t MemoryBytes = 0;
  unsigned ComputeUnits = 0;
  /// Host-to-device bandwidth, GB/s, where known (0: not measured).
  double LinkGBps = 0;
  /// Computes on the host's memory: no copies, the user's buffers are its
  /// buffers.
  bool SharesHostMemory = false;
  /// Its kernels run on the host's cores (a HostDiscrete device, an
  /// OpenCL CPU device), which a split shares with the CPU device.
  bool UsesHostCores = false;
  /// Work-items a compute unit runs for one of a CPU thread, for plans
  /// without profiles (a GPU's multiprocessor: a warp's 32 lanes).
  unsigned LanesPerUnit = 1;
  /// Copies it runs while it computes (DMA engines); 0 where its copies
  /// take the host's cores.
  unsigned CopyEngines = 0;
  /// The host's cores its copies of pageable memory take while they run
  /// (a GPU's staging threads, a HostDiscrete device's memcpy): the CPU
  /// device lends them (devices/HostCores.h).
  unsigned HostCopyCores = 0;
  /// Its buffers are handles (OpenCL's cl_mem), not addresses: a kernel
  /// argument must be an allocation itself, never an address before one,
  /// so the launcher allocates each buffer from its byte 0 (the bytes
  /// before those a piece moves are allocated but never copied).
  bool BuffersAreHandles = false;
  /// It queues copies and kernels on streams (DeviceStream), as a GPU
  /// does: the queue* calls return before their work has run, and marks
  /// order one stream's work after another's and say when it has run.
  bool QueuesWork = false;
  /// Each call it waits for crosses to another process and back (a
  /// server's device): a launch queues every piece of it (QueuesWork),
  /// not only a chunked share, so that a piece's steps cost one round
  /// trip. Profiles keep the host's hand-offs, which time each step alone.
  bool CallsCostRoundTrips = false;
  /// "dddd:bb:dd.f" where it is a PCI device (a GPU), for the topology
  /// (batch/Topology.h); empty otherwise.
  std::string PciBusId;
  /// Other users keeping it busy now, where others share it (the other
  /// clients of a server that used it in the last second), as
  /// Device::refreshOtherUsers last learned: a plan gives it a share as
  /// if its kernels ran 1 + that many times slower.
  unsigned OtherUsers = 0;
  /// Its other users are processes on this node (a shared device, its
  /// server here): as this process, they compute on the node's cores too,
  /// so a plan takes the CPU as busy with them as the device.
  bool OthersShareThisHost = false;
  /// The device list named it (or named no device): the plans SKMD
  /// chooses give it work. The CPU, opened always for merges and re-runs
  /// (session/Devices.h), is left out of them when a list leaves it out;
  /// a plan that names it still runs there.
  bool InPlans = true;
};

/// How many other processes keep this node's cores busy beside this one,
/// as the devices that others on this node share tell
/// (DeviceInfo::OthersShareThisHost): the most of their OtherUsers.
unsigned othersOnThisHost(const std::vector<const DeviceInfo *> &Devices);

/// Whether one device reaches another's memory directly (CUDA peer
/// access), and how.
struct PeerAccess {
  bool Supported = false;
  /// Atomics work natively across the link: an NVLink connection.
  bool NativeAtomics = false;
  /// The driver's performance rank of the link (lower is faster), -1
  /// where unknown.
  int Rank = -1;
};

/// The streams of a device that queues its work: copies to it, kernels,
/// copies from it.
enum class DeviceStream : unsigned { ToDevice, Compute, ToHost };

/// An argument as a device's kernel takes it.
struct DeviceArg {
  enum Kind { Buffer, Scalar, Local } K = Scalar;
  /// Buffer: the address the kernel indexes from (offset 0 of the user's
  /// buffer, which may lie before the device's allocation when only part
  /// of the buffer is on the device; for a device whose buffers are
  /// handles, the allocation's own address).
  uint64_t Address = 0;
  /// Scalar: the value's bytes.
  std::vector<uint8_t> Bytes;
  /// Local: the size of the __local buffer.
  uint64_t LocalBytes = 0;
};

/// A bundle's variant loaded on one device: the x86 shared object, the
/// CUDA module, the OpenCL program. Kernels are taken from it and keep it
/// loaded; a program loads it once per device, however many kernel
/// handles it gives out.
class DeviceModule {
public:
  virtual ~DeviceModule() = default;
};

/// A partition-ready kernel's parameters in order, as every device passes
/// them: \p Arg(Index, A) for each of the launch's arguments, then
/// \p Word(Index, V) for each hidden word of partitionReadyArgs (the
/// first group, the real grid, its offset, division magic). Stops at the
/// first failure.
template <typename ArgFn, typename WordFn>
Status forEachParam(const std::vector<DeviceArg> &Args, const NDRange &Range, uint64_t First,
                    ArgFn &&Arg, WordFn &&Word) {
  unsigned Index = 0;
  for (const DeviceArg &A : Args)
    if (Status S = Arg(Index++, A); !S)
      return S;
  for (uint64_t V : partitionReadyArgs(Range, First))
    if (Status S = Word(Index++, V); !S)
      return S;
  return Status::success();
}

/// A kernel's entry points, loaded on one device.
class DeviceKernel {
public:
  virtual ~DeviceKernel() = default;
  /// Whether this device can run the kernel's merge kernel.
  virtual bool hasMerge() const = 0;
};

/// Device memory: an address kernels take, and its size.
struct DeviceMemory {
  uint64_t Address = 0;
  uint64_t Bytes = 0;
};

/// Rows of equal length at a constant pitch: a strided region of a buffer,
/// laid out alike on the host and in a device allocation (which mirrors
/// the buffer's bytes from some offset on).
struct Rect {
  uint64_t Offset = 0;   ///< First row, from the start of the region.
  uint64_t RowBytes = 0;
  uint64_t Pitch = 0;    ///< From one row's start to the next.
  uint64_t Rows = 0;
  /// One past the last byte, from the start of the region.
  uint64_t end() const { return Rows ? Offset + (Rows - 1) * Pitch + RowBytes : Offset; }
  /// Calls \p Row(At) for each row in order, At its first byte from the
  /// start of the region; stops at the first failure.
  template <typename Fn> Status eachRow(Fn &&Row) const {
    for (uint64_t I = 0; I < Rows; ++I)
      if (Status S = Row(Offset + I * Pitch); !S)
        return S;
    return Status::success();
  }
};

/// What a launch's plan predicts of its work on one device, the device
/// alone (0 where the plan predicts nothing).
struct StepForecast {
  unsigned Runs = 1;   ///< kernel ranges (a chunked share's chunks)
  uint64_t Groups = 0; ///< work-groups over all of them
  /// Copies out follow the kernels (none where the results stay on the
  /// device).
  bool CopiesOut = true;
  double InMs = 0, KernelMs = 0, OutMs = 0;
};

class Device {
public:
  explicit Device(DeviceInfo Info) : Info(std::move(Info)) {}
  virtual ~Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const DeviceInfo &info() const { return Info; }
  /// How this device reaches \p Other's memory directly, if it does.
  virtual PeerAccess peerAccess(const Device &Other) const { return {}; }
  /// Another handle on this device for another user of it (a client of
  /// skmd-server): the same memory, modules and kernels, with streams
  /// (and staging) of its own, so that two users' copies and kernels run
  /// at once and neither's marks wait for the other's work. It copies,
  /// runs and marks; allocations and loads go through this device, which
  /// outlives it. Null where the device has no such handles.
  virtual std::unique_ptr<Device> share() { return nullptr; }
  /// Records a measured host-to-device bandwidth (skmd_measure_link).
  void setLinkGBps(double GBps) { Info.LinkGBps = GBps; }
  /// DeviceInfo::InPlans, as the device list says.
  void setInPlans(bool On) { Info.InPlans = On; }
  /// Learns DeviceInfo::OtherUsers anew (before a plan); devices nobody
  /// else uses leave it 0.
  virtual void refreshOtherUsers() {}
  /// A launch's work on this device begins: its copies in, \p F.Runs
  /// kernel ranges and copies out follow, from the launching thread's
  /// lanes. A device shared through a server tells it, so that the server
  /// can order its clients' steps (docs/shared.md); others ignore it.
  virtual void beginStep(const StepForecast &F) {}

  /// Loads the variant of \p B this device runs (a JIT, a dlopen, a
  /// program build).
  virtual Result<std::shared_ptr<DeviceModule>> loadModule(const Bundle &B) = 0;
  /// Takes \p Kernel (its partition-ready form and merge kernel) from
  /// \p Module, which this device loaded.
  virtual Result<std::unique_ptr<DeviceKernel>>
  loadKernel(const std::shared_ptr<DeviceModule> &Module, const KernelInfo &Kernel) = 0;

  virtual Result<DeviceMemory> allocate(uint64_t Bytes) = 0;
  virtual void release(DeviceMemory Memory) = 0;
  virtual Status copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                        uint64_t Bytes) = 0;
  virtual Status copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                         uint64_t Bytes) = 0;

  /// Copies \p R of the host region at \p Src to the allocation's region
  /// at \p DstOffset (the same offsets and pitch on both sides). The
  /// default copies row by row; devices with strided copies override it.
  virtual Status copyInRect(DeviceMemory Dst, uint64_t DstOffset,
                            const void *Src, const Rect &R);
  virtual Status copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                             const Rect &R);

  /// Copies \p Bytes from \p From's allocation \p Src (at \p SrcOffset) to
  /// this device's \p Dst (at \p DstOffset); returns when they have
  /// arrived. The default goes through host memory (From's copy out, then
  /// a copy in, 16 MiB at a time); devices that reach each other's memory
  /// directly (GPUs with peer access, HostDiscrete devices) override it.
  virtual Status copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From, DeviceMemory Src,
                          uint64_t SrcOffset, uint64_t Bytes);

  /// Page-locked host memory this device copies at full speed, or null
  /// where there is no such kind (copies from any host memory cost the
  /// same). Freed with freePinnedHost.
  virtual void *allocPinnedHost(uint64_t Bytes) { return nullptr; }
  virtual void freePinnedHost(void *Ptr) {}
  /// Whether host bytes [Host, Host + Bytes) are such memory: the
  /// transfer model then uses the pinned link's speed.
  virtual bool isPinnedHost(const void *Host, uint64_t Bytes) const { return false; }
  /// Page-locks host memory that this device did not allocate (another
  /// device's, memory shared with another process) for this device's
  /// copies; false where it has no such kind. Undone by unregisterHost,
  /// once per successful call.
  virtual bool registerHost(void *Host, uint64_t Bytes) { return false; }
  virtual void unregisterHost(void *Host) {}

  /// Waits until every copy issued so far has arrived (copies to a device
  /// may run behind the call that issued them).
  virtual Status finishCopies() { return Status::success(); }

  /// Runs the flattened groups [First, First + Count) of \p Range; returns
  /// when they are done.
  virtual Status run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                     const NDRange &Range, uint64_t First, uint64_t Count) = 0;

  /// run and copyOutRect as queued work (DeviceInfo::QueuesWork): they
  /// return once the kernel is queued on DeviceStream::Compute and the
  /// copy on ToHost (a copy through staging, to pageable memory, has run).
  /// Devices that do not queue run them at once.
  virtual Status queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                          const NDRange &Range, uint64_t First, uint64_t Count) {
    return run(Kernel, Args, Range, First, Count);
  }
  virtual Status queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                  const Rect &R) {
    return copyOutRect(Dst, Src, SrcOffset, R);
  }
  /// A mark after the work queued on \p S so far (copies in are queued on
  /// ToDevice by copyIn and copyInRect); 0 where nothing is queued.
  virtual Result<uint64_t> mark(DeviceStream S) { return uint64_t(0); }
  /// Work queued on \p S from now on starts after \p Mark's, without the
  /// host waiting.
  virtual Status waitFor(DeviceStream S, uint64_t Mark) { return Status::success(); }
  /// Returns when \p Mark's work has run; its error if it failed.
  virtual Status finish(uint64_t Mark) { return Status::success(); }
  /// \p Mark is not used again.
  virtual void releaseMark(uint64_t Mark) {}

  /// Runs the merge kernel over [First, First + Count): \p Args are the
  /// kernel's, and \p Copies, one per written buffer in argument order,
  /// hold this device's results at the same offsets. Only devices that
  /// share host memory merge.
  virtual Status merge(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                       const std::vector<uint64_t> &Copies,
                       const NDRange &Range, uint64_t First, uint64_t Count);

protected:
  DeviceInfo Info;
};

} // namespace skmd

#endif // SKMD_DEVICES_DEVICE_H
