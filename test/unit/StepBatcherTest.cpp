//===- StepBatcherTest.cpp - skmd-server's gathering of clients' steps ----===//
//
// Clients (threads here) announce steps and issue their stages through a
// StepBatcher; the order the stages pass in is recorded and checked
// against PS-1 and PS-2, and the bounds on every wait against clients
// that stop short or leave.
//
//===----------------------------------------------------------------------===//
#include "StepBatcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>

using namespace skmd;
using namespace std::chrono_literals;
using Stage = StepBatcher::Stage;

namespace {

struct Event {
  int Client;
  Stage S;
};

/// Records the stages as they pass.
struct Log {
  std::mutex Lock;
  std::vector<Event> Events;
  void add(int Client, Stage S) {
    std::lock_guard<std::mutex> G(Lock);
    Events.push_back({Client, S});
  }
};

/// Collects the batches a batcher reports, from whichever thread.
struct Reported {
  std::mutex Lock;
  std::vector<StepBatchReport> Reports;
  std::function<void(const StepBatchReport &)> sink() {
    return [this](const StepBatchReport &R) {
      std::lock_guard<std::mutex> G(Lock);
      Reports.push_back(R);
    };
  }
};

wire::Step step(double In = 0, double Kernel = 0, double Out = 0, uint64_t Groups = 0) {
  wire::Step S;
  S.Runs = 1;
  S.Groups = Groups;
  S.InMs = In;
  S.KernelMs = Kernel;
  S.OutMs = Out;
  return S;
}

/// Client \p I's stages of one step: two copies in, a kernel, a copy out,
/// and the Mark that ends it.
void issueStep(StepBatcher &B, Log &L, const int &I, std::optional<uint64_t> *Token = nullptr) {
  const void *Me = &I;
  for (Stage S : {Stage::In, Stage::In, Stage::Kernel, Stage::Out}) {
    B.enter(Me, S);
    L.add(I, S);
    std::this_thread::sleep_for(1ms); // the others may pass meanwhile
  }
  auto T = B.marked(Me);
  if (Token)
    *Token = T;
}

GatherOptions options(GatherOptions::Mode M, std::chrono::microseconds Wait,
                      std::optional<SharingOrder> O) {
  GatherOptions G;
  G.Gather = M;
  G.Wait = Wait;
  G.Order = O;
  return G;
}

const int Ids[4] = {0, 1, 2, 3};

} // namespace

TEST(StepBatcher, PS1IssuesEveryCopyInThenEveryKernelThenEveryCopyOut) {
  StepBatcher B(options(GatherOptions::Window, 100ms, SharingOrder::PS1), 0);
  Log L;
  std::vector<std::thread> Clients;
  for (int I = 0; I < 3; ++I)
    B.begin(&Ids[I], step());
  for (int I = 0; I < 3; ++I)
    Clients.emplace_back([&, I] { issueStep(B, L, Ids[I]); });
  for (auto &T : Clients)
    T.join();
  ASSERT_EQ(L.Events.size(), 12u);
  // Six copies in, three kernels, three copies out, whoever's.
  for (size_t E = 0; E < L.Events.size(); ++E)
    EXPECT_EQ(L.Events[E].S, E < 6 ? Stage::In : E < 9 ? Stage::Kernel : Stage::Out) << E;
  EXPECT_EQ(B.batches(), 1u);
}

TEST(StepBatcher, PS2IssuesEachClientsStepInTurn) {
  StepBatcher B(options(GatherOptions::Window, 100ms, SharingOrder::PS2), 0);
  Log L;
  for (int I = 0; I < 3; ++I)
    B.begin(&Ids[I], step());
  std::vector<std::thread> Clients;
  // Started last first: the order is the steps' arrival, not the threads'.
  for (int I = 2; I >= 0; --I)
    Clients.emplace_back([&, I] { issueStep(B, L, Ids[I]); });
  for (auto &T : Clients)
    T.join();
  ASSERT_EQ(L.Events.size(), 12u);
  for (size_t E = 0; E < L.Events.size(); ++E)
    EXPECT_EQ(L.Events[E].Client, int(E / 4)) << E;
}

/// Client \p I's \p Steps steps, each run at once (stepRan), then it
/// leaves, as an SPMD process's launches of one kernel.
void client(StepBatcher &B, Log &L, int I, int Steps) {
  for (int K = 0; K < Steps; ++K) {
    B.begin(&Ids[I], step());
    std::optional<uint64_t> Token;
    issueStep(B, L, Ids[I], &Token);
    ASSERT_TRUE(Token);
    B.stepRan(*Token);
  }
  B.leave(&Ids[I]);
}

TEST(StepBatcher, ABarrierGathersEveryActiveClientsStep) {
  // A wait far longer than the test: only the barrier closes batches.
  Reported Got;
  std::vector<StepBatchReport> &Reports = Got.Reports;
  StepBatcher B(options(GatherOptions::Barrier, 20s, SharingOrder::PS1), 0, Got.sink());
  Log L;
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::thread> Clients;
  for (int I = 0; I < 3; ++I)
    Clients.emplace_back([&, I] { client(B, L, I, 5); });
  for (auto &T : Clients)
    T.join();
  EXPECT_LT(std::chrono::steady_clock::now() - Start, 10s);
  ASSERT_EQ(L.Events.size(), 60u);
  // The first steps come as the clients start; then every batch holds
  // all three, in lockstep, but where one ran ahead at the start.
  unsigned Full = 0, Steps = 0;
  for (const StepBatchReport &R : Reports) {
    Full += R.Steps == 3;
    Steps += R.Steps;
    EXPECT_GE(R.MeasuredMs, 0);
  }
  EXPECT_EQ(Steps, 15u);
  EXPECT_GE(Full, 3u);
  EXPECT_EQ(B.batches(), Reports.size());
}

TEST(StepBatcher, ABarrierWaitsForTheFirstStepOfClientsThatJoined) {
  // Two processes that loaded their kernel: the first one's step waits for
  // the second's, then both go in one batch.
  StepBatcher B(options(GatherOptions::Barrier, 20s, SharingOrder::PS1), 0);
  Log L;
  B.join(&Ids[0]);
  B.join(&Ids[1]);
  auto Start = std::chrono::steady_clock::now();
  std::thread First([&] { client(B, L, 0, 1); });
  std::this_thread::sleep_for(60ms);
  EXPECT_TRUE(L.Events.empty());
  client(B, L, 1, 1);
  First.join();
  EXPECT_GE(std::chrono::steady_clock::now() - Start, 60ms);
  EXPECT_LT(std::chrono::steady_clock::now() - Start, 10s);
  EXPECT_EQ(B.batches(), 1u);
  ASSERT_EQ(L.Events.size(), 8u);
  EXPECT_EQ(L.Events[4].S, Stage::Kernel);
}

TEST(StepBatcher, AClientThatLeavesIsNotWaitedFor) {
  StepBatcher B(options(GatherOptions::Barrier, 20s, SharingOrder::PS2), 0);
  Log L;
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::thread> Clients;
  for (int I = 0; I < 2; ++I)
    Clients.emplace_back([&, I] { client(B, L, I, 4); });
  // Client 2 runs one step, then nothing for a while: the barrier waits
  // for its next step until it leaves.
  Clients.emplace_back([&] {
    B.begin(&Ids[2], step());
    issueStep(B, L, Ids[2]);
    std::this_thread::sleep_for(300ms);
    B.leave(&Ids[2]);
  });
  for (auto &T : Clients)
    T.join();
  auto Took = std::chrono::steady_clock::now() - Start;
  EXPECT_GE(Took, 250ms);
  EXPECT_LT(Took, 10s);
  EXPECT_EQ(L.Events.size(), 36u);
}

TEST(StepBatcher, AClientThatStopsShortHoldsTheOthersUpOnlyForTheWait) {
  StepBatcher B(options(GatherOptions::Window, 50ms, SharingOrder::PS1), 0);
  Log L;
  for (int I = 0; I < 3; ++I)
    B.begin(&Ids[I], step());
  // Client 2 copies in and then sends nothing more of its step.
  std::thread Short([&] {
    B.enter(&Ids[2], Stage::In);
    L.add(2, Stage::In);
  });
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::thread> Clients;
  for (int I = 0; I < 2; ++I)
    Clients.emplace_back([&, I] { issueStep(B, L, Ids[I]); });
  for (auto &T : Clients)
    T.join();
  Short.join();
  auto Took = std::chrono::steady_clock::now() - Start;
  EXPECT_GE(Took, 50ms); // it waited for client 2's kernel ...
  EXPECT_LT(Took, 3s);   // ... a bounded time
  EXPECT_EQ(L.Events.size(), 9u);
  // The batch went on without client 2's kernel: when it comes, it goes
  // at once (its batch is no longer to wait for).
  auto Late = std::chrono::steady_clock::now();
  B.enter(&Ids[2], Stage::Kernel);
  B.enter(&Ids[2], Stage::Out);
  EXPECT_LT(std::chrono::steady_clock::now() - Late, 40ms);
  // A client in no step is never held.
  int Other = 7;
  B.enter(&Other, Stage::Kernel);
}

TEST(StepBatcher, ABatchIsReportedWithItsPredictionOnceItsStepsHaveRun) {
  Reported Got;
  std::vector<StepBatchReport> &Reports = Got.Reports;
  // 100 compute units; kernels of 50 groups fill half of them.
  StepBatcher B(options(GatherOptions::Window, 100ms, std::nullopt), 100, Got.sink());
  Log L;
  for (int I = 0; I < 2; ++I)
    B.begin(&Ids[I], step(1, 4, 1, 50));
  std::optional<uint64_t> Tokens[2];
  std::vector<std::thread> Clients;
  for (int I = 0; I < 2; ++I)
    Clients.emplace_back([&, I] { issueStep(B, L, Ids[I], &Tokens[I]); });
  for (auto &T : Clients)
    T.join();
  ASSERT_TRUE(Tokens[0] && Tokens[1]);
  B.stepRan(*Tokens[0]);
  EXPECT_TRUE(Reports.empty()); // one step still runs
  B.stepRan(*Tokens[1]);
  ASSERT_EQ(Reports.size(), 1u);
  const StepBatchReport &R = Reports[0];
  EXPECT_EQ(R.Steps, 2u);
  EXPECT_TRUE(R.Predicted);
  EXPECT_EQ(R.Class, TaskClass::ComputeIntensive);
  EXPECT_DOUBLE_EQ(R.KernelShare, 0.5);
  // PS-1: 2 (1 + 1) + 4 = 8 against PS-2: 1 + 4 + 1 + 1 * 2 = 8; ties go
  // to PS-1.
  EXPECT_EQ(R.Order, SharingOrder::PS1);
  EXPECT_DOUBLE_EQ(R.PredictedMs, 8);
  EXPECT_GE(R.MeasuredMs, 0);
  EXPECT_NE(describe(R, "gpu0").find("gpu0 batch 1: 2 steps, compute-intensive"),
            std::string::npos)
      << describe(R, "gpu0");
}

TEST(StepBatcher, AStepWithoutItsEndIsReportedUnmeasured) {
  Reported Got;
  std::vector<StepBatchReport> &Reports = Got.Reports;
  StepBatcher B(options(GatherOptions::Window, 1ms, std::nullopt), 0, Got.sink());
  B.begin(&Ids[0], step());
  B.enter(&Ids[0], Stage::In);
  B.begin(&Ids[0], step()); // the next step: the last one ended unseen
  B.leave(&Ids[0]);
  ASSERT_GE(Reports.size(), 1u);
  EXPECT_FALSE(Reports[0].Predicted);
  EXPECT_EQ(Reports[0].Order, SharingOrder::PS2);
  EXPECT_LT(Reports[0].MeasuredMs, 0);
  EXPECT_NE(describe(Reports[0], "gpu0").find("not measured"), std::string::npos);
}

TEST(StepBatcher, GatherOptionsParse) {
  GatherOptions G;
  EXPECT_FALSE(parseGather("barrier", G));
  EXPECT_EQ(G.Gather, GatherOptions::Barrier);
  EXPECT_FALSE(parseGather("window:250", G));
  EXPECT_EQ(G.Gather, GatherOptions::Window);
  EXPECT_EQ(G.Wait, 250us);
  EXPECT_FALSE(parseGather("barrier:5000", G));
  EXPECT_EQ(G.Wait, 5000us);
  EXPECT_FALSE(parseGather("off", G));
  EXPECT_EQ(G.Gather, GatherOptions::Off);
  for (const char *Bad : {"window:", "window:0", "window:-3", "window:2000001", "barrier:1x",
                          "sometimes", "window"})
    EXPECT_TRUE(parseGather(Bad, G)) << Bad;
}

TEST(StepBatcher, AutoTriesEachOrderOnceThenIssuesTheFasterAsMeasured) {
  Reported Got;
  std::vector<StepBatchReport> &Reports = Got.Reports;
  StepBatcher B(options(GatherOptions::Window, 1ms, std::nullopt), 100, Got.sink());
  Log L;
  // One client's steps, each its own batch. The model times both orders
  // alike (6 ms); PS-1's batch is measured slow (its end seen 60 ms
  // late), PS-2's at once.
  for (auto Late : {60ms, 0ms, 0ms}) {
    B.begin(&Ids[0], step(1, 4, 1, 50));
    std::optional<uint64_t> Token;
    issueStep(B, L, Ids[0], &Token);
    ASSERT_TRUE(Token);
    std::this_thread::sleep_for(Late);
    B.stepRan(*Token);
  }
  ASSERT_EQ(Reports.size(), 3u);
  EXPECT_EQ(Reports[0].Order, SharingOrder::PS1);
  EXPECT_EQ(Reports[1].Order, SharingOrder::PS2);
  EXPECT_EQ(Reports[0].LearnedFrom, 0u);
  EXPECT_DOUBLE_EQ(Reports[0].PredictedMs, Reports[0].ModelMs);
  EXPECT_GE(Reports[0].MeasuredMs, 60);
  // The third goes the way measured faster, predicted from what that
  // order measured against the model.
  EXPECT_EQ(Reports[2].Order, SharingOrder::PS2);
  EXPECT_EQ(Reports[2].LearnedFrom, 1u);
  EXPECT_DOUBLE_EQ(Reports[2].ModelMs, 6);
  EXPECT_NEAR(Reports[2].PredictedMs, Reports[1].MeasuredMs, 1e-9);
  EXPECT_NE(describe(Reports[2], "gpu0").find("learned from 1 batch)"), std::string::npos)
      << describe(Reports[2], "gpu0");
}

TEST(StepBatcher, AStepWithoutCopiesOutEndsAtTheMarkAfterItsKernel) {
  // Results that stay on the device: no copy out comes, and PS-2's next
  // client goes once the first one's kernel is marked, not after the
  // wait (10 s).
  StepBatcher B(options(GatherOptions::Barrier, 10s, SharingOrder::PS2), 0);
  wire::Step Resident = step();
  Resident.Flags = 0;
  B.join(&Ids[0]);
  B.join(&Ids[1]);
  B.begin(&Ids[0], Resident);
  B.begin(&Ids[1], Resident);
  auto Start = std::chrono::steady_clock::now();
  B.enter(&Ids[0], Stage::In);
  B.enter(&Ids[0], Stage::Kernel);
  EXPECT_TRUE(B.marked(&Ids[0]));
  B.enter(&Ids[1], Stage::Kernel);
  EXPECT_TRUE(B.marked(&Ids[1]));
  EXPECT_LT(std::chrono::steady_clock::now() - Start, 5s);
  // A step that announced copies out is not ended by its kernel's mark.
  B.begin(&Ids[0], step());
  B.begin(&Ids[1], step());
  B.enter(&Ids[0], Stage::Kernel);
  EXPECT_FALSE(B.marked(&Ids[0]));
}
