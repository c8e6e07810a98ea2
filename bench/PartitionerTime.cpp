//===- PartitionerTime.cpp - How long Algorithm 1 takes -------------------===//
//
// partitioner-time [--groups=N] [--runs=N] [--coarse-levels=N]
//
// Times partitionAlgorithm1 on 5 devices, a CPU and 4 GPU-like devices
// with copies (two pairs sharing a link) and a merge cost, in the two
// forms the planner gives them (ModelPlanner.cpp):
//   staged: the GPUs' copies are made by the host's cores (pageable
//     memory), which sustain 1.55 devices' inputs and 1.77 devices'
//     outputs at once (measured on the 2xH200 host), and the CPU computes
//     after them;
//   DMA: copies from pinned memory, each as fast as alone.
// The models are closed forms, cheap to evaluate, so that the number is
// the algorithm's own: median and best of --runs. The target is under
// 100 us for 2048 steps. --coarse-levels=0 walks the tree at the fine
// granule only (the paper's listing), for comparison.
//
//===----------------------------------------------------------------------===//
#include "planning/Partitioner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace skmd;

namespace {

PartitionProblem problem(uint64_t Groups, bool Staged) {
  PartitionProblem P;
  P.TotalGroups = Groups;
  DeviceEstimate Cpu;
  Cpu.Name = "cpu";
  Cpu.KernelMs = [](uint64_t G) { return 2e-4 * double(G); };
  if (Staged) {
    Cpu.SharesCoresWithStaging = true;
    Cpu.SplitSlowdown = 1.1;
  }
  P.Devices.push_back(Cpu);
  const double Speed[] = {4e-5, 5e-5, 8e-5, 1e-4};
  for (int I = 0; I < 4; ++I) {
    DeviceEstimate Gpu;
    Gpu.Name = "gpu" + std::to_string(I);
    double S = Speed[I];
    // A wave's worth of groups costs as much as one (GPU-like), then linear.
    Gpu.KernelMs = [S](uint64_t G) { return 0.05 + S * double(std::max<uint64_t>(G, 1024)); };
    Gpu.InputMs = [](uint64_t G) { return 0.01 + 2e-5 * double(G); };
    Gpu.OutputMs = [](uint64_t G) { return 0.01 + 1e-5 * double(G); };
    Gpu.Link = I / 2; // gpu0 and gpu1 share a link, gpu2 and gpu3 another.
    Gpu.StagedByHost = Staged;
    P.Devices.push_back(Gpu);
  }
  if (Staged) {
    P.StagedInCapacity = 1.55;
    P.StagedOutCapacity = 1.77;
  }
  P.MergeMs = [](uint64_t G) { return 1e-6 * double(G); };
  return P;
}

void timeIt(const char *What, const PartitionProblem &P, unsigned Runs) {
  std::vector<double> Us;
  PartitionResult R;
  for (unsigned I = 0; I < Runs; ++I) {
    auto T = std::chrono::steady_clock::now();
    R = partitionAlgorithm1(P);
    Us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - T)
                     .count());
  }
  std::sort(Us.begin(), Us.end());
  double Alone = INFINITY;
  for (unsigned D = 0; D < P.Devices.size(); ++D)
    Alone = std::min(Alone, partitionSingle(P, D).EstimatedMs);
  std::printf("%s: %u steps, %u children estimated; median %.1f us, best %.1f us (of %u runs)\n"
              "  plan:",
              What, R.Steps, R.Trials, Us[Us.size() / 2], Us[0], Runs);
  for (size_t I = 0; I < P.Devices.size(); ++I)
    std::printf(" %s=%llu", P.Devices[I].Name.c_str(), (unsigned long long)R.Groups[I]);
  std::printf("; estimated %.3f ms (the fastest device alone: %.3f ms)\n", R.EstimatedMs, Alone);
}

} // namespace

int main(int Argc, char **Argv) {
  uint64_t Groups = 1 << 20;
  unsigned Runs = 1000;
  long CoarseLevels = -1;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--groups=", 0) == 0)
      Groups = std::strtoull(A.c_str() + 9, nullptr, 10);
    else if (A.rfind("--runs=", 0) == 0)
      Runs = unsigned(std::max(1, std::atoi(A.c_str() + 7)));
    else if (A.rfind("--coarse-levels=", 0) == 0)
      CoarseLevels = std::atol(A.c_str() + 16);
    else {
      std::printf("usage: partitioner-time [--groups=N] [--runs=N] [--coarse-levels=N]\n");
      return A == "--help" ? 0 : 2;
    }
  }
  std::printf("partitionAlgorithm1, %llu groups, 5 devices:\n", (unsigned long long)Groups);
  for (bool Staged : {true, false}) {
    PartitionProblem P = problem(Groups, Staged);
    if (CoarseLevels >= 0)
      P.CoarseLevels = uint64_t(CoarseLevels);
    timeIt(Staged ? "copies staged by the host's cores" : "copies by DMA", P, Runs);
  }
  return 0;
}
