//===- BatchEngine.cpp - Runs a batch in the order its prediction chose ---===//

#include "batch/BatchEngine.h"
#include "launch/Schedule.h"

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
                             DeviceWorkers &Workers, const IssueOrder *Order) {
  if (Work.size() != Ops.size())
    return Failure(ErrorCode::InvalidArgument, "a batch needs the work of every operation");
  BatchReport R;
  if (Order) {
    auto T = simulateBatch(M, Ops, *Order);
    if (!T)
      return T.error();
    R.Predicted = std::move(*T);
  } else {
    auto T = predictBatch(M, Ops);
    if (!T)
      return T.error();
    R.Predicted = std::move(*T);
  }
  const IssueOrder &Issued = R.Predicted.Issued;
  Schedule S;
  std::vector<unsigned> NodeOf(Ops.size());
  for (unsigned Op : Issued.Order) {
    std::vector<unsigned> After;
    for (unsigned A : Ops[Op].After)
      After.push_back(NodeOf[A]);
    ScheduleNode::Kind Kind =
        Ops[Op].What == BatchOp::Kernel ? ScheduleNode::Kernel
        : Ops[Op].Path.To == HostSide && Ops[Op].Path.From != HostSide ? ScheduleNode::CopyOut
        : Ops[Op].Path.To == HostSide                                   ? ScheduleNode::HostCopy
                                                                        : ScheduleNode::CopyIn;
    NodeOf[Op] = S.add(Kind, laneOf(engineOf(M, Ops[Op])), int(Op), std::move(After), Work[Op]);
  }
  for (auto [Op, Behind] : Issued.Behind)
    S.startBehind(NodeOf[Op], NodeOf[Behind]);
  S.run(Workers, std::chrono::steady_clock::now());

  R.StartMs.assign(Ops.size(), 0);
  R.EndMs.assign(Ops.size(), 0);
  for (unsigned Op = 0; Op < Ops.size(); ++Op) {
    const ScheduleNode &N = S.nodes()[NodeOf[Op]];
    R.StartMs[Op] = N.StartMs;
    R.EndMs[Op] = N.EndMs;
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
      if (auto R = runBatch(M, Ops, Work, Workers, &O); R && Run > 0)
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
