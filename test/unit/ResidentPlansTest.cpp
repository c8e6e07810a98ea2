//===- ResidentPlansTest.cpp - Plans for launches on resident buffers -----===//
#include "planning/ResidentPlans.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

// The H200 host's stencil: split 0.71 ms a step; the GPU alone runs the
// kernel in 0.09 ms but lacks 58% of a 64 MiB grid at first (10 GB/s: 3.9
// ms). The move is paid once: early on it keeps the split, after a few
// launches it moves.
TEST(ResidentPlans, AFasterDeviceIsTakenOnceItsMovePaysForItself) {
  std::vector<AloneCandidate> C = {{0, 0.78, 0, 0}, {1, 0.09, 39u << 20, 10}};
  EXPECT_EQ(betterAlone(0.71, 1, C, std::nullopt), std::nullopt);
  EXPECT_EQ(betterAlone(0.71, 5, C, std::nullopt), std::nullopt);
  EXPECT_EQ(betterAlone(0.71, 8, C, std::nullopt), std::optional<unsigned>(1));
  // With the data already there it wins at once.
  C[1].MissingBytes = 0;
  EXPECT_EQ(betterAlone(0.71, 1, C, std::nullopt), std::optional<unsigned>(1));
}

TEST(ResidentPlans, ThePlanInUseStaysUnlessBeatenByATenth) {
  std::vector<AloneCandidate> C = {{0, 0.95, 0, 0}, {1, 0.30, 0, 50}};
  // The GPU alone in use (0.30 measured): the CPU does not beat it, and
  // the GPU is not its own rival.
  EXPECT_EQ(betterAlone(0.30, 100, C, std::optional<unsigned>(1)), std::nullopt);
  // A candidate within 10% of the plan in use is not worth a change.
  EXPECT_EQ(betterAlone(1.0, 100, {{0, 0.95, 0, 0}}, std::nullopt), std::nullopt);
  EXPECT_EQ(betterAlone(1.0, 100, {{0, 0.85, 0, 0}}, std::nullopt), std::optional<unsigned>(0));
}

TEST(ResidentPlans, ShapesAreKeptPerKernelAndGrid) {
  ResidentPlans R;
  KernelInfo A, B;
  A.Name = "a";
  B.Name = "b";
  NDRange G;
  G.WorkDim = 1;
  G.NumGroups = {8, 1, 1};
  G.LocalSize = {64, 1, 1};
  R.shape(A, G).Launches = 3;
  EXPECT_EQ(R.shape(A, G).Launches, 3u);
  EXPECT_EQ(R.shape(B, G).Launches, 0u);
  NDRange H = G;
  H.NumGroups[0] = 16;
  EXPECT_EQ(R.shape(A, H).Launches, 0u);
  // The pieces' longest copies, kernel and merge are the plan's time.
  LaunchReport Report;
  Report.Pieces.resize(2);
  Report.Pieces[0].KernelMs = 0.5;
  Report.Pieces[1].InputMs = 0.1;
  Report.Pieces[1].KernelMs = 0.6;
  ResidentPlans::measured(R.shape(A, G), {{0, 0, 4}, {1, 4, 4}}, Report);
  EXPECT_DOUBLE_EQ(R.shape(A, G).LastMs, 0.7);
  EXPECT_EQ(R.shape(A, G).Pieces.size(), 2u);
}

} // namespace
