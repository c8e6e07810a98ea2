//===- MeasuredPlans.h - The model's splits held to what they measured -*- C++ -*-===//
//
// The model predicts each side of a split from profiles its device took
// alone. Beside each other the sides can slow each other (host memory, the
// cores that stage pageable copies, a shared PCIe switch) by more than the
// model knows, and a split it found faster than every device alone then
// measures slower than one of them. On the 2xH200 host Black-Scholes split
// over both GPUs took 15.5 ms a launch where the CPU alone took 13.1; on
// the 4xH100 host transpose over two GPUs took 10.9 ms against the CPU's
// 7.4, launch after launch.
//
// So the launches of a shape the model splits are timed. Where the split's
// best time is no better than the fastest device alone is predicted to
// take (the gain that made the model split is not there), or more than 5%
// above the split's own prediction while the device alone, were the model
// off as much the other way for it, could win (the model is wrong about
// this launch, so its figure for the device alone is in doubt too: on the
// same 2xH200 host the CPU ran Black-Scholes alone in 13.1 ms in one call
// and 9.5 in the next, where the split held at 12.4 against 11.4
// predicted), the
// next launch runs a device alone, once, and the faster of the two goes on.
// From then on the shape runs whichever measured faster by the median of
// its last three launches, changing only for a gain of 5% or more so that
// noise does not make the plan flip. A
// shape's first launch is not judged: it pays for the first touches of its
// memory, of staging buffers and of the devices' queues.
//
// The device tried is the one predicted fastest alone once each device's
// prediction is scaled by how much slower than predicted its side of the
// split finished: a device whose copies took four times their prediction
// in the split is not the one to run alone.
//
// A plan never changes a result, only where the groups run: the launch-time
// test refuses every split whose pieces would meet, whichever plan it is.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_MEASUREDPLANS_H
#define SKMD_PLANNING_MEASUREDPLANS_H

#include "buffers/Transfers.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace skmd {

class MeasuredPlans {
public:
  enum class Choice { Split, Alone };
  /// What the launches of one shape measured.
  struct Shape {
    std::vector<Piece> Split; ///< The model's split the times are of.
    uint64_t Launches = 0;
    /// The last launches' times, ms (at most Kept each; the first launch
    /// of the shape not among them).
    std::vector<double> SplitMs, AloneMs;
    /// Per device, its side of the split's last judged launch: the time it
    /// finished over the time predicted (0 where it had no side).
    std::vector<double> Slowdown;
    Choice InUse = Choice::Split;
  };
  static constexpr size_t Kept = 3;
  /// A change of plan must gain this much.
  static constexpr double MinGain = 0.05;
  /// The split is tried against a device alone once its best time is
  /// within this of the device's prediction (the planner's least gain)...
  static constexpr double SplitGain = 0.03;
  /// ... or this much above its own prediction, with the device alone
  /// predicted within that error of the split's time.
  static constexpr double ModelSlack = 0.05;

  /// The plan for the next launch of \p S, the split being predicted to
  /// take \p SplitPredictedMs and the fastest device alone
  /// \p AlonePredictedMs (0: not known).
  static Choice next(const Shape &S, double SplitPredictedMs, double AlonePredictedMs);
  /// After a launch of \p S by \p C that took \p Ms; a split's
  /// \p Slowdown per device (Shape::Slowdown).
  static void measured(Shape &S, Choice C, double Ms, std::vector<double> Slowdown = {});
  /// The device to try alone: the least of \p AloneMs (each device with
  /// every group, predicted; 0 where it cannot run alone), each scaled by
  /// its side's slowdown in the split where that was slower than predicted.
  static unsigned aloneDevice(const Shape &S, const std::vector<double> &AloneMs);

  /// The shape of \p Key (ModelPlan::ShapeKey) whose model plan is
  /// \p Split; its times start again where the model's split changed.
  Shape &shape(const std::string &Key, const std::vector<Piece> &Split);

private:
  std::map<std::string, Shape> Shapes;
};

} // namespace skmd

#endif // SKMD_PLANNING_MEASUREDPLANS_H
