//===- RegressionModel.cpp - Kernel time from profiles --------------------===//
#include "model/RegressionModel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace skmd {

namespace {

double h(int H, double V) {
  switch (H) {
  case 1:
    return V;
  case 2:
    return V > 0 ? V * std::log(V) : 0;
  case 3:
    return V * V;
  case 4:
    return V * V * V;
  default:
    return 1;
  }
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::nth_element(V.begin(), V.begin() + V.size() / 2, V.end());
  return V[V.size() / 2];
}

} // namespace

double RegressionModel::feature(const Term &T, double X,
                                const std::vector<double> &Vars) const {
  double G = std::atan(T.A * (X - T.B)) / M_PI + 0.5;
  double V = T.Var < 0 ? 1 : h(T.H, Vars[size_t(T.Var)]);
  return X * G * V;
}

Result<RegressionModel> RegressionModel::fit(const std::vector<ProfileSample> &All) {
  std::vector<ProfileSample> S;
  for (const ProfileSample &P : All)
    if (std::isfinite(P.Ms) && P.Ms >= 0 && std::isfinite(P.Groups) && P.Groups > 0)
      S.push_back(P);
  if (S.size() < MinFitSamples)
    return Failure(ErrorCode::InvalidArgument,
                   "a model needs at least " + std::to_string(MinFitSamples) +
                       " valid samples, " + std::to_string(S.size()) + " given");
  size_t NumVars = S.front().Vars.size();
  for (const ProfileSample &P : S)
    if (P.Vars.size() != NumVars)
      return Failure(ErrorCode::InvalidArgument,
                     "samples have different numbers of variables");
  double MaxX = 0;
  for (const ProfileSample &P : S)
    MaxX = std::max(MaxX, P.Groups);

  // One candidate per complexity h of the variables (h = 1 only, then v,
  // v log v, v^2, v^3 for every variable), each on the grid of g's slopes
  // and onsets (in units of the largest count seen). Profiles often hold
  // two or three values of a variable, which several h fit alike: the
  // simplest wins unless a more complex one is clearly better on the
  // held-out samples.
  RegressionModel Best;
  bool Have = false;
  for (int H = 0; H <= (NumVars ? 4 : 0); ++H) {
    RegressionModel M;
    for (double Slope : {1.0, 8.0, 64.0, 512.0})
      for (double Onset : {0.0, 1.0 / 64, 1.0 / 16, 1.0 / 4}) {
        M.Terms.push_back({Slope / MaxX, Onset * MaxX, -1, 0});
        if (H > 0)
          for (int Var = 0; Var < int(NumVars); ++Var)
            M.Terms.push_back({Slope / MaxX, Onset * MaxX, Var, H});
      }
    M.fitTerms(S);
    if (!Have || M.HeldOut < 0.8 * Best.HeldOut - 0.002) {
      Best = std::move(M);
      Have = true;
    }
  }
  return Best;
}

Result<RegressionModel> RegressionModel::interpolating(const std::vector<ProfileSample> &All) {
  RegressionModel M;
  for (const ProfileSample &P : All) {
    if (!(std::isfinite(P.Ms) && P.Ms >= 0 && std::isfinite(P.Groups) && P.Groups > 0))
      continue;
    if (P.Vars != All.front().Vars)
      return Failure(ErrorCode::InvalidArgument,
                     "fewer than " + std::to_string(MinFitSamples) +
                         " samples, not all of one launch shape");
    M.Points.push_back({P.Groups, P.Ms});
  }
  if (M.Points.empty())
    return Failure(ErrorCode::InvalidArgument, "no valid samples");
  // The best time of each count: a repeat count's slower run is
  // interference.
  std::sort(M.Points.begin(), M.Points.end());
  std::vector<std::pair<double, double>> Best;
  for (const auto &P : M.Points)
    if (Best.empty() || P.first != Best.back().first)
      Best.push_back(P);
  M.Points = std::move(Best);
  return M;
}

namespace {

/// Piecewise linear through (0, 0) and \p Points.
double interpolate(const std::vector<std::pair<double, double>> &Points, double X) {
  double X0 = 0, Y0 = 0;
  for (const auto &[X1, Y1] : Points) {
    if (X <= X1)
      return Y0 + (Y1 - Y0) * (X - X0) / (X1 - X0);
    X0 = X1;
    Y0 = Y1;
  }
  return Y0 * X / X0;
}

/// Lawson and Hanson's active-set method for min |A x - b| with x >= 0, on
/// the normal equations (\p G = A^T A, \p Atb = A^T b; few columns).
Eigen::VectorXd nonNegativeLeastSquares(const Eigen::MatrixXd &G, const Eigen::VectorXd &Atb) {
  const Eigen::Index N = G.cols();
  Eigen::VectorXd X = Eigen::VectorXd::Zero(N);
  std::vector<bool> Active(size_t(N), false);
  const double Tol = 1e-12 * std::max(1.0, Atb.cwiseAbs().maxCoeff());
  // The unconstrained optimum over the active columns, zero elsewhere.
  auto SolveActive = [&]() {
    std::vector<Eigen::Index> Idx;
    for (Eigen::Index J = 0; J < N; ++J)
      if (Active[size_t(J)])
        Idx.push_back(J);
    Eigen::MatrixXd Gp(Idx.size(), Idx.size());
    Eigen::VectorXd Bp(Idx.size());
    for (size_t I = 0; I < Idx.size(); ++I) {
      Bp(Eigen::Index(I)) = Atb(Idx[I]);
      for (size_t K = 0; K < Idx.size(); ++K)
        Gp(Eigen::Index(I), Eigen::Index(K)) = G(Idx[I], Idx[K]);
    }
    Eigen::VectorXd Sp = Gp.ldlt().solve(Bp);
    Eigen::VectorXd S = Eigen::VectorXd::Zero(N);
    for (size_t I = 0; I < Idx.size(); ++I)
      S(Idx[I]) = Sp(Eigen::Index(I));
    return S;
  };
  for (Eigen::Index Outer = 0; Outer < 3 * N; ++Outer) {
    Eigen::VectorXd W = Atb - G * X; // The negative gradient.
    Eigen::Index Enter = -1;
    double Most = Tol;
    for (Eigen::Index J = 0; J < N; ++J)
      if (!Active[size_t(J)] && W(J) > Most) {
        Most = W(J);
        Enter = J;
      }
    if (Enter < 0)
      break;
    Active[size_t(Enter)] = true;
    for (Eigen::Index Inner = 0; Inner < 3 * N; ++Inner) {
      Eigen::VectorXd S = SolveActive();
      double Alpha = 1;
      bool Feasible = true;
      for (Eigen::Index J = 0; J < N; ++J)
        if (Active[size_t(J)] && S(J) <= 0) {
          Feasible = false;
          Alpha = std::min(Alpha, X(J) / std::max(X(J) - S(J), 1e-300));
        }
      if (Feasible) {
        X = S;
        break;
      }
      X += Alpha * (S - X);
      for (Eigen::Index J = 0; J < N; ++J)
        if (Active[size_t(J)] && X(J) <= Tol) {
          Active[size_t(J)] = false;
          X(J) = 0;
        }
    }
  }
  return X;
}

} // namespace

void RegressionModel::fitTerms(const std::vector<ProfileSample> &S) {
  // Columns: the terms, then the intercept (the fixed cost), each scaled
  // to unit RMS, since they span many orders of magnitude (v^3).
  // Coefficients are non-negative: each term grows with the group count,
  // so the model does too, as a device's time must (unconstrained fits
  // wiggle, and a partitioner would chase the wiggles).
  const size_t N = S.size(), F = Terms.size() + 1;
  Eigen::MatrixXd X(N, F);
  Eigen::VectorXd Y(N), RowWeight(N);
  for (size_t I = 0; I < N; ++I) {
    for (size_t J = 0; J + 1 < F; ++J)
      X(Eigen::Index(I), Eigen::Index(J)) = feature(Terms[J], S[I].Groups, S[I].Vars);
    X(Eigen::Index(I), Eigen::Index(F - 1)) = 1;
    Y(Eigen::Index(I)) = S[I].Ms;
  }
  // Errors count relative to the time (what the held-out error and the
  // partitioner care about), softened so that the noise of the tiniest
  // profiles does not rule: weight 1 / sqrt(time).
  double Floor = std::max(1e-6, 0.01 * Y.maxCoeff());
  for (size_t I = 0; I < N; ++I)
    RowWeight(Eigen::Index(I)) = 1 / std::sqrt(std::max(Y(Eigen::Index(I)), Floor));
  std::vector<double> Scale(F);
  for (size_t J = 0; J < F; ++J) {
    Eigen::Index C = Eigen::Index(J);
    double Rms = std::sqrt(X.col(C).array().square().mean());
    Scale[J] = Rms > 0 ? Rms : 1;
    X.col(C) /= Scale[J];
  }

  // Ridge on rows Train (the intercept not penalized).
  auto Solve = [&](const std::vector<size_t> &Train, double L) {
    Eigen::MatrixXd A(Train.size(), F);
    Eigen::VectorXd B(Train.size());
    for (size_t K = 0; K < Train.size(); ++K) {
      double Wt = RowWeight(Eigen::Index(Train[K]));
      A.row(Eigen::Index(K)) = Wt * X.row(Eigen::Index(Train[K]));
      B(Eigen::Index(K)) = Wt * Y(Eigen::Index(Train[K]));
    }
    Eigen::MatrixXd G = A.transpose() * A;
    double Mean = G.diagonal().mean();
    for (size_t J = 0; J + 1 < F; ++J)
      G(Eigen::Index(J), Eigen::Index(J)) += L * Mean;
    return nonNegativeLeastSquares(G, A.transpose() * B);
  };

  // Every fifth sample held out to choose the regularization.
  std::vector<size_t> Train, Test, Every;
  for (size_t I = 0; I < N; ++I) {
    (I % 5 == 4 ? Test : Train).push_back(I);
    Every.push_back(I);
  }
  if (Test.empty() || Train.size() < 3)
    Test = Train = Every;
  HeldOut = INFINITY;
  for (double L : {1e-9, 1e-7, 1e-5, 1e-3, 1e-1}) {
    Eigen::VectorXd B = Solve(Train, L);
    std::vector<double> Err;
    for (size_t I : Test) {
      double P = X.row(Eigen::Index(I)).dot(B);
      Err.push_back(std::fabs(P - Y(Eigen::Index(I))) /
                    std::max(std::fabs(Y(Eigen::Index(I))), 1e-9));
    }
    if (double E = median(Err); E < HeldOut) {
      HeldOut = E;
      Lambda = L;
    }
  }
  Eigen::VectorXd B = Solve(Every, Lambda);
  // One round against outliers (a profile taken while something else ran):
  // samples far off the fit, relative to the typical miss, leave the final
  // fit.
  std::vector<double> Miss(N);
  for (size_t I = 0; I < N; ++I)
    Miss[I] = std::fabs(X.row(Eigen::Index(I)).dot(B) - Y(Eigen::Index(I))) /
              std::max(std::fabs(Y(Eigen::Index(I))), 1e-9);
  double Cut = std::max(0.1, 4 * median(Miss));
  std::vector<size_t> Kept;
  for (size_t I = 0; I < N; ++I)
    if (Miss[I] <= Cut)
      Kept.push_back(I);
  if (Kept.size() < N && Kept.size() >= 4)
    B = Solve(Kept, Lambda);
  Beta.resize(F - 1);
  for (size_t J = 0; J + 1 < F; ++J)
    Beta[J] = B(Eigen::Index(J)) / Scale[J];
  Intercept = B(Eigen::Index(F - 1)) / Scale[F - 1];
}

double RegressionModel::predict(double Groups, const std::vector<double> &Vars) const {
  if (!Points.empty())
    return interpolate(Points, Groups);
  double Y = Intercept;
  for (size_t J = 0; J < Terms.size(); ++J)
    if (Beta[J] != 0)
      Y += Beta[J] * feature(Terms[J], Groups, Vars);
  return std::isfinite(Y) ? std::max(Y, 0.0) : Y;
}

RegressionModel::OfGroups RegressionModel::ofGroups(const std::vector<double> &Vars) const {
  OfGroups F;
  F.Points = Points;
  F.Intercept = Intercept;
  for (size_t J = 0; J < Terms.size(); ++J) {
    if (Beta[J] == 0)
      continue;
    const Term &T = Terms[J];
    double C = Beta[J] * (T.Var < 0 ? 1 : h(T.H, Vars[size_t(T.Var)]));
    auto Same = std::find_if(F.Steps.begin(), F.Steps.end(), [&](const OfGroups::Step &S) {
      return S.A == T.A && S.B == T.B;
    });
    if (Same != F.Steps.end())
      Same->C += C;
    else
      F.Steps.push_back({T.A, T.B, C});
  }
  return F;
}

double RegressionModel::OfGroups::operator()(double X) const {
  if (!Points.empty())
    return interpolate(Points, X);
  double Sum = 0;
  for (const Step &S : Steps)
    Sum += S.C * (std::atan(S.A * (X - S.B)) / M_PI + 0.5);
  double Y = Intercept + X * Sum;
  return std::isfinite(Y) ? std::max(Y, 0.0) : Y;
}

std::string RegressionModel::describe() const {
  std::vector<size_t> Order(Terms.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::fabs(Beta[A]) > std::fabs(Beta[B]);
  });
  std::ostringstream OS;
  OS << Terms.size() << " terms, ridge lambda " << Lambda << ", held-out median error "
     << HeldOut * 100 << "%; largest:";
  static const char *HName[] = {"1", "v", "v log v", "v^2", "v^3"};
  for (size_t K = 0; K < std::min<size_t>(3, Order.size()); ++K) {
    const Term &T = Terms[Order[K]];
    OS << " [x g(a=" << T.A << ", b=" << T.B << ") "
       << (T.Var < 0 ? "1" : std::string(HName[T.H]) + "(v" + std::to_string(T.Var) + ")")
       << "]";
  }
  return OS.str();
}

} // namespace skmd
