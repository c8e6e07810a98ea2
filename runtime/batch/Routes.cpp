//===- Routes.cpp - How fast copies go, alone and beside each other ------===//

#include "batch/Routes.h"

#include <algorithm>
#include <limits>

namespace skmd {

std::string routeName(const Route &R, const std::vector<std::string> &DeviceNames) {
  auto Side = [&](int S) -> std::string {
    if (S == HostSide)
      return "host";
    if (S >= 0 && size_t(S) < DeviceNames.size())
      return DeviceNames[S];
    return "device" + std::to_string(S);
  };
  return Side(R.From) + ">" + Side(R.To) + (R.Pageable ? " pageable" : "");
}

std::vector<double> shareRates(const std::vector<Flow> &Flows,
                               const std::vector<double> &Capacities) {
  std::vector<double> Rate(Flows.size(), 0);
  std::vector<bool> Frozen(Flows.size(), false);
  // What the frozen flows already take from each limit.
  std::vector<double> Used(Capacities.size(), 0);
  size_t Left = 0;
  for (size_t F = 0; F < Flows.size(); ++F) {
    if (Flows[F].Alone > 0 && Flows[F].Share > 0)
      ++Left;
    else
      Frozen[F] = true; // nothing to move: rate 0
  }
  auto FractionOf = [&](size_t F, double Level) { return std::min(1.0, Flows[F].Share * Level); };
  while (Left) {
    // The level at which a limit fills, every unfrozen flow at its share
    // of it; or where the first flow reaches its rate alone.
    std::vector<double> Demand(Capacities.size(), 0);
    double Level = std::numeric_limits<double>::infinity();
    for (size_t F = 0; F < Flows.size(); ++F)
      if (!Frozen[F]) {
        for (auto [L, W] : Flows[F].Loads)
          Demand[L] += W * Flows[F].Share * Flows[F].Alone;
        Level = std::min(Level, 1 / Flows[F].Share);
      }
    for (size_t L = 0; L < Capacities.size(); ++L)
      if (Demand[L] > 0)
        Level = std::min(Level, std::max(0.0, Capacities[L] - Used[L]) / Demand[L]);
    // Freeze the flows of every limit now full, and those at their rate
    // alone.
    std::vector<bool> Full(Capacities.size(), false);
    for (size_t L = 0; L < Capacities.size(); ++L)
      Full[L] = Demand[L] > 0 && Level * Demand[L] >= (Capacities[L] - Used[L]) * (1 - 1e-12);
    for (size_t F = 0; F < Flows.size(); ++F) {
      if (Frozen[F])
        continue;
      bool Freeze = Flows[F].Share * Level >= 1 - 1e-12;
      for (auto [L, W] : Flows[F].Loads)
        Freeze |= Full[L];
      if (!Freeze)
        continue;
      Rate[F] = FractionOf(F, Level) * Flows[F].Alone;
      Frozen[F] = true;
      --Left;
      for (auto [L, W] : Flows[F].Loads)
        Used[L] += W * Rate[F];
    }
  }
  return Rate;
}

} // namespace skmd
