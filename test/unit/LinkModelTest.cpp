//===- LinkModelTest.cpp - The host's capacity for staged copies ----------===//
#include "session/Devices.h"
#include "common/ForwardingDevice.h"
#include "model/LinkModel.h"
#include "model/Profiler.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <unistd.h>

using namespace skmd;

namespace {

std::string freshPath(const char *Name) {
  std::string Path = ::testing::TempDir() + "skmd-link-" + std::to_string(getpid()) + "-" + Name;
  std::remove(Path.c_str());
  return Path;
}

/// Forwards to a real device; its copies fail from the \p FailAt-th on.
class FailingCopies : public test::ForwardingDevice {
public:
  FailingCopies(Device &Real, unsigned FailAt) : ForwardingDevice(Real), Left(FailAt) {}
  void release(DeviceMemory M) override {
    ++Released;
    Real.release(M);
  }
  Status copyIn(DeviceMemory Dst, uint64_t At, const void *Src, uint64_t Bytes) override {
    if (Left == 0)
      return Failure(ErrorCode::DeviceFailed, "copy failed (test)");
    --Left;
    return Real.copyIn(Dst, At, Src, Bytes);
  }
  unsigned Released = 0;

private:
  unsigned Left;
};

TEST(LinkModel, StagingCapacityIsMeasuredOnceAndKept) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  std::vector<Device *> Staged = {Opened->Devices[1].get(), Opened->Devices[2].get()};
  auto Db = ProfileDatabase::open(freshPath("capacity.sqlite"));
  ASSERT_TRUE(Db.ok()) << Db.error().message();

  std::vector<std::string> Said;
  auto Progress = [&](const std::string &Line) { Said.push_back(Line); };
  auto First = stagingCapacity(Staged, **Db, Progress);
  ASSERT_TRUE(First.ok()) << First.error().message();
  // Between one device at a time and both as fast as alone.
  EXPECT_GE(First->In, 1.0);
  EXPECT_LE(First->In, 2.0);
  EXPECT_GE(First->Out, 1.0);
  EXPECT_LE(First->Out, 2.0);
  ASSERT_EQ(Said.size(), 1u);
  EXPECT_EQ(Said[0],
            "measuring the host's staged copies for discrete0, discrete1, alone and at once");

  // Kept: the second asks nothing of the devices.
  auto Again = stagingCapacity(Staged, **Db, Progress);
  ASSERT_TRUE(Again.ok()) << Again.error().message();
  EXPECT_EQ(Again->In, First->In);
  EXPECT_EQ(Again->Out, First->Out);
  EXPECT_EQ(Said.size(), 1u);

  // One device shares with nobody: nothing to measure.
  auto One = stagingCapacity({Staged[0]}, **Db, Progress);
  ASSERT_TRUE(One.ok());
  EXPECT_EQ(One->In, 1.0);
  EXPECT_EQ(Said.size(), 1u);
}

TEST(LinkModel, AFailedStagingMeasurementRecordsNothing) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  // The second device fails at its fourth copy, in the middle of the
  // measurement.
  FailingCopies Failing(*Opened->Devices[2], 3);
  std::vector<Device *> Staged = {Opened->Devices[1].get(), &Failing};
  auto Db = ProfileDatabase::open(freshPath("failed.sqlite"));
  ASSERT_TRUE(Db.ok()) << Db.error().message();
  auto C = stagingCapacity(Staged, **Db);
  ASSERT_FALSE(C.ok());
  EXPECT_NE(C.error().message().find("copy failed (test)"), std::string::npos)
      << C.error().message();
  EXPECT_EQ(Failing.Released, 1u) << "its memory is given back";
  auto Row = (*Db)->link("staging:" + deviceKey(Staged[0]->info()) + ":" +
                             deviceKey(Failing.info()),
                         "in-one-by-one");
  ASSERT_TRUE(Row.ok());
  EXPECT_FALSE(Row->has_value());
}

} // namespace

namespace {

/// A HostDiscrete device that says it has a copy engine and page-locked
/// memory (plain memory here), counting its copies.
class EngineDevice : public test::ForwardingDevice {
public:
  explicit EngineDevice(Device &Real) : ForwardingDevice(Real) { Info.CopyEngines = 1; }
  void *allocPinnedHost(uint64_t Bytes) override { return std::aligned_alloc(4096, Bytes); }
  void freePinnedHost(void *P) override { std::free(P); }
  Status copyIn(DeviceMemory Dst, uint64_t At, const void *Src, uint64_t Bytes) override {
    ++Copies;
    return Real.copyIn(Dst, At, Src, Bytes);
  }
  unsigned Copies = 0;
};

} // namespace

// Copies in and out at once, alone and beside the host's cores copying
// memory: measured once per device, kept, with the latency of the copy
// alone; a device without copy engines overlaps nothing (its costs alone).
TEST(LinkModel, OverlappedCopiesAreMeasuredOnceAndKept) {
  auto Opened = openDevices("cpu,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  auto Db = ProfileDatabase::open(freshPath("overlapped.sqlite"));
  ASSERT_TRUE(Db.ok()) << Db.error().message();
  LinkModel Alone;
  Alone.InPinned = {0.01, 10};
  Alone.OutPinned = {0.02, 20};

  auto None = overlappedLink(*Opened->Devices[1], Alone, 1, **Db);
  ASSERT_TRUE(None.ok()) << None.error().message();
  EXPECT_EQ(None->InBeside.GBps, 10);
  EXPECT_EQ(None->OutBeside.GBps, 20);

  EngineDevice Engine(*Opened->Devices[1]);
  auto First = overlappedLink(Engine, Alone, 1, **Db);
  ASSERT_TRUE(First.ok()) << First.error().message();
  EXPECT_GT(Engine.Copies, 0u);
  EXPECT_EQ(First->In.LatencyMs, 0.01);
  EXPECT_EQ(First->OutBeside.LatencyMs, 0.02);
  for (const LinkCost &C : {First->In, First->Out, First->InBeside, First->OutBeside})
    EXPECT_GT(C.GBps, 0);
  unsigned Before = Engine.Copies;
  auto Again = overlappedLink(Engine, Alone, 1, **Db);
  ASSERT_TRUE(Again.ok());
  EXPECT_EQ(Engine.Copies, Before);
  EXPECT_EQ(Again->InBeside.GBps, First->InBeside.GBps);
}

TEST(LinkModel, PeerCopiesMoveTheBytesAndAreMeasuredOnce) {
  auto Opened = openDevices("cpu,discrete,discrete");
  ASSERT_TRUE(Opened.ok()) << Opened.error().message();
  Device &A = *Opened->Devices[1], &B = *Opened->Devices[2];
  // A HostDiscrete device's own copy between allocations, and the
  // default's through host memory (a forwarding device keeps it), each
  // over several bounce chunks and at an offset.
  test::ForwardingDevice ViaHost(B);
  for (Device *To : {&B, static_cast<Device *>(&ViaHost)}) {
    constexpr uint64_t Bytes = (40ull << 20) + 7;
    std::vector<uint8_t> In(Bytes), Out(Bytes, 0);
    for (uint64_t I = 0; I < Bytes; ++I)
      In[I] = uint8_t(I * 31 + 1);
    auto Src = A.allocate(Bytes + 64), Dst = To->allocate(Bytes + 64);
    ASSERT_TRUE(Src.ok() && Dst.ok());
    ASSERT_TRUE(A.copyIn(*Src, 64, In.data(), Bytes).ok());
    ASSERT_TRUE(A.finishCopies().ok());
    Status S = To->copyPeer(*Dst, 32, A, *Src, 64, Bytes);
    ASSERT_TRUE(S.ok()) << S.error().message();
    ASSERT_TRUE(To->copyOut(Out.data(), *Dst, 32, Bytes).ok());
    EXPECT_EQ(In, Out);
    A.release(*Src);
    To->release(*Dst);
  }
  auto Db = ProfileDatabase::open(freshPath("peer.sqlite"));
  ASSERT_TRUE(Db.ok());
  auto First = peerLink(B, A, **Db);
  ASSERT_TRUE(First.ok()) << First.error().message();
  EXPECT_GT(First->GBps, 0);
  auto Again = peerLink(B, A, **Db);
  ASSERT_TRUE(Again.ok());
  EXPECT_EQ(Again->GBps, First->GBps);
  EXPECT_EQ(Again->LatencyMs, First->LatencyMs);
}
