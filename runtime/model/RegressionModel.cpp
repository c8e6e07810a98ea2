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
  if (S.size() < 4)
    return Failure(ErrorCode::InvalidArgument,
                   "a model needs at least 4 valid samples, " + std::to_string(S.size()) +
                       " given");
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

void RegressionModel::fitTerms(const std::vector<ProfileSample> &S) {
  // Standardized features: columns span many orders of magnitude (v^3).
  const size_t N = S.size(), F = Terms.size();
  Eigen::MatrixXd X(N, F);
  Eigen::VectorXd Y(N);
  for (size_t I = 0; I < N; ++I) {
    for (size_t J = 0; J < F; ++J)
      X(Eigen::Index(I), Eigen::Index(J)) = feature(Terms[J], S[I].Groups, S[I].Vars);
    Y(Eigen::Index(I)) = S[I].Ms;
  }
  Mean.resize(F);
  Scale.resize(F);
  for (size_t J = 0; J < F; ++J) {
    Eigen::Index C = Eigen::Index(J);
    double Mu = X.col(C).mean();
    double Sd = std::sqrt((X.col(C).array() - Mu).square().mean());
    Mean[J] = Mu;
    Scale[J] = Sd > 0 ? Sd : 1;
    X.col(C) = (X.col(C).array() - Mu) / Scale[J];
  }

  // Ridge on rows Train, giving the coefficients and the intercept.
  auto Solve = [&](const std::vector<size_t> &Train, double L, Eigen::VectorXd &B,
                   double &B0) {
    Eigen::MatrixXd A(Train.size(), F);
    Eigen::VectorXd R(Train.size());
    for (size_t K = 0; K < Train.size(); ++K) {
      A.row(Eigen::Index(K)) = X.row(Eigen::Index(Train[K]));
      R(Eigen::Index(K)) = Y(Eigen::Index(Train[K]));
    }
    B0 = R.mean();
    Eigen::VectorXd Centered = R.array() - B0;
    Eigen::RowVectorXd ColMean = A.colwise().mean();
    A.rowwise() -= ColMean;
    Eigen::MatrixXd Gram = A.transpose() * A;
    Gram.diagonal().array() += L * double(Train.size());
    B = Gram.ldlt().solve(A.transpose() * Centered);
    B0 -= ColMean.dot(B);
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
    Eigen::VectorXd B;
    double B0;
    Solve(Train, L, B, B0);
    std::vector<double> Err;
    for (size_t I : Test) {
      double P = B0 + X.row(Eigen::Index(I)).dot(B);
      Err.push_back(std::fabs(std::max(P, 0.0) - Y(Eigen::Index(I))) /
                    std::max(std::fabs(Y(Eigen::Index(I))), 1e-9));
    }
    if (double E = median(Err); E < HeldOut) {
      HeldOut = E;
      Lambda = L;
    }
  }
  Eigen::VectorXd B;
  Solve(Every, Lambda, B, Intercept);
  Beta.assign(B.data(), B.data() + B.size());
}

double RegressionModel::predict(double Groups, const std::vector<double> &Vars) const {
  double Y = Intercept;
  for (size_t J = 0; J < Terms.size(); ++J)
    Y += Beta[J] * (feature(Terms[J], Groups, Vars) - Mean[J]) / Scale[J];
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
