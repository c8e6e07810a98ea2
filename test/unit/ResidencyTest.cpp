//===- ResidencyTest.cpp - Buffers that stay on devices between launches --===//
//
// Launches on buffer objects (buffers/BufferObject.h) with the CPU and a
// HostDiscrete device: what moves on a second launch, a CPU piece reading
// what a device wrote, host reads of stale ranges, device failures with
// bytes only the device held, and eviction under memory pressure. Every
// result is checked against the values computed on the host.
//
//===----------------------------------------------------------------------===//
#include "buffers/BufferObject.h"
#include "common/ForwardingDevice.h"
#include "common/KernelHarness.h"
#include "launch/Launcher.h"
#include "session/Devices.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

using namespace skmd;

namespace {

using Coherence = BufferObject::Coherence;

IntervalSet bytes(int64_t Lo, int64_t Hi) {
  IntervalSet S;
  S.add(Lo, Hi);
  return S;
}

/// Forwards to a real device, holding at most Budget bytes (0: no limit),
/// and counts its live allocations.
class BudgetDevice : public test::ForwardingDevice {
public:
  using ForwardingDevice::ForwardingDevice;
  Result<DeviceMemory> allocate(uint64_t Bytes) override {
    if (Budget && Held + Bytes > Budget)
      return Failure(ErrorCode::OutOfMemory, "over the test's budget");
    auto M = Real.allocate(Bytes);
    if (M.ok()) {
      ++Live;
      Held += Bytes;
    }
    return M;
  }
  void release(DeviceMemory M) override {
    --Live;
    Held -= M.Bytes;
    Real.release(M);
  }
  uint64_t Budget = 0, Held = 0;
  int Live = 0;
};

struct Fixture {
  Fixture() {
    auto O = openDevices("cpu,discrete");
    EXPECT_TRUE(O.ok()) << O.error().message();
    Opened.emplace(std::move(*O));
    Dev = std::make_unique<BudgetDevice>(*Opened->Devices[1]);
    Run = std::make_unique<Launcher>(
        std::vector<Device *>{Opened->Devices[0].get(), Dev.get()}, *Opened->Cpu);
  }
  std::optional<OpenedDevices> Opened;
  std::unique_ptr<BudgetDevice> Dev;
  std::unique_ptr<Launcher> Run;
};

/// A device piece's bytes in and out, and what came to the host first.
uint64_t moved(const LaunchReport &R) {
  uint64_t N = R.BytesToHost;
  for (const PieceReport &P : R.Pieces)
    N += P.BytesIn + P.BytesOut;
  return N;
}

// The same launch twice on unchanged resident buffers moves nothing the
// second time; a host write of 4 bytes moves those 4 bytes; the device's
// results come back only when the host asks, and only once.
TEST(Residency, ASecondLaunchMovesOnlyWhatChanged) {
  Fixture F;
  test::VectorAddLaunch V(64);
  ASSERT_TRUE(V.Error.empty()) << V.Error;
  const uint64_t Bytes = V.A.size() * 4, Half = Bytes / 2;
  BufferObject A(F.Run->residency(), V.A.data(), Bytes, Coherence::Resident);
  BufferObject B(F.Run->residency(), V.B.data(), Bytes, Coherence::Resident);
  BufferObject C(F.Run->residency(), V.C.data(), Bytes, Coherence::Resident);
  V.Args[0].Object = &A;
  V.Args[1].Object = &B;
  V.Args[2].Object = &C;
  std::vector<Piece> Plan = {{0, 0, 32}, {1, 32, 32}};

  LaunchReport R;
  ASSERT_TRUE(F.Run->run(V.Kernel, V.Args, V.Range, Plan, R).ok());
  EXPECT_EQ(R.Pieces[1].BytesIn, 2 * Half); // a and b; c is written whole
  EXPECT_EQ(R.Pieces[1].BytesOut, 0u);      // c stays on the device
  EXPECT_EQ(C.hostValid(), bytes(0, int64_t(Half)));

  ASSERT_TRUE(F.Run->run(V.Kernel, V.Args, V.Range, Plan, R).ok());
  EXPECT_EQ(moved(R), 0u);

  // One element of a changes on the host, in the device's half.
  const size_t At = V.A.size() - 10;
  V.A[At] = 40.0f;
  A.hostWrote(bytes(int64_t(At * 4), int64_t(At * 4 + 4)));
  ASSERT_TRUE(F.Run->run(V.Kernel, V.Args, V.Range, Plan, R).ok());
  EXPECT_EQ(R.Pieces[1].BytesIn, 4u);
  EXPECT_EQ(moved(R), 4u);

  // The host reads c: the device's half comes back, once.
  auto Back = C.bringToHost(C.all());
  ASSERT_TRUE(Back.ok()) << Back.error().message();
  EXPECT_EQ(*Back, Half);
  EXPECT_EQ(*C.bringToHost(C.all()), 0u);
  for (size_t I = 0; I < V.C.size(); ++I)
    ASSERT_EQ(V.C[I], I == At ? 42.0f : 3.0f) << I;
}

/// blur3 of corpus/stencil.cl: out[i] = (in[i-1] + in[i] + in[i+1]) / 3
/// for i in [1, N + 1).
struct Blur {
  explicit Blur(uint32_t Groups) {
    auto Loaded = Bundle::fromFile(test::corpusDir() + "/stencil.skmd");
    EXPECT_TRUE(Loaded.ok()) << Loaded.error().message();
    Source.emplace(std::move(*Loaded));
    Kernel.Source = &*Source;
    Kernel.Info = Source->metadata().findKernel("blur3");
    N = 64 * Groups;
    std::mt19937 Rng(3);
    X = test::randomFloats(N + 2, Rng, -1, 1);
    Y.assign(N + 2, 0.0f);
    Range.NumGroups = {Groups, 1, 1};
    Range.LocalSize = {64, 1, 1};
  }
  std::vector<HostArg> args(std::vector<float> &In, BufferObject &I, std::vector<float> &Out,
                            BufferObject &O) {
    std::vector<HostArg> A(2);
    A[0] = {HostArg::Buffer, In.data(), In.size() * 4, &I, {}, 0};
    A[1] = {HostArg::Buffer, Out.data(), Out.size() * 4, &O, {}, 0};
    return A;
  }
  static void step(const std::vector<float> &In, std::vector<float> &Out) {
    for (size_t I = 1; I + 1 < In.size(); ++I)
      Out[I] = (In[I - 1] + In[I] + In[I + 1]) / 3.0f;
  }
  std::optional<Bundle> Source;
  LoadedKernel Kernel;
  uint32_t N = 0;
  std::vector<float> X, Y;
  NDRange Range;
};

// A stencil ping-pongs between two resident buffers, split between the CPU
// and the device: each launch after the first moves only the halo (the CPU
// reads the device's edge element, the device the CPU's), and the result is
// the host's, step for step.
TEST(Residency, ACpuPieceReadsWhatTheDeviceWrote) {
  Fixture F;
  Blur S(64);
  ASSERT_TRUE(S.Kernel.Info);
  std::vector<float> RefX = S.X, RefY = S.Y;
  BufferObject X(F.Run->residency(), S.X.data(), S.X.size() * 4, Coherence::Resident);
  BufferObject Y(F.Run->residency(), S.Y.data(), S.Y.size() * 4, Coherence::Resident);
  std::vector<Piece> Plan = {{0, 0, 32}, {1, 32, 32}};
  for (int Step = 0; Step < 10; ++Step) {
    bool Even = Step % 2 == 0;
    auto Args = Even ? S.args(S.X, X, S.Y, Y) : S.args(S.Y, Y, S.X, X);
    LaunchReport R;
    Status St = F.Run->run(S.Kernel, Args, S.Range, Plan, R);
    ASSERT_TRUE(St.ok()) << St.error().message();
    Even ? Blur::step(RefX, RefY) : Blur::step(RefY, RefX);
    if (Step >= 2) {
      EXPECT_EQ(R.BytesToHost, 4u) << "step " << Step;
      EXPECT_EQ(R.Pieces[1].BytesIn, 4u) << "step " << Step;
      EXPECT_EQ(R.Pieces[1].BytesOut, 0u) << "step " << Step;
    }
  }
  // The device alone, then the CPU alone: all it wrote comes over.
  LaunchReport R;
  ASSERT_TRUE(F.Run->run(S.Kernel, S.args(S.X, X, S.Y, Y), S.Range, {{1, 0, 64}}, R).ok());
  Blur::step(RefX, RefY);
  ASSERT_TRUE(F.Run->run(S.Kernel, S.args(S.Y, Y, S.X, X), S.Range, {{0, 0, 64}}, R).ok());
  Blur::step(RefY, RefX);
  EXPECT_EQ(R.BytesToHost, uint64_t(S.N) * 4);
  ASSERT_TRUE(X.bringToHost(X.all()).ok());
  ASSERT_TRUE(Y.bringToHost(Y.all()).ok());
  for (size_t I = 0; I < S.X.size(); ++I) {
    ASSERT_EQ(S.X[I], RefX[I]) << I;
    ASSERT_EQ(S.Y[I], RefY[I]) << I;
  }
}

// A loop over a resident matrix's columns on a device: a launch brings the
// span its column crosses in one copy, so the launches after copy only what
// lies beyond it (one element each), not a row apiece; the sums are the
// host's.
TEST(Residency, AColumnReadBringsItsSpanOnce) {
  Fixture F;
  auto Loaded = Bundle::fromFile(test::corpusDir() + "/columns.skmd");
  ASSERT_TRUE(Loaded.ok()) << Loaded.error().message();
  LoadedKernel K;
  K.Source = &*Loaded;
  K.Info = Loaded->metadata().findKernel("add_column");
  ASSERT_TRUE(K.Info);
  const int32_t N = 256;
  std::mt19937 Rng(7);
  std::vector<float> M = test::randomFloats(size_t(N) * N, Rng, -1, 1), Y(N, 0.0f);
  std::vector<double> Ref(N, 0.0);
  BufferObject Mb(F.Run->residency(), M.data(), M.size() * 4, Coherence::Resident);
  BufferObject Yb(F.Run->residency(), Y.data(), Y.size() * 4, Coherence::Resident);
  NDRange Range;
  Range.NumGroups = {N / 64, 1, 1};
  Range.LocalSize = {64, 1, 1};
  for (int32_t J = 0; J < 8; ++J) {
    std::vector<HostArg> Args(4);
    Args[0] = {HostArg::Buffer, M.data(), M.size() * 4, &Mb, {}, 0};
    Args[1] = {HostArg::Buffer, Y.data(), Y.size() * 4, &Yb, {}, 0};
    Args[2].K = Args[3].K = HostArg::Scalar;
    Args[2].Value.assign(4, 0);
    std::memcpy(Args[2].Value.data(), &N, 4);
    Args[3].Value.assign(4, 0);
    std::memcpy(Args[3].Value.data(), &J, 4);
    LaunchReport R;
    Status S = F.Run->run(K, Args, Range, {{1, 0, uint64_t(N / 64)}}, R);
    ASSERT_TRUE(S.ok()) << S.error().message();
    for (int32_t I = 0; I < N; ++I)
      Ref[size_t(I)] += M[size_t(I) * N + size_t(J)];
    // The second column's span is not within the first's: the copy grows
    // to the whole matrix, once.
    if (J < 2)
      EXPECT_GE(R.Pieces[0].BytesIn, uint64_t(N - 1) * N * 4) << "the span, at once";
    else
      EXPECT_EQ(R.Pieces[0].BytesIn, 4u) << "column " << J << ": its last element alone";
  }
  ASSERT_TRUE(Yb.bringToHost(Yb.all()).ok());
  for (int32_t I = 0; I < N; ++I)
    ASSERT_NEAR(Y[size_t(I)], Ref[size_t(I)], 1e-4) << I;
}

// A device that fails while it holds a buffer's only copy: what its
// kernel did not write comes back to the host, its copies are released,
// and its groups re-run on the CPU from there.
TEST(Residency, AFailedDeviceGivesBackWhatOnlyItHeld) {
  for (const char *Step : {"copy-in", "kernel", "copy-out"}) {
    SCOPED_TRACE(Step);
    Fixture F;
    Blur S(64);
    std::vector<float> RefX = S.X, RefY = S.Y;
    BufferObject X(F.Run->residency(), S.X.data(), S.X.size() * 4, Coherence::Resident);
    BufferObject Y(F.Run->residency(), S.Y.data(), S.Y.size() * 4, Coherence::Resident);
    LaunchReport R;
    // Y's bytes are the device's alone after this.
    ASSERT_TRUE(F.Run->run(S.Kernel, S.args(S.X, X, S.Y, Y), S.Range, {{1, 0, 64}}, R).ok());
    Blur::step(RefX, RefY);
    ASSERT_FALSE(Y.hostValid().contains(bytes(4, 8)));
    setenv("SKMD_INJECT_FAULT", (std::string("discrete0:") + Step).c_str(), 1);
    Status St = F.Run->run(S.Kernel, S.args(S.Y, Y, S.X, X), S.Range,
                           {{0, 0, 32}, {1, 32, 32}}, R);
    unsetenv("SKMD_INJECT_FAULT");
    Blur::step(RefY, RefX);
    ASSERT_FALSE(St.ok());
    EXPECT_NE(St.error().message().find("every output is complete"), std::string::npos)
        << St.error().message();
    EXPECT_EQ(F.Dev->Live, 0);
    ASSERT_TRUE(X.bringToHost(X.all()).ok());
    ASSERT_TRUE(Y.bringToHost(Y.all()).ok());
    for (size_t I = 0; I < S.X.size(); ++I) {
      ASSERT_EQ(S.X[I], RefX[I]) << I;
      ASSERT_EQ(S.Y[I], RefY[I]) << I;
    }
  }
}

// With room for four buffers on the device, a launch over three new ones
// evicts the least recently used copies, bringing the bytes only they held
// to the host first; both launches' results are whole.
TEST(Residency, PressureEvictsTheLeastRecentlyUsed) {
  Fixture F;
  test::VectorAddLaunch First(64), Second(64);
  ASSERT_TRUE(First.Error.empty()) << First.Error;
  const uint64_t Bytes = First.A.size() * 4;
  F.Dev->Budget = 4 * Bytes + 4 * 128;
  std::vector<std::unique_ptr<BufferObject>> Objects;
  for (test::VectorAddLaunch *V : {&First, &Second})
    for (unsigned I = 0; I < 3; ++I) {
      Objects.push_back(std::make_unique<BufferObject>(
          F.Run->residency(), V->Args[I].Data, Bytes, Coherence::Resident));
      V->Args[I].Object = Objects.back().get();
    }
  LaunchReport R;
  ASSERT_TRUE(F.Run->run(First.Kernel, First.Args, First.Range, {{1, 0, 64}}, R).ok());
  Status St = F.Run->run(Second.Kernel, Second.Args, Second.Range, {{1, 0, 64}}, R);
  ASSERT_TRUE(St.ok()) << St.error().message();
  EXPECT_LE(F.Dev->Held, F.Dev->Budget);
  EXPECT_EQ(F.Run->residency().deviceBytes(*F.Dev), F.Dev->Held);
  for (auto &B : Objects)
    ASSERT_TRUE(B->bringToHost(B->all()).ok());
  for (test::VectorAddLaunch *V : {&First, &Second})
    for (float Z : V->C)
      ASSERT_EQ(Z, 3.0f);
}

// The user's own memory (HostCoherent) is read whole by each launch and
// gets every result back when it returns, device copies kept as
// allocations: the second launch allocates nothing.
TEST(Residency, HostCoherentBuffersKeepTheirAllocations) {
  Fixture F;
  test::VectorAddLaunch V(64);
  const uint64_t Bytes = V.A.size() * 4, Half = Bytes / 2;
  std::vector<std::unique_ptr<BufferObject>> Objects;
  for (unsigned I = 0; I < 3; ++I) {
    Objects.push_back(std::make_unique<BufferObject>(F.Run->residency(), V.Args[I].Data,
                                                     Bytes, Coherence::HostCoherent));
    V.Args[I].Object = Objects.back().get();
  }
  LaunchReport R;
  ASSERT_TRUE(F.Run->run(V.Kernel, V.Args, V.Range, {{0, 0, 32}, {1, 32, 32}}, R).ok());
  int Allocated = F.Dev->Live;
  EXPECT_EQ(Allocated, 3);
  for (float &A : V.A)
    A = 5.0f; // the user writes between launches
  ASSERT_TRUE(F.Run->run(V.Kernel, V.Args, V.Range, {{0, 0, 32}, {1, 32, 32}}, R).ok());
  EXPECT_EQ(F.Dev->Live, Allocated);
  EXPECT_EQ(R.Pieces[1].BytesIn, 2 * Half);
  EXPECT_EQ(R.Pieces[1].BytesOut, Half);
  for (float Z : V.C)
    ASSERT_EQ(Z, 7.0f);
  Objects.clear();
  EXPECT_EQ(F.Dev->Live, 0);
}

} // namespace
