//===- SharedTurnaround.cpp - Processes sharing one GPU: a turnaround model ===//
#include "model/SharedTurnaround.h"

#include <algorithm>
#include <limits>

namespace skmd {

TaskClass classify(const GpuTask &T) {
  return T.CompMs >= T.DataInMs + T.DataOutMs ? TaskClass::ComputeIntensive
                                              : TaskClass::IoIntensive;
}

SharingOrder orderFor(TaskClass C) {
  return C == TaskClass::ComputeIntensive ? SharingOrder::PS1 : SharingOrder::PS2;
}

double turnaroundAlone(const GpuTask &T, unsigned N) {
  if (!N)
    return 0;
  return N * (T.InitMs + T.DataInMs + T.CompMs + T.DataOutMs) + (N - 1) * T.CtxSwitchMs;
}

double turnaroundShared(const GpuTask &T, unsigned N, SharingOrder Order) {
  if (!N)
    return 0;
  if (Order == SharingOrder::PS1) // (2), (4): the kernels overlap
    return N * (T.DataInMs + T.DataOutMs) + T.CompMs;
  if (classify(T) == TaskClass::ComputeIntensive) // (3): the kernels in turn
    return T.DataInMs + N * T.CompMs + T.DataOutMs;
  // (7): the longer copy direction in turn, the rest once.
  return N * std::max(T.DataInMs, T.DataOutMs) + T.CompMs +
         std::min(T.DataInMs, T.DataOutMs);
}

double turnaroundShared(const GpuTask &T, unsigned N) {
  return turnaroundShared(T, N, orderFor(classify(T)));
}

double turnaroundBatch(const GpuTask &T, unsigned N, SharingOrder Order, double KernelShare) {
  if (!N)
    return 0;
  double Share = std::clamp(KernelShare, 0.0, 1.0);
  if (Order == SharingOrder::PS1)
    return N * (T.DataInMs + T.DataOutMs) + T.CompMs * std::max(1.0, N * Share);
  double Kernel = T.CompMs * (Share > 0 ? Share : 1.0);
  return T.DataInMs + T.CompMs + T.DataOutMs +
         (N - 1) * std::max({T.DataInMs, T.DataOutMs, Kernel});
}

double sharingSpeedup(const GpuTask &T, unsigned N) {
  double Shared = turnaroundShared(T, N);
  return Shared > 0 ? turnaroundAlone(T, N) / Shared : 0;
}

double sharingSpeedupLimit(const GpuTask &T) {
  double Alone = T.InitMs + T.DataInMs + T.CompMs + T.DataOutMs + T.CtxSwitchMs;
  double PerProcess = classify(T) == TaskClass::ComputeIntensive // (10)
                          ? T.DataInMs + T.DataOutMs
                          : std::max(T.DataInMs, T.DataOutMs); // (11)
  return PerProcess > 0 ? Alone / PerProcess : std::numeric_limits<double>::infinity();
}

const char *name(TaskClass C) {
  return C == TaskClass::ComputeIntensive ? "compute-intensive" : "I/O-intensive";
}

const char *name(SharingOrder O) { return O == SharingOrder::PS1 ? "PS-1" : "PS-2"; }

} // namespace skmd
