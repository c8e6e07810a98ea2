//===- Bound.cpp - The least time any split of a launch could take --------===//
#include "planning/Bound.h"

#include <algorithm>
#include <numeric>

namespace skmd {

namespace {

double clean(double Ms) { return std::isnan(Ms) ? INFINITY : std::max(Ms, 0.0); }

/// The longest of a share's kernel and copies: its time in a perfect
/// pipeline.
double shareMs(const BoundDevice &D, uint64_t N) {
  if (N == 0)
    return 0;
  double Ms = clean(D.KernelMs(N));
  if (D.InputMs)
    Ms = std::max(Ms, clean(D.InputMs(N)));
  if (D.OutputMs)
    Ms = std::max(Ms, clean(D.OutputMs(N)));
  return Ms;
}

/// The most groups \p D finishes within \p T (its times taken to grow
/// with the groups).
uint64_t groupsWithin(const BoundDevice &D, uint64_t Total, double T) {
  if (shareMs(D, 1) > T)
    return 0;
  uint64_t Lo = 1, Hi = Total;
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo + 1) / 2;
    if (shareMs(D, Mid) <= T)
      Lo = Mid;
    else
      Hi = Mid - 1;
  }
  return Lo;
}

double hostBytes(const BoundDevice &D, uint64_t N) {
  return N && D.HostBytes ? clean(D.HostBytes(N)) : 0;
}

/// Whether every group fits within \p T; the split in \p Groups.
bool feasible(const BoundProblem &P, const std::vector<size_t> &ByHostCost, double T,
              std::vector<uint64_t> &Groups) {
  Groups.assign(P.Devices.size(), 0);
  uint64_t Left = P.TotalGroups;
  double Bytes = 0;
  for (size_t D : ByHostCost) {
    uint64_t Take = std::min(Left, groupsWithin(P.Devices[D], P.TotalGroups, T));
    Groups[D] = Take;
    Bytes += hostBytes(P.Devices[D], Take);
    Left -= Take;
  }
  return Left == 0 && Bytes <= P.HostBytesPerMs * T;
}

} // namespace

BoundResult launchBound(const BoundProblem &P) {
  BoundResult R;
  const size_t K = P.Devices.size();
  R.Groups.assign(K, 0);
  if (K == 0 || P.TotalGroups == 0)
    return R;
  // Devices that cost host memory least per group take groups first.
  std::vector<size_t> Order(K);
  std::iota(Order.begin(), Order.end(), 0);
  std::vector<double> PerGroup(K);
  for (size_t D = 0; D < K; ++D)
    PerGroup[D] = hostBytes(P.Devices[D], P.TotalGroups) / double(P.TotalGroups);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return PerGroup[A] < PerGroup[B]; });

  // An upper end that is feasible: the best device alone, doubled until
  // the host's bytes fit too.
  double Hi = INFINITY;
  for (const BoundDevice &D : P.Devices)
    Hi = std::min(Hi, shareMs(D, P.TotalGroups));
  if (!std::isfinite(Hi)) {
    R.Ms = INFINITY;
    return R;
  }
  Hi = std::max(Hi, 1e-6);
  std::vector<uint64_t> Groups;
  for (unsigned I = 0; I < 64 && !feasible(P, Order, Hi, Groups); ++I)
    Hi *= 2;
  double Lo = 0;
  // To a part in a million: far below what any measurement resolves.
  while (Hi - Lo > Hi * 1e-6) {
    double Mid = (Lo + Hi) / 2;
    if (feasible(P, Order, Mid, Groups))
      Hi = Mid;
    else
      Lo = Mid;
  }
  feasible(P, Order, Hi, R.Groups);
  R.Ms = Hi;

  double Bytes = 0;
  for (size_t D = 0; D < K; ++D)
    Bytes += hostBytes(P.Devices[D], R.Groups[D]);
  if (std::isfinite(P.HostBytesPerMs) && Bytes >= 0.99 * P.HostBytesPerMs * R.Ms) {
    R.Limit = "host memory";
    return R;
  }
  for (size_t D = 0; D < K; ++D) {
    uint64_t N = R.Groups[D];
    if (!N)
      continue;
    const BoundDevice &B = P.Devices[D];
    double Kernel = clean(B.KernelMs(N)), In = B.InputMs ? clean(B.InputMs(N)) : 0,
           Out = B.OutputMs ? clean(B.OutputMs(N)) : 0;
    const char *Part = Kernel >= In && Kernel >= Out ? "kernel" : In >= Out ? "input" : "output";
    R.Limit += (R.Limit.empty() ? "" : ", ") + B.Name + " " + Part;
  }
  return R;
}

} // namespace skmd
