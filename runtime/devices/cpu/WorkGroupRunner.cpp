//===- WorkGroupRunner.cpp - Running groups of an x86 variant -------------===//
#include "devices/cpu/WorkGroupRunner.h"

#include "support/DeviceFeatures.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace skmd {

namespace {

/// Scratch aligned for OpenCL's largest type, long16 and double16 (a
/// __local argument's type is not known here), which is whole cache lines.
struct Scratch {
  struct Free {
    void operator()(char *P) const { std::free(P); }
  };
  std::unique_ptr<char, Free> Data;

  static Scratch make(uint64_t Bytes) {
    Scratch S;
    if (Bytes)
      S.Data.reset(static_cast<char *>(std::aligned_alloc(
          LocalArgumentAlignment,
          (Bytes + LocalArgumentAlignment - 1) / LocalArgumentAlignment * LocalArgumentAlignment)));
    return S;
  }
};

/// Per-thread state: scratch memories and the argument array pointing to
/// them for __local buffer arguments.
struct WorkerState {
  Scratch LocalMem, WIState;
  std::vector<Scratch> LocalArgs;
  std::vector<void *> LocalArgPointers;
  std::vector<void *> Args;
};

} // namespace

Status runWorkGroups(ThreadPool &Pool, skmd_wg_fn Fn,
                     const std::vector<void *> &Args,
                     const std::vector<uint64_t> &LocalArgBytes,
                     const NDRange &L, const WorkGroupNeeds &Needs,
                     uint64_t First, uint64_t Count, unsigned MaxThreads) {
  if (!Fn)
    return Failure(ErrorCode::InvalidArgument, "no work-group function");
  if (Args.size() != LocalArgBytes.size())
    return Failure(ErrorCode::InvalidArgument,
                   "argument and __local size lists differ in length");
  uint64_t Items = 1, Total = 1;
  for (unsigned D = 0; D < 3; ++D) {
    if (L.LocalSize[D] == 0 || L.NumGroups[D] == 0)
      return Failure(ErrorCode::InvalidArgument,
                     "local size and group count must be at least 1 in "
                     "every dimension");
    Items *= L.LocalSize[D];
    Total *= L.NumGroups[D];
  }
  if (First > Total || Count > Total - First)
    return Failure(ErrorCode::InvalidArgument,
                   "groups [" + std::to_string(First) + ", " +
                       std::to_string(First + Count) + ") are outside the " +
                       std::to_string(Total) + " groups of the launch");
  for (size_t I = 0; I < Args.size(); ++I)
    if (!LocalArgBytes[I] && !Args[I])
      return Failure(ErrorCode::InvalidArgument,
                     "argument " + std::to_string(I) + " is not set");

  if (Count == 0)
    return Status::success();
  // No more threads (and their scratch) than groups.
  unsigned Threads = unsigned(std::min<uint64_t>(
      MaxThreads ? std::min(MaxThreads, Pool.size()) : Pool.size(), Count));
  std::vector<WorkerState> Workers(Threads);
  for (WorkerState &W : Workers) {
    W.LocalMem = Scratch::make(Needs.LocalMemBytes);
    W.WIState = Scratch::make(Needs.StateBytesPerItem * Items);
    W.Args = Args;
    W.LocalArgPointers.assign(Args.size(), nullptr);
    for (size_t I = 0; I < Args.size(); ++I)
      if (LocalArgBytes[I]) {
        W.LocalArgs.push_back(Scratch::make(LocalArgBytes[I]));
        W.LocalArgPointers[I] = W.LocalArgs.back().Data.get();
        W.Args[I] = &W.LocalArgPointers[I];
      }
    if ((Needs.LocalMemBytes && !W.LocalMem.Data) ||
        (Needs.StateBytesPerItem && !W.WIState.Data))
      return Failure(ErrorCode::InvalidArgument,
                     "cannot allocate the CPU device's per-thread scratch");
  }

  // Enough chunks per thread to even out, few enough to keep the counter
  // off the critical path.
  uint64_t Chunk = std::max<uint64_t>(1, Count / (uint64_t(Threads) * 8));
  Pool.parallelFor(Count, Chunk, [&](unsigned Worker, uint64_t Begin, uint64_t End) {
    WorkerState &W = Workers[Worker];
    skmd_wg_ctx Ctx{};
    for (unsigned D = 0; D < 3; ++D) {
      Ctx.num_groups[D] = L.NumGroups[D];
      Ctx.local_size[D] = L.LocalSize[D];
      Ctx.global_offset[D] = L.GlobalOffset[D];
    }
    Ctx.work_dim = L.WorkDim;
    Ctx.local_mem = W.LocalMem.Data.get();
    Ctx.wi_state = W.WIState.Data.get();
    // Divide once per chunk, then step the group id like an odometer:
    // with small groups, two 64-bit divisions per group cost as much as a
    // vector_add group's work.
    uint64_t G = First + Begin;
    Ctx.group[0] = G % L.NumGroups[0];
    Ctx.group[1] = (G / L.NumGroups[0]) % L.NumGroups[1];
    Ctx.group[2] = G / (L.NumGroups[0] * L.NumGroups[1]);
    for (; G < First + End; ++G) {
      Fn(W.Args.data(), &Ctx);
      if (++Ctx.group[0] == L.NumGroups[0]) {
        Ctx.group[0] = 0;
        if (++Ctx.group[1] == L.NumGroups[1]) {
          Ctx.group[1] = 0;
          ++Ctx.group[2];
        }
      }
    }
  }, Threads);
  return Status::success();
}

} // namespace skmd
