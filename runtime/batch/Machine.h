//===- Machine.h - The session's devices as the batch model sees them -*- C++ -*-===//
//
// Builds the route table (batch/Routes.h) from what the profile database
// holds, measuring what is missing (the measurements of model/LinkModel.h,
// each well under a second):
//
//   - every device's routes alone: host memory to it and back, page-locked
//     and pageable (its link model);
//   - a limit on both directions of one device at once (64 MiB each way
//     at once, page-locked), where it has copy engines;
//   - limits on devices at once, one direction at a time: page-locked
//     copies of each set of devices that share a link on the way to host
//     memory (batch/Topology.h: a switch, a host bridge, a package, the
//     machine), and staged copies of every device that stages (the host's
//     cores);
//   - host memory: the host's memcpy traffic, a DMA or staged byte
//     counting one (staging chunks stay in the last-level cache), a
//     HostDiscrete device's memcpy two, a CPU kernel what it reads and
//     writes; and host memory's reads and writes alone, each limiting the
//     copies and kernels that read (write) it;
//   - each route's share against a kernel on the host's cores: its
//     copies' and a memory-bound load's rates alone and at once
//     (hostSharing).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BATCH_MACHINE_H
#define SKMD_BATCH_MACHINE_H

#include "batch/Prediction.h"
#include "batch/Topology.h"
#include "devices/Device.h"
#include "model/LinkModel.h"
#include "model/ProfileDatabase.h"

#include <functional>
#include <string>
#include <vector>

namespace skmd {

class CpuDevice;

/// \p Devices (indices as in the batch) and their routes; \p Cpu, when
/// given, measures host memory (its parallel memcpy); \p Where, when
/// given, says which devices share links (else all of them share one).
/// Measurements are announced to \p Progress and recorded in \p Db;
/// under Measuring::RecordedOnly a route \p Db lacks is an error instead.
Result<BatchMachine>
measuredMachine(const std::vector<Device *> &Devices, CpuDevice *Cpu, ProfileDatabase &Db,
                const std::function<void(const std::string &)> &Progress = nullptr,
                const Topology *Where = nullptr, Measuring Policy = Measuring::Allowed);

/// The routes alone (with their shares) and the limits, as a table for
/// people (skmd-prof --links).
std::string describeRoutes(const BatchMachine &M);

} // namespace skmd

#endif // SKMD_BATCH_MACHINE_H
