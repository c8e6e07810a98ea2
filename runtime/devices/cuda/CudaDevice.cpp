//===- CudaDevice.cpp - An NVIDIA GPU through the CUDA driver API ---------===//
#include "devices/cuda/CudaDevice.h"

#include "support/DeviceFeatures.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace skmd {

namespace {

/// Staging: chunks of SKMD_STAGING_CHUNK_MB MiB (default 2), copied by
/// SKMD_STAGING_THREADS host threads (default 8): what kept an H100's
/// PCIe 5 link busiest (docs/results/runtime-gpus.md).
unsigned envOr(const char *Name, unsigned Default) {
  if (const char *Env = std::getenv(Name))
    if (int N = std::atoi(Env); N > 0)
      return unsigned(N);
  return Default;
}

/// How a thread waiting for the GPU waits (SKMD_CUDA_SYNC): auto (the
/// default: the driver's choice, which spins while there are fewer
/// contexts than cores), spin, yield or blocking. A launch's copies and
/// kernels are waited for on threads of their own, one per stream, beside
/// the CPU device's threads. Blocking waits did not make splits faster on
/// the H100 host, and made the GPU alone 5-12% slower over six
/// applications in pipelined chunks (docs/results/physical-bound.md).
unsigned syncFlags() {
  const char *Env = std::getenv("SKMD_CUDA_SYNC");
  std::string Mode = Env ? Env : "auto";
  return Mode == "spin"       ? CU_CTX_SCHED_SPIN
         : Mode == "yield"    ? CU_CTX_SCHED_YIELD
         : Mode == "blocking" ? CU_CTX_SCHED_BLOCKING_SYNC
                              : CU_CTX_SCHED_AUTO;
}

/// The bundle's PTX, JIT-compiled and loaded in the device's context.
class CudaModule : public DeviceModule {
public:
  CudaModule(const CudaDriver &D, CUmodule Module) : D(D), Module(Module) {}
  ~CudaModule() override { D.cuModuleUnload(Module); }
  const CudaDriver &D;
  CUmodule Module;
};

class CudaKernel : public DeviceKernel {
public:
  CudaKernel(std::shared_ptr<DeviceModule> Module, CUfunction Range, CUfunction Box)
      : Module(std::move(Module)), Range(Range), Box(Box) {}
  bool hasMerge() const override { return false; }

  std::shared_ptr<DeviceModule> Module;
  /// The range form; the box form where the bundle has it (null in older
  /// bundles).
  CUfunction Range, Box;
};

} // namespace

CudaDevice::CudaDevice(DeviceInfo Info, const CudaDriver &D, CUdevice Dev,
                       CUcontext Ctx, std::array<CUstream, 3> Streams)
    : Device(std::move(Info)), D(D), Dev(Dev), Ctx(Ctx), ToDevice(Streams[0]),
      Compute(Streams[1]), ToHost(Streams[2]),
      Blocks(2ull << 20, this->Info.MemoryBytes / 4) {
  for (auto *Pool : {&StagingIn, &StagingOut})
    *Pool = std::make_unique<StagingPool>(D, uint64_t(envOr("SKMD_STAGING_CHUNK_MB", 2)) << 20,
                                          this->Info.HostCopyCores);
}

CudaDevice::~CudaDevice() {
  if (D.cuCtxSetCurrent(Ctx) == 0) {
    StagingIn.reset();
    StagingOut.reset();
    for (auto [P, Size] : Blocks.drainAll())
      D.cuMemFree(P);
    for (CUevent E : FreeMarks)
      D.cuEventDestroy(E);
    for (CUstream S : {ToDevice, Compute, ToHost})
      D.cuStreamDestroy(S);
  }
  D.cuDevicePrimaryCtxRelease(Dev);
}

Status CudaDevice::check(CUresult R, const std::string &What) const {
  if (R == 0)
    return Status::success();
  return Failure(ErrorCode::DeviceFailed, Info.Name + ": " + What + ": " + D.describe(R));
}

Status CudaDevice::enter() { return check(D.cuCtxSetCurrent(Ctx), "cuCtxSetCurrent"); }

Result<std::vector<std::unique_ptr<CudaDevice>>>
CudaDevice::open(const std::vector<int> &Ordinals) {
  std::string Error;
  const CudaDriver *D = CudaDriver::get(Error);
  if (!D)
    return Failure(ErrorCode::NoDevice, "cuda: " + Error);
  int Count = 0;
  if (CUresult R = D->cuDeviceGetCount(&Count))
    return Failure(ErrorCode::NoDevice, "cuda: cuDeviceGetCount: " + D->describe(R));
  std::vector<int> Wanted = Ordinals;
  if (Wanted.empty())
    for (int I = 0; I < Count; ++I)
      Wanted.push_back(I);
  if (Wanted.empty())
    return Failure(ErrorCode::NoDevice, "cuda: the driver sees no GPU");
  std::vector<std::unique_ptr<CudaDevice>> Out;
  for (int Ordinal : Wanted) {
    if (Ordinal < 0 || Ordinal >= Count)
      return Failure(ErrorCode::NoDevice, "cuda:" + std::to_string(Ordinal) +
                                              ": the driver sees " +
                                              std::to_string(Count) + " GPU(s)");
    CUdevice Dev;
    CUcontext Ctx;
    std::array<CUstream, 3> Streams{};
    char Name[256] = {0};
    int SMs = 0;
    size_t Memory = 0;
    auto Fail = [&](CUresult R, const char *What) {
      return Failure(ErrorCode::NoDevice, "cuda:" + std::to_string(Ordinal) + ": " +
                                              What + ": " + D->describe(R));
    };
    if (CUresult R = D->cuDeviceGet(&Dev, Ordinal))
      return Fail(R, "cuDeviceGet");
    D->cuDeviceGetName(Name, sizeof Name - 1, Dev);
    D->cuDeviceGetAttribute(&SMs, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev);
    int Engines = 1;
    D->cuDeviceGetAttribute(&Engines, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, Dev);
    D->cuDeviceTotalMem(&Memory, Dev);
    char BusId[32] = {0};
    if (D->cuDeviceGetPCIBusId(BusId, sizeof BusId - 1, Dev) != 0)
      BusId[0] = 0;
    // Before the context is made: where another library of the process
    // made it first, its flags stay (the call fails, harmlessly).
    D->cuDevicePrimaryCtxSetFlags(Dev, syncFlags());
    if (CUresult R = D->cuDevicePrimaryCtxRetain(&Ctx, Dev))
      return Fail(R, "cuDevicePrimaryCtxRetain");
    if (CUresult R = D->cuCtxSetCurrent(Ctx)) {
      D->cuDevicePrimaryCtxRelease(Dev);
      return Fail(R, "cuCtxSetCurrent");
    }
    for (size_t S = 0; S < Streams.size(); ++S)
      if (CUresult R = D->cuStreamCreate(&Streams[S], CU_STREAM_NON_BLOCKING)) {
        for (size_t Made = 0; Made < S; ++Made)
          D->cuStreamDestroy(Streams[Made]);
        D->cuDevicePrimaryCtxRelease(Dev);
        return Fail(R, "cuStreamCreate");
      }
    DeviceInfo I;
    I.Name = "gpu" + std::to_string(Out.size());
    I.Description = Name;
    I.Kind = DeviceKind::Cuda;
    I.Variant = TargetKind::PTX;
    I.MemoryBytes = Memory;
    I.ComputeUnits = unsigned(SMs);
    I.LanesPerUnit = 32;
    I.CopyEngines = unsigned(std::max(Engines, 1));
    I.SharesHostMemory = false;
    I.HostCopyCores = std::max(1u, envOr("SKMD_STAGING_THREADS", 8));
    // SKMD_CUDA_QUEUE=0: chunks handed from thread to thread on the host
    // instead, to measure what queuing gains.
    const char *Queue = std::getenv("SKMD_CUDA_QUEUE");
    I.QueuesWork = !Queue || std::string(Queue) != "0";
    I.PciBusId = BusId;
    Out.push_back(std::unique_ptr<CudaDevice>(
        new CudaDevice(std::move(I), *D, Dev, Ctx, Streams)));
  }
  return Out;
}

std::unique_ptr<Device> CudaDevice::share() {
  CUcontext Same = nullptr;
  if (D.cuDevicePrimaryCtxRetain(&Same, Dev))
    return nullptr;
  std::array<CUstream, 3> Streams{};
  if (D.cuCtxSetCurrent(Same) == 0)
    for (size_t S = 0; S < Streams.size(); ++S)
      if (D.cuStreamCreate(&Streams[S], CU_STREAM_NON_BLOCKING)) {
        for (size_t Made = 0; Made < S; ++Made)
          D.cuStreamDestroy(Streams[Made]);
        Streams[0] = nullptr;
        break;
      }
  if (!Streams[0]) {
    D.cuDevicePrimaryCtxRelease(Dev);
    return nullptr;
  }
  return std::unique_ptr<Device>(new CudaDevice(Info, D, Dev, Same, Streams));
}

PeerAccess CudaDevice::peerAccess(const Device &Other) const {
  PeerAccess A;
  if (Other.info().Kind != DeviceKind::Cuda || &Other == this)
    return A;
  CUdevice Peer = static_cast<const CudaDevice &>(Other).Dev;
  int Supported = 0, Atomics = 0, Rank = -1;
  if (D.cuDeviceGetP2PAttribute(&Supported, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, Dev,
                                Peer) != 0 ||
      !Supported)
    return A;
  A.Supported = true;
  if (D.cuDeviceGetP2PAttribute(&Atomics, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, Dev,
                                Peer) == 0)
    A.NativeAtomics = Atomics != 0;
  if (D.cuDeviceGetP2PAttribute(&Rank, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, Dev, Peer) == 0)
    A.Rank = Rank;
  return A;
}

Status CudaDevice::copyPeer(DeviceMemory Dst, uint64_t DstOffset, Device &From, DeviceMemory Src,
                            uint64_t SrcOffset, uint64_t Bytes) {
  if (From.info().Kind != DeviceKind::Cuda || &From == this)
    return Device::copyPeer(Dst, DstOffset, From, Src, SrcOffset, Bytes);
  auto &Peer = static_cast<CudaDevice &>(From);
  // The source's queued copies into Src land first.
  if (Status S = Peer.finishCopies(); !S)
    return S;
  if (Status S = enter(); !S)
    return S;
  if (peerAccess(Peer).Supported) {
    std::lock_guard<std::mutex> Hold(PeersLock);
    if (PeersEnabled.insert(&Peer).second) {
      // 704: CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED (another library did).
      CUresult R = D.cuCtxEnablePeerAccess(Peer.Ctx, 0);
      if (R != 0 && R != 704)
        return check(R, "cuCtxEnablePeerAccess");
    }
  }
  // On the copies-in stream, waited for: a device-to-device cuMemcpy may
  // return before the bytes have arrived.
  if (Status S = check(D.cuMemcpyPeerAsync(Dst.Address + DstOffset, Ctx, Src.Address + SrcOffset,
                                           Peer.Ctx, Bytes, ToDevice),
                       "cuMemcpyPeerAsync");
      !S)
    return S;
  return check(D.cuStreamSynchronize(ToDevice), "a copy from " + Peer.Info.Name);
}

Result<std::shared_ptr<DeviceModule>> CudaDevice::loadModule(const Bundle &B) {
  std::string_view PTX = B.variant(TargetKind::PTX);
  if (PTX.empty() || PTX.back() != '\0')
    return Failure(ErrorCode::NotFound, Info.Name + ": the bundle has no PTX variant "
                                                    "(rebuild it with skmd-cc --targets=...,ptx)");
  if (Status S = enter(); !S)
    return S.error();
  // The JIT's own words on failure (an architecture newer than the GPU, a
  // resource limit).
  char Log[4096] = {0};
  int Options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof Log))};
  CUmodule Module;
  if (CUresult R = D.cuModuleLoadDataEx(&Module, PTX.data(), 2, Options, Values))
    return Failure(ErrorCode::UnsupportedHost,
                   Info.Name + ": the bundle's PTX does not load (" + D.describe(R) + ")" +
                       (Log[0] ? std::string(": ") + Log : ""));
  return std::shared_ptr<DeviceModule>(std::make_shared<CudaModule>(D, Module));
}

Result<std::unique_ptr<DeviceKernel>>
CudaDevice::loadKernel(const std::shared_ptr<DeviceModule> &Module, const KernelInfo &Kernel) {
  auto Symbols = Kernel.Symbols.find(TargetKind::PTX);
  if (Symbols == Kernel.Symbols.end())
    return Failure(ErrorCode::NotFound,
                   Info.Name + ": the bundle has no PTX variant of kernel '" +
                       Kernel.Name + "' (rebuild it with skmd-cc --targets=...,ptx)");
  if (Status S = enter(); !S)
    return S.error();
  CUfunction Functions[2] = {nullptr, nullptr};
  const std::string *Names[2] = {&Symbols->second.Range, &Symbols->second.Box};
  for (unsigned I = 0; I < 2; ++I) {
    if (Names[I]->empty())
      continue;
    if (CUresult R = D.cuModuleGetFunction(
            &Functions[I], static_cast<CudaModule &>(*Module).Module, Names[I]->c_str()))
      return Failure(ErrorCode::CorruptBundle,
                     Info.Name + ": the PTX has no " + *Names[I] + ": " + D.describe(R));
  }
  return std::unique_ptr<DeviceKernel>(new CudaKernel(Module, Functions[0], Functions[1]));
}

Result<DeviceMemory> CudaDevice::allocate(uint64_t Bytes) {
  if (Status S = enter(); !S)
    return S.error();
  uint64_t Block = Blocks.blockFor(Bytes);
  if (auto Hit = Blocks.take(Block))
    return DeviceMemory{*Hit, Bytes};
  CUdeviceptr P = 0;
  CUresult R = D.cuMemAlloc(&P, Block);
  if (R == 2 && Blocks.anyCached()) { // Out of memory: give the cache back first.
    for (auto [Cached, Size] : Blocks.drainCached())
      D.cuMemFree(Cached);
    R = D.cuMemAlloc(&P, Block);
  }
  if (R)
    return Failure(R == 2 ? ErrorCode::OutOfMemory : ErrorCode::DeviceFailed,
                   Info.Name + ": cannot allocate " + std::to_string(Bytes) +
                       " bytes: " + D.describe(R));
  Blocks.adopt(P, Block);
  return DeviceMemory{P, Bytes};
}

void CudaDevice::release(DeviceMemory Memory) {
  if (!enter())
    return;
  for (auto [P, Size] : Blocks.give(Memory.Address))
    D.cuMemFree(P);
}

Status CudaDevice::staged(const DeviceMemory &Memory, uint64_t End,
                          const std::function<Status()> &Copy) {
  if (End > Memory.Bytes)
    return Failure(ErrorCode::InvalidArgument,
                   Info.Name + ": copy past the end of a device allocation");
  if (Status S = enter(); !S)
    return S;
  Status S = Copy();
  return S ? S : Failure(ErrorCode::DeviceFailed, Info.Name + ": " + S.error().message());
}

Status CudaDevice::copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                          uint64_t Bytes) {
  return staged(Dst, DstOffset + Bytes, [&] {
    return StagingIn->toDevice(Dst.Address + DstOffset, Src, Bytes, ToDevice, Ctx);
  });
}

Status CudaDevice::copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                           uint64_t Bytes) {
  return staged(Src, SrcOffset + Bytes, [&] {
    return StagingOut->toHost(Dst, Src.Address + SrcOffset, Bytes, ToHost, Ctx);
  });
}

Status CudaDevice::copyInRect(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                              const Rect &R) {
  if (R.Rows == 0)
    return Status::success();
  return staged(Dst, DstOffset + R.end(), [&] {
    return StagingIn->toDeviceRect(Dst.Address + DstOffset, Src, R, ToDevice, Ctx);
  });
}

Status CudaDevice::copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                               const Rect &R) {
  return copyOutRect(Dst, Src, SrcOffset, R, /*Wait=*/true);
}

Status CudaDevice::queueCopyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                    const Rect &R) {
  return copyOutRect(Dst, Src, SrcOffset, R, /*Wait=*/false);
}

Status CudaDevice::copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                               const Rect &R, bool Wait) {
  if (R.Rows == 0)
    return Status::success();
  return staged(Src, SrcOffset + R.end(), [&] {
    return StagingOut->toHostRect(Dst, Src.Address + SrcOffset, R, ToHost, Ctx, Wait);
  });
}

Result<uint64_t> CudaDevice::mark(DeviceStream S) {
  if (Status St = enter(); !St)
    return St.error();
  CUevent E = nullptr;
  {
    std::lock_guard<std::mutex> Hold(MarksLock);
    if (!FreeMarks.empty()) {
      E = FreeMarks.back();
      FreeMarks.pop_back();
    }
  }
  if (!E)
    if (Status St = check(D.cuEventCreate(&E, CU_EVENT_DISABLE_TIMING), "cuEventCreate"); !St)
      return St.error();
  if (Status St = check(D.cuEventRecord(E, stream(S)), "cuEventRecord"); !St) {
    D.cuEventDestroy(E);
    return St.error();
  }
  return uint64_t(reinterpret_cast<uintptr_t>(E));
}

Status CudaDevice::waitFor(DeviceStream S, uint64_t Mark) {
  if (Status St = enter(); !St)
    return St;
  return check(D.cuStreamWaitEvent(stream(S), reinterpret_cast<CUevent>(uintptr_t(Mark)), 0),
               "cuStreamWaitEvent");
}

Status CudaDevice::finish(uint64_t Mark) {
  if (Status St = enter(); !St)
    return St;
  return check(D.cuEventSynchronize(reinterpret_cast<CUevent>(uintptr_t(Mark))),
               "queued work");
}

void CudaDevice::releaseMark(uint64_t Mark) {
  std::lock_guard<std::mutex> Hold(MarksLock);
  FreeMarks.push_back(reinterpret_cast<CUevent>(uintptr_t(Mark)));
}

bool CudaDevice::isPinnedHost(const void *Host, uint64_t Bytes) const {
  return isPinned(Host, Bytes);
}

Status CudaDevice::finishCopies() {
  if (Status S = enter(); !S)
    return S;
  return check(D.cuStreamSynchronize(ToDevice), "copies to the device");
}

Status CudaDevice::run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                       const NDRange &Range, uint64_t First, uint64_t Count) {
  if (Status S = queueRun(Kernel, Args, Range, First, Count); !S)
    return S;
  return check(D.cuStreamSynchronize(Compute), "the kernel");
}

Status CudaDevice::queueRun(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                            const NDRange &Range, uint64_t First, uint64_t Count) {
  auto &K = static_cast<CudaKernel &>(Kernel);
  if (Status S = enter(); !S)
    return S;
  // At most one word per parameter: reserved, so the pointers into it
  // stay valid.
  std::vector<uint64_t> Words;
  Words.reserve(Args.size() + partitionReadyArgs(Range, First).size());
  std::vector<void *> Params;
  uint64_t Dynamic = 0;
  auto PutWord = [&](uint64_t V) {
    Words.push_back(V);
    Params.push_back(&Words.back());
    return Status::success();
  };
  forEachParam(
      Args, Range, First,
      [&](unsigned, const DeviceArg &A) {
        switch (A.K) {
        case DeviceArg::Buffer:
          return PutWord(A.Address);
        case DeviceArg::Scalar:
          Params.push_back(const_cast<uint8_t *>(A.Bytes.data()));
          break;
        case DeviceArg::Local:
          // An offset into the block's dynamic shared memory, which the
          // kernel reaches through its extern array (NVPTXLocalArguments.h):
          // where the driver puts that array is its own business. Each
          // starts aligned for OpenCL's largest type (long16), as the array.
          PutWord(Dynamic);
          Dynamic += (A.LocalBytes + LocalArgumentAlignment - 1) / LocalArgumentAlignment *
                     LocalArgumentAlignment;
          break;
        }
        return Status::success();
      },
      [&](unsigned, uint64_t V) { return PutWord(V); });
  // Boxes of groups (whole rows or planes, a partial row) through the box
  // form, which maps them as cheaply as the kernel as written; rows of two
  // planes through the range form. The driver copies the parameters at
  // each launch, so the hidden words are rewritten between launches.
  const size_t Hidden = Words.size() - partitionReadyArgs(Range, First).size();
  for (const RangeLaunch &L : splitIntoLaunches(Range, First, Count, K.Box != nullptr)) {
    auto W = rangeLaunchArgs(Range, L);
    std::copy(W.begin(), W.end(), Words.begin() + Hidden);
    if (Status S = check(D.cuLaunchKernel(L.F == RangeLaunch::Box ? K.Box : K.Range,
                                          unsigned(L.Grid[0]), unsigned(L.Grid[1]),
                                          unsigned(L.Grid[2]), unsigned(Range.LocalSize[0]),
                                          unsigned(Range.LocalSize[1]),
                                          unsigned(Range.LocalSize[2]), unsigned(Dynamic),
                                          Compute, Params.data(), nullptr),
                         "cuLaunchKernel");
        !S) {
      // Nothing of this range may still run once it is reported failed.
      D.cuStreamSynchronize(Compute);
      return S;
    }
  }
  return Status::success();
}

} // namespace skmd

namespace skmd {

void *CudaDevice::allocPinned(uint64_t Bytes) {
  std::string Error;
  const CudaDriver *D = CudaDriver::get(Error);
  void *P = nullptr;
  if (!D || D->cuMemHostAlloc(&P, std::max<uint64_t>(Bytes, 1), CU_MEMHOSTALLOC_PORTABLE))
    return nullptr;
  notePinned(P, Bytes);
  return P;
}

void CudaDevice::freePinned(void *P) {
  std::string Error;
  if (const CudaDriver *D = CudaDriver::get(Error)) {
    forgetPinned(P);
    D->cuMemFreeHost(P);
  }
}

namespace {
/// Host memory registered with the driver, and how many devices asked:
/// registration is portable, so the first does it and the last undoes it.
/// Never destroyed, as the page-locked ranges (StagingPool.cpp): sessions
/// unregister memory at exit.
struct Registrations {
  std::mutex Lock;
  std::map<void *, unsigned> Users;
};
Registrations &registrations() {
  static Registrations *const R = new Registrations();
  return *R;
}
} // namespace

bool CudaDevice::registerHost(void *Host, uint64_t Bytes) {
  Registrations &R = registrations();
  std::lock_guard<std::mutex> Hold(R.Lock);
  auto &Registered = R.Users;
  unsigned &Users = Registered[Host];
  if (Users) {
    ++Users;
    return true;
  }
  // The driver wants a context current for it, whichever.
  if (!enter() || D.cuMemHostRegister(Host, Bytes, CU_MEMHOSTREGISTER_PORTABLE)) {
    Registered.erase(Host);
    return false;
  }
  Users = 1;
  notePinned(Host, Bytes);
  return true;
}

void CudaDevice::unregisterHost(void *Host) {
  Registrations &R = registrations();
  std::lock_guard<std::mutex> Hold(R.Lock);
  auto &Registered = R.Users;
  auto It = Registered.find(Host);
  if (It == Registered.end() || --It->second)
    return;
  Registered.erase(It);
  forgetPinned(Host);
  if (enter())
    D.cuMemHostUnregister(Host);
}

} // namespace skmd
