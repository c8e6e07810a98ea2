//===- ResidentPlans.cpp - Plans for launches whose buffers stay on the devices -===//
#include "planning/ResidentPlans.h"

#include <algorithm>

namespace skmd {

std::optional<unsigned> betterAlone(double CurrentMs, uint64_t Launches,
                                    const std::vector<AloneCandidate> &Candidates,
                                    std::optional<unsigned> CurrentlyAlone) {
  // Moving the data is paid once, and a shape launched n times is taken to
  // come n times more.
  const double Spread = double(std::max<uint64_t>(Launches, 1));
  std::optional<unsigned> Best;
  double BestMs = 0.9 * CurrentMs;
  for (const AloneCandidate &C : Candidates) {
    if (CurrentlyAlone && C.Device == *CurrentlyAlone)
      continue;
    double MoveMs = C.LinkGBps > 0 ? double(C.MissingBytes) / (C.LinkGBps * 1e6) : 0;
    double Ms = C.KernelMs + MoveMs / Spread;
    if (Ms < BestMs) {
      BestMs = Ms;
      Best = C.Device;
    }
  }
  return Best;
}

ResidentPlans::Shape &ResidentPlans::shape(const KernelInfo &Info, const NDRange &Range) {
  // The kernel by its metadata's address (alive while it is loaded) and
  // the grid field by field (the struct has padding).
  const KernelInfo *Kernel = &Info;
  std::string Key(reinterpret_cast<const char *>(&Kernel), sizeof Kernel);
  auto Put = [&](uint64_t V) { Key.append(reinterpret_cast<const char *>(&V), sizeof V); };
  Put(Range.WorkDim);
  for (unsigned D = 0; D < 3; ++D) {
    Put(Range.GlobalOffset[D]);
    Put(Range.NumGroups[D]);
    Put(Range.LocalSize[D]);
  }
  return Shapes[Key];
}

void ResidentPlans::measured(Shape &S, const std::vector<Piece> &Pieces,
                             const LaunchReport &Report) {
  double Longest = 0;
  for (const PieceReport &P : Report.Pieces)
    Longest = std::max(Longest, P.InputMs + P.KernelMs + P.OutputMs + P.MergeMs);
  S.Pieces = Pieces;
  S.LastMs = Longest;
}

} // namespace skmd
