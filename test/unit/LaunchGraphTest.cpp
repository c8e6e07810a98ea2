//===- LaunchGraphTest.cpp - The one builder of a launch's graph ----------===//
//
// The graph both the launcher runs and the planner predicts: its
// operations, their roles per piece and the edges between them.
//
//===----------------------------------------------------------------------===//
#include "devices/HostCores.h"
#include "launch/LaunchGraph.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace skmd;

namespace {

GraphPiece devicePiece(unsigned Device, const char *Name, uint64_t First, uint64_t Count,
                       uint64_t In, uint64_t Out) {
  GraphPiece P;
  P.Groups = {Device, First, Count, 1};
  P.DeviceName = Name;
  P.InBytes = In;
  P.OutBytes = Out;
  P.Pageable = true;
  return P;
}

GraphPiece hostPiece(unsigned Device, uint64_t First, uint64_t Count) {
  GraphPiece P;
  P.Groups = {Device, First, Count, 1};
  P.DeviceName = "cpu";
  P.OnHostMemory = true;
  return P;
}

bool waitsFor(const BatchOp &Op, int Other) {
  return std::find(Op.After.begin(), Op.After.end(), unsigned(Other)) != Op.After.end();
}

BatchMachine threeDevices() {
  BatchMachine M;
  M.Devices = {{"cpu", 0, 16}, {"gpu0", 2, 0}, {"gpu1", 2, 0}};
  return M;
}

} // namespace

TEST(LaunchGraph, EachPieceGetsItsStepsInTheLaunchersOrder) {
  // A fetch to the host already in the graph; two chunks of gpu0, the CPU's
  // piece, and a gpu1 piece whose results stay on it.
  LaunchGraph G;
  BatchOp Fetch;
  Fetch.Label = "bring 64 bytes from gpu1";
  unsigned Fetched = G.add(Fetch);
  std::vector<GraphPiece> Pieces = {devicePiece(1, "gpu0", 0, 4, 1024, 512),
                                    devicePiece(1, "gpu0", 4, 4, 1024, 512), hostPiece(0, 8, 8),
                                    devicePiece(2, "gpu1", 16, 8, 2048, 0)};
  Pieces[0].After = {Fetched};
  Pieces[3].Back = false;
  buildLaunchGraph(Pieces, {}, nullptr, {Fetched}, G);

  ASSERT_EQ(G.Pieces.size(), 4u);
  // Per device chunk: copy in, kernel, copy out, in that order.
  for (size_t P : {0u, 1u, 3u}) {
    const PieceOps &R = G.Pieces[P];
    ASSERT_GE(R.CopyIn, 0);
    EXPECT_EQ(R.Kernel, R.CopyIn + 1);
    EXPECT_EQ(R.CopyOut, R.Kernel + 1);
    EXPECT_EQ(G.Ops[unsigned(R.CopyIn)].Bytes, Pieces[P].InBytes);
    EXPECT_EQ(G.Ops[unsigned(R.CopyOut)].Bytes, Pieces[P].OutBytes);
    EXPECT_TRUE(waitsFor(G.Ops[unsigned(R.Kernel)], R.CopyIn));
    EXPECT_TRUE(waitsFor(G.Ops[unsigned(R.CopyOut)], R.Kernel));
    EXPECT_EQ(G.Ops[unsigned(R.Kernel)].Device, int(Pieces[P].Groups.Device));
  }
  EXPECT_EQ(G.Ops[unsigned(G.Pieces[0].CopyIn)].Label, "copy in gpu0 [0, 4)");
  // The first chunk's copy in waits for the fetch; the second for the first's.
  EXPECT_TRUE(waitsFor(G.Ops[unsigned(G.Pieces[0].CopyIn)], int(Fetched)));
  EXPECT_TRUE(waitsFor(G.Ops[unsigned(G.Pieces[1].CopyIn)], G.Pieces[0].CopyIn));
  EXPECT_FALSE(waitsFor(G.Ops[unsigned(G.Pieces[3].CopyIn)], G.Pieces[1].CopyIn));

  // The CPU's piece: a kernel on host memory after the fetches, no copies.
  const PieceOps &Cpu = G.Pieces[2];
  EXPECT_EQ(Cpu.CopyIn, -1);
  EXPECT_EQ(Cpu.CopyOut, -1);
  EXPECT_EQ(Cpu.Merge, -1);
  ASSERT_GE(Cpu.Kernel, 0);
  EXPECT_GT(Cpu.Kernel, G.Pieces[3].CopyOut) << "the host's pieces come after the devices'";
  EXPECT_TRUE(waitsFor(G.Ops[unsigned(Cpu.Kernel)], int(Fetched)));
  // Without lending, it starts behind every copy that takes the host's cores.
  size_t Behind = 0;
  for (auto [Op, After] : G.Order.Behind)
    Behind += Op == unsigned(Cpu.Kernel);
  EXPECT_EQ(Behind, HostCores::lending() ? 0u : 3u);

  // A merge on the host's lane after each copy out whose results come back.
  for (size_t P : {0u, 1u}) {
    const PieceOps &R = G.Pieces[P];
    ASSERT_GE(R.Merge, 0);
    EXPECT_EQ(G.Ops[unsigned(R.Merge)].Device, HostSide);
    EXPECT_TRUE(waitsFor(G.Ops[unsigned(R.Merge)], R.CopyOut));
  }
  EXPECT_EQ(G.Pieces[3].Merge, -1) << "results that stay on the device need no host step";

  // Issued in the order added, every operation once.
  ASSERT_EQ(G.Order.Order.size(), G.Ops.size());
  for (unsigned I = 0; I < G.Ops.size(); ++I)
    EXPECT_EQ(G.Order.Order[I], I);
}

TEST(LaunchGraph, CopiesInWaitForTheExchangeOfTheirDevice) {
  BatchMachine M = threeDevices();
  GraphExchange X;
  X.Devices = {{1, false}, {2, false}};
  X.PartBytes = {4096, 4096};
  std::vector<GraphPiece> Pieces = {devicePiece(1, "gpu0", 0, 8, 100, 10),
                                    devicePiece(2, "gpu1", 8, 8, 100, 10), hostPiece(0, 16, 8)};
  Pieces[0].Pageable = Pieces[1].Pageable = false;
  LaunchGraph G;
  buildLaunchGraph(Pieces, X, &M, {}, G);
  // Each part from the host, then each part to the other device.
  ASSERT_EQ(G.ExchangeOps.size(), 4u);
  EXPECT_EQ(G.ExchangeOps.front(), 0u) << "the exchange comes first";
  for (unsigned D : {1u, 2u}) {
    ASSERT_TRUE(G.ExchangeInto.count(D));
    const BatchOp &In = G.Ops[unsigned(G.Pieces[D - 1].CopyIn)];
    for (unsigned Op : G.ExchangeInto.at(D))
      EXPECT_TRUE(waitsFor(In, int(Op))) << In.Label;
  }
  EXPECT_EQ(G.Order.Order.size(), G.Ops.size());
}

TEST(LaunchGraph, APieceThatFailedEarlyHasNoOperations) {
  std::vector<GraphPiece> Pieces = {devicePiece(1, "gpu0", 0, 8, 100, 10),
                                    devicePiece(2, "gpu1", 8, 8, 100, 10)};
  Pieces[0].Skipped = true;
  LaunchGraph G;
  buildLaunchGraph(Pieces, {}, nullptr, {}, G);
  const PieceOps &R = G.Pieces[0];
  EXPECT_EQ(R.CopyIn, -1);
  EXPECT_EQ(R.Kernel, -1);
  EXPECT_EQ(R.CopyOut, -1);
  EXPECT_EQ(R.Merge, -1);
  EXPECT_EQ(G.Ops.size(), 4u);
}
