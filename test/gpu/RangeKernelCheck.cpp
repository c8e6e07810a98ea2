//===- RangeKernelCheck.cpp - Partition-ready and merge PTX on a GPU ------===//
//
// Runs skmd-cc's PTX on an NVIDIA GPU and checks the SKMD variants against
// the kernel as written, bit for bit:
//   - K__skmd_range over a random split of the groups into pieces, each
//     launched as exactly its own groups, equals K over the whole grid:
//     as the CUDA device launches a piece (boxes of whole rows or planes
//     and of partial rows through K__skmd_box, rows of two planes through
//     the range form: splitIntoLaunches), and as one 1-D launch;
//   - K__skmd_guard (when the bundle has it) likewise, over the full grid;
//   - K__skmd_merge, given copies holding K's results, rebuilds every
//     output from zeroed buffers.
// It also times K and K__skmd_range at full range (best of 5).
//
//   range-kernel-check <corpus dir with the bundles>
//
// Exit status: 0 all equal, 1 a mismatch or error, 77 no CUDA driver/GPU.
//
//===----------------------------------------------------------------------===//
#include "devices/NDRange.h"
#include "devices/cuda/CudaDriver.h"
#include "common/RandomSplit.h"
#include "bundle/Bundle.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace skmd;
using skmd::test::randomPieces;

namespace {

struct ArgSpec {
  enum Kind { Input, Output, Int, Float } K;
  size_t Bytes = 0;  ///< Buffers.
  int32_t I = 0;     ///< Int scalars.
  float F = 0;       ///< Float scalars.
};

struct Case {
  const char *Bundle;
  const char *Kernel;
  std::array<unsigned, 3> Local, Groups;
  std::vector<ArgSpec> Args;
};

ArgSpec in(size_t Floats) { return {ArgSpec::Input, Floats * 4}; }
ArgSpec out(size_t Floats) { return {ArgSpec::Output, Floats * 4}; }
ArgSpec i32(int32_t V) { return {ArgSpec::Int, 0, V}; }
ArgSpec f32(float V) { return {ArgSpec::Float, 0, 0, V}; }

std::vector<Case> cases() {
  const size_t VN = 1 << 22, MN = 512, BW = 1024, BH = 512, T = 512;
  const int R = 3;
  return {
      {"vector_add", "vector_add", {256, 1, 1}, {VN / 256, 1, 1},
       {in(VN), in(VN), out(VN), i32(VN)}},
      {"matmul_tiled", "matmul_tiled", {16, 16, 1}, {MN / 16, MN / 16, 1},
       {in(MN * MN), in(MN * MN), out(MN * MN), i32(MN)}},
      {"blackscholes", "blackscholes", {64, 4, 1}, {BW / 64, BH / 4, 1},
       {out(BW * BH), out(BW * BH), in(BW * BH), in(BW * BH), in(BW * BH),
        f32(0.02f), f32(0.3f)}},
      {"transpose", "transpose", {16, 16, 1}, {T / 16, T / 16, 1},
       {in(T * T), out(T * T), i32(T), i32(T)}},
      {"volume", "clear_volume", {8, 4, 2}, {8, 8, 8},
       {out(64 * 32 * 16), i32(64), i32(32)}},
      {"stencil", "blur_radius", {128, 1, 1}, {(1 << 20) / 128, 1, 1},
       {in((1 << 20) + 2 * R), out(1 << 20), i32(R)}},
  };
}

class Checker {
public:
  Checker(const CudaDriver &D) : D(D) {}

  bool ok(CUresult R, const char *What) {
    if (R == 0)
      return true;
    std::fprintf(stderr, "  %s failed: %s\n", What, D.describe(R).c_str());
    Failed = true;
    return false;
  }

  bool run(const std::string &Dir, const Case &C) {
    auto B = Bundle::fromFile(Dir + "/" + C.Bundle + ".skmd");
    if (!B) {
      std::fprintf(stderr, "%s: %s\n", C.Kernel, B.error().message().c_str());
      return false;
    }
    const KernelInfo *K = B->metadata().findKernel(C.Kernel);
    std::string_view PTX = B->variant(TargetKind::PTX);
    if (!K || PTX.empty() || !K->Symbols.count(TargetKind::PTX)) {
      std::fprintf(stderr, "%s: no PTX variant of the kernel\n", C.Kernel);
      return false;
    }
    const KernelSymbols &S = K->Symbols.at(TargetKind::PTX);
    CUmodule Mod;
    if (!ok(D.cuModuleLoadDataEx(&Mod, PTX.data(), 0, nullptr, nullptr),
            "cuModuleLoadDataEx"))
      return false;
    CUfunction Orig, Range, Box = nullptr, Guard = nullptr, Merge = nullptr;
    if (!ok(D.cuModuleGetFunction(&Orig, Mod, S.Kernel.c_str()), "kernel") ||
        !ok(D.cuModuleGetFunction(&Range, Mod, S.Range.c_str()), "range kernel"))
      return false;
    if (!S.Box.empty() && !ok(D.cuModuleGetFunction(&Box, Mod, S.Box.c_str()), "box kernel"))
      return false;
    if (!S.Guard.empty() && !ok(D.cuModuleGetFunction(&Guard, Mod, S.Guard.c_str()), "guard kernel"))
      return false;
    if (!S.Merge.empty() && !ok(D.cuModuleGetFunction(&Merge, Mod, S.Merge.c_str()), "merge kernel"))
      return false;

    // Buffers: inputs random, outputs zero.
    std::mt19937 Rng(42);
    std::uniform_real_distribution<float> Dist(0.5f, 2.0f);
    std::vector<CUdeviceptr> Dev(C.Args.size(), 0);
    std::vector<unsigned> Outputs;
    for (size_t I = 0; I < C.Args.size(); ++I) {
      const ArgSpec &A = C.Args[I];
      if (A.K != ArgSpec::Input && A.K != ArgSpec::Output)
        continue;
      if (!ok(D.cuMemAlloc(&Dev[I], A.Bytes), "cuMemAlloc"))
        return false;
      if (A.K == ArgSpec::Input) {
        std::vector<float> Host(A.Bytes / 4);
        for (float &F : Host)
          F = Dist(Rng);
        ok(D.cuMemcpyHtoD(Dev[I], Host.data(), A.Bytes), "upload");
      } else {
        Outputs.push_back(I);
      }
    }
    auto ZeroOutputs = [&] {
      for (unsigned I : Outputs)
        ok(D.cuMemsetD8(Dev[I], 0, C.Args[I].Bytes), "cuMemsetD8");
    };
    auto Download = [&] {
      std::vector<std::vector<uint8_t>> Out;
      for (unsigned I : Outputs) {
        Out.emplace_back(C.Args[I].Bytes);
        ok(D.cuMemcpyDtoH(Out.back().data(), Dev[I], C.Args[I].Bytes), "download");
      }
      return Out;
    };
    // Kernel parameters: the original arguments, then any extras.
    auto Launch = [&](CUfunction F, std::array<unsigned, 3> Grid,
                      std::vector<uint64_t> Extra,
                      std::vector<CUdeviceptr> Copies = {}) {
      std::vector<void *> Params;
      for (size_t I = 0; I < C.Args.size(); ++I) {
        const ArgSpec &A = C.Args[I];
        Params.push_back(A.K == ArgSpec::Int     ? (void *)&A.I
                         : A.K == ArgSpec::Float ? (void *)&A.F
                                                 : (void *)&Dev[I]);
      }
      for (uint64_t &E : Extra)
        Params.push_back(&E);
      for (CUdeviceptr &P : Copies)
        Params.push_back(&P);
      return ok(D.cuLaunchKernel(F, Grid[0], Grid[1], Grid[2], C.Local[0],
                                 C.Local[1], C.Local[2], 0, nullptr,
                                 Params.data(), nullptr),
                "cuLaunchKernel") &&
             ok(D.cuCtxSynchronize(), "kernel run");
    };
    const uint64_t Total = uint64_t(C.Groups[0]) * C.Groups[1] * C.Groups[2];
    // The hidden arguments as the runtime passes them.
    NDRange Grid;
    Grid.NumGroups = {C.Groups[0], C.Groups[1], C.Groups[2]};
    Grid.LocalSize = {C.Local[0], C.Local[1], C.Local[2]};
    auto RangeExtra = [&](uint64_t First) {
      auto Words = partitionReadyArgs(Grid, First);
      return std::vector<uint64_t>(Words.begin(), Words.end());
    };
    auto LaunchExtra = [&](const RangeLaunch &L) {
      auto Words = rangeLaunchArgs(Grid, L);
      return std::vector<uint64_t>(Words.begin(), Words.end());
    };
    auto Dims = [](const RangeLaunch &L) {
      return std::array<unsigned, 3>{unsigned(L.Grid[0]), unsigned(L.Grid[1]),
                                     unsigned(L.Grid[2])};
    };

    // The kernel as written, over the whole grid.
    ZeroOutputs();
    if (!Launch(Orig, C.Groups, {}))
      return false;
    auto Reference = Download();

    // Range kernels over a random split, launched in random order.
    auto Pieces = randomPieces(Total, 3, Rng);
    ZeroOutputs();
    unsigned Boxes = 0;
    for (auto [First, Count] : Pieces)
      for (const RangeLaunch &L : splitIntoLaunches(Grid, First, Count, Box != nullptr)) {
        Boxes += L.F == RangeLaunch::Box;
        if (!Launch(L.F == RangeLaunch::Box ? Box : Range, Dims(L), LaunchExtra(L)))
          return false;
      }
    bool RangeOk = Download() == Reference;
    ZeroOutputs();
    for (auto [First, Count] : Pieces)
      if (!Launch(Range, {unsigned(Count), 1, 1}, RangeExtra(First)))
        return false;
    bool FlatOk = Download() == Reference;

    bool GuardOk = true;
    if (Guard) {
      ZeroOutputs();
      for (auto [First, Count] : Pieces)
        if (!Launch(Guard, C.Groups, {First, Count}))
          return false;
      GuardOk = Download() == Reference;
    }

    // Merge: copies hold the results; the outputs start at zero.
    bool MergeOk = true;
    if (Merge) {
      std::vector<CUdeviceptr> Copies;
      for (size_t J = 0; J < Outputs.size(); ++J) {
        CUdeviceptr P;
        ok(D.cuMemAlloc(&P, Reference[J].size()), "cuMemAlloc");
        ok(D.cuMemcpyHtoD(P, Reference[J].data(), Reference[J].size()), "upload");
        Copies.push_back(P);
      }
      ZeroOutputs();
      uint64_t Half = Total / 2;
      if (!Launch(Merge, {unsigned(Half), 1, 1}, RangeExtra(0), Copies) ||
          !Launch(Merge, {unsigned(Total - Half), 1, 1}, RangeExtra(Half), Copies))
        return false;
      MergeOk = Download() == Reference;
      for (CUdeviceptr P : Copies)
        D.cuMemFree(P);
    }

    // Full-range timing: the kernel as written against the range kernel.
    auto Time = [&](CUfunction F, std::array<unsigned, 3> Grid,
                    std::vector<uint64_t> Extra) {
      CUevent Start, Stop;
      D.cuEventCreate(&Start, 0);
      D.cuEventCreate(&Stop, 0);
      float Best = 1e30f;
      Launch(F, Grid, Extra); // warm-up
      for (int I = 0; I < 5; ++I) {
        D.cuEventRecord(Start, nullptr);
        Launch(F, Grid, Extra);
        D.cuEventRecord(Stop, nullptr);
        D.cuEventSynchronize(Stop);
        float Ms = 0;
        D.cuEventElapsedTime(&Ms, Start, Stop);
        Best = std::min(Best, Ms);
      }
      return Best;
    };
    float TOrig = Time(Orig, C.Groups, {});
    // The whole grid as the CUDA device launches it: one launch.
    std::vector<RangeLaunch> Whole = splitIntoLaunches(Grid, 0, Total, Box != nullptr);
    float TRange = Whole.size() == 1 && Whole[0].F == RangeLaunch::Box
                       ? Time(Box, Dims(Whole[0]), LaunchExtra(Whole[0]))
                       : Time(Range, {unsigned(Total), 1, 1}, RangeExtra(0));
    std::printf("| %s | %llu | %zu | %u | %s | %s | %s | %s | %.4f | %.4f | %+.1f%% |\n",
                C.Kernel, (unsigned long long)Total, Pieces.size(), Boxes,
                RangeOk ? "equal" : "DIFFERENT", FlatOk ? "equal" : "DIFFERENT",
                Guard ? (GuardOk ? "equal" : "DIFFERENT") : "-",
                Merge ? (MergeOk ? "equal" : "DIFFERENT") : "-", TOrig, TRange,
                100.0 * (TRange - TOrig) / TOrig);
    for (CUdeviceptr P : Dev)
      if (P)
        D.cuMemFree(P);
    return RangeOk && FlatOk && GuardOk && MergeOk && !Failed;
  }

private:
  const CudaDriver &D;
  bool Failed = false;
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: range-kernel-check <bundle dir>\n");
    return 2;
  }
  std::string Error;
  const CudaDriver *Driver = CudaDriver::get(Error);
  if (!Driver) {
    std::printf("skipped: %s\n", Error.c_str());
    return 77;
  }
  const CudaDriver &D = *Driver;
  CUdevice Dev;
  CUcontext Ctx;
  if (D.cuDeviceGet(&Dev, 0) != 0) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  char Name[256] = {0};
  D.cuDeviceGetName(Name, sizeof(Name), Dev);
  if (D.cuDevicePrimaryCtxRetain(&Ctx, Dev) != 0 || D.cuCtxSetCurrent(Ctx) != 0) {
    std::fprintf(stderr, "cannot create a CUDA context\n");
    return 1;
  }
  std::printf("device: %s\n\n", Name);
  std::printf("| kernel | groups | pieces | box launches | range split | range split, 1-D | "
              "guard split | merge | kernel ms | range ms | range vs kernel |\n");
  std::printf("| --- | ---: | ---: | ---: | --- | --- | --- | --- | ---: | ---: | ---: |\n");
  bool AllOk = true;
  Checker C(D);
  for (const Case &K : cases())
    AllOk &= C.run(argv[1], K);
  std::printf("\n%s\n", AllOk ? "all variants equal the kernel as written"
                              : "MISMATCH or error: see above");
  return AllOk ? 0 : 1;
}
