//===- Explain.cpp - A plan and its outcome, for people -------------------===//
#include "planning/Explain.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace skmd {

namespace {

std::string format(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *Fmt, ...) {
  char Buf[512];
  va_list Args;
  va_start(Args, Fmt);
  std::vsnprintf(Buf, sizeof Buf, Fmt, Args);
  va_end(Args);
  return Buf;
}

/// A time, or "-" for a step the device does not have.
std::string ms(double V, bool Has = true) {
  return Has ? format("%.3f", V) : std::string("-");
}

int deviceIndex(const std::vector<const DeviceInfo *> &Devices, const std::string &Name) {
  for (size_t I = 0; I < Devices.size(); ++I)
    if (Devices[I]->Name == Name)
      return int(I);
  return -1;
}

} // namespace

double predictionError(double Predicted, double Measured) {
  return Measured > 0 ? (Predicted - Measured) / Measured : 0;
}

std::string explainPlan(const std::string &Kernel, const std::string &Plan,
                        const std::vector<Piece> &Pieces, uint64_t TotalGroups,
                        const std::vector<const DeviceInfo *> &Devices,
                        const ModelPlan *Model, const std::string &NoModel) {
  std::string Out = format("skmd: explain: kernel '%s', %llu groups, plan %s", Kernel.c_str(),
                           (unsigned long long)TotalGroups, Plan.c_str());
  if (Model && Model->Method == "auto")
    Out += format(" (Algorithm 1: %u moves, solved in %.1f us)", Model->Steps,
                  Model->PartitionUs);
  Out += "\n";
  if (!Model) {
    Out += "skmd:   no prediction: " + NoModel + "\n";
    for (const Piece &P : Pieces)
      Out += format("skmd:   %-10s %10llu groups %5.1f%%\n", Devices[P.Device]->Name.c_str(),
                    (unsigned long long)P.Count,
                    100.0 * double(P.Count) / double(TotalGroups));
    return Out;
  }
  Out += format("skmd:   %-10s %10s %6s %6s %9s %9s %9s %9s %9s %9s  (predicted ms)\n",
                "device", "groups", "share", "chunks", "input", "kernel", "output", "merge",
                "done", "alone");
  size_t Fastest = 0;
  for (size_t D = 0; D < Devices.size(); ++D) {
    const DevicePrediction &P = Model->Predicted[D];
    uint64_t N = Model->Groups[D];
    bool Copies = !Devices[D]->SharesHostMemory;
    std::string Chunks = N && Copies ? std::to_string(P.Chunks) : "-";
    Out += format("skmd:   %-10s %10llu %5.1f%% %6s %9s %9s %9s %9s %9s %9.3f\n",
                  Devices[D]->Name.c_str(), (unsigned long long)N,
                  100.0 * double(N) / double(TotalGroups), Chunks.c_str(),
                  ms(P.InputMs, Copies && N).c_str(),
                  ms(P.KernelMs, N).c_str(), ms(P.OutputMs, Copies && N).c_str(),
                  ms(P.MergeMs, P.MergeMs > 0).c_str(), ms(P.DoneMs, N).c_str(),
                  Model->AloneMs[D]);
    if (Model->AloneMs[D] < Model->AloneMs[Fastest])
      Fastest = D;
  }
  Out += format("skmd:   predicted launch %.3f ms (its batch; Algorithm 1's estimate %.3f); "
                "fastest device alone: %s, %.3f ms (model built in %.1f ms)\n",
                Model->PredictedMs, Model->EstimatedMs, Devices[Fastest]->Name.c_str(),
                Model->AloneMs[Fastest], Model->BuildMs);
  if (Model->BoundMs > 0)
    Out += format("skmd:   bound %.3f ms (held by %s): predicted / bound %.2f\n",
                  Model->BoundMs, Model->BoundLimit.c_str(),
                  Model->PredictedMs / Model->BoundMs);
  if (Model->RefusedSplitMs > 0)
    Out += format("skmd:   kept on one device: the best split, estimated %.3f ms, is %.1f%% "
                  "faster, less than the model's error\n",
                  Model->RefusedSplitMs, 100 * (1 - Model->RefusedSplitMs / Model->PredictedMs));
  if (!std::isinf(Model->StagedInCapacity))
    Out += format("skmd:   staged copies share the host: it sustains %.2f devices' inputs and "
                  "%.2f devices' outputs at once\n",
                  Model->StagedInCapacity, Model->StagedOutCapacity);
  return Out;
}

std::string explainOutcome(const LaunchReport &Report,
                           const std::vector<const DeviceInfo *> &Devices,
                           const ModelPlan *Model) {
  std::string Out = "skmd: explain: measured";
  Out += Model ? " (predicted), ms\n" : ", ms\n";
  Out += format("skmd:   %-10s %21s %21s %21s %21s\n", "device", "input", "kernel", "output",
                "merge");
  auto Cell = [&](double Measured, double Predicted, bool Has) {
    if (!Has)
      return format("%21s", "-");
    if (!Model)
      return format("%21.3f", Measured);
    return format("%10.3f (%8.3f)", Measured, Predicted);
  };
  std::string Errors;
  for (const PieceReport &P : Report.Pieces) {
    int D = deviceIndex(Devices, P.Device);
    DevicePrediction Pr;
    if (Model && D >= 0)
      Pr = Model->Predicted[size_t(D)];
    bool Copies = D >= 0 && !Devices[size_t(D)]->SharesHostMemory;
    Out += format("skmd:   %-10s %s %s %s %s%s\n", P.Device.c_str(),
                  Cell(P.InputMs, Pr.InputMs, Copies).c_str(),
                  Cell(P.KernelMs, Pr.KernelMs, true).c_str(),
                  Cell(P.OutputMs, Pr.OutputMs, Copies).c_str(),
                  Cell(P.MergeMs, Pr.MergeMs, Copies).c_str(),
                  P.Failure.empty() ? "" : "  FAILED, re-run on the CPU");
    if (Model)
      Errors += format("%s%s %+.1f%%", Errors.empty() ? "" : ", ", P.Device.c_str(),
                       100 * predictionError(Pr.KernelMs, P.KernelMs));
  }
  if (!Model) {
    Out += format("skmd:   launch %.3f ms, planning %.3f ms of it\n", Report.TotalMs,
                  Report.PlanMs);
    return Out;
  }
  // The launch as the model sees it: from the first device starting to
  // the last result in the user's buffers; planning is not in the model.
  double Measured = Report.TotalMs - Report.PlanMs;
  Out += format("skmd:   launch %.3f ms after planning (%.3f ms), predicted %.3f ms: error "
                "%+.1f%%\n",
                Measured, Report.PlanMs, Model->PredictedMs,
                100 * predictionError(Model->PredictedMs, Measured));
  Out += "skmd:   kernel time error: " + Errors + "\n";
  return Out;
}

} // namespace skmd
