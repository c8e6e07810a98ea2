//===- ResidentPlans.h - Plans for launches whose buffers stay on the devices -*- C++ -*-===//
//
// The model prices a launch as if its inputs came from the host, which is
// what a launch on the caller's memory does. A kernel launched again and
// again on buffers that stay on the devices (an OpenCL program's stencil)
// pays that only once: measured on the H200 host, a 4096^2 Jacobi step
// split 54/46 over the CPU and the GPU took 0.71 ms a step while the GPU
// alone took 0.30 once the grid lived there, and the model kept the split
// at every step.
//
// So for launches whose every buffer is resident (SKMD's own), the plan in
// use is weighed, launch after launch, against each device alone: the plan
// in use by what its pieces took last time (measured), each device by the
// model's kernel time for every group plus the bytes it lacks over its
// link, that migration spread over as many launches as the shape has had
// (a shape launched n times is taken to come n times more: the first
// launches keep the model's plan, a long loop moves to the device that
// wins once the data is there). A device must win by 10% to be taken, so
// measurement noise does not make plans flip.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_RESIDENTPLANS_H
#define SKMD_PLANNING_RESIDENTPLANS_H

#include "buffers/Transfers.h"
#include "launch/LaunchTypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

/// One device alone, as a candidate: the model's kernel time for every
/// group and the bytes of its inputs it does not hold, at its link's rate.
struct AloneCandidate {
  unsigned Device = 0;
  double KernelMs = 0;
  uint64_t MissingBytes = 0;
  double LinkGBps = 0; ///< 0: the bytes are free to it (host memory).
};

/// The decision alone (no state): the device to run on instead of the plan
/// in use, or none. \p CurrentMs is what the plan in use took last time;
/// \p Launches how many launches the shape has had before this one.
std::optional<unsigned> betterAlone(double CurrentMs, uint64_t Launches,
                                    const std::vector<AloneCandidate> &Candidates,
                                    std::optional<unsigned> CurrentlyAlone);

class ResidentPlans {
public:
  /// What is known of a launch shape.
  struct Shape {
    uint64_t Launches = 0;
    std::vector<Piece> Pieces; ///< The plan in use.
    std::string Method;        ///< How it was chosen.
    double LastMs = 0;         ///< Its pieces' time in the last launch.
    /// The model's kernel time for every group on each device alone (a
    /// constant of the shape: computed once).
    std::vector<std::optional<double>> AloneKernelMs;
  };
  /// The shape of \p Info's launch over \p Range (one per kernel and grid).
  Shape &shape(const KernelInfo &Info, const NDRange &Range);
  /// After a launch of \p S with \p Pieces: the longest piece's copies,
  /// kernel and merge, measured.
  static void measured(Shape &S, const std::vector<Piece> &Pieces, const LaunchReport &Report);

private:
  std::map<std::string, Shape> Shapes;
};

} // namespace skmd

#endif // SKMD_PLANNING_RESIDENTPLANS_H
