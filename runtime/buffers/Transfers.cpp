//===- Transfers.cpp - Which bytes each device needs ----------------------===//
#include "buffers/Transfers.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <cstring>

namespace skmd {

namespace {

std::string argName(const KernelInfo &K, unsigned I) {
  return "argument " + std::to_string(I) + " ('" + K.Args[I].Name + "')";
}

/// The value of an integer scalar argument, extended by its type's
/// signedness; none for other arguments. The layout says the type with
/// typedefs resolved; bundles without one are read by the name as written.
std::optional<int64_t> integerValue(const KernelArg &A, const std::vector<uint8_t> &Bytes) {
  size_t N = Bytes.size();
  if (A.Kind != ArgKind::Scalar || !(N == 1 || N == 2 || N == 4 || N == 8))
    return std::nullopt;
  bool Signed;
  if (!A.Layout.empty()) {
    const ScalarRun &R = A.Layout.front();
    if (A.Layout.size() != 1 || R.Count != 1 || scalarTypeBytes(R.Type) != N ||
        R.Type == "float" || R.Type == "double" || R.Type == "half")
      return std::nullopt;
    Signed = R.Type[0] != 'u';
  } else {
    const std::string &T = A.TypeName;
    if (T.find_first_of("*[") != std::string::npos || T.find("float") != std::string::npos ||
        T.find("double") != std::string::npos || T.find("half") != std::string::npos)
      return std::nullopt;
    Signed = !(T.rfind("u", 0) == 0 || T == "size_t" || T == "bool");
  }
  uint64_t Raw = 0;
  std::memcpy(&Raw, Bytes.data(), N);
  unsigned Bits = unsigned(N * 8);
  if (Bits < 64 && Signed && (Raw >> (Bits - 1)) & 1)
    Raw |= ~uint64_t(0) << Bits;
  return int64_t(Raw);
}

/// The accesses of \p Arg that read (or write).
ArgFootprint accessesThat(const ArgFootprint &Arg, bool Writes) {
  ArgFootprint Only = Arg;
  Only.Accesses.clear();
  for (const Access &A : Arg.Accesses)
    if (Writes ? A.Writes : A.Reads)
      Only.Accesses.push_back(A);
  return Only;
}

/// The bytes \p Arg's accesses touch over [First, First + Count), and
/// whether every byte of that set is surely written once (no guard, boxes
/// that tile it exactly).
struct Touched {
  IntervalSet Bytes;
  bool Dense = false;
};

/// The bytes accesses of \p Arg touch over groups [First, First + Count),
/// added to \p Into; returns the sum of the boxes' bytes (more than they
/// cover when boxes overlap).
Result<int64_t> addBoxes(const KernelInfo &K, const ArgFootprint &Arg, const LaunchValues &LV,
                         uint64_t First, uint64_t Count, IntervalSet &Into) {
  auto Boxes = rangeFootprint(K.Footprint, Arg, LV, int64_t(First), int64_t(Count));
  if (!Boxes)
    return Boxes.error();
  int64_t Sum = 0;
  for (const ByteBox &B : *Boxes) {
    int64_t N = B.Inner;
    for (auto [Stride, Times] : B.Dims)
      N *= Times;
    Sum += N;
  }
  // Boxes of one shape whose rows meet (a[2i] and a[2i + 1], a stencil's
  // x - 1, x, x + 1) are one box of longer rows: fewer rows to merge.
  std::sort(Boxes->begin(), Boxes->end(), [](const ByteBox &A, const ByteBox &B) {
    return std::tie(A.Dims, A.Start) < std::tie(B.Dims, B.Start);
  });
  std::vector<ByteBox> Joined;
  for (ByteBox &B : *Boxes) {
    ByteBox *Last = Joined.empty() ? nullptr : &Joined.back();
    if (Last && Last->Dims == B.Dims && B.Start <= Last->Start + Last->Inner)
      Last->Inner = std::max(Last->Inner, B.Start + B.Inner - Last->Start);
    else
      Joined.push_back(std::move(B));
  }
  for (const ByteBox &B : Joined)
    Into.add(B);
  return Sum;
}

Result<Touched> touched(const KernelInfo &K, const ArgFootprint &Arg,
                        const LaunchValues &LV, uint64_t First, uint64_t Count) {
  Touched T;
  if (Arg.Accesses.empty() || Count == 0)
    return T;
  // Accesses without a bound together; each bounded one (`if (i < n)
  // out[i]`) on its own, its bytes cut at the bound, below which they are
  // exact.
  ArgFootprint Plain = Arg;
  Plain.Accesses.clear();
  std::vector<ArgFootprint> Bounded;
  bool Exact = true;
  for (const Access &A : Arg.Accesses) {
    if (A.Below) {
      Bounded.push_back(Arg);
      Bounded.back().Accesses = {A};
      continue;
    }
    Plain.Accesses.push_back(A);
    Exact = Exact && !A.Guarded;
  }
  int64_t Sum = 0;
  if (!Plain.Accesses.empty()) {
    auto N = addBoxes(K, Plain, LV, First, Count, T.Bytes);
    if (!N)
      return N.error();
    Sum += *N;
  }
  for (const ArgFootprint &One : Bounded) {
    auto Limit = One.Accesses[0].Below->evaluate(LV);
    if (!Limit)
      return Limit.error();
    IntervalSet Bytes;
    auto N = addBoxes(K, One, LV, First, Count, Bytes);
    if (!N)
      return N.error();
    // Rows that overlap each other are not described exactly.
    Exact = Exact && *N == Bytes.bytes();
    Bytes.clamp(std::numeric_limits<int64_t>::min(), *Limit);
    Sum += Bytes.bytes();
    T.Bytes.add(Bytes);
  }
  T.Dense = Exact && Sum == T.Bytes.bytes();
  return T;
}

bool overlaps(const IntervalSet &A, const IntervalSet &B) {
  const auto &X = A.intervals(), &Y = B.intervals();
  size_t I = 0, J = 0;
  while (I < X.size() && J < Y.size()) {
    if (X[I].second <= Y[J].first)
      ++I;
    else if (Y[J].second <= X[I].first)
      ++J;
    else
      return true;
  }
  return false;
}

} // namespace

std::vector<Rect> toRects(const IntervalSet &Set, int64_t Base) {
  std::vector<Rect> Out;
  for (auto [Lo, Hi] : Set.intervals()) {
    uint64_t Off = uint64_t(Lo - Base), Len = uint64_t(Hi - Lo);
    if (!Out.empty()) {
      Rect &Last = Out.back();
      uint64_t LastStart = Last.Offset + (Last.Rows - 1) * Last.Pitch;
      uint64_t Gap = Off - LastStart;
      if (Last.RowBytes == Len && (Last.Rows == 1 || Gap == Last.Pitch)) {
        Last.Pitch = Gap;
        ++Last.Rows;
        continue;
      }
    }
    Out.push_back({Off, Len, Len, 1});
  }
  return Out;
}

bool isBufferArg(ArgKind Kind) {
  return Kind == ArgKind::GlobalBuffer || Kind == ArgKind::ConstantBuffer;
}

Status checkArgs(const KernelInfo &K, const std::vector<HostArg> &Args) {
  if (Args.size() != K.Args.size())
    return Failure(ErrorCode::InvalidArgument,
                   "kernel '" + K.Name + "' takes " + std::to_string(K.Args.size()) +
                       " arguments, " + std::to_string(Args.size()) + " given");
  for (unsigned I = 0; I < Args.size(); ++I) {
    const KernelArg &Want = K.Args[I];
    const HostArg &Got = Args[I];
    std::string Where = "kernel '" + K.Name + "', " + argName(K, I) + " of type " +
                        Want.TypeName;
    if (Got.K == HostArg::Unset)
      return Failure(ErrorCode::InvalidArgument, Where + " is not set");
    if (Want.Kind == ArgKind::Sampler)
      return Failure(ErrorCode::InvalidArgument,
                     Where + ": samplers are not supported");
    if (isBufferArg(Want.Kind) && Got.K != HostArg::Buffer)
      return Failure(ErrorCode::InvalidArgument, Where + " needs a buffer");
    if (Want.Kind == ArgKind::LocalBuffer && Got.K != HostArg::Local)
      return Failure(ErrorCode::InvalidArgument,
                     Where + " is a __local pointer: give its size");
    if (Want.Kind == ArgKind::Scalar) {
      if (Got.K != HostArg::Scalar)
        return Failure(ErrorCode::InvalidArgument, Where + " needs a value");
      if (Got.Value.size() != Want.Size)
        return Failure(ErrorCode::InvalidArgument,
                       Where + " is " + std::to_string(Want.Size) + " bytes, " +
                           std::to_string(Got.Value.size()) + " given");
    }
    if (Got.K == HostArg::Buffer && Got.Bytes && !Got.Data)
      return Failure(ErrorCode::InvalidArgument, Where + ": the buffer is null");
    if (Got.K == HostArg::Local && Got.LocalBytes == 0)
      return Failure(ErrorCode::InvalidArgument,
                     Where + ": a __local buffer needs a nonzero size");
  }
  return Status::success();
}

LaunchValues launchValues(const KernelInfo &K, const std::vector<HostArg> &Args,
                          const NDRange &Range) {
  LaunchValues LV;
  for (unsigned D = 0; D < 3; ++D) {
    LV.LocalSize[D] = int64_t(Range.LocalSize[D]);
    LV.NumGroups[D] = int64_t(Range.NumGroups[D]);
    LV.GlobalOffset[D] = int64_t(Range.GlobalOffset[D]);
  }
  for (unsigned I = 0; I < K.Args.size(); ++I)
    LV.Args.push_back(I < Args.size() ? integerValue(K.Args[I], Args[I].Value)
                                      : std::nullopt);
  return LV;
}

Status checkBufferSizes(const KernelInfo &K, const std::vector<HostArg> &Args,
                        const NDRange &Range) {
  LaunchValues LV = launchValues(K, Args, Range);
  for (const ArgFootprint &Arg : K.Footprint.Args) {
    if (Arg.Kind != FootprintKind::Affine || Arg.ArgIndex >= Args.size())
      continue;
    ArgFootprint Sure = Arg;
    Sure.Accesses.clear();
    for (const Access &A : Arg.Accesses)
      if (!A.Guarded)
        Sure.Accesses.push_back(A);
    auto T = touched(K, Sure, LV, 0, Range.totalGroups());
    if (!T)
      return Failure(T.error().code(), "kernel '" + K.Name + "', " +
                                           argName(K, Arg.ArgIndex) + ": " +
                                           T.error().message());
    const auto &I = T->Bytes.intervals();
    if (I.empty())
      continue;
    uint64_t Have = Args[Arg.ArgIndex].Bytes;
    if (I.front().first < 0 || uint64_t(I.back().second) > Have)
      return Failure(ErrorCode::InvalidArgument,
                     "kernel '" + K.Name + "', " + argName(K, Arg.ArgIndex) +
                         ": the launch accesses bytes [" +
                         std::to_string(I.front().first) + ", " +
                         std::to_string(I.back().second) + ") but the buffer has " +
                         std::to_string(Have) + " bytes");
  }
  return Status::success();
}

Result<std::vector<std::vector<BufferMove>>>
planMoves(const KernelInfo &K, const std::vector<HostArg> &Args,
          const NDRange &Range, const std::vector<Piece> &Pieces,
          const std::vector<bool> &SharesHostMemory, bool HasMerge, bool HostPieces) {
  std::vector<std::vector<BufferMove>> Moves(Pieces.size());
  // Devices on host memory move nothing; when no other takes part there
  // is nothing to plan (footprints of 10^5 groups took milliseconds).
  if (!HostPieces &&
      std::all_of(SharesHostMemory.begin(), SharesHostMemory.end(), [](bool S) { return S; }))
    return Moves;
  // Whether piece P gets moves: pieces on host memory only when asked.
  auto Planned = [&](size_t P) { return HostPieces || !SharesHostMemory[P]; };
  LaunchValues LV = launchValues(K, Args, Range);
  for (unsigned AI = 0; AI < K.Args.size(); ++AI) {
    if (!isBufferArg(K.Args[AI].Kind) || Args[AI].isNullBuffer())
      continue;
    const KernelArg &Info = K.Args[AI];
    int64_t Size = int64_t(Args[AI].Bytes);
    // Only atomics update it: each device works on a whole copy of its own.
    if (const CombinedArg *C = K.findCombined(AI)) {
      for (size_t P = 0; P < Pieces.size(); ++P) {
        if (!Planned(P) || Size == 0)
          continue;
        BufferMove M;
        M.Arg = AI;
        M.Lo = 0;
        M.Hi = Size;
        M.In.add(0, Size);
        M.Out.add(0, Size);
        M.Combine = *C;
        Moves[P].push_back(std::move(M));
      }
      continue;
    }
    const ArgFootprint *F = K.Footprint.find(AI);
    bool Whole = !F || F->Kind == FootprintKind::Whole;

    // The reads of each piece that moves bytes, and every piece's writes,
    // to see whose writes may meet.
    std::vector<Touched> Reads(Pieces.size()), Writes(Pieces.size());
    if (!Whole && (Info.Read || Info.Written))
      for (size_t P = 0; P < Pieces.size(); ++P) {
        auto W = touched(K, accessesThat(*F, true), LV, Pieces[P].First, Pieces[P].Count);
        if (!W)
          return Failure(ErrorCode::InvalidArgument, "kernel '" + K.Name + "', " +
                                                         argName(K, AI) + ": " +
                                                         W.error().message());
        Writes[P] = std::move(*W);
        Writes[P].Bytes.clamp(0, Size);
        if (!Planned(P))
          continue;
        auto R = touched(K, accessesThat(*F, false), LV, Pieces[P].First, Pieces[P].Count);
        if (!R)
          return Failure(ErrorCode::InvalidArgument, "kernel '" + K.Name + "', " +
                                                         argName(K, AI) + ": " +
                                                         R.error().message());
        Reads[P] = std::move(*R);
        Reads[P].Bytes.clamp(0, Size);
      }

    for (size_t P = 0; P < Pieces.size(); ++P) {
      if (!Planned(P))
        continue;
      BufferMove M;
      M.Arg = AI;
      if (!Info.Read && !Info.Written) {
        // Passed but never dereferenced: nothing to allocate or move.
      } else if (Whole && Pieces.size() == 1) {
        // The only device: all of it goes in and, if written, comes back.
        M.In.add(0, Size);
        if (Info.Written)
          M.Out.add(0, Size);
        M.Hi = Size;
      } else if (Whole) {
        if (Info.Read)
          M.In.add(0, Size);
        M.Merge = Info.Written;
        M.Hi = Size;
      } else {
        bool Alone = true;
        for (size_t Q = 0; Q < Pieces.size() && Alone; ++Q)
          Alone = Q == P || !overlaps(Writes[P].Bytes, Writes[Q].Bytes);
        M.In = Reads[P].Bytes;
        if (Alone) {
          M.Out = Writes[P].Bytes;
          if (!Writes[P].Dense)
            M.In.add(Writes[P].Bytes);
        } else {
          M.Merge = true;
        }
        IntervalSet Hull = M.In;
        Hull.add(Writes[P].Bytes);
        if (!Hull.intervals().empty()) {
          M.Lo = Hull.intervals().front().first;
          M.Hi = Hull.intervals().back().second;
        }
      }
      // A piece on host memory writes in place; only copies are merged.
      if (M.Merge && !HasMerge && !SharesHostMemory[P])
        return Failure(ErrorCode::InvalidArgument,
                       "kernel '" + K.Name + "' cannot be split across devices: "
                       "the writes to " + argName(K, AI) +
                           " of different devices may overlap and the kernel "
                           "has no merge kernel");
      Moves[P].push_back(std::move(M));
    }
  }
  return Moves;
}

bool startsFromIdentity(CombineOp Op) { return Op == CombineOp::Add || Op == CombineOp::Xor; }

namespace {
template <typename U, typename S>
void combineAs(void *Into, const void *From, uint64_t Count, const CombinedArg &C) {
  auto *To = static_cast<U *>(Into);
  const auto *Dev = static_cast<const U *>(From);
  for (uint64_t I = 0; I < Count; ++I) {
    U A = To[I], B = Dev[I];
    switch (C.Op) {
    case CombineOp::Assign:
      // The device's copy began as the buffer, and its stores write only
      // the constant: holding it, the element was set (or already was).
      if (B == U(C.Value))
        To[I] = B;
      break;
    case CombineOp::Add:
      To[I] = U(A + B); // Modulo 2^n, as the atomics themselves.
      break;
    case CombineOp::Xor:
      To[I] = A ^ B;
      break;
    case CombineOp::And:
      To[I] = A & B;
      break;
    case CombineOp::Or:
      To[I] = A | B;
      break;
    case CombineOp::Min:
      To[I] = U(std::min(S(A), S(B)));
      break;
    case CombineOp::Max:
      To[I] = U(std::max(S(A), S(B)));
      break;
    case CombineOp::UMin:
      To[I] = std::min(A, B);
      break;
    case CombineOp::UMax:
      To[I] = std::max(A, B);
      break;
    }
  }
}
} // namespace

void combineInto(void *Into, const void *From, uint64_t Bytes, const CombinedArg &C) {
  switch (C.Bytes) {
  case 1:
    return combineAs<uint8_t, int8_t>(Into, From, Bytes, C);
  case 2:
    return combineAs<uint16_t, int16_t>(Into, From, Bytes / 2, C);
  case 8:
    return combineAs<uint64_t, int64_t>(Into, From, Bytes / 8, C);
  default:
    return combineAs<uint32_t, int32_t>(Into, From, Bytes / 4, C);
  }
}

namespace {
/// The first bytes where one of \p A's intervals meets one of \p B's
/// pieces' intervals (each tagged with its piece), other than \p Self's.
std::optional<std::tuple<int64_t, int64_t, size_t>>
firstMeeting(const IntervalSet &A, size_t Self,
             const std::vector<std::tuple<int64_t, int64_t, size_t>> &Sorted) {
  // Both lists sorted; the tagged ends grow only piecewise, so the scan
  // skips for good only what ends before the current interval starts.
  size_t W = 0;
  for (auto [Lo, Hi] : A.intervals()) {
    while (W < Sorted.size() && std::get<1>(Sorted[W]) <= Lo && std::get<0>(Sorted[W]) < Lo)
      ++W;
    for (size_t X = W; X < Sorted.size() && std::get<0>(Sorted[X]) < Hi; ++X) {
      auto [OLo, OHi, Q] = Sorted[X];
      if (Q != Self && OHi > Lo)
        return std::tuple{std::max(Lo, OLo), std::min(Hi, OHi), Q};
    }
  }
  return std::nullopt;
}
} // namespace

Result<std::string> firstConflict(const KernelInfo &K, const std::vector<HostArg> &Args,
                                  const NDRange &Range, const std::vector<Piece> &Pieces) {
  bool HasMerge = std::any_of(K.Symbols.begin(), K.Symbols.end(),
                              [](const auto &S) { return !S.second.Merge.empty(); });
  if (Pieces.size() < 2 || (K.LaunchTested.empty() && HasMerge))
    return std::string();
  LaunchValues LV = launchValues(K, Args, Range);
  auto Groups = [&](const Piece &P) {
    return "groups [" + std::to_string(P.First) + ", " + std::to_string(P.First + P.Count) +
           ")";
  };
  for (unsigned AI = 0; AI < K.Args.size(); ++AI) {
    bool Tested = std::find(K.LaunchTested.begin(), K.LaunchTested.end(), AI) !=
                  K.LaunchTested.end();
    // Without a merge kernel, pieces whose writes meet cannot be put back
    // together either.
    bool Merged = !HasMerge && isBufferArg(K.Args[AI].Kind) && K.Args[AI].Written &&
                  !K.findCombined(AI);
    if (!Tested && !Merged)
      continue;
    const ArgFootprint *F = K.Footprint.find(AI);
    if (!F || F->Kind != FootprintKind::Affine)
      return argName(K, AI) + " has no footprint to test (" +
             (F ? F->WholeReason : std::string("none recorded")) + ")";
    int64_t Size = int64_t(Args[AI].Bytes);
    // Every piece's writes, tagged with the piece, sorted by their start.
    std::vector<std::tuple<int64_t, int64_t, size_t>> Writes;
    std::vector<IntervalSet> Reads(Pieces.size()), OwnWrites(Pieces.size());
    for (size_t P = 0; P < Pieces.size(); ++P) {
      for (bool W : {true, false}) {
        if (!W && !Tested)
          continue;
        auto T = touched(K, accessesThat(*F, W), LV, Pieces[P].First, Pieces[P].Count);
        if (!T)
          return T.error();
        T->Bytes.clamp(0, Size);
        if (!W) {
          Reads[P] = std::move(T->Bytes);
          continue;
        }
        for (auto [Lo, Hi] : T->Bytes.intervals())
          Writes.emplace_back(Lo, Hi, P);
        OwnWrites[P] = std::move(T->Bytes);
      }
    }
    std::sort(Writes.begin(), Writes.end());
    for (size_t P = 0; P < Pieces.size(); ++P) {
      if (Tested)
        if (auto M = firstMeeting(Reads[P], P, Writes))
          return argName(K, AI) + " bytes [" + std::to_string(std::get<0>(*M)) + ", " +
                 std::to_string(std::get<1>(*M)) + ") are read by " + Groups(Pieces[P]) +
                 " and written by " + Groups(Pieces[std::get<2>(*M)]);
      if (Merged)
        if (auto M = firstMeeting(OwnWrites[P], P, Writes))
          return argName(K, AI) + " bytes [" + std::to_string(std::get<0>(*M)) + ", " +
                 std::to_string(std::get<1>(*M)) + ") may be written by " + Groups(Pieces[P]) +
                 " and by " + Groups(Pieces[std::get<2>(*M)]) +
                 ", and the kernel has no merge kernel";
    }
  }
  return std::string();
}

// A field added to these must join the key below (it may change the moves).
static_assert(sizeof(NDRange) == 80, "NDRange changed: add the new field to movesKey");
static_assert(sizeof(Piece) == 32, "Piece changed: add the new field to movesKey");
static_assert(sizeof(HostArg) == 64, "HostArg changed: add the new field to movesKey");

std::string movesKey(const KernelInfo &K, const std::string &KernelId,
                     const std::vector<HostArg> &Args, const NDRange &Range,
                     const std::vector<Piece> &Pieces,
                     const std::vector<bool> &SharesHostMemory, bool HasMerge,
                     bool HostPieces) {
  // Every input planMoves reads, but the buffers' addresses (moves are
  // offsets): the geometry whole (the footprints use the global offset,
  // which a key of sizes alone missed: a second launch at another offset
  // reused the first one's moves and lost its output).
  std::string Key;
  auto Put = [&](const auto &V) {
    Key.append(reinterpret_cast<const char *>(&V), sizeof V);
  };
  auto PutBytes = [&](const void *Data, size_t N) {
    Put(N);
    Key.append(static_cast<const char *>(Data), N);
  };
  Put(&K);
  PutBytes(KernelId.data(), KernelId.size());
  PutBytes(K.Name.data(), K.Name.size());
  Put(HasMerge);
  Put(HostPieces);
  Put(Range.WorkDim);
  for (unsigned D = 0; D < 3; ++D) {
    Put(Range.GlobalOffset[D]);
    Put(Range.NumGroups[D]);
    Put(Range.LocalSize[D]);
  }
  Put(Args.size());
  for (const HostArg &A : Args) {
    // Not the buffer object: moves are offsets, and residency is applied
    // to them per launch.
    Put(A.K);
    Put(A.Bytes);
    Put(A.LocalBytes);
    PutBytes(A.Value.data(), A.Value.size());
  }
  Put(Pieces.size());
  for (size_t P = 0; P < Pieces.size(); ++P) {
    Put(Pieces[P].Device);
    Put(Pieces[P].First);
    Put(Pieces[P].Count);
    Put(Pieces[P].Chunks);
    Put(bool(P < SharesHostMemory.size() && SharesHostMemory[P]));
  }
  return Key;
}

Status MovesCache::checkSizes(const KernelInfo &K, const std::string &KernelId,
                              const std::vector<HostArg> &Args, const NDRange &Range) {
  // The pieces do not matter: the key of a launch with none.
  std::string Key = movesKey(K, KernelId, Args, Range, {}, {}, false, false);
  {
    std::lock_guard<std::mutex> Hold(Lock);
    if (std::find(SizesChecked.begin(), SizesChecked.end(), Key) != SizesChecked.end())
      return Status::success();
  }
  if (Status S = checkBufferSizes(K, Args, Range); !S)
    return S;
  std::lock_guard<std::mutex> Hold(Lock);
  SizesChecked.push_front(std::move(Key));
  if (SizesChecked.size() > Entries)
    SizesChecked.pop_back();
  return Status::success();
}

Result<std::vector<std::vector<BufferMove>>>
MovesCache::plan(const KernelInfo &K, const std::string &KernelId,
                 const std::vector<HostArg> &Args, const NDRange &Range,
                 const std::vector<Piece> &Pieces, const std::vector<bool> &SharesHostMemory,
                 bool HasMerge, bool HostPieces) {
  std::string Key =
      movesKey(K, KernelId, Args, Range, Pieces, SharesHostMemory, HasMerge, HostPieces);
  {
    std::lock_guard<std::mutex> Hold(Lock);
    for (auto It = Recent.begin(); It != Recent.end(); ++It)
      if (It->first == Key) {
        auto Hit = std::move(*It);
        Recent.erase(It);
        Recent.push_front(std::move(Hit));
        return Recent.front().second;
      }
    ++Misses;
  }
  // A split the launch-time test refuses is no launch: tested here, once
  // per launch shape, with the moves.
  auto Conflict = firstConflict(K, Args, Range, Pieces);
  if (!Conflict)
    return Conflict.error();
  if (!Conflict->empty())
    return Failure(ErrorCode::InvalidArgument, "kernel '" + K.Name +
                                                   "' cannot be split this way: " + *Conflict +
                                                   "; give it one device");
  auto Moves = planMoves(K, Args, Range, Pieces, SharesHostMemory, HasMerge, HostPieces);
  if (!Moves)
    return Moves;
  std::lock_guard<std::mutex> Hold(Lock);
  Recent.emplace_front(std::move(Key), *Moves);
  if (Recent.size() > Entries)
    Recent.pop_back();
  return Moves;
}

} // namespace skmd
