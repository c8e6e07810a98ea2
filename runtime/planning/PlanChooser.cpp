//===- PlanChooser.cpp - The one place a launch's plan is chosen ----------===//
#include "planning/PlanChooser.h"

#include "buffers/BufferObject.h"
#include "planning/Partitioner.h"
#include "planning/Plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace skmd {

PlanChooser::PlanChooser(std::vector<Device *> Devices, unsigned CpuIndex,
                         GroupProfiler &Profiles, DeviceWorkers &Workers, bool MeasuredPlans)
    : Devices(Devices), Cpu(static_cast<CpuDevice *>(Devices[CpuIndex])), Workers(Workers),
      Planner(std::make_unique<ModelPlanner>(Devices, CpuIndex, Profiles)),
      CheckPlans(MeasuredPlans) {
  // Launches are predicted as the batches they run as, on the machine's
  // routes where the profile database holds them. A launch never measures
  // them (seconds, inside a program's timed region): profiling does
  // (profile below, skmd-prof), once per machine.
  Planner->setMachine([this]() -> Result<const BatchMachine *> { return knownMachine(); });
}

Status PlanChooser::profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                            const NDRange &Range, const std::vector<unsigned> &Which,
                            unsigned Runs) {
  if (Status S = Planner->profile(Kernel, Args, Range, Which, Runs); !S)
    return S;
  auto M = machine();
  return M ? Status::success() : Status(M.error());
}

void PlanChooser::setProgress(std::function<void(const std::string &)> F) {
  Progress = F;
  Planner->setProgress(std::move(F));
}

std::vector<const DeviceInfo *> PlanChooser::infos() const {
  std::vector<const DeviceInfo *> Infos;
  for (Device *D : Devices)
    Infos.push_back(&D->info());
  return Infos;
}

Result<PlanDecision> PlanChooser::choose(LoadedKernel &K, const std::vector<HostArg> &Args,
                                         const NDRange &Range, const std::string &Plan,
                                         bool Predict) {
  auto Start = std::chrono::steady_clock::now();
  auto D = choosePieces(K, Args, Range, Plan, Predict);
  if (D)
    D->ChoosingMs = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - Start)
                        .count();
  return D;
}

Result<PlanDecision> PlanChooser::choosePieces(LoadedKernel &K, const std::vector<HostArg> &Args,
                                               const NDRange &Range, const std::string &Plan,
                                               bool Predict) {
  const KernelInfo &Info = *K.Info;
  bool Default = Plan.empty();
  // A shared device busy with others' work takes a smaller share of the
  // plans that weigh the devices (a round trip to its server at most
  // every 100 ms; plans that name the shares do not ask).
  if (Default || Plan == "auto" || Plan == "linear" || Plan == "proportional")
    for (Device *Dev : Devices)
      Dev->refreshOtherUsers();
  if (Default || Plan == "auto" || Plan == "linear")
    return modelPlan(K, Args, Range, Plan);
  PlanDecision D;
  auto Pieces = makePlan(Plan, infos(), Range.totalGroups(), Info.Name,
                         Info.whyNotPartitionable());
  if (!Pieces)
    return Pieces.error();
  D.Pieces = std::move(*Pieces);
  D.Plan = Plan;
  // Without chunk counts in the plan, a share on a device with its own
  // memory runs in the chunks the model finds soonest (the device alone,
  // "gpu0", as fast as SKMD runs it); with them, or without a model, as
  // given.
  bool ChooseChunks = Plan.find('@') == std::string::npos && Info.Partitionable;
  bool Offloads = std::any_of(D.Pieces.begin(), D.Pieces.end(), [&](const Piece &P) {
    return !Devices[P.Device]->info().SharesHostMemory;
  });
  if (Predict || (ChooseChunks && Offloads)) {
    if (auto M = Planner->predict(D.Pieces, Plan, K, Args, Range, ChooseChunks)) {
      if (ChooseChunks)
        D.Pieces = M->Pieces;
      D.Model = std::move(*M);
    } else {
      D.NoModel = M.error().message();
    }
  }
  return D;
}

Result<PlanDecision> PlanChooser::modelPlan(LoadedKernel &K, const std::vector<HostArg> &Args,
                                            const NDRange &Range, const std::string &Plan) {
  const KernelInfo &Info = *K.Info;
  PlanDecision D;
  auto M = Planner->plan(Plan == "linear" ? ModelPlanner::Method::Linear
                                          : ModelPlanner::Method::Auto,
                         K, Args, Range);
  if (M) {
    // Where groups may communicate, whether this split meets (the launcher
    // refuses it too; here the plan falls back to one device).
    auto C = firstConflict(Info, Args, Range, M->Pieces);
    if (!C)
      return C.error();
    if (!C->empty()) {
      M = Planner->plan(ModelPlanner::Method::Single, K, Args, Range);
      if (!M)
        return M.error();
      M->Method += " (the split meets in this launch: " + *C + ")";
    }
    D.Plan = M->Method;
    D.Pieces = M->Pieces;
    D.Model = std::move(*M);
    if (Plan != "linear") {
      if (auto Kept = residentPlan(K, Args, Range, D))
        D.Pieces = std::move(*Kept);
      else if (auto Checked = measuredPlan(K, Args, Range, D))
        D.Pieces = std::move(*Checked);
    }
    return D;
  }
  // The default falls back when the model cannot plan (no profiles, no
  // database); bad arguments are the launch's error either way.
  if (!Plan.empty() || M.error().code() == ErrorCode::InvalidArgument)
    return M.error();
  D.NoModel = M.error().message();
  D.Plan = "proportional (no model: " + D.NoModel + ")";
  std::vector<const DeviceInfo *> Infos = infos();
  auto Pieces = makePlan("proportional", Infos, Range.totalGroups(), Info.Name,
                         Info.whyNotPartitionable());
  if (!Pieces)
    return Pieces.error();
  auto C = firstConflict(Info, Args, Range, *Pieces);
  if (!C)
    return C.error();
  if (!C->empty()) {
    D.Plan += " on one device (the split meets in this launch: " + *C + ")";
    Pieces = makePlan("proportional", Infos, Range.totalGroups(), Info.Name, *C);
    if (!Pieces)
      return Pieces.error();
  }
  D.Pieces = std::move(*Pieces);
  return D;
}

std::optional<std::vector<Piece>> PlanChooser::residentPlan(LoadedKernel &K,
                                                           const std::vector<HostArg> &Args,
                                                           const NDRange &Range,
                                                           PlanDecision &D) {
  std::vector<BufferObject *> Read;
  for (size_t A = 0; A < Args.size(); ++A) {
    if (Args[A].K != HostArg::Buffer || Args[A].isNullBuffer())
      continue;
    BufferObject *B = Args[A].Object;
    if (!B || B->coherence() != BufferObject::Coherence::Resident)
      return std::nullopt;
    if (A < K.Info->Args.size() && K.Info->Args[A].Read &&
        std::find(Read.begin(), Read.end(), B) == Read.end())
      Read.push_back(B);
  }
  const ModelPlan &M = *D.Model;
  ResidentPlans::Shape &S = Resident.shape(*K.Info, Range);
  uint64_t Before = S.Launches++;
  D.Resident = &S;
  bool Stale = S.Pieces.empty() || (S.Pieces.size() > 1 && !K.Info->Partitionable);
  if (Before == 0 || Stale || S.LastMs <= 0) {
    // The model's plan first: the data starts where the model expects it.
    S.Pieces = M.Pieces;
    S.Method = M.Method;
    return std::nullopt;
  }
  // Each device alone: the model's kernel time for every group, and the
  // bytes of the kernel's inputs it lacks. A link not measured is taken at
  // 10 GB/s (a pageable copy's rate): the move is spread over the launches
  // anyway.
  const uint64_t Total = Range.totalGroups();
  auto LinkGBps = [](const DeviceInfo &I) { return I.LinkGBps > 0 ? I.LinkGBps : 10.0; };
  double FastestLink = 0;
  for (Device *Dev : Devices)
    if (!Dev->info().SharesHostMemory)
      FastestLink = std::max(FastestLink, LinkGBps(Dev->info()));
  if (S.AloneKernelMs.empty())
    for (unsigned Dev = 0; Dev < Devices.size(); ++Dev) {
      auto Alone = Planner->predict({{Dev, 0, Total}}, "alone", K, Args, Range);
      S.AloneKernelMs.push_back(Alone ? std::optional<double>(Alone->Predicted[Dev].KernelMs)
                                      : std::nullopt);
    }
  std::vector<AloneCandidate> Candidates;
  for (unsigned Dev = 0; Dev < Devices.size(); ++Dev) {
    if (!S.AloneKernelMs[Dev])
      continue;
    const DeviceInfo &Info = Devices[Dev]->info();
    AloneCandidate C;
    C.Device = Dev;
    C.KernelMs = *S.AloneKernelMs[Dev];
    for (BufferObject *B : Read) {
      IntervalSet Missing = B->all();
      if (Info.SharesHostMemory)
        Missing.subtract(B->hostValid());
      else if (const BufferObject::DeviceCopy *Copy = B->copyOn(*Devices[Dev]))
        Missing.subtract(Copy->Valid);
      C.MissingBytes += uint64_t(Missing.bytes());
    }
    C.LinkGBps = Info.SharesHostMemory ? FastestLink : LinkGBps(Info);
    Candidates.push_back(C);
  }
  std::optional<unsigned> InUse;
  if (S.Pieces.size() == 1)
    InUse = S.Pieces.front().Device;
  if (auto Better = betterAlone(S.LastMs, Before, Candidates, InUse)) {
    char Why[160];
    std::snprintf(Why, sizeof Why,
                  "resident: %s alone (the plan in use took %.3f ms a launch; %llu launches "
                  "of this shape)",
                  Devices[*Better]->info().Name.c_str(), S.LastMs,
                  static_cast<unsigned long long>(Before));
    S.Pieces = {{*Better, 0, Total}};
    S.Method = Why;
  }
  D.Plan = S.Method;
  // The model's own plan is already described.
  if (S.Pieces != M.Pieces)
    if (auto Predicted = Planner->predict(S.Pieces, S.Method, K, Args, Range))
      D.Model = std::move(*Predicted);
  return S.Pieces;
}

std::optional<std::vector<Piece>> PlanChooser::measuredPlan(LoadedKernel &K,
                                                           const std::vector<HostArg> &Args,
                                                           const NDRange &Range,
                                                           PlanDecision &D) {
  const ModelPlan &M = *D.Model;
  if (!CheckPlans || M.ShapeKey.empty() || M.Pieces.size() < 2)
    return std::nullopt;
  // Launches on resident buffers are residentPlan's.
  bool OnHost = std::any_of(Args.begin(), Args.end(), [](const HostArg &A) {
    return A.K == HostArg::Buffer && !A.isNullBuffer() &&
           (!A.Object || A.Object->coherence() != BufferObject::Coherence::Resident);
  });
  if (!OnHost)
    return std::nullopt;
  double AloneMs = INFINITY;
  for (double Ms : M.AloneMs)
    if (Ms > 0)
      AloneMs = std::min(AloneMs, Ms);
  MeasuredPlans::Shape &S = Measured.shape(M.ShapeKey, M.Pieces);
  D.Measured = &S;
  D.Choice = MeasuredPlans::next(S, M.PredictedMs, std::isfinite(AloneMs) ? AloneMs : 0);
  if (D.Choice == MeasuredPlans::Choice::Split)
    return std::nullopt;
  unsigned Dev = MeasuredPlans::aloneDevice(S, M.AloneMs);
  auto A = Planner->predict({{Dev, 0, Range.totalGroups()}}, "alone", K, Args, Range,
                            /*ChooseChunks=*/true);
  if (!A) {
    D.Measured = nullptr;
    return std::nullopt;
  }
  auto Min = [](const std::vector<double> &V) {
    return V.empty() ? 0.0 : *std::min_element(V.begin(), V.end());
  };
  const std::string &Name = Devices[Dev]->info().Name;
  char Why[200];
  if (S.AloneMs.empty())
    std::snprintf(Why, sizeof Why,
                  "auto, measured: %s alone, once (the split took %.3f ms at best, "
                  "predicted %.3f; %s alone is predicted %.3f)",
                  Name.c_str(), Min(S.SplitMs), M.PredictedMs, Name.c_str(), M.AloneMs[Dev]);
  else
    std::snprintf(Why, sizeof Why,
                  "auto, measured: %s alone (%.3f ms at best against the split's %.3f)",
                  Name.c_str(), Min(S.AloneMs), Min(S.SplitMs));
  A->Method = Why;
  D.Plan = Why;
  D.Model = std::move(*A);
  return D.Model->Pieces;
}

std::vector<double> PlanChooser::sideSlowdowns(const PlanDecision &D,
                                               const LaunchReport &Report) const {
  std::vector<double> Slowdown(Devices.size(), 0);
  const ModelPlan &Model = *D.Model;
  // The report has a piece for each of the plan's, in its order.
  for (size_t I = 0; I < D.Pieces.size() && I < Report.Pieces.size(); ++I) {
    const PieceReport &P = Report.Pieces[I];
    unsigned Dev = D.Pieces[I].Device;
    if (Dev >= Model.Predicted.size() || Dev >= Slowdown.size() ||
        !(Model.Predicted[Dev].DoneMs > 0))
      continue;
    double Done = std::max({P.InputAt + P.InputMs, P.KernelAt + P.KernelMs,
                            P.OutputAt + P.OutputMs, P.MergeAt + P.MergeMs});
    Slowdown[Dev] = std::max(Slowdown[Dev], Done / Model.Predicted[Dev].DoneMs);
  }
  return Slowdown;
}

void PlanChooser::learn(const PlanDecision &D, const LaunchReport &Report) {
  if (D.Resident)
    ResidentPlans::measured(*D.Resident, D.Pieces, Report);
  // The launch's own time: a kernel's first load on a device is not the
  // plan's.
  if (D.Measured)
    MeasuredPlans::measured(*D.Measured, D.Choice, Report.TotalMs - Report.PlanMs,
                            D.Choice == MeasuredPlans::Choice::Split && D.Model
                                ? sideSlowdowns(D, Report)
                                : std::vector<double>());
}

std::vector<StepForecast> PlanChooser::forecasts(const PlanDecision &D) {
  std::vector<StepForecast> Forecasts;
  if (D.Model)
    for (const DevicePrediction &P : D.Model->Predicted) {
      StepForecast F;
      F.InMs = P.InputMs;
      F.KernelMs = P.KernelMs;
      F.OutMs = P.OutputMs;
      Forecasts.push_back(F);
    }
  return Forecasts;
}

} // namespace skmd
