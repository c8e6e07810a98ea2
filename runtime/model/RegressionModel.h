//===- RegressionModel.h - Kernel time from profiles -------------*- C++ -*-===//
//
// The SKMD paper's performance model (section 3.3, equations 2-4): a
// linear regression on transformed variables,
//
//   time = b0 + sum_k b_k * x * g_ab(x) * h(v_j)
//   g_ab(x) = atan(a (x - b)) / pi + 0.5
//
// where x is the number of work-groups a device runs, v_j the launch's
// other variables (buffer sizes, scalar values, work-items), h one of
// 1, v, v log v, v^2, v^3 and (a, b) a grid of slopes and onsets: g rises
// from 0 to 1, so x g(x) is flat for few groups (a GPU's fixed costs) and
// linear for many; the solver weights the (a, b) that fit.
//
// One candidate model per h (the same h for every variable), each fitted
// by ridge (regularized least squares) on standardized features with
// Eigen, its regularization chosen by the error on held-out samples
// (every fifth); the simplest h wins unless a more complex one is clearly
// better held out, since profiles taken at two or three sizes fit several
// h alike and only the simplest tends to predict the sizes in between.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_MODEL_REGRESSIONMODEL_H
#define SKMD_MODEL_REGRESSIONMODEL_H

#include "support/Result.h"

#include <string>
#include <utility>
#include <vector>

namespace skmd {

/// One profiled launch.
struct ProfileSample {
  double Groups = 0;            ///< Work-groups the device ran.
  std::vector<double> Vars;     ///< The launch's other variables.
  double Ms = 0;                ///< Measured time.
};

class RegressionModel {
public:
  /// Fits \p Samples (all with the same number of variables). Needs at
  /// least 4 samples with finite, non-negative times; others are dropped.
  static Result<RegressionModel> fit(const std::vector<ProfileSample> &Samples);
  static constexpr size_t MinFitSamples = 4;
  /// For a launch too small for a fit (fewer than MinFitSamples counts):
  /// the line through the origin and the samples, all at the same
  /// variables, which it then ignores; past the last sample, that
  /// sample's time per group.
  static Result<RegressionModel> interpolating(const std::vector<ProfileSample> &Samples);

  /// Predicted ms; never negative.
  double predict(double Groups, const std::vector<double> &Vars) const;

  /// The model for one launch, as a function of the group count alone:
  /// with the other variables fixed the terms of each (a, b) collapse into
  /// one, b0 + x sum_k c_k g_k(x), cheap enough for the partitioner's
  /// thousands of evaluations.
  class OfGroups {
  public:
    double operator()(double Groups) const;

  private:
    friend class RegressionModel;
    struct Step {
      double A, B, C;
    };
    double Intercept = 0;
    std::vector<Step> Steps;
    std::vector<std::pair<double, double>> Points; ///< Of an interpolating model.
  };
  OfGroups ofGroups(const std::vector<double> &Vars) const;
  /// Median relative error on the held-out samples when selected.
  double heldOutError() const { return HeldOut; }
  /// The terms with the largest weights, for people.
  std::string describe() const;

private:
  struct Term {
    double A, B; ///< g's slope and onset, in groups.
    int Var;     ///< -1: h = 1.
    int H;       ///< 1: v, 2: v log v, 3: v^2, 4: v^3.
  };
  double feature(const Term &T, double X, const std::vector<double> &Vars) const;
  /// Fits the coefficients of Terms, choosing the regularization by the
  /// error on every fifth sample, held out.
  void fitTerms(const std::vector<ProfileSample> &S);

  std::vector<Term> Terms;
  std::vector<double> Beta;
  /// (groups, ms) of an interpolating model, by groups; empty for a fit.
  std::vector<std::pair<double, double>> Points;
  double Intercept = 0, HeldOut = 0, Lambda = 0;
};

} // namespace skmd

#endif // SKMD_MODEL_REGRESSIONMODEL_H
