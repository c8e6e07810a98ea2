//===- LaunchGraph.h - A launch as the graph of operations it runs -*- C++ -*-===//
//
// The one builder of a launch's graph. Given its pieces (a device and its
// groups, split into the chunks they run in), the bytes each copies in and
// out and the inputs its devices exchange, it lays out the operations of
// the batch (executor/BatchEngine.h) and the order they are issued in:
//
//   - the exchange of inputs several devices need (batch/PeerExchange.h):
//     each device's part from the host, then each part to the others;
//   - per chunk on a device with its own memory: copy in (after the
//     device's previous copy in and the exchange into it), kernel, copy
//     out;
//   - per piece on host memory: the kernel, on the host's lane, beside the
//     copies that need the host's cores (devices/HostCores.h: without
//     lending, after them);
//   - per chunk whose results come back: the host's step that puts them in
//     the user's buffers (a merge, or copies out of staging).
//
// The launcher attaches the work to each operation and runs the graph; the
// planner gives each operation its predicted time and simulates it. Both
// read an operation's role from PieceOps.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_LAUNCH_LAUNCHGRAPH_H
#define SKMD_LAUNCH_LAUNCHGRAPH_H

#include "batch/PeerExchange.h"
#include "batch/Prediction.h"
#include "buffers/Transfers.h"
#include "devices/Device.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace skmd {

/// One piece (or chunk) of a launch, as its graph needs it.
struct GraphPiece {
  Piece Groups;
  std::string DeviceName;
  /// It computes on host memory: a kernel on the host's lane, no copies.
  bool OnHostMemory = false;
  /// Its copies use the host's cores (copiesUseHostCores).
  bool Pageable = false;
  /// Bytes copied in from the host (not those the exchange brings) and
  /// bytes copied out.
  uint64_t InBytes = 0, OutBytes = 0;
  /// Whether its results come back to the host: a step on the host's lane.
  bool Back = true;
  /// Operations already in the graph its copy in waits for (bytes brought
  /// to the host first).
  std::vector<unsigned> After;
  /// Left out of the graph (it failed before it could run).
  bool Skipped = false;
};

/// A piece's operations in the graph (-1: none).
struct PieceOps {
  int CopyIn = -1, Kernel = -1, CopyOut = -1, Merge = -1;
};

struct LaunchGraph {
  std::vector<BatchOp> Ops;
  IssueOrder Order;
  /// Per GraphPiece given, in its order.
  std::vector<PieceOps> Pieces;
  /// The exchange's operations, as addExchangeOps adds them, and per
  /// device taking part the ones copying into or out of it.
  std::vector<unsigned> ExchangeOps;
  std::map<unsigned, std::vector<unsigned>> ExchangeInto;

  /// Appends an operation (issued after those before it).
  unsigned add(BatchOp Op) {
    Ops.push_back(std::move(Op));
    Order.Order.push_back(unsigned(Ops.size() - 1));
    return unsigned(Ops.size() - 1);
  }
};

/// The inputs several devices exchange: the devices and each one's part.
struct GraphExchange {
  std::vector<ExchangeDevice> Devices;
  std::vector<uint64_t> PartBytes;
  /// Whether device \p Device takes part.
  bool takesPart(unsigned Device) const;
};

/// Appends the launch of \p Pieces to \p G, after what \p G holds (the
/// copies to the host that come first, \p Before: the exchange and the
/// pieces on host memory wait for them). \p M names the exchange's
/// devices; it may be null without an exchange.
void buildLaunchGraph(const std::vector<GraphPiece> &Pieces, const GraphExchange &Exchange,
                      const BatchMachine *M, const std::vector<unsigned> &Before,
                      LaunchGraph &G);

/// Whether \p D's copies of the launch's buffers run on the host's cores
/// (memcpy through staging, or into a HostDiscrete device), not by DMA.
bool copiesUseHostCores(const Device &D, const std::vector<HostArg> &Args);

/// \p Pieces as the launch's batch runs them: a chunked piece of a device
/// with its own memory (\p Shares false) as its chunks, consecutive and as
/// equal as can be (the first ones a group larger); \p Of gets each one's
/// index in \p Pieces.
std::vector<Piece> splitChunks(const std::vector<Piece> &Pieces,
                               const std::vector<bool> &Shares, std::vector<size_t> &Of);

/// "[Lo, Hi)": a range of groups or bytes, as labels and errors write it.
std::string rangeText(uint64_t Lo, uint64_t Hi);

/// "gpu0 [0, 512)": a piece's device and groups, as its operations in a
/// launch's batch are labelled ("copy in gpu0 [0, 512)").
std::string pieceName(const std::string &Device, const Piece &P);

/// What an engine of \p M is called in reports and traces: "gpu0 copies
/// in", "gpu0 kernels", "gpu0 copies out", "host".
std::string engineName(const BatchMachine &M, std::pair<int, unsigned> Engine);

} // namespace skmd

#endif // SKMD_LAUNCH_LAUNCHGRAPH_H
