//===- TransfersTest.cpp - Which bytes each piece moves -------------------===//
#include "buffers/Transfers.h"

#include <gtest/gtest.h>

#include <functional>

using namespace skmd;

namespace {

using Sym = IndexExpr::SymbolKind;

/// 4-byte elements at 4 * (group * local_size + local_id), as
/// `out[get_global_id(0)]` with no offset.
Access elementPerItem(bool Writes, bool Guarded = false) {
  Access A;
  A.Reads = !Writes;
  A.Writes = Writes;
  A.Bytes = 4;
  A.Guarded = Guarded;
  A.Terms.push_back({IndexVar::Group, 0,
                     IndexExpr::apply(IndexExpr::Op::Mul,
                                      {IndexExpr::constant(4),
                                       IndexExpr::symbol(Sym::LocalSize, 0)})});
  A.Terms.push_back({IndexVar::LocalId, 0, IndexExpr::constant(4)});
  return A;
}

/// copy(in, out): arg 0 read, arg 1 written, one element per item.
KernelInfo copyKernel(bool GuardedStore) {
  KernelInfo K;
  K.Name = "copy";
  for (unsigned I = 0; I < 2; ++I) {
    KernelArg A;
    A.Name = I ? "out" : "in";
    A.TypeName = "float*";
    A.Kind = ArgKind::GlobalBuffer;
    A.Space = AddressSpace::Global;
    A.Size = 8;
    A.ElementSize = 4;
    A.Read = I == 0;
    A.Written = I == 1;
    K.Args.push_back(A);
    ArgFootprint F;
    F.ArgIndex = I;
    F.Contiguous = Contiguity::Always;
    F.Accesses.push_back(elementPerItem(I == 1, I == 1 && GuardedStore));
    K.Footprint.Args.push_back(F);
  }
  return K;
}

std::vector<HostArg> buffers(uint64_t Bytes) {
  std::vector<HostArg> Args(2);
  static std::vector<uint8_t> Memory(1 << 20);
  for (HostArg &A : Args) {
    A.K = HostArg::Buffer;
    A.Data = Memory.data();
    A.Bytes = Bytes;
  }
  return Args;
}

NDRange range1D(uint64_t Groups, uint64_t Local) {
  NDRange R;
  R.NumGroups = {Groups, 1, 1};
  R.LocalSize = {Local, 1, 1};
  return R;
}

TEST(Transfers, RowsAtAConstantPitchAreOneRect) {
  IntervalSet S;
  for (int Row = 0; Row < 5; ++Row)
    S.add(1000 + Row * 256, 1000 + Row * 256 + 64);
  S.add(3000, 3010);
  std::vector<Rect> R = toRects(S, 1000);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].Offset, 0u);
  EXPECT_EQ(R[0].RowBytes, 64u);
  EXPECT_EQ(R[0].Pitch, 256u);
  EXPECT_EQ(R[0].Rows, 5u);
  EXPECT_EQ(R[1].Offset, 2000u);
  EXPECT_EQ(R[1].RowBytes, 10u);
  EXPECT_EQ(R[1].Rows, 1u);
}

TEST(Transfers, APieceMovesWhatItReadsAndWrites) {
  KernelInfo K = copyKernel(false);
  // 8 groups of 16 items; the second device gets groups [3, 8).
  std::vector<Piece> Pieces = {{0, 0, 3}, {1, 3, 5}};
  auto Moves = planMoves(K, buffers(8 * 16 * 4), range1D(8, 16), Pieces,
                         {true, false}, /*HasMerge=*/true);
  ASSERT_TRUE(Moves.ok()) << Moves.error().message();
  EXPECT_TRUE((*Moves)[0].empty()); // On host memory: nothing moves.
  ASSERT_EQ((*Moves)[1].size(), 2u);
  const BufferMove &In = (*Moves)[1][0], &Out = (*Moves)[1][1];
  IntervalSet Range;
  Range.add(3 * 64, 8 * 64);
  EXPECT_EQ(In.In, Range);
  EXPECT_TRUE(In.Out.intervals().empty());
  // Every byte of out is stored, unguarded: nothing of it goes in.
  EXPECT_TRUE(Out.In.intervals().empty());
  EXPECT_EQ(Out.Out, Range);
  EXPECT_FALSE(Out.Merge);
  EXPECT_EQ(Out.Lo, 3 * 64);
  EXPECT_EQ(Out.Hi, 8 * 64);
}

// The cache gives what planMoves gives, for each launch it has seen, and
// tells launches apart by their pieces and sizes.
TEST(Transfers, CachedMovesAreThoseOfTheirLaunch) {
  KernelInfo K = copyKernel(false);
  MovesCache Cache;
  auto Same = [](const std::vector<std::vector<BufferMove>> &A,
                 const std::vector<std::vector<BufferMove>> &B) {
    if (A.size() != B.size())
      return false;
    for (size_t P = 0; P < A.size(); ++P) {
      if (A[P].size() != B[P].size())
        return false;
      for (size_t M = 0; M < A[P].size(); ++M)
        if (!(A[P][M].In == B[P][M].In) || !(A[P][M].Out == B[P][M].Out) ||
            A[P][M].Lo != B[P][M].Lo || A[P][M].Hi != B[P][M].Hi ||
            A[P][M].Merge != B[P][M].Merge)
          return false;
    }
    return true;
  };
  // More launches than the cache holds, then each again.
  for (int Round = 0; Round < 2; ++Round)
    for (uint64_t Split = 1; Split < 12; ++Split) {
      std::vector<Piece> Pieces = {{0, 0, Split}, {1, Split, 12 - Split}};
      auto Want = planMoves(K, buffers(12 * 16 * 4), range1D(12, 16), Pieces, {true, false}, true);
      auto Got = Cache.plan(K, "source", buffers(12 * 16 * 4), range1D(12, 16), Pieces,
                            {true, false}, true);
      ASSERT_TRUE(Want.ok() && Got.ok());
      EXPECT_TRUE(Same(*Want, *Got)) << "split at " << Split << ", round " << Round;
      // Twice in a row: served from the cache.
      auto Again = Cache.plan(K, "source", buffers(12 * 16 * 4), range1D(12, 16), Pieces,
                              {true, false}, true);
      ASSERT_TRUE(Again.ok());
      EXPECT_TRUE(Same(*Want, *Again));
    }
  // A smaller buffer is another launch: the guard-free store now reaches
  // past it, and the bytes are clamped.
  std::vector<Piece> Pieces = {{0, 0, 4}, {1, 4, 8}};
  auto Small = Cache.plan(K, "source", buffers(12 * 16 * 4 - 64), range1D(12, 16), Pieces,
                          {true, false}, true);
  auto Want = planMoves(K, buffers(12 * 16 * 4 - 64), range1D(12, 16), Pieces, {true, false},
                        true);
  ASSERT_TRUE(Small.ok() && Want.ok());
  EXPECT_TRUE(Same(*Want, *Small));
}

// Any input of planMoves that changes is another launch: the cache plans it
// again. (A key without the global offset made a second launch at another
// offset reuse the first one's moves: a quarter of the output was lost.)
TEST(Transfers, AnyInputChangeMissesTheCache) {
  KernelInfo K = copyKernel(false), Other = copyKernel(false);
  std::vector<HostArg> Args = buffers(12 * 16 * 4);
  Args.push_back(HostArg());
  Args.back().K = HostArg::Scalar;
  Args.back().Value = {1, 0, 0, 0};
  Args.push_back(HostArg());
  Args.back().K = HostArg::Local;
  Args.back().LocalBytes = 64;
  NDRange R = range1D(12, 16);
  std::vector<Piece> Pieces = {{0, 0, 5}, {1, 5, 7}};
  std::vector<bool> Shares = {true, false};
  struct Input {
    const KernelInfo *K;
    std::string Id;
    std::vector<HostArg> Args;
    NDRange R;
    std::vector<Piece> Pieces;
    std::vector<bool> Shares;
    bool Merge;
  };
  const Input Base = {&K, "source", Args, R, Pieces, Shares, true};
  std::vector<std::pair<std::string, std::function<void(Input &)>>> Changes = {
      {"kernel", [&](Input &I) { I.K = &Other; }},
      {"kernel id", [](Input &I) { I.Id = "other source"; }},
      {"merge", [](Input &I) { I.Merge = false; }},
      {"work dim", [](Input &I) { I.R.WorkDim = 2; }},
      {"offset x", [](Input &I) { I.R.GlobalOffset[0] = 1024; }},
      {"offset y", [](Input &I) { I.R.GlobalOffset[1] = 1; }},
      {"offset z", [](Input &I) { I.R.GlobalOffset[2] = 1; }},
      {"groups x", [](Input &I) { I.R.NumGroups[0] = 13; }},
      {"groups y", [](Input &I) { I.R.NumGroups[1] = 2; }},
      {"groups z", [](Input &I) { I.R.NumGroups[2] = 2; }},
      {"local x", [](Input &I) { I.R.LocalSize[0] = 8; }},
      {"local y", [](Input &I) { I.R.LocalSize[1] = 2; }},
      {"local z", [](Input &I) { I.R.LocalSize[2] = 2; }},
      {"buffer size", [](Input &I) { I.Args[0].Bytes -= 4; }},
      {"argument kind", [](Input &I) { I.Args[2].K = HostArg::Local; }},
      {"scalar value", [](Input &I) { I.Args[2].Value[0] = 2; }},
      {"scalar size", [](Input &I) { I.Args[2].Value.push_back(0); }},
      {"local bytes", [](Input &I) { I.Args[3].LocalBytes = 128; }},
      {"piece device", [](Input &I) { I.Pieces[1].Device = 2; }},
      {"piece first", [](Input &I) { I.Pieces[1].First = 6; }},
      {"piece count", [](Input &I) { I.Pieces[1].Count = 6; }},
      {"pieces", [](Input &I) { I.Pieces.push_back({2, 12, 0}); I.Shares.push_back(false); }},
      {"shares host memory", [](Input &I) { I.Shares[1] = true; }},
  };
  for (const auto &[What, Change] : Changes) {
    MovesCache Cache;
    auto Plan = [&](const Input &I) {
      return Cache.plan(*I.K, I.Id, I.Args, I.R, I.Pieces, I.Shares, I.Merge).ok();
    };
    Plan(Base);
    Plan(Base);
    ASSERT_EQ(Cache.misses(), 1u) << "the same launch twice is planned once";
    Input Changed = Base;
    Change(Changed);
    Plan(Changed);
    EXPECT_EQ(Cache.misses(), 2u) << "a launch that differs in its " << What
                                  << " reused another launch's moves";
  }
}

// A device's copy of a combined buffer applies to the user's with the
// atomics' own operation, at their width and signedness.
TEST(Transfers, CombinedCopiesApplyTheirOperation) {
  auto Combine = [](std::vector<int32_t> User, std::vector<int32_t> Dev, CombineOp Op) {
    combineInto(User.data(), Dev.data(), User.size() * 4, {0, Op, 4});
    return User;
  };
  using V = std::vector<int32_t>;
  EXPECT_EQ(Combine({1, -2, INT32_MAX}, {3, 4, 1}, CombineOp::Add), (V{4, 2, INT32_MIN}));
  EXPECT_EQ(Combine({5, -1, 7}, {3, 4, -9}, CombineOp::Min), (V{3, -1, -9}));
  EXPECT_EQ(Combine({5, -1, 7}, {3, 4, -9}, CombineOp::Max), (V{5, 4, 7}));
  EXPECT_EQ(Combine({5, -1, 7}, {3, 4, -9}, CombineOp::UMin), (V{3, 4, 7}));
  EXPECT_EQ(Combine({5, -1, 7}, {3, 4, -9}, CombineOp::UMax), (V{5, -1, -9}));
  EXPECT_EQ(Combine({0b1100, 0, -1}, {0b1010, 1, 0}, CombineOp::And), (V{0b1000, 0, 0}));
  EXPECT_EQ(Combine({0b1100, 0, -1}, {0b1010, 1, 0}, CombineOp::Or), (V{0b1110, 1, -1}));
  EXPECT_EQ(Combine({0b1100, 0, -1}, {0b1010, 1, 0}, CombineOp::Xor), (V{0b0110, 1, -1}));
  std::vector<int64_t> Wide = {INT64_MAX, -5}, Dev = {1, 7};
  combineInto(Wide.data(), Dev.data(), 16, {0, CombineOp::Add, 8});
  EXPECT_EQ(Wide, (std::vector<int64_t>{INT64_MIN, 2}));
  EXPECT_TRUE(startsFromIdentity(CombineOp::Add) && startsFromIdentity(CombineOp::Xor));
  EXPECT_FALSE(startsFromIdentity(CombineOp::Min) || startsFromIdentity(CombineOp::And) ||
               startsFromIdentity(CombineOp::Assign));
  // A flag set to 1: the device's copy began as the buffer, so holding 1
  // means set (or already 1); anything else leaves the host's byte.
  std::vector<uint8_t> Flags = {7, 0, 1, 7}, Set = {1, 0, 1, 7};
  combineInto(Flags.data(), Set.data(), 4, {0, CombineOp::Assign, 1, 1});
  EXPECT_EQ(Flags, (std::vector<uint8_t>{1, 0, 1, 7}));
  std::vector<uint16_t> Halves = {3, 3}, Halved = {3, 0xfffe};
  combineInto(Halves.data(), Halved.data(), 4, {0, CombineOp::Assign, 2, 0xfffe});
  EXPECT_EQ(Halves, (std::vector<uint16_t>{3, 0xfffe}));
}

TEST(Transfers, AGuardedStoreBringsItsBytesIn) {
  KernelInfo K = copyKernel(true);
  // The buffers end inside the last group: the moves are clamped.
  auto Moves = planMoves(K, buffers(8 * 16 * 4 - 20), range1D(8, 16),
                         {{0, 0, 4}, {1, 4, 4}}, {true, false}, true);
  ASSERT_TRUE(Moves.ok()) << Moves.error().message();
  const BufferMove &Out = (*Moves)[1][1];
  IntervalSet Range;
  Range.add(4 * 64, 8 * 64 - 20);
  EXPECT_EQ(Out.In, Range);
  EXPECT_EQ(Out.Out, Range);
}

// A store bounded by its own index (`if (i < n) out[i] = ...`) writes
// every byte of its footprint below the bound: nothing of out goes in, and
// only the bytes below the bound come back.
TEST(Transfers, ABoundedStoreNeedsNoOldBytes) {
  KernelInfo K = copyKernel(true);
  const int64_t Bound = 8 * 16 * 4 - 20; // five elements short of the range
  K.Footprint.Args[1].Accesses[0].Below = IndexExpr::constant(Bound);
  auto Moves = planMoves(K, buffers(8 * 16 * 4), range1D(8, 16), {{0, 0, 3}, {1, 3, 5}},
                         {true, false}, true);
  ASSERT_TRUE(Moves.ok()) << Moves.error().message();
  const BufferMove &Out = (*Moves)[1][1];
  EXPECT_TRUE(Out.In.intervals().empty());
  IntervalSet Written;
  Written.add(3 * 64, Bound);
  EXPECT_EQ(Out.Out, Written);
  // Without the bound the same store brings its bytes in.
  K.Footprint.Args[1].Accesses[0].Below.reset();
  auto Unbounded = planMoves(K, buffers(8 * 16 * 4), range1D(8, 16), {{0, 0, 3}, {1, 3, 5}},
                             {true, false}, true);
  ASSERT_TRUE(Unbounded.ok());
  EXPECT_FALSE((*Unbounded)[1][1].In.intervals().empty());
}

TEST(Transfers, OverlappingWritesAreMergedOrRefused) {
  KernelInfo K = copyKernel(false);
  // Every group writes element 0 of out too.
  Access First;
  First.Writes = true;
  First.Bytes = 4;
  K.Footprint.Args[1].Accesses.push_back(First);
  std::vector<Piece> Pieces = {{0, 0, 4}, {1, 4, 4}};
  auto Moves = planMoves(K, buffers(512), range1D(8, 16), Pieces, {true, false}, true);
  ASSERT_TRUE(Moves.ok()) << Moves.error().message();
  EXPECT_TRUE((*Moves)[1][1].Merge);
  EXPECT_TRUE((*Moves)[1][1].Out.intervals().empty());
  auto Refused = planMoves(K, buffers(512), range1D(8, 16), Pieces, {true, false}, false);
  ASSERT_FALSE(Refused.ok());
  EXPECT_NE(Refused.error().message().find("argument 1 ('out')"), std::string::npos)
      << Refused.error().message();
}

TEST(Transfers, BadArgumentsAreNamed) {
  KernelInfo K = copyKernel(false);
  std::vector<HostArg> Args = buffers(512);
  Args[1].K = HostArg::Unset;
  Status S = checkArgs(K, Args);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("argument 1 ('out') of type float* is not set"),
            std::string::npos)
      << S.error().message();
  Args.pop_back();
  S = checkArgs(K, Args);
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("takes 2 arguments, 1 given"), std::string::npos);
  S = checkBufferSizes(K, buffers(100), range1D(8, 16));
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("accesses bytes [0, 512) but the buffer has 100 bytes"),
            std::string::npos)
      << S.error().message();
}

// The size check is cached per launch shape: a shape that passed passes
// again at once, and a smaller buffer in the same shape is still refused.
TEST(Transfers, CachedSizeChecksStillRefuseSmallerBuffers) {
  KernelInfo K = copyKernel(false);
  MovesCache Cache;
  EXPECT_TRUE(Cache.checkSizes(K, "id", buffers(512), range1D(8, 16)).ok());
  EXPECT_TRUE(Cache.checkSizes(K, "id", buffers(512), range1D(8, 16)).ok());
  Status S = Cache.checkSizes(K, "id", buffers(100), range1D(8, 16));
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.error().message().find("but the buffer has 100 bytes"), std::string::npos)
      << S.error().message();
  EXPECT_FALSE(Cache.checkSizes(K, "id", buffers(512), range1D(16, 16)).ok());
}

} // namespace
