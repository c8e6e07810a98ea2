//===- Plan.cpp - Which groups each device runs ---------------------------===//
#include "planning/Plan.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace skmd {

namespace {

/// A device's share of the proportional plan; one busy with others' work
/// (DeviceInfo::OtherUsers; for the CPU, \p HostOthers processes on this
/// node) counts as that many times slower.
double throughputWeight(const DeviceInfo &D, unsigned HostOthers) {
  unsigned Others = D.Kind == DeviceKind::Cpu ? HostOthers : D.OtherUsers;
  return double(std::max(1u, D.ComputeUnits)) * std::max(1u, D.LanesPerUnit) / (1.0 + Others);
}

std::string deviceNames(const std::vector<const DeviceInfo *> &Devices) {
  std::string S;
  for (const DeviceInfo *D : Devices)
    S += (S.empty() ? "" : ", ") + D->Name;
  return S;
}

/// Below this share of the groups a device of the proportional rule gets
/// none: a split gains at most the smaller side's share, and every side
/// costs copies and a hand-off (16 CPU threads beside a GPU of 132 SMs
/// would get 0.4% of every launch).
constexpr double MinProportionalShare = 0.05;

/// Zeroes the weights under MinProportionalShare of the sum, the largest
/// kept.
void dropSmallShares(std::vector<double> &Weights) {
  double Sum = std::accumulate(Weights.begin(), Weights.end(), 0.0);
  if (!(Sum > 0))
    return;
  double Largest = *std::max_element(Weights.begin(), Weights.end());
  for (double &W : Weights)
    if (W < MinProportionalShare * Sum && W < Largest)
      W = 0;
}

/// Takes a trailing "@N" (chunks) off \p Item; 1 without one, 0 when N is
/// not a whole number from 1 to 1024.
unsigned takeChunks(std::string &Item) {
  size_t At = Item.rfind('@');
  if (At == std::string::npos)
    return 1;
  std::string N = Item.substr(At + 1);
  Item.resize(At);
  char *End = nullptr;
  unsigned long V = std::strtoul(N.c_str(), &End, 10);
  if (N.empty() || *End != '\0' || N[0] == '-' || V < 1 || V > 1024)
    return 0;
  return unsigned(V);
}

} // namespace

std::vector<Piece> splitByWeights(const std::vector<double> &Weights,
                                  uint64_t Total) {
  double Sum = std::accumulate(Weights.begin(), Weights.end(), 0.0);
  if (!(Sum > 0))
    return {};
  std::vector<uint64_t> Counts(Weights.size());
  std::vector<std::pair<double, size_t>> Remainders;
  uint64_t Given = 0;
  for (size_t I = 0; I < Weights.size(); ++I) {
    double Exact = Sum > 0 ? double(Total) * Weights[I] / Sum : 0;
    Counts[I] = uint64_t(std::floor(Exact));
    Given += Counts[I];
    Remainders.push_back({Exact - double(Counts[I]), I});
  }
  std::stable_sort(Remainders.begin(), Remainders.end(),
                   [](auto &A, auto &B) { return A.first > B.first; });
  // What rounding down left goes to the largest remainders; never to a
  // device of weight 0.
  for (size_t I = 0; Given < Total; I = (I + 1) % Remainders.size())
    if (Weights[Remainders[I].second] > 0) {
      ++Counts[Remainders[I].second];
      ++Given;
    }
  std::vector<Piece> Pieces;
  uint64_t First = 0;
  for (size_t I = 0; I < Counts.size(); ++I)
    if (Counts[I]) {
      Pieces.push_back({unsigned(I), First, Counts[I]});
      First += Counts[I];
    }
  return Pieces;
}

Result<std::vector<Piece>> makePlan(const std::string &Plan,
                                    const std::vector<const DeviceInfo *> &Devices,
                                    uint64_t TotalGroups, const std::string &Kernel,
                                    const std::string &WhyNotSplittable) {
  const bool Splittable = WhyNotSplittable.empty();
  if (Devices.empty())
    return Failure(ErrorCode::NoDevice, "no devices to run on");
  auto Find = [&](const std::string &Name) -> int {
    for (size_t I = 0; I < Devices.size(); ++I)
      if (Devices[I]->Name == Name)
        return int(I);
    return -1;
  };
  // The plans that weigh the devices leave out those the device list left
  // out (DeviceInfo::InPlans).
  std::vector<double> Proportional, Even;
  const unsigned HostOthers = othersOnThisHost(Devices);
  for (const DeviceInfo *D : Devices) {
    Proportional.push_back(D->InPlans ? throughputWeight(*D, HostOthers) : 0.0);
    Even.push_back(D->InPlans ? 1.0 : 0.0);
  }
  dropSmallShares(Proportional);

  if (Plan.empty() || Plan == "proportional") {
    if (Splittable)
      return splitByWeights(Proportional, TotalGroups);
    size_t Best = size_t(std::max_element(Proportional.begin(), Proportional.end()) -
                         Proportional.begin());
    return std::vector<Piece>{{unsigned(Best), 0, TotalGroups}};
  }
  auto BadChunks = [&](const std::string &Item) {
    return Failure(ErrorCode::InvalidArgument,
                   "plan '" + Plan + "': '" + Item +
                       "' asks for a number of chunks that is not 1 to 1024 (e.g. gpu0@4)");
  };
  {
    std::string Name = Plan;
    unsigned Chunks = takeChunks(Name);
    if (int I = Find(Name); I >= 0) {
      if (!Chunks)
        return BadChunks(Plan);
      if (Chunks > 1 && !Splittable)
        return Failure(ErrorCode::InvalidArgument,
                       "plan '" + Plan + "' runs kernel '" + Kernel +
                           "' in chunks, but it cannot be split: " + WhyNotSplittable);
      return std::vector<Piece>{{unsigned(I), 0, TotalGroups, Chunks}};
    }
  }

  auto Unsplittable = [&]() -> Failure {
    return Failure(ErrorCode::InvalidArgument,
                   "plan '" + Plan + "' splits the groups, but kernel '" + Kernel +
                       "' cannot be split across devices: " + WhyNotSplittable +
                       "; name one device as the plan");
  };
  if (Plan == "even") {
    if (!Splittable && std::count(Even.begin(), Even.end(), 1.0) > 1)
      return Unsplittable();
    return splitByWeights(Even, TotalGroups);
  }
  if (Plan.rfind("manual:", 0) == 0) {
    std::vector<double> Weights(Devices.size(), 0.0);
    std::vector<unsigned> Chunks(Devices.size(), 1);
    std::string Spec = Plan.substr(7);
    size_t Pos = 0;
    unsigned Named = 0;
    while (Pos <= Spec.size()) {
      size_t Comma = Spec.find(',', Pos);
      std::string Item = Spec.substr(Pos, Comma == std::string::npos ? std::string::npos
                                                                     : Comma - Pos);
      size_t Eq = Item.find('=');
      if (Eq == std::string::npos)
        return Failure(ErrorCode::InvalidArgument,
                       "plan '" + Plan + "': '" + Item +
                           "' is not device=share (e.g. manual:cpu=0.3,gpu0=0.7)");
      std::string Name = Item.substr(0, Eq);
      int I = Find(Name);
      if (I < 0)
        return Failure(ErrorCode::NoDevice, "plan '" + Plan + "': no device '" +
                                                Name + "' (devices: " +
                                                deviceNames(Devices) + ")");
      char *End = nullptr;
      std::string Value = Item.substr(Eq + 1);
      Chunks[size_t(I)] = takeChunks(Value);
      if (!Chunks[size_t(I)])
        return BadChunks(Item);
      double W = std::strtod(Value.c_str(), &End);
      if (Value.empty() || *End != '\0' || !(W >= 0) || std::isinf(W))
        return Failure(ErrorCode::InvalidArgument,
                       "plan '" + Plan + "': share '" + Value + "' of " + Name +
                           " is not a non-negative number");
      Weights[size_t(I)] += W;
      Named += W > 0;
      if (Comma == std::string::npos)
        break;
      Pos = Comma + 1;
    }
    if (Named == 0)
      return Failure(ErrorCode::InvalidArgument,
                     "plan '" + Plan + "' gives no device a share");
    if (!Splittable && Named > 1)
      return Unsplittable();
    std::vector<Piece> Pieces = splitByWeights(Weights, TotalGroups);
    for (Piece &P : Pieces)
      P.Chunks = Chunks[P.Device];
    if (!Splittable && Pieces.size() == 1 && Pieces[0].Chunks > 1)
      return Unsplittable();
    return Pieces;
  }
  return Failure(ErrorCode::InvalidArgument,
                 "unknown plan '" + Plan + "': use proportional, even, "
                 "manual:<device>=<share>[@<chunks>],..., or a device name[@<chunks>] (" +
                     deviceNames(Devices) + ")");
}

} // namespace skmd
