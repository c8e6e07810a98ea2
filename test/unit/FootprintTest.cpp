//===- FootprintTest.cpp - Evaluating footprints ---------------------------===//
#include "footprint/Footprint.h"

#include <gtest/gtest.h>

#include <random>

using namespace skmd;

namespace {

using Op = IndexExpr::Op;
using Sym = IndexExpr::SymbolKind;

IndexExpr C(int64_t V) { return IndexExpr::constant(V); }
IndexExpr S(Sym K, unsigned I) { return IndexExpr::symbol(K, I); }
IndexExpr Mul(std::vector<IndexExpr> E) { return IndexExpr::apply(Op::Mul, std::move(E)); }

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

Intervals intervalsOf(const Result<std::vector<ByteBox>> &Boxes) {
  EXPECT_TRUE(Boxes.ok()) << (Boxes.ok() ? "" : Boxes.error().message());
  IntervalSet Set;
  if (Boxes.ok())
    for (const ByteBox &B : *Boxes)
      Set.add(B);
  return Set.intervals();
}

/// vector add: 4 bytes at 4 * (group.0 * local_size.0 + local_id.0).
KernelFootprint vectorAdd() {
  Access A;
  A.Writes = true;
  A.Bytes = 4;
  A.Terms = {{IndexVar::LocalId, 0, C(4)},
             {IndexVar::Group, 0, Mul({C(4), S(Sym::LocalSize, 0)})}};
  ArgFootprint F;
  F.Accesses = {A};
  KernelFootprint K;
  K.Args = {F};
  return K;
}

/// C of a 16x16-tiled N x N matmul: a 16x16 box per group.
KernelFootprint matmulC() {
  Access A;
  A.Writes = true;
  A.Bytes = 4;
  IndexExpr N = S(Sym::Arg, 3);
  A.Terms = {{IndexVar::LocalId, 0, C(4)},
             {IndexVar::LocalId, 1, Mul({C(4), N})},
             {IndexVar::Group, 0, C(64)},
             {IndexVar::Group, 1, Mul({C(64), N})}};
  ArgFootprint F;
  F.ArgIndex = 2;
  F.Accesses = {A};
  KernelFootprint K;
  K.Args = {F};
  return K;
}

LaunchValues launch(std::array<int64_t, 3> Local, std::array<int64_t, 3> Groups) {
  LaunchValues L;
  L.LocalSize = Local;
  L.NumGroups = Groups;
  return L;
}

TEST(IntervalSet, MergesTouchingAndOverlapping) {
  IntervalSet S;
  S.add(10, 20);
  S.add(30, 40);
  S.add(20, 25); // touches the first
  EXPECT_EQ(S.intervals(), (Intervals{{10, 25}, {30, 40}}));
  S.add(5, 35);
  EXPECT_EQ(S.intervals(), (Intervals{{5, 40}}));
  S.add(50, 50); // empty
  EXPECT_EQ(S.bytes(), 35);
  S.clamp(0, 12);
  EXPECT_EQ(S.intervals(), (Intervals{{5, 12}}));
}

// Subtract and intersect against a byte-by-byte model, on random sets.
TEST(IntervalSet, SubtractAndIntersectAgreeWithBytes) {
  std::mt19937 Rng(7);
  auto Random = [&](std::vector<bool> &Bits) {
    IntervalSet S;
    for (int I = 0; I < 6; ++I) {
      int64_t Lo = Rng() % 100, Len = Rng() % 20;
      S.add(Lo, Lo + Len);
      for (int64_t B = Lo; B < Lo + Len && B < 128; ++B)
        Bits[B] = true;
    }
    return S;
  };
  auto FromBits = [](const std::vector<bool> &Bits) {
    IntervalSet S;
    for (int64_t B = 0; B < int64_t(Bits.size()); ++B)
      if (Bits[B])
        S.add(B, B + 1);
    return S;
  };
  for (int Trial = 0; Trial < 200; ++Trial) {
    std::vector<bool> A(128), B(128), Minus(128), Both(128);
    IntervalSet SA = Random(A), SB = Random(B);
    for (int I = 0; I < 128; ++I) {
      Minus[I] = A[I] && !B[I];
      Both[I] = A[I] && B[I];
    }
    IntervalSet D = SA;
    D.subtract(SB);
    EXPECT_EQ(D, FromBits(Minus));
    EXPECT_EQ(IntervalSet::intersect(SA, SB), FromBits(Both));
    EXPECT_TRUE(SA.contains(IntervalSet::intersect(SA, SB)));
    EXPECT_EQ(SA.contains(SB), FromBits(Both) == SB);
  }
}

// A box's rows, folded where a stride is at most the row (rows that
// touch) and enumerated otherwise, give the same bytes as row by row.
TEST(IntervalSet, BoxesAddTheirRows) {
  auto RowByRow = [](const ByteBox &B) {
    IntervalSet S;
    for (int64_t I = 0; I < B.Dims[0].second; ++I)
      for (int64_t J = 0; J < (B.Dims.size() > 1 ? B.Dims[1].second : 1); ++J) {
        int64_t Lo = B.Start + I * B.Dims[0].first +
                     (B.Dims.size() > 1 ? J * B.Dims[1].first : 0);
        S.add(Lo, Lo + B.Inner);
      }
    return S;
  };
  ByteBox Touching{100, 16, {{16, 1000}}}; // a row of groups, 16 bytes each
  ByteBox Gaps{0, 8, {{1040, 50}, {16, 4}}}; // 2-D: 4 rows of 8 in 64, 50 times
  ByteBox Overlapping{4, 12, {{8, 30}}};
  for (const ByteBox &B : {Touching, Gaps, Overlapping}) {
    IntervalSet S;
    S.add(B);
    EXPECT_EQ(S, RowByRow(B));
  }
  IntervalSet One;
  One.add(Touching);
  EXPECT_EQ(One.intervals(), (Intervals{{100, 100 + 16 * 1000}}));
}

TEST(Footprint, VectorAddGroupsAreConsecutiveIntervals) {
  KernelFootprint K = vectorAdd();
  LaunchValues L = launch({64, 1, 1}, {10, 1, 1});
  L.Group = {3, 0, 0};
  EXPECT_EQ(intervalsOf(groupFootprint(K, K.Args[0], L)), (Intervals{{768, 1024}}));
  // Groups 2..6 are one interval, computed as one box, not five.
  auto Range = rangeFootprint(K, K.Args[0], L, 2, 5);
  ASSERT_TRUE(Range.ok());
  EXPECT_EQ(Range->size(), 1u);
  EXPECT_EQ(intervalsOf(Range), (Intervals{{512, 1792}}));
}

TEST(Footprint, MatmulOutputIsABoxOfRows) {
  KernelFootprint K = matmulC();
  LaunchValues L = launch({16, 16, 1}, {4, 4, 1}); // N = 64
  L.Args = {std::nullopt, std::nullopt, std::nullopt, 64};
  L.Group = {1, 2, 0};
  // Rows 32..47, columns 16..31: 16 runs of 64 bytes, 256 bytes apart.
  auto Boxes = groupFootprint(K, K.Args[0], L);
  ASSERT_TRUE(Boxes.ok());
  ASSERT_EQ(Boxes->size(), 1u);
  const ByteBox &B = (*Boxes)[0];
  EXPECT_EQ(B.Start, 32 * 256 + 64);
  EXPECT_EQ(B.Inner, 64);
  ASSERT_EQ(B.Dims.size(), 1u);
  EXPECT_EQ(B.Dims[0], (std::pair<int64_t, int64_t>{256, 16}));
  // A whole row of groups is a band of whole rows: one interval.
  EXPECT_EQ(intervalsOf(rangeFootprint(K, K.Args[0], L, 4, 4)),
            (Intervals{{16 * 256, 32 * 256}}));
}

TEST(Footprint, LoopsThatDoNotRunTouchNothing) {
  KernelFootprint K;
  K.LoopTrips = {IndexExpr::apply(Op::Add, {S(Sym::Arg, 0), C(-1)})};
  Access A;
  A.Reads = true;
  A.Bytes = 4;
  A.Terms = {{IndexVar::Loop, 0, C(4)}};
  ArgFootprint F;
  F.ArgIndex = 1;
  F.Accesses = {A};
  K.Args = {F};
  LaunchValues L = launch({1, 1, 1}, {1, 1, 1});
  L.Args = {0};
  EXPECT_TRUE(intervalsOf(groupFootprint(K, K.Args[0], L)).empty());
  L.Args = {5};
  EXPECT_EQ(intervalsOf(groupFootprint(K, K.Args[0], L)), (Intervals{{0, 16}}));
}

TEST(Footprint, NegativeStridesAreFlipped) {
  KernelFootprint K;
  Access A;
  A.Reads = true;
  A.Bytes = 4;
  A.Base = C(1000);
  A.Terms = {{IndexVar::LocalId, 0, C(-4)}};
  ArgFootprint F;
  F.Accesses = {A};
  K.Args = {F};
  LaunchValues L = launch({8, 1, 1}, {1, 1, 1});
  EXPECT_EQ(intervalsOf(groupFootprint(K, K.Args[0], L)), (Intervals{{972, 1004}}));
}

TEST(Footprint, ErrorsInsteadOfGuesses) {
  KernelFootprint K = matmulC();
  LaunchValues L = launch({16, 16, 1}, {4, 4, 1});
  // The value of N is needed.
  auto R = groupFootprint(K, K.Args[0], L);
  ASSERT_FALSE(R.ok());
  EXPECT_NE(R.error().message().find("integer argument 3"), std::string::npos);
  // A range outside the launch.
  L.Args = {std::nullopt, std::nullopt, std::nullopt, 64};
  auto Out = rangeFootprint(K, K.Args[0], L, 10, 7);
  ASSERT_FALSE(Out.ok());
  EXPECT_NE(Out.error().message().find("outside the 16 groups"), std::string::npos);
  // An unknown footprint is never evaluated.
  ArgFootprint Whole;
  Whole.Kind = FootprintKind::Whole;
  Whole.WholeReason = "an index depends on a value loaded from memory";
  auto W = rangeFootprint(K, Whole, L, 0, 1);
  ASSERT_FALSE(W.ok());
  EXPECT_NE(W.error().message().find("loaded from memory"), std::string::npos);
  // Overflow is reported.
  KernelFootprint Big = vectorAdd();
  LaunchValues Huge = launch({int64_t(1) << 40, 1, 1}, {int64_t(1) << 30, 1, 1});
  Huge.Group = {(int64_t(1) << 30) - 1, 0, 0};
  EXPECT_FALSE(groupFootprint(Big, Big.Args[0], Huge).ok());
}

TEST(IndexExpr, JsonRoundTripAndEvaluation) {
  IndexExpr E = IndexExpr::apply(
      Op::Add, {C(1), IndexExpr::apply(Op::UDiv, {IndexExpr::apply(Op::Add, {C(-1), S(Sym::Arg, 3)}), C(16)})});
  EXPECT_EQ(E.toJson(), R"(["+",1,["udiv",["+",-1,"arg.3"],16]])");
  auto Back = parseIndexExpr(E.toJson());
  ASSERT_TRUE(Back.ok());
  LaunchValues L;
  L.Args = {std::nullopt, std::nullopt, std::nullopt, 64};
  EXPECT_EQ(*Back->evaluate(L), 4);
  EXPECT_FALSE(parseIndexExpr(R"(["pow",2,3])").ok());
  EXPECT_FALSE(parseIndexExpr(R"("local_size.7")").ok());
  EXPECT_FALSE(parseIndexExpr(R"("bogus.1")").ok());
  EXPECT_FALSE(parseIndexExpr("[]").ok());
  auto DivZero = parseIndexExpr(R"(["udiv",1,"arg.0"])");
  ASSERT_TRUE(DivZero.ok());
  LaunchValues Z;
  Z.Args = {0};
  EXPECT_FALSE(DivZero->evaluate(Z).ok());
}

} // namespace

// Guards narrow a footprint and never lose a byte: on random 2-D launches,
// accesses and guards (constant coefficients on local ids, groups and a
// loop), the bytes of every work-item and iteration that satisfies all
// guards are inside the footprint of every range of groups that holds it;
// and where each guard bounds one variable per group, the footprint is
// exactly those bytes.
TEST(Footprint, GuardsNarrowWithoutLosingABytes) {
  std::mt19937 Rng(11);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  };
  for (int Trial = 0; Trial < 400; ++Trial) {
    LaunchValues L = launch({Pick(1, 6), Pick(1, 5), 1}, {Pick(1, 7), Pick(1, 6), 1});
    int64_t Trip = Pick(0, 4);
    KernelFootprint K;
    K.LoopTrips = {C(Trip)};
    Access A;
    A.Writes = true;
    A.Bytes = uint64_t(Pick(1, 4));
    A.Guarded = true;
    // The variables: local_id.0, local_id.1, group.0, group.1, loop.0.
    const AccessTerm Vars[] = {{IndexVar::LocalId, 0, C(0)}, {IndexVar::LocalId, 1, C(0)},
                               {IndexVar::Group, 0, C(0)},   {IndexVar::Group, 1, C(0)},
                               {IndexVar::Loop, 0, C(0)}};
    int64_t Offset[5], Base = Pick(0, 50);
    A.Base = C(Base);
    for (int V = 0; V < 5; ++V) {
      // The access sits in the loop: its counter is always a term.
      Offset[V] = V != 4 && Pick(0, 3) == 0 ? 0 : Pick(1, 40);
      if (Offset[V]) {
        AccessTerm T = Vars[V];
        T.Coeff = C(Offset[V]);
        A.Terms.push_back(T);
      }
    }
    // Guards: gid-like combinations of a local id and its group, or one
    // variable, or a local id and the loop counter coupled (a triangular
    // nest: taken a value at a time), against a bound.
    struct G {
      int64_t Value;
      int64_t Coeff[5];
    };
    std::vector<G> Guards;
    for (int N = int(Pick(1, 3)); N-- > 0;) {
      G One{Pick(-30, 30), {0, 0, 0, 0, 0}};
      int Shape = int(Pick(0, 3));
      int64_t Sign = Pick(0, 1) ? 1 : -1;
      if (Shape == 0 || Shape == 1) { // +-(group.d * local_size.d + local_id.d)
        int D = Shape;
        One.Coeff[D] = Sign;
        One.Coeff[2 + D] = Sign * L.LocalSize[D];
      } else if (Shape == 2) { // one variable
        One.Coeff[Pick(0, 4)] = Sign * Pick(1, 3);
      } else { // two non-group variables
        One.Coeff[0] = Sign;
        One.Coeff[4] = Pick(1, 2);
      }
      Guards.push_back(One);
      Guard X;
      X.Value = C(One.Value);
      for (int V = 0; V < 5; ++V)
        if (One.Coeff[V]) {
          AccessTerm T = Vars[V];
          T.Coeff = C(One.Coeff[V]);
          X.Terms.push_back(T);
        }
      A.Guards.push_back(X);
    }
    ArgFootprint F;
    F.Accesses = {A};
    K.Args = {F};

    int64_t Total = L.NumGroups[0] * L.NumGroups[1];
    int64_t First = Pick(0, Total - 1), Count = Pick(1, Total - First);
    IntervalSet Want;
    for (int64_t Flat = First; Flat < First + Count; ++Flat) {
      auto Grp = unflattenGroup(Flat, L.NumGroups);
      for (int64_t Y = 0; Y < L.LocalSize[1]; ++Y)
        for (int64_t X = 0; X < L.LocalSize[0]; ++X)
          for (int64_t I = 0; I < Trip; ++I) {
            int64_t Val[5] = {X, Y, Grp[0], Grp[1], I};
            bool Holds = true;
            for (const G &One : Guards) {
              int64_t S = One.Value;
              for (int V = 0; V < 5; ++V)
                S += One.Coeff[V] * Val[V];
              Holds &= S < 0;
            }
            if (!Holds)
              continue;
            int64_t At = Base;
            for (int V = 0; V < 5; ++V)
              At += Offset[V] * Val[V];
            Want.add(At, At + int64_t(A.Bytes));
          }
    }
    auto Boxes = rangeFootprint(K, K.Args[0], L, First, Count);
    ASSERT_TRUE(Boxes.ok()) << Boxes.error().message();
    IntervalSet Got;
    for (const ByteBox &B : *Boxes)
      Got.add(B);
    IntervalSet Both = Got;
    Both.add(Want);
    ASSERT_EQ(Both, Got) << "trial " << Trial << ": a byte the guards allow is missing";
    EXPECT_EQ(Got, Want) << "trial " << Trial;
  }
}

// A guard whose compared value wraps in the kernel's type says nothing
// there: `uint x = start + i; if (x < limit) out[i] = 1` with x passing
// 2^32 inside the range writes at both ends, though start + i (which does
// not wrap) is below limit nowhere.
TEST(Footprint, AGuardOnAWrappingValueDoesNotNarrow) {
  const int64_t Start = 0xFFFFFFE0, Limit = 0xFFFFFFF0;
  Access A;
  A.Writes = true;
  A.Bytes = 4;
  A.Guarded = true;
  A.Terms = {{IndexVar::LocalId, 0, C(4)}};
  Guard G;
  G.Value = C(Start - Limit);
  G.Terms = {{IndexVar::LocalId, 0, C(1)}};
  GuardRange X;
  X.Value = C(Start);
  X.Terms = {{IndexVar::LocalId, 0, C(1)}};
  X.Bits = 32;
  X.Signed = false;
  G.InRange = {X};
  A.Guards = {G};
  ArgFootprint F;
  F.Accesses = {A};
  KernelFootprint K;
  K.Args = {F};
  // 64 items: x reaches 2^32 + 31, so the guard is not exact: all bytes.
  EXPECT_EQ(intervalsOf(rangeFootprint(K, K.Args[0], launch({64, 1, 1}, {1, 1, 1}), 0, 1)),
            (Intervals{{0, 256}}));
  // 16 items: x stays below 2^32, and the guard holds for the first 16 only.
  K.Args[0].Accesses[0].Guards[0].Value = C(Start - Limit + 8);
  EXPECT_EQ(intervalsOf(rangeFootprint(K, K.Args[0], launch({16, 1, 1}, {1, 1, 1}), 0, 1)),
            (Intervals{{0, 32}}));
}
