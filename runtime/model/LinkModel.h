//===- LinkModel.h - What copies to and from a device cost -------*- C++ -*-===//
//
// The transfer model of the SKMD paper's section 3.3: a copy of n bytes
// costs latency + n / bandwidth, per device and direction, from pageable
// host memory (which a GPU's copies stream through the staging pool) and
// from page-locked memory (copied directly). Measured once per device
// (well under a second) and kept in the profile database.
//
// The merge model is the same form for the host: a merge reads a device's
// results and stores them into the user's buffers, so it costs what a
// host memcpy of those bytes costs.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_MODEL_LINKMODEL_H
#define SKMD_MODEL_LINKMODEL_H

#include "devices/Device.h"
#include "model/ProfileDatabase.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace skmd {

/// Whether a cost the profile database lacks may be measured now (and
/// recorded), or is an error (NotFound, naming skmd-prof --links): for
/// callers that use the routes only where they are known and must not
/// stop for seconds to measure them (a launch).
enum class Measuring { Allowed, RecordedOnly };

struct LinkModel {
  LinkCost InPageable, InPinned, OutPageable, OutPinned;
  const LinkCost &in(bool Pinned) const { return Pinned ? InPinned : InPageable; }
  const LinkCost &out(bool Pinned) const { return Pinned ? OutPinned : OutPageable; }
};

/// Measures \p D's copies: latency from small copies, bandwidth from large
/// ones, the median of several runs from memory no recent copy touched
/// (what a launch's copies meet). A device without page-locked memory gets
/// its pageable costs for both kinds.
Result<LinkModel> measureLink(Device &D);

/// The rates, GB/s, of copies of \p Bytes to and from \p D (the median of
/// three after one untimed run), from page-locked host memory where \p D
/// has it: what skmd_measure_link reports.
Result<std::pair<double, double>> measureCopyRate(Device &D, uint64_t Bytes);

/// \p D's link model from \p Db, measured and recorded there if missing.
Result<LinkModel> linkModel(Device &D, ProfileDatabase &Db,
                            Measuring M = Measuring::Allowed);

/// How many devices' staged copies (pageable memory through the host's
/// cores) the host sustains at once, each at the speed it has alone: the
/// same copies one device after another over all of them at the same
/// time, between 1 (no faster than one at a time) and the number of
/// devices (each as fast as alone). On the 2xH200 host two GPUs' staged
/// copies went 1.6x one GPU's; on the 4xH200 host four went 1.6-1.9x.
struct StagingCapacity {
  double In = 1, Out = 1;
};

/// Measures \p Staged's capacity: 64 MiB of pageable memory to and from
/// each device, one after another and all at once (each device's copies
/// on a thread of its own, as in a launch), median of several runs.
Result<StagingCapacity> measureStagingCapacity(const std::vector<Device *> &Staged);

/// \p Staged's capacity from \p Db, measured and recorded there if
/// missing (key: the devices' identities); a measurement is announced to
/// \p Progress first.
Result<StagingCapacity>
stagingCapacity(const std::vector<Device *> &Staged, ProfileDatabase &Db,
                const std::function<void(const std::string &)> &Progress = nullptr,
                Measuring M = Measuring::Allowed);

/// What several devices' copies moved, GB/s over all their bytes: one
/// device after another, and all at once (each on a thread of its own,
/// 64 MiB each, median of several runs).
struct CopiesTogether {
  double InOneByOne = 0, InTogether = 0, OutOneByOne = 0, OutTogether = 0;
};

/// \p Devices' copies of page-locked (\p Pinned) or pageable host memory
/// one after another and at once, from \p Db, measured and recorded there
/// if missing (key: the devices' identities); a measurement is announced
/// to \p Progress first. Two devices or more.
Result<CopiesTogether>
copiesTogether(const std::vector<Device *> &Devices, bool Pinned, ProfileDatabase &Db,
               const std::function<void(const std::string &)> &Progress = nullptr,
               Measuring M = Measuring::Allowed);

/// The host's memcpy cost (the merge model), from \p Db or measured now
/// and recorded under \p HostKey.
Result<LinkCost> hostCopyModel(ProfileDatabase &Db, const std::string &HostKey,
                               Measuring M = Measuring::Allowed);

/// What a pipelined share's copies cost (planning/Partitioner.h): \p D's
/// copies from and to page-locked memory in both directions at once (they
/// share the link), alone and beside \p LoadThreads threads copying host
/// memory (a split's CPU kernel, which takes memory bandwidth and cores
/// from the copies' threads). Each with the latency of the copy alone, the
/// bandwidth of 64 MiB each way at once, best of several runs.
struct OverlappedLink {
  LinkCost In, Out;             ///< Both directions at once.
  LinkCost InBeside, OutBeside; ///< The same beside the host's copies.
};

/// \p D's overlapped costs from \p Db, measured and recorded there if
/// missing; \p Alone's pinned costs (as measured, no overlap) for a device
/// without page-locked memory or copy engines.
Result<OverlappedLink> overlappedLink(Device &D, const LinkModel &Alone, unsigned LoadThreads,
                                      ProfileDatabase &Db, Measuring M = Measuring::Allowed);

/// The host memory's rate for a copy made on every core (\p Copy: the CPU
/// device's parallel memcpy), from \p Db or measured now and recorded
/// under \p HostKey: what bounds the bytes every device together reads and
/// writes in host memory (planning/Bound.h). A copy of n bytes reads
/// and writes n each.
Result<LinkCost>
hostMemoryModel(ProfileDatabase &Db, const std::string &HostKey,
                const std::function<void(void *, const void *, uint64_t)> &Copy,
                Measuring M = Measuring::Allowed);

/// Host memory's read and write rates on every core (\p Read and \p Write:
/// the CPU device's readHost and fillHost), from \p Db or measured now and
/// recorded under \p HostKey: a host reads faster than a memcpy's traffic
/// suggests and writes slower, and copies to devices read host memory
/// where kernels on the host's cores read it too (batch/Machine.h).
struct HostReadWrite {
  LinkCost Read, Write;
};
Result<HostReadWrite>
hostReadWriteModel(ProfileDatabase &Db, const std::string &HostKey,
                   const std::function<void(const void *, uint64_t)> &Read,
                   const std::function<void(void *, uint64_t)> &Write,
                   Measuring M = Measuring::Allowed);

/// \p From's copies to \p To (Device::copyPeer): latency and rate, from
/// \p Db, or measured now (64 MiB allocations on each, the link model's
/// sizes) and recorded.
Result<LinkCost> peerLink(Device &To, Device &From, ProfileDatabase &Db,
                          Measuring M = Measuring::Allowed);

/// How \p D's copies and a memory-bound kernel on the host's cores share
/// the host (memory, cores) when they run at once: per kind of copy (in
/// and out, page-locked and pageable), the copy's and the load's rates
/// alone and together, GB/s. The load is \p Load (the CPU device's
/// parallel memcpy of 256 MiB, as a memory-bound CPU kernel runs: on the
/// CPU device's threads, which lend cores to staging copies). On the H100
/// host, staged copies beside such a kernel lost far more than their share
/// in proportion to their rates alone, and DMA copies less (docs/batch.md).
struct HostSharing {
  struct Pair {
    double CopyAlone = 0, CopyBeside = 0, LoadAlone = 0, LoadBeside = 0;
  };
  /// InPinned, InPageable, OutPinned, OutPageable.
  Pair Kinds[4];
};

/// \p D's sharing from \p Db, measured and recorded there if missing (a
/// second or so); \p Progress hears of a measurement first.
Result<HostSharing>
hostSharing(Device &D, const std::function<void(void *, const void *, uint64_t)> &Load,
            ProfileDatabase &Db, const std::function<void(const std::string &)> &Progress = nullptr,
            Measuring M = Measuring::Allowed);

} // namespace skmd

#endif // SKMD_MODEL_LINKMODEL_H
