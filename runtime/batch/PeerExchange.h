//===- PeerExchange.h - An input every device needs, through its peers -*- C++ -*-===//
//
// When several devices of a launch each need the same bytes of an input
// (matmul's second matrix, n-body's bodies), each copying all of them
// from the host moves them over every device's link, and over whatever
// the links share (a PCIe switch, host memory) as many times. Where the
// devices reach each other faster (NVLink), the batch sends each device
// one part over its own link and the devices then exchange the parts:
//
//     share in gpu0       host > gpu0   part 0
//     share in gpu1       host > gpu1   part 1
//     share gpu0>gpu1     gpu0 > gpu1   part 0   (after share in gpu0)
//     share gpu1>gpu0     gpu1 > gpu0   part 1   (after share in gpu1)
//
// and each device's copies in wait for the parts coming to it and going
// from it. Whether it
// pays is the batch predictor's answer on the machine's route table (the
// parts and exchanges against every device copying all of it), so a
// machine whose devices reach each other only through host memory (PCIe
// without peer access, HostDiscrete devices) keeps the plain copies. The
// launcher (launch/Launcher.h) and the planner's prediction of its batch
// (planning/ModelPlanner.h) take the same decision here.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BATCH_PEEREXCHANGE_H
#define SKMD_BATCH_PEEREXCHANGE_H

#include "batch/Prediction.h"

#include <cstdint>
#include <string>
#include <vector>

namespace skmd {

/// Below this, an exchange's extra operations cost more than the bytes
/// they spare.
constexpr uint64_t MinExchangedBytes = 1 << 20;

/// A device of a launch that may take part: its index in the machine and
/// whether its copies from the host are staged (pageable memory).
struct ExchangeDevice {
  int Device = 0;
  bool Pageable = false;
};

/// \p Shared bytes split into \p Parts parts, as equal as whole \p Unit
/// sized pieces allow (the first ones larger).
std::vector<uint64_t> splitShared(uint64_t Shared, size_t Parts, uint64_t Unit = 1);

/// The devices of \p Candidates (at least two, each with measured routes
/// to and from every other) that should receive \p Shared bytes each
/// through the exchange, in the candidates' order: all of them where the
/// predictor finds the exchange finishes the bytes' arrival at least 10%
/// sooner than every device copying them from the host; none otherwise,
/// or where SKMD_PEER_EXCHANGE=0.
std::vector<ExchangeDevice> choosePeerExchange(const BatchMachine &M,
                                               const std::vector<ExchangeDevice> &Candidates,
                                               uint64_t Shared);

/// Appends the exchange's operations to \p Ops: per device of \p Devices
/// its part (\p PartBytes, same order) from the host, after \p After;
/// then each part from its device to every other. Returns, per device,
/// the operations that copy into or out of it: its copies in wait for them
/// all, so that its kernel never writes what a peer copy still reads
/// (plans where one device writes bytes another reads are refused before
/// this, so it costs the kernel at most the wait for its outgoing parts).
std::vector<std::vector<unsigned>> addExchangeOps(const BatchMachine &M,
                                                  const std::vector<ExchangeDevice> &Devices,
                                                  const std::vector<uint64_t> &PartBytes,
                                                  const std::vector<unsigned> &After,
                                                  std::vector<BatchOp> &Ops);

} // namespace skmd

#endif // SKMD_BATCH_PEEREXCHANGE_H
