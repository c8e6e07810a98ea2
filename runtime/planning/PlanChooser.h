//===- PlanChooser.h - The one place a launch's plan is chosen -*- C++ -*-===//
//
// A launch asks the chooser for its plan and, once it ran, tells it what it
// took. The chooser owns everything plans are made of: the model planner
// (profiles, the kernel and link models), the plans of launch shapes on
// resident buffers (ResidentPlans.h), the measured times of the model's
// splits (MeasuredPlans.h), the load of devices shared with other
// processes and the machine's routes (BatchModel.cpp). The session keeps
// none of it.
//
// A plan named by the user (gpu0, even, 70/30, ...) is taken as given, its
// chunks chosen by the model where it names none. The default and auto
// take the model's plan (a device alone where its split would meet,
// Partitioner.h's firstConflict), then weigh it against what the launch's
// buffers hold (resident plans) and what the same shape measured before
// (measured plans). Without a model the default splits proportionally.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_PLANNING_PLANCHOOSER_H
#define SKMD_PLANNING_PLANCHOOSER_H

#include "devices/cpu/CpuDevice.h"
#include "executor/DeviceWorkers.h"
#include "launch/LaunchTypes.h"
#include "launch/UserBatch.h"
#include "planning/MeasuredPlans.h"
#include "planning/ModelPlanner.h"
#include "planning/ResidentPlans.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

/// A launch's plan, how it was chosen, and what to learn from its report.
struct PlanDecision {
  std::vector<Piece> Pieces;
  /// How the plan was chosen, for --explain and the launch's record.
  std::string Plan;
  /// What the model predicts of it, where it could.
  std::optional<ModelPlan> Model;
  /// Why the model could not plan or predict it, where it could not.
  std::string NoModel;
  /// The time choosing took.
  double ChoosingMs = 0;

  /// The launch's shape among the resident plans, or null.
  ResidentPlans::Shape *Resident = nullptr;
  /// Its shape among the measured plans, or null, with the plan it got.
  MeasuredPlans::Shape *Measured = nullptr;
  MeasuredPlans::Choice Choice = MeasuredPlans::Choice::Split;
};

class PlanChooser {
public:
  /// \p Devices: the launcher's, \p CpuIndex the CPU among them;
  /// \p Profiles runs the model's measurements; \p MeasuredPlans turns the
  /// measured plans on (SKMD_MEASURED_PLANS).
  /// \p Workers: the executor's, whose own costs the machine's model
  /// includes.
  PlanChooser(std::vector<Device *> Devices, unsigned CpuIndex, GroupProfiler &Profiles,
              DeviceWorkers &Workers, bool MeasuredPlans);

  ModelPlanner &planner() { return *Planner; }
  /// Where measurements report their progress.
  void setProgress(std::function<void(const std::string &)> F);

  /// Profiles the launch on the devices \p Which (indices), in turn, and
  /// measures the machine's routes where the profile database lacks them.
  Status profile(LoadedKernel &Kernel, const std::vector<HostArg> &Args, const NDRange &Range,
                 const std::vector<unsigned> &Which, unsigned Runs);

  /// The batch model of the devices: their routes, measured into the
  /// profile database on first use (once per machine; never under
  /// Measuring::RecordedOnly), then loaded.
  Result<const BatchMachine *> machine(Measuring Policy = Measuring::Allowed);
  /// The batch model where the profile database already holds every route
  /// (loaded then, never measured), else null: what launches exchange
  /// inputs on.
  const BatchMachine *knownMachine();
  /// \p B as the model sees it: the machine (its routes measured on first
  /// use), the operations, and the first kernel piece without a profile
  /// (which gets no time), or "".
  struct BatchModel {
    const BatchMachine *Machine = nullptr;
    std::vector<BatchOp> Ops;
    std::string Unpredicted;
  };
  Result<BatchModel> batchModel(UserBatch &B);

  /// The plan for a launch of \p Kernel; \p Plan as skmd_launch takes it
  /// (empty: the default). \p Predict asks for the model's prediction of a
  /// named plan too (for --explain).
  Result<PlanDecision> choose(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                              const NDRange &Range, const std::string &Plan, bool Predict);
  /// After the launch of \p D ran (successfully) and reported \p Report.
  void learn(const PlanDecision &D, const LaunchReport &Report);

  /// What \p D predicts of each device's work, told to devices shared with
  /// other processes (their server orders its clients' steps by it); empty
  /// without a model.
  static std::vector<StepForecast> forecasts(const PlanDecision &D);

private:
  Result<PlanDecision> choosePieces(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                                    const NDRange &Range, const std::string &Plan,
                                    bool Predict);
  /// The default's and auto's plan: the model's, or proportional without
  /// one.
  Result<PlanDecision> modelPlan(LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                                 const NDRange &Range, const std::string &Plan);
  /// For a launch whose every buffer is resident: the plan in use for its
  /// shape, or a device alone that beats it now that the data is where it
  /// is; nullopt for other launches.
  std::optional<std::vector<Piece>> residentPlan(LoadedKernel &Kernel,
                                                 const std::vector<HostArg> &Args,
                                                 const NDRange &Range, PlanDecision &D);
  /// For a launch on host memory that the model splits: the split, or the
  /// fastest device alone where the split measured no faster; nullopt
  /// keeps \p D's plan.
  std::optional<std::vector<Piece>> measuredPlan(LoadedKernel &Kernel,
                                                 const std::vector<HostArg> &Args,
                                                 const NDRange &Range, PlanDecision &D);
  /// Per device, when its side of \p Report finished over \p D's
  /// prediction of it (MeasuredPlans::Shape::Slowdown).
  std::vector<double> sideSlowdowns(const PlanDecision &D, const LaunchReport &Report) const;
  std::vector<const DeviceInfo *> infos() const;

  std::vector<Device *> Devices;
  CpuDevice *Cpu = nullptr;
  DeviceWorkers &Workers;
  std::unique_ptr<ModelPlanner> Planner;
  std::function<void(const std::string &)> Progress;
  std::optional<BatchMachine> Machine;
  /// Whether knownMachine found routes missing (it does not look again).
  bool MachineUnknown = false;
  ResidentPlans Resident;
  MeasuredPlans Measured;
  bool CheckPlans = true;
};

} // namespace skmd

#endif // SKMD_PLANNING_PLANCHOOSER_H
