//===- LaunchGraph.cpp - A launch as the graph of operations it runs ------===//
#include "launch/LaunchGraph.h"

#include "devices/HostCores.h"

#include <algorithm>

namespace skmd {

void buildLaunchGraph(const std::vector<GraphPiece> &Pieces, const GraphExchange &Exchange,
                      const BatchMachine *M, const std::vector<unsigned> &Before,
                      LaunchGraph &G) {
  G.Pieces.assign(Pieces.size(), PieceOps());
  const bool Lending = HostCores::lending();
  // The copies that need the host's cores; the host's kernels go behind
  // them unless the cores are lent.
  std::vector<unsigned> UsingHostCores;
  const auto &X = Exchange.Devices;
  if (!X.empty() && M) {
    const unsigned Base = unsigned(G.Ops.size());
    auto Into = addExchangeOps(*M, X, Exchange.PartBytes, Before, G.Ops);
    for (unsigned I = Base; I < G.Ops.size(); ++I) {
      G.Order.Order.push_back(I);
      G.ExchangeOps.push_back(I);
    }
    for (size_t I = 0; I < X.size(); ++I) {
      G.ExchangeInto[unsigned(X[I].Device)] = Into[I];
      if (X[I].Pageable && !Lending)
        UsingHostCores.push_back(Into[I].front()); // its part from the host
    }
  }
  std::map<unsigned, unsigned> LastCopyIn;
  for (size_t P = 0; P < Pieces.size(); ++P) {
    const GraphPiece &Pc = Pieces[P];
    if (Pc.OnHostMemory || Pc.Skipped)
      continue;
    const unsigned D = Pc.Groups.Device;
    const std::string Name = " " + pieceName(Pc.DeviceName, Pc.Groups);
    PieceOps &Ops = G.Pieces[P];
    BatchOp In;
    In.Label = "copy in" + Name;
    In.Path = {HostSide, int(D), Pc.Pageable};
    In.Bytes = Pc.InBytes;
    In.After = Pc.After;
    // A chunk may rely on bytes an earlier chunk of the device copied in.
    if (auto It = LastCopyIn.find(D); It != LastCopyIn.end())
      In.After.push_back(It->second);
    if (auto It = G.ExchangeInto.find(D); It != G.ExchangeInto.end())
      In.After.insert(In.After.end(), It->second.begin(), It->second.end());
    Ops.CopyIn = int(G.add(std::move(In)));
    LastCopyIn[D] = unsigned(Ops.CopyIn);
    if (Pc.Pageable && !Lending)
      UsingHostCores.push_back(unsigned(Ops.CopyIn));
    BatchOp Kernel;
    Kernel.What = BatchOp::Kernel;
    Kernel.Label = "kernel" + Name;
    Kernel.Device = int(D);
    Kernel.After = {unsigned(Ops.CopyIn)};
    Ops.Kernel = int(G.add(std::move(Kernel)));
    BatchOp Out;
    Out.Label = "copy out" + Name;
    Out.Path = {int(D), HostSide, Pc.Pageable};
    Out.Bytes = Pc.OutBytes;
    Out.After = {unsigned(Ops.Kernel)};
    Ops.CopyOut = int(G.add(std::move(Out)));
  }
  for (size_t P = 0; P < Pieces.size(); ++P) {
    const GraphPiece &Pc = Pieces[P];
    if (!Pc.OnHostMemory || Pc.Skipped)
      continue;
    BatchOp Kernel;
    Kernel.What = BatchOp::Kernel;
    Kernel.Label = "kernel " + pieceName(Pc.DeviceName, Pc.Groups);
    Kernel.Device = int(Pc.Groups.Device);
    Kernel.After = Before;
    unsigned Ran = G.add(std::move(Kernel));
    G.Pieces[P].Kernel = int(Ran);
    for (unsigned C : UsingHostCores)
      G.Order.Behind.push_back({Ran, C});
  }
  // Each device's results as soon as it is done (after the host's own
  // pieces, which share its lane). Where nothing comes back (results that
  // stay on the device) there is no step: a launch on one device's
  // resident buffers stays on its lane.
  for (size_t P = 0; P < Pieces.size(); ++P) {
    const GraphPiece &Pc = Pieces[P];
    if (Pc.OnHostMemory || Pc.Skipped || !Pc.Back)
      continue;
    BatchOp Merge;
    Merge.What = BatchOp::Kernel;
    Merge.Label = "merge " + pieceName(Pc.DeviceName, Pc.Groups);
    Merge.Device = HostSide;
    Merge.After = {unsigned(G.Pieces[P].CopyOut)};
    G.Pieces[P].Merge = int(G.add(std::move(Merge)));
  }
}

std::vector<Piece> splitChunks(const std::vector<Piece> &Pieces,
                               const std::vector<bool> &Shares, std::vector<size_t> &Of) {
  std::vector<Piece> Out;
  Of.clear();
  for (size_t P = 0; P < Pieces.size(); ++P) {
    const Piece &Pc = Pieces[P];
    uint64_t Chunks = Shares[P] ? 1 : std::clamp<uint64_t>(Pc.Chunks, 1, Pc.Count);
    uint64_t First = Pc.First;
    for (uint64_t C = 0; C < Chunks; ++C) {
      uint64_t Count = Pc.Count / Chunks + (C < Pc.Count % Chunks);
      Out.push_back({Pc.Device, First, Count});
      Of.push_back(P);
      First += Count;
    }
  }
  return Out;
}

bool GraphExchange::takesPart(unsigned Device) const {
  return std::any_of(Devices.begin(), Devices.end(),
                     [&](const ExchangeDevice &X) { return X.Device == int(Device); });
}

std::string rangeText(uint64_t Lo, uint64_t Hi) {
  return "[" + std::to_string(Lo) + ", " + std::to_string(Hi) + ")";
}

std::string pieceName(const std::string &Device, const Piece &P) {
  return Device + " " + rangeText(P.First, P.First + P.Count);
}

std::string engineName(const BatchMachine &M, std::pair<int, unsigned> Engine) {
  if (Engine.first == HostSide)
    return "host";
  static const char *const Of[] = {" copies in", " kernels", " copies out"};
  return M.Devices[size_t(Engine.first)].Name + Of[std::min(Engine.second, 2u)];
}

bool copiesUseHostCores(const Device &D, const std::vector<HostArg> &Args) {
  if (D.info().SharesHostMemory)
    return false;
  for (const HostArg &A : Args)
    if (A.K == HostArg::Buffer && !D.isPinnedHost(A.Data, A.Bytes))
      return true;
  return false;
}

} // namespace skmd
