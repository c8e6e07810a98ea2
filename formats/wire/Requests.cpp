//===- Requests.cpp - What a client asks of a server's devices ------------===//
#include "wire/Requests.h"

namespace skmd::wire {

namespace {

template <typename T> Result<T> finished(Reader &R, T Value) {
  if (Status S = R.finish(); !S)
    return S.error();
  return Value;
}

void putRegion(Writer &W, const Region &R) {
  W.u64(R.Address);
  W.u64(R.RowBytes);
  W.u64(R.Pitch);
  W.u64(R.Rows);
}

Region getRegion(Reader &R) {
  Region Where;
  Where.Address = R.u64("address");
  Where.RowBytes = R.u64("row bytes");
  Where.Pitch = R.u64("pitch");
  Where.Rows = R.u64("rows");
  return Where;
}

/// A region whose rows do not overlap and whose bytes and span fit in
/// 64 bits; an error naming \p What otherwise.
Status checkRegion(const Region &R, const char *What) {
  if (R.Rows == 0 || R.RowBytes == 0)
    return Status::success();
  if (R.Rows > 1 && R.Pitch < R.RowBytes)
    return malformed(std::string(What) + "'s rows overlap (pitch " + std::to_string(R.Pitch) +
                     " < row bytes " + std::to_string(R.RowBytes) + ")");
  if (!R.packedBytes() || !R.span())
    return malformed(std::string(What) + "'s region does not fit in 64 bits");
  return Status::success();
}

/// The payload of \p M, a message of kind \p A or \p B (a pair of
/// requests that share a payload).
Result<Reader> payloadOfEither(const Message &M, Kind A, Kind B) {
  return payloadOf(M, M.H.What == B ? B : A);
}

} // namespace

uint64_t Region::packedBytes() const {
  if (Rows && RowBytes > UINT64_MAX / Rows)
    return 0;
  return RowBytes * Rows;
}

uint64_t Region::span() const {
  if (!Rows)
    return 0;
  if (Pitch && Rows - 1 > (UINT64_MAX - RowBytes) / Pitch)
    return 0;
  uint64_t End = (Rows - 1) * Pitch + RowBytes;
  return Address > UINT64_MAX - End ? 0 : End;
}

Writer encode(const LoadModule &M) {
  Writer W;
  W.u32(M.Device);
  W.raw(M.Hash.data(), TokenBytes);
  W.u64(M.BundleBytes);
  return W;
}

Writer encode(const LoadKernel &M) {
  Writer W;
  W.u32(M.Device);
  W.u64(M.Module);
  W.str(M.Kernel);
  return W;
}

Writer encode(const Allocate &M) {
  Writer W;
  W.u32(M.Device);
  W.u64(M.Bytes);
  return W;
}

Writer encode(const Release &M) {
  Writer W;
  W.u32(M.Device);
  W.u64(M.Address);
  return W;
}

uint64_t SharedTransfer::hostEnd() const {
  Region Host{Offset, Where.RowBytes, Where.Rows > 1 ? HostPitch : 0, Where.Rows};
  uint64_t Span = Host.span(); // checks that Offset + Span fits
  return Span ? Offset + Span : 0;
}

Writer encode(const Transfer &M) {
  Writer W;
  W.u32(M.Device);
  putRegion(W, M.Where);
  return W;
}

Writer encode(const Run &M) {
  Writer W;
  W.u32(M.Device);
  W.u64(M.Kernel);
  W.u32(uint32_t(M.Args.size()));
  for (const Arg &A : M.Args) {
    W.u8(A.K);
    switch (A.K) {
    case Arg::Buffer:
      W.u64(A.Address);
      break;
    case Arg::Scalar:
      W.u32(uint32_t(A.Bytes.size()));
      W.raw(A.Bytes.data(), A.Bytes.size());
      break;
    case Arg::Local:
      W.u64(A.LocalBytes);
      break;
    case Arg::Same:
      break;
    }
  }
  W.u32(M.WorkDim);
  for (auto *Dims : {&M.GlobalOffset, &M.NumGroups, &M.LocalSize})
    for (uint64_t V : *Dims)
      W.u64(V);
  W.u64(M.First);
  W.u64(M.Count);
  W.u32(M.Flags);
  return W;
}

Writer encode(const Sync &M) {
  Writer W;
  W.u32(M.Device);
  return W;
}

Writer encode(const QueueMark &M) {
  Writer W;
  W.u32(M.Device);
  W.u64(M.Mark);
  return W;
}

Writer encode(const Step &M) {
  Writer W;
  W.u32(M.Device);
  W.u32(M.Runs);
  W.u64(M.Groups);
  W.f64(M.InMs);
  W.f64(M.KernelMs);
  W.f64(M.OutMs);
  W.u32(M.Flags);
  return W;
}

Writer encode(const Done &M) {
  Writer W;
  W.u64(M.Value);
  W.u32(M.Flags);
  return W;
}

Writer encode(const ReadData &M) {
  Writer W;
  W.u64(M.Bytes);
  return W;
}

Writer encode(const Share &M) {
  Writer W;
  W.u64(M.Segment);
  W.u64(M.Bytes);
  return W;
}

Writer encode(const Unshare &M) {
  Writer W;
  W.u64(M.Segment);
  return W;
}

Writer encode(const SharedTransfer &M) {
  Writer W;
  W.u32(M.Device);
  putRegion(W, M.Where);
  W.u64(M.Segment);
  W.u64(M.Offset);
  W.u64(M.HostPitch);
  W.u32(M.Flags);
  return W;
}

Writer empty() { return Writer(); }

Result<LoadModule> decodeLoadModule(const Message &M) {
  auto R = payloadOf(M, Kind::LoadModule);
  if (!R)
    return R.error();
  LoadModule L;
  L.Device = R->u32("device");
  R->raw("hash", L.Hash.data(), TokenBytes);
  L.BundleBytes = R->u64("bundle bytes");
  return finished(*R, std::move(L));
}

Result<LoadKernel> decodeLoadKernel(const Message &M) {
  auto R = payloadOf(M, Kind::LoadKernel);
  if (!R)
    return R.error();
  LoadKernel L;
  L.Device = R->u32("device");
  L.Module = R->u64("module");
  L.Kernel = R->str("kernel");
  return finished(*R, std::move(L));
}

Result<Allocate> decodeAllocate(const Message &M) {
  auto R = payloadOf(M, Kind::Allocate);
  if (!R)
    return R.error();
  Allocate A;
  A.Device = R->u32("device");
  A.Bytes = R->u64("bytes");
  return finished(*R, A);
}

Result<Release> decodeRelease(const Message &M) {
  auto R = payloadOf(M, Kind::Release);
  if (!R)
    return R.error();
  Release A;
  A.Device = R->u32("device");
  A.Address = R->u64("address");
  return finished(*R, A);
}

Result<Transfer> decodeTransfer(const Message &M) {
  auto R = payloadOfEither(M, Kind::Write, Kind::Read);
  if (!R)
    return R.error();
  Transfer T;
  T.Device = R->u32("device");
  T.Where = getRegion(*R);
  auto Done = finished(*R, T);
  if (!Done)
    return Done.error();
  if (Status S = checkRegion(T.Where, kindName(M.H.What)); !S)
    return S.error();
  return T;
}

Result<Run> decodeRun(const Message &M) {
  auto R = payloadOf(M, Kind::Run);
  if (!R)
    return R.error();
  Run Ru;
  Ru.Device = R->u32("device");
  Ru.Kernel = R->u64("kernel");
  // Each argument: at least its kind.
  uint32_t N = R->count("argument count", 1, MaxArgs);
  for (uint32_t I = 0; I < N && R->ok(); ++I) {
    Arg A;
    uint8_t K = R->u8("argument kind");
    if (R->ok() && K > Arg::Same)
      return malformed("Run's argument " + std::to_string(I) + " has unknown kind " +
                       std::to_string(K));
    A.K = Arg::Kind(K);
    switch (A.K) {
    case Arg::Buffer:
      A.Address = R->u64("buffer address");
      break;
    case Arg::Scalar: {
      uint32_t Size = R->count("scalar bytes", 1, MaxScalarBytes);
      A.Bytes.resize(Size);
      R->raw("scalar", A.Bytes.data(), Size);
      break;
    }
    case Arg::Local:
      A.LocalBytes = R->u64("local bytes");
      break;
    case Arg::Same:
      break;
    }
    Ru.Args.push_back(std::move(A));
  }
  Ru.WorkDim = R->u32("work dimensions");
  for (auto *Dims : {&Ru.GlobalOffset, &Ru.NumGroups, &Ru.LocalSize})
    for (uint64_t &V : *Dims)
      V = R->u64("range");
  Ru.First = R->u64("first group");
  Ru.Count = R->u64("group count");
  Ru.Flags = R->u32("flags");
  auto Done = finished(*R, std::move(Ru));
  if (!Done)
    return Done.error();
  if (Done->Flags & ~Run::Queued)
    return malformed("Run has unknown flags " + std::to_string(Done->Flags));
  if (Done->WorkDim < 1 || Done->WorkDim > 3)
    return malformed("Run's work dimensions are " + std::to_string(Done->WorkDim));
  // The grid's group count and the range asked must fit in 64 bits.
  uint64_t Total = 1;
  for (unsigned D = 0; D < 3; ++D) {
    uint64_t G = Done->NumGroups[D];
    if (G == 0 || Done->LocalSize[D] == 0 || Total > UINT64_MAX / G)
      return malformed("Run's grid is empty or does not fit in 64 bits");
    Total *= G;
  }
  if (Done->First > Total || Done->Count > Total - Done->First)
    return malformed("Run's groups [" + std::to_string(Done->First) + ", +" +
                     std::to_string(Done->Count) + ") leave the grid of " +
                     std::to_string(Total));
  return Done;
}

Result<Done> decodeDone(const Message &M) {
  auto R = payloadOf(M, Kind::Done);
  if (!R)
    return R.error();
  Done D;
  D.Value = R->u64("value");
  D.Flags = R->u32("flags");
  return finished(*R, D);
}

Result<ReadData> decodeReadData(const Message &M) {
  auto R = payloadOf(M, Kind::ReadData);
  if (!R)
    return R.error();
  ReadData D;
  D.Bytes = R->u64("bytes");
  return finished(*R, D);
}

Result<Share> decodeShare(const Message &M) {
  auto R = payloadOf(M, Kind::Share);
  if (!R)
    return R.error();
  Share S;
  S.Segment = R->u64("segment");
  S.Bytes = R->u64("bytes");
  auto Done = finished(*R, S);
  if (Done && !Done->Bytes)
    return malformed("Share of an empty segment");
  return Done;
}

Result<Unshare> decodeUnshare(const Message &M) {
  auto R = payloadOf(M, Kind::Unshare);
  if (!R)
    return R.error();
  Unshare U;
  U.Segment = R->u64("segment");
  return finished(*R, U);
}

Result<SharedTransfer> decodeSharedTransfer(const Message &M) {
  auto R = payloadOfEither(M, Kind::WriteShared, Kind::ReadShared);
  if (!R)
    return R.error();
  const char *What = kindName(M.H.What);
  SharedTransfer T;
  T.Device = R->u32("device");
  T.Where = getRegion(*R);
  T.Segment = R->u64("segment");
  T.Offset = R->u64("offset");
  T.HostPitch = R->u64("host pitch");
  T.Flags = R->u32("flags");
  auto Done = finished(*R, T);
  if (!Done)
    return Done.error();
  if (Status S = checkRegion(T.Where, What); !S)
    return S.error();
  if (T.Flags & ~SharedTransfer::AnswerWhenLanded)
    return malformed(std::string(What) + " has unknown flags " + std::to_string(T.Flags));
  if (!T.Where.packedBytes())
    return malformed(std::string(What) + " of no bytes");
  if (T.Where.Rows > 1 && T.HostPitch < T.Where.RowBytes)
    return malformed(std::string(What) + "'s rows overlap in the segment (host pitch " +
                     std::to_string(T.HostPitch) + " < row bytes " +
                     std::to_string(T.Where.RowBytes) + ")");
  if (!T.hostEnd())
    return malformed(std::string(What) + "'s rows in the segment do not fit in 64 bits");
  return T;
}

Result<Sync> decodeSync(const Message &M) {
  auto R = payloadOfEither(M, Kind::Sync, Kind::Load);
  if (!R)
    return R.error();
  Sync S;
  S.Device = R->u32("device");
  return finished(*R, S);
}

Result<QueueMark> decodeQueueMark(const Message &M) {
  auto R = payloadOfEither(M, Kind::Mark, Kind::ReleaseMark);
  if (!R)
    return R.error();
  const char *What = kindName(M.H.What);
  QueueMark Q;
  Q.Device = R->u32("device");
  Q.Mark = R->u64("mark");
  auto Done = finished(*R, Q);
  if (!Done)
    return Done.error();
  if (!Q.Mark)
    return malformed(std::string(What) + " names mark 0");
  return Q;
}

Result<Step> decodeStep(const Message &M) {
  auto R = payloadOf(M, Kind::Step);
  if (!R)
    return R.error();
  Step S;
  S.Device = R->u32("device");
  S.Runs = R->u32("runs");
  S.Groups = R->u64("groups");
  S.InMs = R->f64("input ms");
  S.KernelMs = R->f64("kernel ms");
  S.OutMs = R->f64("output ms");
  S.Flags = R->u32("flags");
  auto Done = finished(*R, S);
  if (!Done)
    return Done.error();
  if (!S.Runs || S.Runs > MaxStepRuns)
    return malformed("a Step of " + std::to_string(S.Runs) + " Runs (1 to " +
                     std::to_string(MaxStepRuns) + ")");
  if (S.Flags & ~Step::CopiesOut)
    return malformed("a Step with unknown flags " + std::to_string(S.Flags));
  for (double Ms : {S.InMs, S.KernelMs, S.OutMs})
    if (!(Ms >= 0 && Ms <= 1e9)) // also NaN
      return malformed("a Step's predicted time is " + std::to_string(Ms) + " ms");
  return S;
}

Status decodeEmpty(const Message &M) {
  if (M.H.What != Kind::Heartbeat && M.H.What != Kind::Goodbye)
    return payloadOf(M, Kind::Heartbeat).error();
  if (!M.Payload.empty())
    return malformed(std::string(kindName(M.H.What)) + " carries " +
                     std::to_string(M.Payload.size()) + " bytes (it has none)");
  return Status::success();
}

} // namespace skmd::wire
