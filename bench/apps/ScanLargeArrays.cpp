//===- ScanLargeArrays.cpp - Inclusive prefix sums of 8M floats -----------===//
//
// The paper's ScanLargeArrays (8M floats, 32,768 work-groups in its first
// launch), in several launches: a block scan per level of block totals
// until one block holds them, then the offsets added back from the top
// level down (bench/kernels/scan.cl). Every launch goes to the drivers as
// it is; SKMD plans each one.
//
//===----------------------------------------------------------------------===//
#include "../suite/Apps.h"

namespace skmd::bench {
namespace {

constexpr size_t Local = 128, Block = 2 * Local;

Problem scanLargeArrays(double Scale, std::mt19937 &Rng) {
  size_t N = scaled(8 << 20, Scale, 1);
  Problem P;
  P.Size = std::to_string(N) + " floats";
  // Positive, so that the sums grow and a relative check is fair.
  P.Buffers.push_back(uniformFloats(N, 0, 1, Rng));
  P.Buffers.push_back(output(N * sizeof(float), Compare::Relative));

  // Level K scans Data[K] (N elements at level 0) into Scanned[K], writing
  // its block totals to Data[K + 1]; the last level has one block.
  std::vector<unsigned> Data{0}, Scanned{1};
  std::vector<size_t> Count{N};
  for (;;) {
    size_t Blocks = (Count.back() + Block - 1) / Block;
    unsigned Sums = unsigned(P.Buffers.size());
    P.Buffers.push_back(scratch(Blocks * sizeof(float)));
    size_t K = Count.size() - 1;
    P.launch("scan_blocks",
             {bufferArg(Data[K]), bufferArg(Scanned[K]), bufferArg(Sums),
              localArg(Block * sizeof(float)), valueArg(uint32_t(Count[K]))},
             1, {Blocks * Local, 1, 1}, {Local, 1, 1});
    if (Blocks == 1)
      break;
    Data.push_back(Sums);
    Scanned.push_back(unsigned(P.Buffers.size()));
    P.Buffers.push_back(scratch(Blocks * sizeof(float)));
    Count.push_back(Blocks);
  }
  for (size_t K = Count.size() - 1; K-- > 0;) {
    size_t Blocks = (Count[K] + Block - 1) / Block;
    P.launch("add_offsets",
             {bufferArg(Scanned[K]), bufferArg(Scanned[K + 1]), valueArg(uint32_t(Count[K]))}, 1,
             {Blocks * Local, 1, 1}, {Local, 1, 1});
  }

  // Float sums of up to 2 * Local terms per level, against a running sum
  // in double.
  P.Tolerance = 1e-4;
  P.Reference = [N](const Problem &P, const Outputs &O) {
    const float *In = P.in<float>(0);
    std::vector<double> Want(N);
    double Sum = 0;
    for (size_t I = 0; I < N; ++I)
      Want[I] = Sum += In[I];
    const float *Got = O[1].as<float>();
    Check C = Check::relative(
        maxRelError(
            N, [&](size_t I) { return Got[I]; }, [&](size_t I) { return Want[I]; }),
        P.Tolerance, "prefix sums");
    C.Scope = "all";
    return C;
  };
  return P;
}

AppRegistration Registration({"scan", "scan", scanLargeArrays});

} // namespace
} // namespace skmd::bench
