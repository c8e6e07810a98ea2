//===- BatchModel.cpp - The machine's routes and the model of a user's batch ===//
#include "planning/PlanChooser.h"

#include "batch/Machine.h"
#include "batch/Topology.h"
#include "launch/LaunchGraph.h"
#include "model/LinkModel.h"

namespace skmd {

Result<const BatchMachine *> PlanChooser::machine(Measuring Policy) {
  if (Machine)
    return &*Machine;
  auto Db = Planner->database();
  if (!Db)
    return Db.error();
  // Without the topology (hwloc cannot read this machine) every device is
  // taken to share one link to host memory: launches still plan, their
  // page-locked copies measured together.
  auto Where = discoverTopology(Devices);
  if (!Where && Progress)
    Progress("the machine's topology is unknown (" + Where.error().message() +
             "): its devices are taken to share one link to host memory");
  auto M = measuredMachine(Devices, Cpu, **Db, Progress, Where ? &*Where : nullptr, Policy);
  if (!M)
    return M.error();
  EngineCost Engine = measureEngineCost(Workers);
  M->SetupMs = Engine.SetupMs;
  M->HandoffMs = Engine.HandoffMs;
  Machine = std::move(*M);
  return &*Machine;
}

const BatchMachine *PlanChooser::knownMachine() {
  if (Machine)
    return &*Machine;
  if (MachineUnknown)
    return nullptr;
  auto M = machine(Measuring::RecordedOnly);
  if (!M) {
    MachineUnknown = true;
    return nullptr;
  }
  return *M;
}

Result<PlanChooser::BatchModel> PlanChooser::batchModel(UserBatch &B) {
  auto Machine = machine();
  if (!Machine)
    return Machine.error();
  BatchModel Model;
  Model.Machine = *Machine;
  std::vector<BatchOp> &Ops = Model.Ops;
  std::string &Unpredicted = Model.Unpredicted;
  for (const UserBatch::Op &Op : B.Ops) {
    BatchOp M;
    M.After = Op.After;
    if (auto *C = std::get_if<BatchCopyOp>(&Op.What)) {
      bool Pageable = false;
      if (C->From == HostSide || C->To == HostSide) {
        const Device &D = *Devices[C->From == HostSide ? C->To : C->From];
        Pageable = !D.isPinnedHost(static_cast<char *>(C->Buffer->host()) + C->Offset, C->Bytes);
      }
      M.Path = Route{C->From, C->To, Pageable};
      M.Bytes = C->Bytes;
      M.Label = "copy of bytes " + rangeText(C->Offset, C->Offset + C->Bytes);
    } else {
      const auto &K = std::get<BatchKernelOp>(Op.What);
      M.What = BatchOp::Kernel;
      M.Device = int(K.Device);
      M.Label = K.Kernel->Info->Name + " on " + Devices[K.Device]->info().Name + ", groups " +
                rangeText(K.First, K.First + K.Count);
      std::vector<Piece> One = {{K.Device, K.First, K.Count, 1}};
      auto P = Planner->predict(One, "batch", *K.Kernel, K.Args, K.Range);
      if (P && K.Device < P->Predicted.size())
        M.KernelMs = P->Predicted[K.Device].KernelMs;
      else if (Unpredicted.empty())
        Unpredicted = M.Label;
    }
    Ops.push_back(std::move(M));
  }
  return Model;
}

} // namespace skmd
