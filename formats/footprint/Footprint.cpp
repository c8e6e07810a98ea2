//===- Footprint.cpp - The bytes each work-group touches ------------------===//
#include "footprint/Footprint.h"

#include <algorithm>
#include <map>

namespace skmd {

namespace {

/// A block of groups: Lo[d] .. Lo[d] + Count[d] in each dimension.
struct GroupBox {
  std::array<int64_t, 3> Lo{0, 0, 0};
  std::array<int64_t, 3> Count{1, 1, 1};
};

/// Splits a flattened range into at most five blocks: a partial row, whole
/// rows, whole planes, rows, a partial row.
std::vector<GroupBox> groupBoxes(int64_t First, int64_t Count,
                                 const std::array<int64_t, 3> &NG) {
  std::vector<GroupBox> Out;
  while (Count > 0) {
    std::array<int64_t, 3> G = unflattenGroup(First, NG);
    GroupBox B;
    B.Lo = G;
    int64_t Taken;
    if (G[0] != 0 || Count < NG[0]) {
      Taken = std::min(Count, NG[0] - G[0]);
      B.Count = {Taken, 1, 1};
    } else if (G[1] != 0 || Count < NG[0] * NG[1]) {
      int64_t Rows = std::min(Count / NG[0], NG[1] - G[1]);
      B.Count = {NG[0], Rows, 1};
      Taken = Rows * NG[0];
    } else {
      int64_t Planes = Count / (NG[0] * NG[1]);
      B.Count = {NG[0], NG[1], Planes};
      Taken = Planes * NG[0] * NG[1];
    }
    Out.push_back(B);
    First += Taken;
    Count -= Taken;
  }
  return Out;
}

/// Folds dimensions whose copies touch or overlap into the inner run, and
/// chains of dimensions that tile each other, so dense boxes are intervals.
void normalize(ByteBox &B) {
  std::sort(B.Dims.begin(), B.Dims.end());
  for (bool Changed = true; Changed;) {
    Changed = false;
    if (!B.Dims.empty() && B.Dims[0].first <= B.Inner) {
      B.Inner += B.Dims[0].first * (B.Dims[0].second - 1);
      B.Dims.erase(B.Dims.begin());
      Changed = true;
      continue;
    }
    for (size_t J = 0; J + 1 < B.Dims.size(); ++J)
      if (B.Dims[J + 1].first == B.Dims[J].first * B.Dims[J].second) {
        B.Dims[J].second *= B.Dims[J + 1].second;
        B.Dims.erase(B.Dims.begin() + J + 1);
        Changed = true;
        break;
      }
  }
}

/// Adds coeff * v, v in [0, Range), to a box under construction.
Status addDimension(ByteBox &B, int64_t Coeff, int64_t Range) {
  if (Range <= 1 || Coeff == 0)
    return Status::success();
  int64_t Span;
  if (__builtin_mul_overflow(Coeff, Range - 1, &Span))
    return Failure(ErrorCode::InvalidArgument, "footprint overflows 64 bits");
  if (Coeff < 0) {
    B.Start += Span;
    Coeff = -Coeff;
  }
  B.Dims.push_back({Coeff, Range});
  return Status::success();
}

/// The range of an index variable for this launch (group terms are handled
/// by the caller).
Result<int64_t> rangeOf(const KernelFootprint &K, const AccessTerm &T,
                        const LaunchValues &L) {
  if (T.Var == IndexVar::LocalId)
    return T.Index < 3 ? L.LocalSize[T.Index] : 1;
  if (T.Index >= K.LoopTrips.size())
    return Failure(ErrorCode::CorruptBundle,
                   "footprint names loop " + std::to_string(T.Index) +
                       " that the kernel does not have");
  return K.LoopTrips[T.Index].evaluate(L);
}

/// The values of a local id or a loop counter a box takes, [Lo, Hi), where
/// guards narrowed them; the full range elsewhere.
struct Narrowed {
  std::array<std::optional<std::pair<int64_t, int64_t>>, 3> Local;
  std::map<unsigned, std::pair<int64_t, int64_t>> Loop;
  /// Narrows \p T's variable (a local id or a loop counter) to [Lo, Hi).
  void set(const AccessTerm &T, int64_t Lo, int64_t Hi) {
    if (T.Var == IndexVar::LocalId)
      Local[T.Index < 3 ? T.Index : 0] = std::pair<int64_t, int64_t>{Lo, Hi};
    else
      Loop[T.Index] = {Lo, Hi};
  }
};

/// The values \p T's variable takes in a box of \p Groups: [Lo, Hi).
Result<std::pair<int64_t, int64_t>> valuesOf(const KernelFootprint &K, const AccessTerm &T,
                                             const LaunchValues &L, const GroupBox &Groups,
                                             const Narrowed *N) {
  if (T.Var == IndexVar::Group) {
    unsigned D = T.Index < 3 ? T.Index : 0;
    return std::pair<int64_t, int64_t>{Groups.Lo[D], Groups.Lo[D] + Groups.Count[D]};
  }
  if (N) {
    if (T.Var == IndexVar::LocalId && T.Index < 3 && N->Local[T.Index])
      return *N->Local[T.Index];
    if (T.Var == IndexVar::Loop)
      if (auto It = N->Loop.find(T.Index); It != N->Loop.end())
        return It->second;
  }
  auto Range = rangeOf(K, T, L);
  if (!Range)
    return Range.error();
  return std::pair<int64_t, int64_t>{0, std::max<int64_t>(*Range, 0)};
}

/// One access's box. Group terms use \p Groups: each dimension's first
/// group and count (count 1 for a single group). \p N: the variables'
/// values where guards narrowed them.
Result<std::optional<ByteBox>> accessBox(const KernelFootprint &K,
                                         const Access &A,
                                         const LaunchValues &L,
                                         const GroupBox &Groups,
                                         const Narrowed *N = nullptr) {
  auto Base = A.Base.evaluate(L);
  if (!Base)
    return Base.error();
  ByteBox B;
  B.Start = *Base;
  B.Inner = static_cast<int64_t>(A.Bytes);
  for (const AccessTerm &T : A.Terms) {
    auto Coeff = T.Coeff.evaluate(L);
    if (!Coeff)
      return Coeff.error();
    if (T.Var == IndexVar::Group) {
      unsigned D = T.Index < 3 ? T.Index : 0;
      int64_t Shift;
      if (__builtin_mul_overflow(*Coeff, Groups.Lo[D], &Shift) ||
          __builtin_add_overflow(B.Start, Shift, &B.Start))
        return Failure(ErrorCode::InvalidArgument, "footprint overflows 64 bits");
      if (Status S = addDimension(B, *Coeff, Groups.Count[D]); !S)
        return S.error();
      continue;
    }
    auto Values = valuesOf(K, T, L, Groups, N);
    if (!Values)
      return Values.error();
    auto [Lo, Hi] = *Values;
    if (Hi <= Lo)
      return std::optional<ByteBox>(); // A loop that does not run.
    int64_t Shift;
    if (__builtin_mul_overflow(*Coeff, Lo, &Shift) ||
        __builtin_add_overflow(B.Start, Shift, &B.Start))
      return Failure(ErrorCode::InvalidArgument, "footprint overflows 64 bits");
    if (Status S = addDimension(B, *Coeff, Hi - Lo); !S)
      return S.error();
  }
  normalize(B);
  return std::optional<ByteBox>(std::move(B));
}

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}

bool dependsOnGroup(const IndexExpr &Value, const std::vector<AccessTerm> &Terms) {
  if (Value.dependsOnGroup())
    return true;
  for (const AccessTerm &T : Terms)
    if (T.Coeff.dependsOnGroup())
      return true;
  return false;
}

bool dependsOnGroup(const Guard &G) {
  if (dependsOnGroup(G.Value, G.Terms))
    return true;
  for (const GuardRange &R : G.InRange)
    if (dependsOnGroup(R.Value, R.Terms))
      return true;
  return false;
}

/// The least and greatest value of Value + sum(coeff * var) over a box,
/// and the terms whose variable takes more than one value there (with
/// their coefficients).
struct Span {
  int64_t Min = 0, Max = 0;
  bool Empty = false; ///< A loop that does not run: no values at all.
  std::vector<std::pair<const AccessTerm *, int64_t>> Varying;
};

/// The span, or none where it overflows 64 bits.
Result<std::optional<Span>> spanOf(const KernelFootprint &K, const IndexExpr &Value,
                                   const std::vector<AccessTerm> &Terms, const LaunchValues &L,
                                   const GroupBox &Groups, const Narrowed &N) {
  auto V = Value.evaluate(L);
  if (!V)
    return V.error();
  Span S;
  S.Min = S.Max = *V;
  bool Overflow = false;
  for (const AccessTerm &T : Terms) {
    auto Coeff = T.Coeff.evaluate(L);
    if (!Coeff)
      return Coeff.error();
    auto Values = valuesOf(K, T, L, Groups, &N);
    if (!Values)
      return Values.error();
    auto [Lo, Hi] = *Values;
    if (Hi <= Lo) {
      S.Empty = true;
      return std::optional<Span>(S);
    }
    int64_t C = *Coeff, AtLo = 0, AtHi = 0;
    Overflow |= __builtin_mul_overflow(C, Lo, &AtLo) || __builtin_mul_overflow(C, Hi - 1, &AtHi);
    Overflow |= __builtin_add_overflow(S.Min, std::min(AtLo, AtHi), &S.Min) ||
                __builtin_add_overflow(S.Max, std::max(AtLo, AtHi), &S.Max);
    if (C != 0 && Hi - Lo > 1)
      S.Varying.push_back({&T, C});
  }
  if (Overflow)
    return std::optional<Span>();
  return std::optional<Span>(std::move(S));
}

/// Whether every value \p G's arithmetic needs stays in its type's range
/// over the box: only then is the guard the kernel's condition.
Result<bool> exactHere(const KernelFootprint &K, const Guard &G, const LaunchValues &L,
                       const GroupBox &Groups, const Narrowed &N) {
  for (const GuardRange &R : G.InRange) {
    auto S = spanOf(K, R.Value, R.Terms, L, Groups, N);
    if (!S)
      return S.error();
    if (!*S)
      return false;
    if ((*S)->Empty)
      continue;
    unsigned Bits = std::min(R.Bits, 64u);
    // 64-bit unsigned values are taken below 2^63: int64 holds no more.
    int64_t Lo = R.Signed ? (Bits == 64 ? INT64_MIN : -(int64_t(1) << (Bits - 1))) : 0;
    int64_t Max = R.Signed || Bits == 64 ? (Bits == 64 ? INT64_MAX : (int64_t(1) << (Bits - 1)) - 1)
                                         : (int64_t(1) << Bits) - 1;
    if ((*S)->Min < Lo || (*S)->Max > Max)
      return false;
  }
  return true;
}

/// How many boxes one guarded access may become by taking a variable's
/// values one at a time (a triangular loop nest: `if (tx <= m)`).
constexpr int64_t MaxValueSplit = 256;

/// Adds the boxes of guarded access \p A over \p Groups: only where its
/// guards may hold. A guard that holds nowhere in the box drops it; one
/// that bounds a single varying local id or loop counter narrows that
/// variable; one that turns within a block of groups splits the block in
/// two (the boundary of a linear condition crosses few groups); one that
/// couples several local ids or loop counters (`tx + k < 15`) takes the
/// one with the fewest values a value at a time, so that the others are
/// bounded exactly, while \p Budget boxes allow. What a guard cannot decide
/// it leaves: the footprint stays an over-approximation, never an under-
/// one. \p N: the variables' values already narrowed.
Status appendGuardedBoxes(std::vector<ByteBox> &Boxes, const KernelFootprint &K,
                          const Access &A, LaunchValues L, const GroupBox &Groups,
                          unsigned Depth = 0, Narrowed N = {},
                          int64_t Budget = MaxValueSplit) {
  const bool OneGroup = Groups.Count[0] == 1 && Groups.Count[1] == 1 && Groups.Count[2] == 1;
  if (OneGroup)
    L.Group = Groups.Lo;
  std::array<bool, 3> SplitDims{false, false, false};
  // The coupled variable with the fewest values, and its values.
  const AccessTerm *SplitVar = nullptr;
  int64_t SplitCount = 0;
  for (unsigned Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (const Guard &G : A.Guards) {
      if (!OneGroup && dependsOnGroup(G))
        continue;
      auto Exact = exactHere(K, G, L, Groups, N);
      if (!Exact)
        return Exact.error();
      if (!*Exact)
        continue; // Its values may wrap here: it says nothing.
      auto S = spanOf(K, G.Value, G.Terms, L, Groups, N);
      if (!S)
        return S.error();
      if (!*S)
        continue;
      if ((*S)->Empty)
        return Status::success(); // A loop that does not run.
      int64_t Min = (*S)->Min, Max = (*S)->Max;
      const auto &Varying = (*S)->Varying;
      if (Min >= 0)
        return Status::success(); // Never holds here: no access.
      if (Max < 0)
        continue; // Holds everywhere here.
      bool GroupVaries = false;
      for (auto [T, C] : Varying)
        if (T->Var == IndexVar::Group) {
          GroupVaries = true;
          SplitDims[T->Index < 3 ? T->Index : 0] = true;
        }
      if (GroupVaries)
        continue;
      if (Varying.size() > 1) {
        for (auto [T, C] : Varying) {
          auto Values = valuesOf(K, *T, L, Groups, &N);
          if (!Values)
            return Values.error();
          int64_t Count = Values->second - Values->first;
          if (!SplitVar || Count < SplitCount) {
            SplitVar = T;
            SplitCount = Count;
          }
        }
        continue;
      }
      // C * v + Rest < 0, the rest fixed: bound v.
      auto [T, C] = Varying[0];
      auto Values = valuesOf(K, *T, L, Groups, &N);
      auto [Lo, Hi] = *Values;
      int64_t Rest = C > 0 ? Min - C * Lo : Min - C * (Hi - 1);
      int64_t NewLo = Lo, NewHi = Hi;
      if (C > 0)
        NewHi = std::min(Hi, floorDiv(-Rest - 1, C) + 1);
      else
        NewLo = std::max(Lo, floorDiv(Rest, -C) + 1);
      if (NewHi <= NewLo)
        return Status::success();
      if (NewLo != Lo || NewHi != Hi) {
        N.set(*T, NewLo, NewHi);
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  // A guard turns inside this block of groups: each half on its own.
  for (unsigned D = 0; D < 3 && !OneGroup && Depth < 96; ++D)
    if (SplitDims[D] && Groups.Count[D] > 1) {
      GroupBox First = Groups, Second = Groups;
      First.Count[D] = Groups.Count[D] / 2;
      Second.Lo[D] += First.Count[D];
      Second.Count[D] -= First.Count[D];
      if (Status S = appendGuardedBoxes(Boxes, K, A, L, First, Depth + 1, N, Budget); !S)
        return S;
      return appendGuardedBoxes(Boxes, K, A, L, Second, Depth + 1, N, Budget);
    }
  if (SplitVar) {
    // Narrowing may have changed its values since it was chosen.
    auto Values = valuesOf(K, *SplitVar, L, Groups, &N);
    if (!Values)
      return Values.error();
    auto [Lo, Hi] = *Values;
    if (Hi - Lo > 1 && Hi - Lo <= Budget) {
      for (int64_t V = Lo; V < Hi; ++V) {
        Narrowed One = N;
        One.set(*SplitVar, V, V + 1);
        if (Status S = appendGuardedBoxes(Boxes, K, A, L, Groups, Depth + 1, std::move(One),
                                          Budget / (Hi - Lo));
            !S)
          return S;
      }
      return Status::success();
    }
  }
  auto B = accessBox(K, A, L, Groups, &N);
  if (!B)
    return B.error();
  if (*B)
    Boxes.push_back(std::move(**B));
  return Status::success();
}

/// Adds one access's box for \p Groups to \p Boxes (nothing if its loop
/// does not run), narrowed by its guards.
Status appendAccessBox(std::vector<ByteBox> &Boxes, const KernelFootprint &K,
                       const Access &A, const LaunchValues &L,
                       const GroupBox &Groups) {
  if (!A.Guards.empty())
    return appendGuardedBoxes(Boxes, K, A, L, Groups);
  auto B = accessBox(K, A, L, Groups);
  if (!B)
    return B.error();
  if (*B)
    Boxes.push_back(std::move(**B));
  return Status::success();
}

bool loopTripDependsOnGroup(const KernelFootprint &K, const Access &A) {
  for (const AccessTerm &T : A.Terms)
    if (T.Var == IndexVar::Loop && T.Index < K.LoopTrips.size() &&
        K.LoopTrips[T.Index].dependsOnGroup())
      return true;
  return false;
}

bool affineInGroups(const KernelFootprint &K, const Access &A) {
  if (A.Base.dependsOnGroup() || loopTripDependsOnGroup(K, A))
    return false;
  for (const AccessTerm &T : A.Terms)
    if (T.Coeff.dependsOnGroup())
      return false;
  return true;
}

Failure wholeBuffer(const ArgFootprint &Arg) {
  return Failure(ErrorCode::InvalidArgument,
                 "argument " + std::to_string(Arg.ArgIndex) +
                     " has no affine footprint: " + Arg.WholeReason);
}

} // namespace

std::string_view contiguityName(Contiguity C) {
  switch (C) {
  case Contiguity::Always:
    return "always";
  case Contiguity::WhenYZGroupsFlat:
    return "when_local_size_yz_is_1";
  case Contiguity::No:
    return "no";
  }
  return "?";
}

std::optional<Contiguity> contiguityFromName(std::string_view Name) {
  for (Contiguity C : {Contiguity::Always, Contiguity::WhenYZGroupsFlat,
                       Contiguity::No})
    if (contiguityName(C) == Name)
      return C;
  return std::nullopt;
}

const ArgFootprint *KernelFootprint::find(unsigned ArgIndex) const {
  for (const ArgFootprint &A : Args)
    if (A.ArgIndex == ArgIndex)
      return &A;
  return nullptr;
}

std::array<int64_t, 3> unflattenGroup(int64_t Flat,
                                      const std::array<int64_t, 3> &NG) {
  return {Flat % NG[0], (Flat / NG[0]) % NG[1], Flat / (NG[0] * NG[1])};
}

void IntervalSet::add(int64_t Lo, int64_t Hi) {
  if (Lo >= Hi)
    return;
  // First interval that ends at or after Lo: it may touch the new one.
  auto It = std::lower_bound(
      Ranges.begin(), Ranges.end(), Lo,
      [](const std::pair<int64_t, int64_t> &R, int64_t V) { return R.second < V; });
  auto End = It;
  while (End != Ranges.end() && End->first <= Hi) {
    Lo = std::min(Lo, End->first);
    Hi = std::max(Hi, End->second);
    ++End;
  }
  It = Ranges.erase(It, End);
  Ranges.insert(It, {Lo, Hi});
}

void IntervalSet::add(const ByteBox &Box) {
  if (Box.Inner <= 0)
    return;
  for (const auto &D : Box.Dims)
    if (D.second <= 0)
      return;
  // A dimension whose stride is at most the row's length joins its rows
  // into one longer row (a row of groups each writing the next bytes):
  // folded first, smallest stride first, so that a launch's box of 10^5
  // groups is one row, not 10^5 to sort.
  int64_t Inner = Box.Inner;
  std::vector<std::pair<int64_t, int64_t>> Dims = Box.Dims;
  std::sort(Dims.begin(), Dims.end());
  size_t Folded = 0;
  while (Folded < Dims.size() && Dims[Folded].first <= Inner) {
    Inner += (Dims[Folded].second - 1) * Dims[Folded].first;
    ++Folded;
  }
  Dims.erase(Dims.begin(), Dims.begin() + Folded);
  // The other rows, collected and merged in one pass, not inserted one by
  // one (each insertion moves the tail of the vector; a transpose's box
  // has thousands of rows). With the strides increasing they come out in
  // order, unless rows of one dimension reach past the next's stride.
  std::vector<std::pair<int64_t, int64_t>> Rows;
  std::vector<int64_t> Index(Dims.size(), 0);
  for (;;) {
    int64_t Lo = Box.Start;
    for (size_t J = 0; J < Dims.size(); ++J)
      Lo += Index[J] * Dims[J].first;
    Rows.push_back({Lo, Lo + Inner});
    size_t J = 0;
    while (J < Index.size() && ++Index[J] == Dims[J].second)
      Index[J++] = 0;
    if (J == Index.size())
      break;
  }
  if (!std::is_sorted(Rows.begin(), Rows.end()))
    std::sort(Rows.begin(), Rows.end());
  merge(Rows);
}

void IntervalSet::add(const IntervalSet &Other) { merge(Other.Ranges); }

void IntervalSet::merge(const std::vector<std::pair<int64_t, int64_t>> &Sorted) {
  std::vector<std::pair<int64_t, int64_t>> Out;
  Out.reserve(Ranges.size() + Sorted.size());
  auto Push = [&](std::pair<int64_t, int64_t> R) {
    if (R.first >= R.second)
      return;
    // Overlapping or touching the last one: extend it.
    if (!Out.empty() && R.first <= Out.back().second)
      Out.back().second = std::max(Out.back().second, R.second);
    else
      Out.push_back(R);
  };
  size_t I = 0, J = 0;
  while (I < Ranges.size() || J < Sorted.size())
    if (J == Sorted.size() || (I < Ranges.size() && Ranges[I].first <= Sorted[J].first))
      Push(Ranges[I++]);
    else
      Push(Sorted[J++]);
  Ranges = std::move(Out);
}

int64_t IntervalSet::bytes() const {
  int64_t N = 0;
  for (const auto &[Lo, Hi] : Ranges)
    N += Hi - Lo;
  return N;
}

void IntervalSet::clamp(int64_t Lo, int64_t Hi) {
  std::vector<std::pair<int64_t, int64_t>> Out;
  for (auto [L, H] : Ranges) {
    L = std::max(L, Lo);
    H = std::min(H, Hi);
    if (L < H)
      Out.push_back({L, H});
  }
  Ranges = std::move(Out);
}

void IntervalSet::subtract(const IntervalSet &Other) {
  // Both sorted: one pass, cutting each range at the other's that meet it.
  std::vector<std::pair<int64_t, int64_t>> Out;
  size_t J = 0;
  const auto &O = Other.Ranges;
  for (auto [Lo, Hi] : Ranges) {
    while (J < O.size() && O[J].second <= Lo)
      ++J;
    for (size_t K = J; K < O.size() && O[K].first < Hi; ++K) {
      if (O[K].first > Lo)
        Out.push_back({Lo, O[K].first});
      Lo = std::max(Lo, O[K].second);
    }
    if (Lo < Hi)
      Out.push_back({Lo, Hi});
  }
  Ranges = std::move(Out);
}

IntervalSet IntervalSet::intersect(const IntervalSet &A, const IntervalSet &B) {
  IntervalSet Out;
  size_t I = 0, J = 0;
  while (I < A.Ranges.size() && J < B.Ranges.size()) {
    int64_t Lo = std::max(A.Ranges[I].first, B.Ranges[J].first);
    int64_t Hi = std::min(A.Ranges[I].second, B.Ranges[J].second);
    if (Lo < Hi)
      Out.Ranges.push_back({Lo, Hi});
    if (A.Ranges[I].second < B.Ranges[J].second)
      ++I;
    else
      ++J;
  }
  return Out;
}

bool IntervalSet::contains(const IntervalSet &Other) const {
  IntervalSet Left = Other;
  Left.subtract(*this);
  return Left.empty();
}

Result<std::vector<ByteBox>> groupFootprint(const KernelFootprint &K,
                                            const ArgFootprint &Arg,
                                            const LaunchValues &Launch) {
  if (Arg.Kind == FootprintKind::Whole)
    return wholeBuffer(Arg);
  GroupBox One;
  One.Lo = Launch.Group;
  std::vector<ByteBox> Boxes;
  for (const Access &A : Arg.Accesses)
    if (Status S = appendAccessBox(Boxes, K, A, Launch, One); !S)
      return S.error();
  return Boxes;
}

Result<std::vector<ByteBox>> rangeFootprint(const KernelFootprint &K,
                                            const ArgFootprint &Arg,
                                            LaunchValues Launch, int64_t First,
                                            int64_t Count) {
  if (Arg.Kind == FootprintKind::Whole)
    return wholeBuffer(Arg);
  for (int64_t N : Launch.NumGroups)
    if (N <= 0)
      return Failure(ErrorCode::InvalidArgument, "a launch needs at least one group per dimension");
  int64_t Total = Launch.NumGroups[0] * Launch.NumGroups[1] * Launch.NumGroups[2];
  if (First < 0 || Count < 0 || First + Count > Total)
    return Failure(ErrorCode::InvalidArgument,
                   "group range [" + std::to_string(First) + ", " +
                       std::to_string(First + Count) + ") is outside the " +
                       std::to_string(Total) + " groups of the launch");

  std::vector<ByteBox> Boxes;
  for (const GroupBox &G : groupBoxes(First, Count, Launch.NumGroups)) {
    for (const Access &A : Arg.Accesses) {
      if (affineInGroups(K, A)) {
        if (Status S = appendAccessBox(Boxes, K, A, Launch, G); !S)
          return S.error();
        continue;
      }
      // Not affine in the group ids: one group at a time.
      for (int64_t Z = 0; Z < G.Count[2]; ++Z)
        for (int64_t Y = 0; Y < G.Count[1]; ++Y)
          for (int64_t X = 0; X < G.Count[0]; ++X) {
            GroupBox One;
            One.Lo = {G.Lo[0] + X, G.Lo[1] + Y, G.Lo[2] + Z};
            Launch.Group = One.Lo;
            if (Status S = appendAccessBox(Boxes, K, A, Launch, One); !S)
              return S.error();
          }
    }
  }
  return Boxes;
}

} // namespace skmd
