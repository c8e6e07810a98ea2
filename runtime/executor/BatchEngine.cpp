//===- BatchEngine.cpp - Runs a batch in the order its prediction chose ---===//

#include "executor/BatchEngine.h"
#include "executor/Schedule.h"

#include <algorithm>
#include <chrono>

namespace skmd {

unsigned laneOf(std::pair<int, unsigned> Engine) {
  if (Engine.first == HostSide)
    return Schedule::HostLane;
  static constexpr Schedule::Stream Streams[] = {Schedule::ToDevice, Schedule::Compute,
                                                 Schedule::ToHost};
  return Schedule::lane(unsigned(Engine.first), Streams[Engine.second]);
}

Result<BatchReport> runBatch(const BatchMachine &M, const std::vector<BatchOp> &Ops,
                             const std::vector<std::function<Status()>> &Work,
                             DeviceWorkers &Workers, const BatchOptions &Options) {
  if (Work.size() != Ops.size())
    return Failure(ErrorCode::InvalidArgument, "a batch needs the work of every operation");
  BatchReport R;
  if (Options.Order && !Options.Predict) {
    R.Predicted.Issued = *Options.Order;
  } else {
    auto T = Options.Order ? simulateBatch(M, Ops, *Options.Order) : predictBatch(M, Ops);
    if (!T)
      return T.error();
    R.Predicted = std::move(*T);
  }
  const IssueOrder &Issued = R.Predicted.Issued;
  R.Engines = enginesOf(M, Ops, Issued.Order);
  Schedule S;
  for (auto [Device, Queue] : Options.Queues)
    S.queueOn(Device, *Queue);
  std::vector<unsigned> NodeOf(Ops.size());
  for (unsigned Op : Issued.Order) {
    std::vector<unsigned> After;
    for (unsigned A : Ops[Op].After)
      After.push_back(NodeOf[A]);
    const BatchOp &O = Ops[Op];
    ScheduleNode::Kind Kind =
        O.What == BatchOp::Kernel
            ? (O.Device == HostSide ? ScheduleNode::Merge : ScheduleNode::Kernel)
        : O.Path.To == HostSide && O.Path.From != HostSide ? ScheduleNode::CopyOut
        : O.Path.To == HostSide                             ? ScheduleNode::HostCopy
                                                            : ScheduleNode::CopyIn;
    NodeOf[Op] = S.add(Kind, laneOf(R.Engines[Op]), int(Op), std::move(After), Work[Op]);
  }
  for (auto [Op, Behind] : Issued.Behind)
    S.startBehind(NodeOf[Op], NodeOf[Behind]);
  S.run(Workers, Options.Start.value_or(std::chrono::steady_clock::now()));

  R.StartMs.assign(Ops.size(), 0);
  R.EndMs.assign(Ops.size(), 0);
  R.Outcome.assign(Ops.size(), ScheduleNode::Waiting);
  R.Errors.assign(Ops.size(), Status::success());
  for (unsigned Op = 0; Op < Ops.size(); ++Op) {
    const ScheduleNode &N = S.nodes()[NodeOf[Op]];
    R.StartMs[Op] = N.StartMs;
    R.EndMs[Op] = N.EndMs;
    R.Outcome[Op] = N.Outcome;
    R.Errors[Op] = N.Error;
    R.Ms = std::max(R.Ms, N.EndMs);
    if (N.Outcome == ScheduleNode::Failed && R.Error)
      R.Error = Failure(N.Error.error().code(),
                        "batch operation " + std::to_string(Op) +
                            (Ops[Op].Label.empty() ? "" : " (" + Ops[Op].Label + ")") + ": " +
                            N.Error.error().message());
  }
  return R;
}

EngineCost measureEngineCost(DeviceWorkers &Workers) {
  BatchMachine M;
  M.Devices = {{"a", 2, 0}, {"b", 2, 0}};
  auto Nothing = [] { return Status::success(); };
  auto Least = [&](const std::vector<BatchOp> &Ops) {
    IssueOrder O;
    for (unsigned I = 0; I < Ops.size(); ++I)
      O.Order.push_back(I);
    std::vector<std::function<Status()>> Work(Ops.size(), Nothing);
    double Best = 1e300;
    for (int Run = 0; Run < 25; ++Run)
      if (auto R = runBatch(M, Ops, Work, Workers, {&O}); R && Run > 0)
        Best = std::min(Best, R->EndMs.back());
    return Best;
  };
  BatchOp Op;
  Op.What = BatchOp::Kernel;
  EngineCost C;
  C.SetupMs = Least({Op});
  constexpr unsigned Chain = 16;
  std::vector<BatchOp> Ops;
  for (unsigned I = 0; I < Chain; ++I) {
    Op.Device = int(I % 2);
    Op.After = I ? std::vector<unsigned>{I - 1} : std::vector<unsigned>{};
    Ops.push_back(Op);
  }
  C.HandoffMs = std::max(0.0, (Least(Ops) - C.SetupMs) / (Chain - 1));
  return C;
}

} // namespace skmd
