//===- UserBatch.cpp - A batch of copies and kernel pieces the user lays out ===//
#include "launch/UserBatch.h"

#include "launch/Launcher.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace skmd {

namespace {

IntervalSet rangeSet(uint64_t Lo, uint64_t Hi) {
  IntervalSet S;
  S.add(int64_t(Lo), int64_t(Hi));
  return S;
}

/// "the host" or the device's name.
std::string sideName(const std::vector<Device *> &Devices, int Side) {
  return Side == HostSide ? std::string("the host") : Devices[Side]->info().Name;
}

/// The first interval of \p Want that \p Have lacks, as text.
std::string firstMissing(const IntervalSet &Want, const IntervalSet &Have) {
  IntervalSet Missing = Want;
  Missing.subtract(Have);
  if (Missing.empty())
    return "";
  auto [Lo, Hi] = Missing.intervals().front();
  return rangeText(uint64_t(Lo), uint64_t(Hi));
}

} // namespace

Status checkUserBatch(const UserBatch &B, const std::vector<Device *> &Devices,
                      const std::function<bool(const BufferObject *)> &IsView) {
  auto Bad = [&](size_t I, const std::string &What) {
    return Failure(ErrorCode::InvalidArgument,
                   "batch operation " + std::to_string(I) + ": " + What);
  };
  for (size_t I = 0; I < B.Ops.size(); ++I) {
    for (unsigned A : B.Ops[I].After)
      if (A >= I)
        return Bad(I, "depends on operation " + std::to_string(A) + ", which is not an earlier one");
    if (auto *C = std::get_if<BatchCopyOp>(&B.Ops[I].What)) {
      if (!C->Buffer)
        return Bad(I, "a copy needs a buffer");
      if (C->Bytes == 0 || C->Offset > C->Buffer->bytes() ||
          C->Bytes > C->Buffer->bytes() - C->Offset)
        return Bad(I, "bytes " + rangeText(C->Offset, C->Offset + C->Bytes) +
                          " are not within the buffer's " + std::to_string(C->Buffer->bytes()));
      for (int S : {C->From, C->To})
        if (S != HostSide && (S < 0 || size_t(S) >= Devices.size()))
          return Bad(I, "no device " + std::to_string(S) + " (the context has " +
                            std::to_string(Devices.size()) + ")");
      if (C->From == C->To)
        return Bad(I, "a copy from " + sideName(Devices, C->From) + " to itself");
      for (int S : {C->From, C->To})
        if (S != HostSide && Devices[S]->info().SharesHostMemory)
          return Bad(I, Devices[S]->info().Name +
                            " computes on host memory: copy to or from the host instead");
      if (IsView(C->Buffer))
        return Bad(I, "sub-buffers are not supported in batches");
      continue;
    }
    const auto &K = std::get<BatchKernelOp>(B.Ops[I].What);
    if (!K.Kernel || !K.Kernel->Info)
      return Bad(I, "a kernel piece needs a kernel");
    if (K.Device >= Devices.size())
      return Bad(I, "no device " + std::to_string(K.Device));
    uint64_t Total = K.Range.totalGroups();
    if (K.Count == 0 || K.First >= Total || K.Count > Total - K.First)
      return Bad(I, "groups " + rangeText(K.First, K.First + K.Count) + " are not within the " +
                        std::to_string(Total) + " groups of the launch");
    if (Status S = checkArgs(*K.Kernel->Info, K.Args); !S)
      return Bad(I, S.error().message());
    for (const HostArg &A : K.Args)
      if (A.K == HostArg::Buffer && (!A.Object || IsView(A.Object)))
        return Bad(I, "a kernel piece's buffers must be the context's buffers, not sub-buffers");
  }
  return Status::success();
}

Status Launcher::runBatch(UserBatch &B, const BatchMachine &M,
                          const std::vector<BatchOp> &Model, bool Predicted) {
  B.Ran = false;
  const size_t N = B.Ops.size();
  std::vector<bool> Shares;
  for (auto &D : Devices)
    Shares.push_back(D->info().SharesHostMemory);

  // Every buffer the batch uses; the user's own memory is the newest copy
  // of itself, as at a launch's start.
  std::vector<BufferObject *> Used;
  auto Use = [&](BufferObject *Obj) {
    if (std::find(Used.begin(), Used.end(), Obj) == Used.end())
      Used.push_back(Obj);
  };
  // Kernel pieces: loaded, and the bytes each reads and writes.
  std::vector<std::vector<BufferMove>> Moves(N);
  // Per buffer and device: the hull of what the batch touches there,
  // allocated before anything runs (no copy moves while others use it).
  std::map<std::pair<BufferObject *, Device *>, std::pair<int64_t, int64_t>> Hull;
  auto Touch = [&](BufferObject *Obj, int D, int64_t Lo, int64_t Hi) {
    if (D == HostSide || Devices[D]->info().SharesHostMemory || Lo >= Hi)
      return;
    auto [It, New] = Hull.try_emplace({Obj, Devices[D]}, Lo, Hi);
    if (!New)
      It->second = {std::min(It->second.first, Lo), std::max(It->second.second, Hi)};
  };
  for (size_t I = 0; I < N; ++I) {
    if (auto *C = std::get_if<BatchCopyOp>(&B.Ops[I].What)) {
      Use(C->Buffer);
      for (int D : {C->From, C->To})
        Touch(C->Buffer, D, int64_t(C->Offset), int64_t(C->Offset + C->Bytes));
      continue;
    }
    auto &K = std::get<BatchKernelOp>(B.Ops[I].What);
    if (Status S = load(*K.Kernel, K.Device); !S)
      return S;
    auto Planned = planMoves(*K.Kernel->Info, K.Args, K.Range, {{K.Device, K.First, K.Count, 1}},
                             Shares, /*HasMerge=*/false, /*HostPieces=*/true);
    if (!Planned)
      return Failure(ErrorCode::InvalidArgument,
                     "batch operation " + std::to_string(I) + ": " + Planned.error().message());
    for (const BufferMove &M : (*Planned)[0]) {
      if (M.Merge || M.Combine)
        return Failure(ErrorCode::InvalidArgument,
                       "batch operation " + std::to_string(I) + ": " + K.Kernel->Info->Name +
                           "'s writes to argument " + std::to_string(M.Arg) +
                           " need the host's merge (or combine atomics): launch it instead");
      Use(K.Args[M.Arg].Object);
      Touch(K.Args[M.Arg].Object, int(K.Device), M.Lo, M.Hi);
    }
    Moves[I] = std::move((*Planned)[0]);
  }
  // Pieces on different devices that may write the same bytes (a
  // footprint's boxes over-approximate): whichever ran last would claim
  // bytes the other wrote. The launcher merges such pieces on the host; a
  // batch refuses them.
  for (size_t I = 0; I < N; ++I)
    for (size_t J = I + 1; J < N; ++J) {
      auto *A = std::get_if<BatchKernelOp>(&B.Ops[I].What);
      auto *Bk = std::get_if<BatchKernelOp>(&B.Ops[J].What);
      if (!A || !Bk || A->Device == Bk->Device)
        continue;
      for (const BufferMove &MA : Moves[I])
        for (const BufferMove &MB : Moves[J])
          if (A->Args[MA.Arg].Object == Bk->Args[MB.Arg].Object &&
              !IntervalSet::intersect(MA.Out, MB.Out).empty())
            return Failure(ErrorCode::InvalidArgument,
                           "batch operations " + std::to_string(I) + " and " + std::to_string(J) +
                               " may write the same bytes of a buffer on different devices: "
                               "run them on one device, or launch the kernel");
    }
  Buffers.tick();
  for (BufferObject *Obj : Used)
    if (Obj->coherence() == BufferObject::Coherence::HostCoherent)
      Obj->hostWrote(Obj->all());
  for (auto &[Key, Range] : Hull)
    if (auto Copy = Key.first->copyFor(*Key.second, Range.first, Range.second); !Copy)
      return Copy.error();

  // Without every piece's time the order is the order added.
  std::optional<IssueOrder> AsAdded;
  if (!Predicted) {
    AsAdded.emplace();
    AsAdded->Name = "as added";
    for (unsigned I = 0; I < N; ++I)
      AsAdded->Order.push_back(I);
  }

  // The operations' work. Bookkeeping under one lock; bytes move outside.
  std::mutex Lock;
  auto Where = [&](BufferObject *Obj, int D) -> BufferObject::DeviceCopy * {
    return Obj->copyOn(*Devices[D]);
  };
  auto ValidAt = [&](BufferObject *Obj, int D) -> const IntervalSet & {
    if (D == HostSide || Devices[D]->info().SharesHostMemory)
      return Obj->hostValid();
    return Where(Obj, D)->Valid;
  };
  std::vector<std::function<Status()>> Work(N);
  for (size_t I = 0; I < N; ++I) {
    if (auto *C = std::get_if<BatchCopyOp>(&B.Ops[I].What)) {
      Work[I] = [&, C]() -> Status {
        IntervalSet Want = rangeSet(C->Offset, C->Offset + C->Bytes);
        BufferObject::DeviceCopy *From = nullptr, *To = nullptr;
        {
          std::lock_guard<std::mutex> Hold(Lock);
          if (std::string Gap = firstMissing(Want, ValidAt(C->Buffer, C->From)); !Gap.empty())
            return Failure(ErrorCode::InvalidArgument,
                           "bytes " + Gap + " are not current on " + sideName(Devices, C->From) +
                               ": copy them there first");
          if (C->From != HostSide)
            From = Where(C->Buffer, C->From);
          if (C->To != HostSide)
            To = Where(C->Buffer, C->To);
        }
        char *Host = static_cast<char *>(C->Buffer->host()) + C->Offset;
        auto At = [&](const BufferObject::DeviceCopy *Copy) {
          return Copy->At + (C->Offset - uint64_t(Copy->Lo));
        };
        Status S;
        if (!From) {
          S = To->On->copyIn(To->Memory, At(To), Host, C->Bytes);
          if (S)
            S = To->On->finishCopies();
        } else if (!To) {
          S = From->On->copyOut(Host, From->Memory, At(From), C->Bytes);
        } else {
          S = To->On->copyPeer(To->Memory, At(To), *From->On, From->Memory, At(From), C->Bytes);
        }
        if (!S)
          return S;
        std::lock_guard<std::mutex> Hold(Lock);
        C->Buffer->nowValid(To ? To->On : nullptr, Want);
        return Status::success();
      };
      continue;
    }
    auto *K = &std::get<BatchKernelOp>(B.Ops[I].What);
    Work[I] = [&, K, I]() -> Status {
      Device &D = *Devices[K->Device];
      std::vector<DeviceArg> Args = hostDeviceArgs(K->Args);
      {
        std::lock_guard<std::mutex> Hold(Lock);
        for (const BufferMove &Mv : Moves[I]) {
          BufferObject *Obj = K->Args[Mv.Arg].Object;
          if (std::string Gap = firstMissing(Mv.In, ValidAt(Obj, int(K->Device))); !Gap.empty())
            return Failure(ErrorCode::InvalidArgument,
                           "reads bytes " + Gap + " of argument " + std::to_string(Mv.Arg) +
                               " that are not current on " + D.info().Name +
                               ": copy them there first");
          if (!D.info().SharesHostMemory)
            Args[Mv.Arg].Address = Where(Obj, int(K->Device))->base();
        }
      }
      if (Status S = D.run(*K->Kernel->OnDevice[K->Device], Args, K->Range, K->First, K->Count);
          !S)
        return S;
      std::lock_guard<std::mutex> Hold(Lock);
      for (const BufferMove &Mv : Moves[I])
        K->Args[Mv.Arg].Object->wroteAt(D.info().SharesHostMemory ? nullptr : &D, Mv.Out);
      return Status::success();
    };
  }
  auto Report = skmd::runBatch(M, Model, Work, Workers, {AsAdded ? &*AsAdded : nullptr});
  if (!Report)
    return Report.error();
  B.Report = std::move(*Report);
  B.Ran = true;
  // The user's own memory ends with every byte in it, as after a launch.
  Status Back = Status::success();
  for (BufferObject *Obj : Used)
    if (Obj->coherence() == BufferObject::Coherence::HostCoherent)
      if (auto Brought = Obj->bringToHost(Obj->all()); !Brought && Back)
        Back = Brought.error();
  if (!B.Report.Error)
    return B.Report.Error;
  return Back;
}

} // namespace skmd
