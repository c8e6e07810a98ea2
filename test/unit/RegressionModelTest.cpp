//===- RegressionModelTest.cpp - The paper's model recovers its own form --===//
#include "model/RegressionModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace skmd;

namespace {

/// A device in the paper's form: 0.3 ms fixed, and per group a cost that
/// grows with the input (v, MB) once a few hundred groups are running
/// (g with onset 256 of 4096 and slope 8/4096), plus 1% noise.
double paperForm(double X, double V, std::mt19937 &Rng) {
  double G = std::atan(8.0 / 4096 * (X - 256)) / M_PI + 0.5;
  std::normal_distribution<double> Noise(1.0, 0.01);
  return (0.3 + 0.002 * X * G * V) * Noise(Rng);
}

/// Group counts as the profiler takes them: steps of 4 up to 16, then
/// doubling to \p Max.
std::vector<double> profiledCounts(double Max) {
  std::vector<double> C = {4, 8, 12, 16};
  for (double X = 32; X <= Max; X *= 2)
    C.push_back(X);
  return C;
}

TEST(RegressionModel, RecoversThePapersFunctionalForm) {
  std::mt19937 Rng(11);
  std::vector<ProfileSample> Profile;
  // Profiled at two input sizes, like the paper's Table III...
  for (double V : {2.0, 8.0})
    for (double X : profiledCounts(4096))
      for (int Rep = 0; Rep < 2; ++Rep)
        Profile.push_back({X, {V}, paperForm(X, V, Rng)});
  auto M = RegressionModel::fit(Profile);
  ASSERT_TRUE(M.ok()) << M.error().message();
  // ...predicted at others, for counts of at least 10% of the range.
  std::vector<double> Err;
  std::uniform_real_distribution<double> Count(410, 4096);
  for (double V : {4.0, 6.0})
    for (int I = 0; I < 64; ++I) {
      double X = std::round(Count(Rng));
      double Truth = 0.3 + 0.002 * X * (std::atan(8.0 / 4096 * (X - 256)) / M_PI + 0.5) * V;
      Err.push_back(std::fabs(M->predict(X, {V}) - Truth) / Truth);
    }
  std::sort(Err.begin(), Err.end());
  EXPECT_LT(Err[Err.size() / 2], 0.05) << M->describe();
  EXPECT_LT(M->heldOutError(), 0.05) << M->describe();
}

TEST(RegressionModel, OneLaunchsCurveIsTheModel) {
  std::mt19937 Rng(5);
  std::vector<ProfileSample> Profile;
  for (double V : {2.0, 8.0})
    for (double X : profiledCounts(4096))
      Profile.push_back({X, {V}, paperForm(X, V, Rng)});
  auto M = RegressionModel::fit(Profile);
  ASSERT_TRUE(M.ok()) << M.error().message();
  RegressionModel::OfGroups Curve = M->ofGroups({5.0});
  for (double X : {1.0, 17.0, 300.0, 4000.0})
    EXPECT_NEAR(Curve(X), M->predict(X, {5.0}), 1e-9 * M->predict(X, {5.0}));
}

TEST(RegressionModel, GrowsWithTheGroupsDespiteNoiseAndOutliers) {
  // A linear device with 5% noise and one profile among the larger counts
  // taken while something else ran (three times slower): the fit must not
  // bend to it, and must never fall as groups are added (the partitioner
  // relies on that). (An outlier at the largest count alone cannot be
  // told from a real rise, e.g. data outgrowing a cache.)
  std::mt19937 Rng(3);
  std::normal_distribution<double> Noise(1.0, 0.05);
  std::vector<ProfileSample> Profile;
  for (double X : profiledCounts(8192))
    Profile.push_back({X, {}, (0.05 + 0.01 * X) * Noise(Rng)});
  Profile[Profile.size() - 3].Ms *= 3; // 2048 groups

  auto M = RegressionModel::fit(Profile);
  ASSERT_TRUE(M.ok()) << M.error().message();
  EXPECT_NEAR(M->predict(6000, {}), 60.05, 60.05 * 0.1) << M->describe();
  double Last = 0;
  for (double X = 1; X <= 8192; X += 7) {
    double Y = M->predict(X, {});
    EXPECT_GE(Y, Last) << "at " << X;
    Last = Y;
  }
}

TEST(RegressionModel, BadProfilesAreRefusedOrCleaned) {
  EXPECT_FALSE(RegressionModel::fit({}).ok());
  EXPECT_FALSE(RegressionModel::fit({{16, {}, 1.0}}).ok());
  // NaN and negative timings are dropped; what remains must still do.
  std::vector<ProfileSample> S = {{4, {}, NAN}, {8, {}, -1}, {16, {}, 1.0}, {32, {}, 2.0}};
  auto Few = RegressionModel::fit(S);
  ASSERT_FALSE(Few.ok());
  EXPECT_NE(Few.error().message().find("at least 4 valid samples, 2 given"), std::string::npos);
  for (double X : {64.0, 128.0, 256.0, 512.0})
    S.push_back({X, {}, X / 16});
  auto M = RegressionModel::fit(S);
  ASSERT_TRUE(M.ok()) << M.error().message();
  EXPECT_NEAR(M->predict(1024, {}), 64, 64 * 0.1);
  EXPECT_GE(M->predict(1, {}), 0.0);
  // Mixed variable counts are an error, not a crash.
  S.push_back({8, {1.0}, 1.0});
  EXPECT_FALSE(RegressionModel::fit(S).ok());
}

// A launch of fewer groups than a fit needs: the line through the origin
// and the measured counts (the best of repeats), defined everywhere.
TEST(RegressionModel, FewSamplesOfOneLaunchInterpolate) {
  auto M = RegressionModel::interpolating({{1, {2.0}, 1.0}, {2, {2.0}, 1.5}, {2, {2.0}, 9.0},
                                           {3, {2.0}, 2.5}, {4, {2.0}, NAN}});
  ASSERT_TRUE(M.ok()) << M.error().message();
  EXPECT_DOUBLE_EQ(M->predict(0.5, {2.0}), 0.5);
  EXPECT_DOUBLE_EQ(M->predict(2, {2.0}), 1.5);
  EXPECT_DOUBLE_EQ(M->predict(2.5, {2.0}), 2.0);
  EXPECT_DOUBLE_EQ(M->predict(6, {2.0}), 5.0); // 2.5 ms per 3 groups
  EXPECT_DOUBLE_EQ(M->ofGroups({2.0})(2.5), 2.0);
  // One sample: proportional to the groups.
  auto One = RegressionModel::interpolating({{1, {}, 0.4}});
  ASSERT_TRUE(One.ok());
  EXPECT_DOUBLE_EQ(One->predict(3, {}), 1.2);
  EXPECT_FALSE(RegressionModel::interpolating({}).ok());
  EXPECT_FALSE(RegressionModel::interpolating({{1, {1.0}, 1.0}, {2, {2.0}, 1.0}}).ok());
}

} // namespace
