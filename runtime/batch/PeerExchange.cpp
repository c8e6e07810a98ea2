//===- PeerExchange.cpp - An input every device needs, through its peers --===//
#include "batch/PeerExchange.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace skmd {

std::vector<uint64_t> splitShared(uint64_t Shared, size_t Parts, uint64_t Unit) {
  std::vector<uint64_t> Out(Parts, 0);
  if (Parts == 0)
    return Out;
  Unit = std::max<uint64_t>(Unit, 1);
  uint64_t Units = Shared / Unit, Rest = Shared % Unit;
  for (size_t I = 0; I < Parts; ++I)
    Out[I] = (Units / Parts + (I < Units % Parts)) * Unit;
  Out.back() += Rest; // a tail shorter than a unit ends the last part
  return Out;
}

std::vector<std::vector<unsigned>> addExchangeOps(const BatchMachine &M,
                                                  const std::vector<ExchangeDevice> &Devices,
                                                  const std::vector<uint64_t> &PartBytes,
                                                  const std::vector<unsigned> &After,
                                                  std::vector<BatchOp> &Ops) {
  std::vector<std::vector<unsigned>> Into(Devices.size());
  std::vector<unsigned> In(Devices.size());
  for (size_t I = 0; I < Devices.size(); ++I) {
    BatchOp Op;
    Op.Label = "share in " + M.Devices[size_t(Devices[I].Device)].Name;
    Op.Path = {HostSide, Devices[I].Device, Devices[I].Pageable};
    Op.Bytes = PartBytes[I];
    Op.After = After;
    Ops.push_back(std::move(Op));
    In[I] = unsigned(Ops.size() - 1);
    Into[I].push_back(In[I]);
  }
  for (size_t I = 0; I < Devices.size(); ++I)
    for (size_t J = 0; J < Devices.size(); ++J) {
      if (I == J)
        continue;
      BatchOp Op;
      Op.Label = "share " + M.Devices[size_t(Devices[I].Device)].Name + ">" +
                 M.Devices[size_t(Devices[J].Device)].Name;
      Op.Path = {Devices[I].Device, Devices[J].Device, false};
      Op.Bytes = PartBytes[I];
      Op.After = {In[I]};
      Ops.push_back(std::move(Op));
      Into[J].push_back(unsigned(Ops.size() - 1));
      Into[I].push_back(unsigned(Ops.size() - 1));
    }
  return Into;
}

std::vector<ExchangeDevice> choosePeerExchange(const BatchMachine &M,
                                               const std::vector<ExchangeDevice> &Candidates,
                                               uint64_t Shared) {
  if (Candidates.size() < 2 || Shared < MinExchangedBytes)
    return {};
  // SKMD_PEER_EXCHANGE=0: every device copies all it needs from the host
  // (to compare, and to step around a peer link that misbehaves).
  if (const char *On = std::getenv("SKMD_PEER_EXCHANGE"); On && std::string(On) == "0")
    return {};
  for (const ExchangeDevice &A : Candidates) {
    if (!M.Routes.alone({HostSide, A.Device, A.Pageable}))
      return {};
    for (const ExchangeDevice &B : Candidates)
      if (A.Device != B.Device && !M.Routes.alone({A.Device, B.Device, false}))
        return {};
  }
  // Every device copying all of it, against the exchange.
  std::vector<BatchOp> Plain;
  for (const ExchangeDevice &D : Candidates) {
    BatchOp Op;
    Op.Label = "copy in " + M.Devices[size_t(D.Device)].Name;
    Op.Path = {HostSide, D.Device, D.Pageable};
    Op.Bytes = Shared;
    Plain.push_back(std::move(Op));
  }
  std::vector<BatchOp> Exchanged;
  addExchangeOps(M, Candidates, splitShared(Shared, Candidates.size()), {}, Exchanged);
  auto A = predictBatch(M, Plain), B = predictBatch(M, Exchanged);
  if (!A || !B || B->Ms > 0.9 * A->Ms)
    return {};
  return Candidates;
}

} // namespace skmd
