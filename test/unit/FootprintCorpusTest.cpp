//===- FootprintCorpusTest.cpp - Range = union of groups, on real kernels --===//
//
// For every kernel of the corpus (examples/ and test/corpus/, compiled by
// skmd-cc at build time) and random launches and group ranges: the
// footprint of a range of groups, computed from group boxes, equals the
// union of the groups' own footprints.
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "common/KernelHarness.h"

using skmd::test::corpusDir;

#include <gtest/gtest.h>

#include <dirent.h>
#include <random>

using namespace skmd;

namespace {

std::vector<std::string> corpusBundles() {
  std::vector<std::string> Out;
  std::string Dir = corpusDir();
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string Name = E->d_name;
      if (Name.size() > 5 && Name.substr(Name.size() - 5) == ".skmd")
        Out.push_back(Dir + "/" + Name);
    }
    closedir(D);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

LaunchValues randomLaunch(const KernelInfo &K, std::mt19937_64 &Rng) {
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  };
  LaunchValues L;
  for (unsigned D = 0; D < 3; ++D) {
    L.LocalSize[D] = K.ReqdWorkGroupSize[D] ? K.ReqdWorkGroupSize[D]
                                            : std::array<int64_t, 5>{1, 2, 3, 4, 8}[Pick(0, 4)];
    L.NumGroups[D] = Pick(1, 5);
    L.GlobalOffset[D] = Pick(0, 2);
  }
  for (const KernelArg &A : K.Args)
    L.Args.push_back(A.Kind == ArgKind::Scalar ? std::optional<int64_t>(Pick(0, 40))
                                               : std::nullopt);
  return L;
}

TEST(FootprintCorpus, RangeEqualsUnionOfGroups) {
  std::vector<std::string> Bundles = corpusBundles();
  ASSERT_GE(Bundles.size(), 9u) << "the corpus was not built into " << corpusDir();
  std::mt19937_64 Rng(20261122);
  unsigned Checked = 0;
  for (const std::string &Path : Bundles) {
    auto B = Bundle::fromFile(Path);
    ASSERT_TRUE(B.ok()) << B.error().message();
    for (const KernelInfo &K : B->metadata().Kernels) {
      for (const ArgFootprint &Arg : K.Footprint.Args) {
        if (Arg.Kind == FootprintKind::Whole)
          continue;
        for (int Trial = 0; Trial < 40; ++Trial) {
          LaunchValues L = randomLaunch(K, Rng);
          int64_t Total = L.NumGroups[0] * L.NumGroups[1] * L.NumGroups[2];
          int64_t First = std::uniform_int_distribution<int64_t>(0, Total - 1)(Rng);
          int64_t Count = std::uniform_int_distribution<int64_t>(1, Total - First)(Rng);

          auto Range = rangeFootprint(K.Footprint, Arg, L, First, Count);
          ASSERT_TRUE(Range.ok()) << K.Name << ": " << Range.error().message();
          IntervalSet FromRange;
          for (const ByteBox &Box : *Range)
            FromRange.add(Box);

          IntervalSet FromGroups;
          for (int64_t G = First; G < First + Count; ++G) {
            L.Group = unflattenGroup(G, L.NumGroups);
            auto One = groupFootprint(K.Footprint, Arg, L);
            ASSERT_TRUE(One.ok()) << K.Name << ": " << One.error().message();
            for (const ByteBox &Box : *One)
              FromGroups.add(Box);
          }
          ASSERT_EQ(FromRange, FromGroups)
              << K.Name << " arg " << Arg.ArgIndex << " groups [" << First
              << ", " << First + Count << ")";
          ++Checked;
        }
      }
    }
  }
  // Every affine buffer of every kernel was tried.
  EXPECT_GE(Checked, 40u * 20u);
}

} // namespace
