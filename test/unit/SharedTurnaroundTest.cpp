//===- SharedTurnaroundTest.cpp - The shared GPU's turnaround model -------===//
//
// The paper's equations (seed 003, section 4) against cases computed by
// hand.
//
//===----------------------------------------------------------------------===//
#include "model/SharedTurnaround.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace skmd;

namespace {

// init 100, context switch 10; copies in 2 and out 1, a kernel of 20: C-I.
const GpuTask ComputeBound{100, 10, 2, 20, 1};
// The same overheads; copies in 8 and out 4, a kernel of 1: IO-I.
const GpuTask IoBound{100, 10, 8, 1, 4};

} // namespace

TEST(SharedTurnaround, TasksAreClassedByComputingAgainstCopying) {
  EXPECT_EQ(classify(ComputeBound), TaskClass::ComputeIntensive);
  EXPECT_EQ(classify(IoBound), TaskClass::IoIntensive);
  // As long as both copies: compute-intensive.
  EXPECT_EQ(classify(GpuTask{0, 0, 2, 3, 1}), TaskClass::ComputeIntensive);
  EXPECT_EQ(classify(GpuTask{0, 0, 2, 2.9, 1}), TaskClass::IoIntensive);
  EXPECT_EQ(orderFor(TaskClass::ComputeIntensive), SharingOrder::PS1);
  EXPECT_EQ(orderFor(TaskClass::IoIntensive), SharingOrder::PS2);
}

TEST(SharedTurnaround, ProcessesAloneRunOneAfterAnother) {
  // (1): 4 x (100 + 2 + 20 + 1) + 3 x 10.
  EXPECT_DOUBLE_EQ(turnaroundAlone(ComputeBound, 4), 522);
  // One process: no switch.
  EXPECT_DOUBLE_EQ(turnaroundAlone(IoBound, 1), 113);
  EXPECT_DOUBLE_EQ(turnaroundAlone(IoBound, 0), 0);
}

TEST(SharedTurnaround, ComputeIntensiveTasksOverlapTheirKernelsInPS1) {
  // (2): 4 x (2 + 1) + 20; (3): 2 + 4 x 20 + 1.
  EXPECT_DOUBLE_EQ(turnaroundShared(ComputeBound, 4, SharingOrder::PS1), 32);
  EXPECT_DOUBLE_EQ(turnaroundShared(ComputeBound, 4, SharingOrder::PS2), 83);
  EXPECT_DOUBLE_EQ(turnaroundShared(ComputeBound, 4), 32);
  // (8): 522 / 32; (10): (100 + 2 + 20 + 1 + 10) / (2 + 1).
  EXPECT_DOUBLE_EQ(sharingSpeedup(ComputeBound, 4), 522.0 / 32);
  EXPECT_DOUBLE_EQ(sharingSpeedupLimit(ComputeBound), 133.0 / 3);
}

TEST(SharedTurnaround, IoIntensiveTasksOverlapTheirCopiesInPS2) {
  // (4): 3 x (8 + 4) + 1; (5): 3 x 8 + 1 + 4, shorter.
  EXPECT_DOUBLE_EQ(turnaroundShared(IoBound, 3, SharingOrder::PS1), 37);
  EXPECT_DOUBLE_EQ(turnaroundShared(IoBound, 3, SharingOrder::PS2), 29);
  EXPECT_DOUBLE_EQ(turnaroundShared(IoBound, 3), 29);
  // (6): copies out the longer: 4 + 1 + 3 x 8, the same as (7) says.
  EXPECT_DOUBLE_EQ(turnaroundShared(GpuTask{100, 10, 4, 1, 8}, 3, SharingOrder::PS2), 29);
  // (9): (3 x 113 + 2 x 10) / 29; (11): (100 + 8 + 1 + 4 + 10) / 8.
  EXPECT_DOUBLE_EQ(sharingSpeedup(IoBound, 3), 359.0 / 29);
  EXPECT_DOUBLE_EQ(sharingSpeedupLimit(IoBound), 123.0 / 8);
  // One process alone through the server: its stages in turn, no init.
  EXPECT_DOUBLE_EQ(turnaroundShared(IoBound, 1), 13);
}

TEST(SharedTurnaround, ATaskWithoutCopiesHasNoBound) {
  EXPECT_TRUE(std::isinf(sharingSpeedupLimit(GpuTask{100, 10, 0, 5, 0})));
  EXPECT_DOUBLE_EQ(turnaroundShared(GpuTask{100, 10, 0, 5, 0}, 8), 5);
  EXPECT_DOUBLE_EQ(sharingSpeedup(GpuTask{}, 4), 0);
}

TEST(SharedTurnaround, ABatchWithoutKernelSharesIsThePapers) {
  for (unsigned N : {1u, 4u, 16u}) {
    EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, N, SharingOrder::PS1, 0),
                     turnaroundShared(ComputeBound, N, SharingOrder::PS1));
    EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, N, SharingOrder::PS2, 0),
                     turnaroundShared(ComputeBound, N, SharingOrder::PS2));
    // In 8 outlasts the kernel's 1: equation (7).
    EXPECT_DOUBLE_EQ(turnaroundBatch(IoBound, N, SharingOrder::PS2, 0),
                     turnaroundShared(IoBound, N, SharingOrder::PS2));
  }
  // The shorter order is the paper's for the class.
  EXPECT_LT(turnaroundBatch(ComputeBound, 8, SharingOrder::PS1, 0),
            turnaroundBatch(ComputeBound, 8, SharingOrder::PS2, 0));
  EXPECT_LT(turnaroundBatch(IoBound, 8, SharingOrder::PS2, 0),
            turnaroundBatch(IoBound, 8, SharingOrder::PS1, 0));
}

TEST(SharedTurnaround, KernelsThatFillTheGpuDoNotOverlap) {
  // 4 processes, kernels of 20 each filling the GPU: PS-1 is 4 (2 + 1) +
  // 4 * 20 = 92; PS-2 pipelines copies behind kernels: 2 + 20 + 1 + 3 *
  // 20 = 83, the shorter, though the task is compute-intensive.
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 4, SharingOrder::PS1, 1), 92);
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 4, SharingOrder::PS2, 1), 83);
  // A quarter of the GPU each: the four kernels fit at once (12 + 20 = 32
  // against 2 + 20 + 1 + 3 * 5 = 38).
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 4, SharingOrder::PS1, 0.25), 32);
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 4, SharingOrder::PS2, 0.25), 38);
  // Eight of them: two rounds of kernels (24 + 40 = 64 against 2 + 20 + 1
  // + 7 * 5 = 58).
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 8, SharingOrder::PS1, 0.25), 64);
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 8, SharingOrder::PS2, 0.25), 58);
  EXPECT_DOUBLE_EQ(turnaroundBatch(ComputeBound, 0, SharingOrder::PS1, 1), 0);
}
