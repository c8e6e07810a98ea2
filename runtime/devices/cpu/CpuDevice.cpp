//===- CpuDevice.cpp - The host CPU as an SKMD device ---------------------===//
#include "devices/cpu/CpuDevice.h"
#include "devices/cpu/HostCpu.h"
#include "devices/cpu/SharedObject.h"
#include "devices/cpu/WorkGroupRunner.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace skmd {

namespace {

class CpuKernel : public DeviceKernel {
public:
  CpuKernel(std::shared_ptr<SharedObject> Library, skmd_wg_fn Kernel,
            skmd_wg_fn Merge, const KernelInfo &Info)
      : Library(std::move(Library)), Kernel(Kernel), Merge(Merge),
        Needs{Info.Cpu.LocalMemBytes, Info.Cpu.StateBytesPerItem},
        MergeNeeds{Info.CpuMerge.LocalMemBytes, Info.CpuMerge.StateBytesPerItem} {}
  bool hasMerge() const override { return Merge != nullptr; }

  std::shared_ptr<SharedObject> Library;
  skmd_wg_fn Kernel, Merge;
  WorkGroupNeeds Needs, MergeNeeds;
};

/// The CPU's model name, for people.
std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0) {
      auto Colon = Line.find(':');
      if (Colon != std::string::npos && Colon + 2 <= Line.size())
        return Line.substr(Colon + 2);
    }
  return "x86-64 CPU";
}

uint64_t hostMemoryBytes() {
  std::ifstream In("/proc/meminfo");
  std::string Key;
  uint64_t KiB = 0;
  while (In >> Key >> KiB) {
    if (Key == "MemTotal:")
      return KiB * 1024;
    In.ignore(256, '\n');
  }
  return 0;
}

/// The work-group function's argument pointers: each points to the value
/// the function reads (WorkGroupABI.h). \p Values keeps buffer addresses
/// alive as pointers.
void argPointers(const std::vector<DeviceArg> &Args, std::vector<void *> &Values,
                 std::vector<void *> &Ptrs, std::vector<uint64_t> &LocalBytes) {
  Values.assign(Args.size(), nullptr);
  Ptrs.assign(Args.size(), nullptr);
  LocalBytes.assign(Args.size(), 0);
  for (size_t I = 0; I < Args.size(); ++I)
    switch (Args[I].K) {
    case DeviceArg::Buffer:
      Values[I] = reinterpret_cast<void *>(Args[I].Address);
      Ptrs[I] = &Values[I];
      break;
    case DeviceArg::Scalar:
      Ptrs[I] = const_cast<uint8_t *>(Args[I].Bytes.data());
      break;
    case DeviceArg::Local:
      LocalBytes[I] = Args[I].LocalBytes;
      break;
    }
}

} // namespace

CpuDevice::CpuDevice(DeviceInfo Info, unsigned Threads)
    // The CPU device's threads make room for the copies other devices make
    // with the host's cores, once those take the cores it leaves idle
    // (SKMD_CPU_THREADS below the hardware's); a HostDiscrete device's
    // threads are its own.
    : Device(std::move(Info)),
      Pool(Threads, this->Info.Kind == DeviceKind::Cpu, ThreadPool::idleCores(Threads)) {}

DeviceInfo CpuDevice::hostInfo(unsigned Threads) {
  DeviceInfo I;
  I.Name = "cpu";
  I.Description = cpuModel() + " (" + std::to_string(Threads) + " threads)";
  I.Kind = DeviceKind::Cpu;
  I.Variant = TargetKind::X86;
  I.MemoryBytes = hostMemoryBytes();
  I.ComputeUnits = Threads;
  I.SharesHostMemory = true;
  I.UsesHostCores = true;
  return I;
}

std::unique_ptr<CpuDevice> CpuDevice::create(unsigned Threads) {
  if (Threads == 0)
    Threads = ThreadPool::defaultThreads();
  return std::unique_ptr<CpuDevice>(new CpuDevice(hostInfo(Threads), Threads));
}

namespace {
/// The bundle's x86 variant, dlopened.
struct CpuModule : DeviceModule {
  explicit CpuModule(SharedObject Library)
      : Library(std::make_shared<SharedObject>(std::move(Library))) {}
  std::shared_ptr<SharedObject> Library;
};
} // namespace

Result<std::shared_ptr<DeviceModule>> CpuDevice::loadModule(const Bundle &B) {
  if (B.variant(TargetKind::X86).empty())
    return Failure(ErrorCode::NotFound, Info.Name + ": the bundle has no x86 variant "
                                                    "(rebuild it with skmd-cc --targets=x86,...)");
  auto Library = loadX86Variant(B);
  if (!Library)
    return Failure(Library.error().code(), Info.Name + ": " + Library.error().message());
  return std::shared_ptr<DeviceModule>(std::make_shared<CpuModule>(std::move(*Library)));
}

Result<std::unique_ptr<DeviceKernel>>
CpuDevice::loadKernel(const std::shared_ptr<DeviceModule> &Module, const KernelInfo &Kernel) {
  auto Symbols = Kernel.Symbols.find(TargetKind::X86);
  if (Symbols == Kernel.Symbols.end())
    return Failure(ErrorCode::NotFound,
                   Info.Name + ": the bundle has no x86 variant of kernel '" +
                       Kernel.Name + "' (rebuild it with skmd-cc --targets=x86,...)");
  const std::shared_ptr<SharedObject> &Shared = static_cast<CpuModule &>(*Module).Library;
  auto Fn = Shared->symbol(Symbols->second.Range);
  if (!Fn)
    return Failure(ErrorCode::CorruptBundle, Info.Name + ": " + Fn.error().message());
  skmd_wg_fn Merge = nullptr;
  if (!Symbols->second.Merge.empty()) {
    auto M = Shared->symbol(Symbols->second.Merge);
    if (!M)
      return Failure(ErrorCode::CorruptBundle, Info.Name + ": " + M.error().message());
    Merge = reinterpret_cast<skmd_wg_fn>(*M);
  }
  return std::unique_ptr<DeviceKernel>(
      new CpuKernel(Shared, reinterpret_cast<skmd_wg_fn>(*Fn), Merge, Kernel));
}

Result<DeviceMemory> CpuDevice::allocate(uint64_t Bytes) {
  // 64-byte alignment: whole cache lines, and every OpenCL type's.
  uint64_t Rounded = (std::max<uint64_t>(Bytes, 1) + 63) / 64 * 64;
  void *P = std::aligned_alloc(64, Rounded);
  if (!P)
    return Failure(ErrorCode::OutOfMemory,
                   Info.Name + ": cannot allocate " + std::to_string(Bytes) +
                       " bytes");
  return DeviceMemory{reinterpret_cast<uint64_t>(P), Bytes};
}

void CpuDevice::release(DeviceMemory Memory) {
  std::free(reinterpret_cast<void *>(Memory.Address));
}

Status CpuDevice::copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                         uint64_t Bytes) {
  if (DstOffset + Bytes > Dst.Bytes)
    return Failure(ErrorCode::InvalidArgument,
                   Info.Name + ": copy past the end of a device allocation");
  std::memcpy(reinterpret_cast<char *>(Dst.Address) + DstOffset, Src, Bytes);
  return Status::success();
}

Status CpuDevice::copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                          uint64_t Bytes) {
  if (SrcOffset + Bytes > Src.Bytes)
    return Failure(ErrorCode::InvalidArgument,
                   Info.Name + ": copy past the end of a device allocation");
  std::memcpy(Dst, reinterpret_cast<const char *>(Src.Address) + SrcOffset, Bytes);
  return Status::success();
}

/// \p Work over bytes [0, \p Bytes) on \p Pool's threads, 2 MiB ranges each,
/// or whole on this thread below \p Alone bytes or with one thread.
template <typename F>
static void overChunks(ThreadPool &Pool, uint64_t Bytes, uint64_t Alone, F &&Work) {
  constexpr uint64_t Chunk = 2 << 20;
  if (Bytes < Alone || Pool.size() == 1) {
    Work(uint64_t(0), Bytes);
    return;
  }
  Pool.parallelFor((Bytes + Chunk - 1) / Chunk, 1, [&](unsigned, uint64_t Begin, uint64_t End) {
    Work(Begin * Chunk, std::min(End * Chunk, Bytes));
  });
}

void CpuDevice::copyHost(void *Dst, const void *Src, uint64_t Bytes) {
  // Below a few MiB the threads' wake-up costs more than it saves.
  overChunks(Pool, Bytes, 8 << 20, [&](uint64_t From, uint64_t To) {
    std::memcpy(static_cast<char *>(Dst) + From, static_cast<const char *>(Src) + From,
                To - From);
  });
}

uint64_t CpuDevice::readHost(const void *Src, uint64_t Bytes) {
  std::atomic<uint64_t> Sum{0};
  overChunks(Pool, Bytes, 0, [&](uint64_t From, uint64_t To) {
    uint64_t S = 0;
    const auto *P = static_cast<const unsigned char *>(Src);
    // Words where aligned, bytes at the ends.
    for (; From < To && (reinterpret_cast<uintptr_t>(P + From) & 7); ++From)
      S += P[From];
    for (; From + 8 <= To; From += 8) {
      uint64_t W;
      std::memcpy(&W, P + From, 8);
      S += W;
    }
    for (; From < To; ++From)
      S += P[From];
    Sum.fetch_add(S, std::memory_order_relaxed);
  });
  return Sum.load();
}

void CpuDevice::fillHost(void *Dst, uint8_t Value, uint64_t Bytes) {
  overChunks(Pool, Bytes, 0, [&](uint64_t From, uint64_t To) {
    std::memset(static_cast<char *>(Dst) + From, Value, To - From);
  });
}

Status CpuDevice::run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                      const NDRange &Range, uint64_t First, uint64_t Count) {
  auto &K = static_cast<CpuKernel &>(Kernel);
  std::vector<void *> Values, Ptrs;
  std::vector<uint64_t> LocalBytes;
  argPointers(Args, Values, Ptrs, LocalBytes);
  return runWorkGroups(Pool, K.Kernel, Ptrs, LocalBytes, Range,
                       K.Needs, First, Count, MaxThreads);
}

Status CpuDevice::merge(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                        const std::vector<uint64_t> &Copies, const NDRange &Range,
                        uint64_t First, uint64_t Count) {
  auto &K = static_cast<CpuKernel &>(Kernel);
  if (!K.Merge)
    return Failure(ErrorCode::InvalidArgument,
                   Info.Name + ": the kernel has no merge kernel");
  // The merge kernel is built from the partition-ready kernel: after the
  // kernel's arguments come partitionReadyArgs, then the copies; it is
  // launched as a 1-D grid of Count groups.
  std::vector<DeviceArg> All = Args;
  for (uint64_t V : partitionReadyArgs(Range, First)) {
    DeviceArg A;
    A.K = DeviceArg::Scalar;
    A.Bytes.resize(sizeof V);
    std::memcpy(A.Bytes.data(), &V, sizeof V);
    All.push_back(A);
  }
  for (uint64_t C : Copies) {
    DeviceArg A;
    A.K = DeviceArg::Buffer;
    A.Address = C;
    All.push_back(A);
  }
  std::vector<void *> Values, Ptrs;
  std::vector<uint64_t> LocalBytes;
  argPointers(All, Values, Ptrs, LocalBytes);
  NDRange L;
  L.NumGroups = {Count, 1, 1};
  L.LocalSize = Range.LocalSize;
  L.WorkDim = Range.WorkDim;
  return runWorkGroups(Pool, K.Merge, Ptrs, LocalBytes, L, K.MergeNeeds, 0,
                       Count, MaxThreads);
}

} // namespace skmd
