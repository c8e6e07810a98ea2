//===- MeasuredPlans.cpp - The model's splits held to what they measured --===//
#include "planning/MeasuredPlans.h"

#include <algorithm>
#include <cmath>

namespace skmd {

namespace {

double medianOf(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

} // namespace

MeasuredPlans::Choice MeasuredPlans::next(const Shape &S, double SplitPredictedMs,
                                          double AlonePredictedMs) {
  if (S.SplitMs.empty() || !(AlonePredictedMs > 0))
    return Choice::Split;
  if (S.AloneMs.empty()) {
    double Best = *std::min_element(S.SplitMs.begin(), S.SplitMs.end());
    bool NoGain = Best > AlonePredictedMs * (1 - SplitGain);
    // The model is off on this launch by Error; were it off as much the
    // other way on the device alone, could that device win?
    double Error = SplitPredictedMs > 0 ? Best / SplitPredictedMs : 1;
    bool ModelWrong = Error > 1 + ModelSlack && AlonePredictedMs < Best * Error;
    return NoGain || ModelWrong ? Choice::Alone : Choice::Split;
  }
  double Split = medianOf(S.SplitMs), Alone = medianOf(S.AloneMs);
  // Right after the device alone's one trial neither plan is established:
  // the faster goes on.
  if (S.InUse == Choice::Alone && S.AloneMs.size() == 1)
    return Alone <= Split ? Choice::Alone : Choice::Split;
  if (S.InUse == Choice::Split)
    return Alone < Split * (1 - MinGain) ? Choice::Alone : Choice::Split;
  return Split < Alone * (1 - MinGain) ? Choice::Split : Choice::Alone;
}

void MeasuredPlans::measured(Shape &S, Choice C, double Ms, std::vector<double> Slowdown) {
  S.InUse = C;
  if (S.Launches++ == 0)
    return;
  if (C == Choice::Split && !Slowdown.empty())
    S.Slowdown = std::move(Slowdown);
  std::vector<double> &Times = C == Choice::Split ? S.SplitMs : S.AloneMs;
  Times.push_back(Ms);
  if (Times.size() > Kept)
    Times.erase(Times.begin());
}

unsigned MeasuredPlans::aloneDevice(const Shape &S, const std::vector<double> &AloneMs) {
  unsigned Best = 0;
  double BestMs = INFINITY;
  for (unsigned D = 0; D < AloneMs.size(); ++D) {
    if (!(AloneMs[D] > 0))
      continue;
    double Ms = AloneMs[D] * (D < S.Slowdown.size() ? std::max(1.0, S.Slowdown[D]) : 1.0);
    if (Ms < BestMs) {
      BestMs = Ms;
      Best = D;
    }
  }
  return Best;
}

MeasuredPlans::Shape &MeasuredPlans::shape(const std::string &Key,
                                           const std::vector<Piece> &Split) {
  // A program launches a bounded set of shapes; one that makes new ones
  // without end (a grid growing each step) starts the record again.
  constexpr size_t MaxShapes = 4096;
  if (Shapes.size() >= MaxShapes && !Shapes.count(Key))
    Shapes.clear();
  Shape &S = Shapes[Key];
  if (S.Split != Split) {
    S = Shape();
    S.Split = Split;
  }
  return S;
}

} // namespace skmd
