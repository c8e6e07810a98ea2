//===- WorkGroupRunner.h - Running groups of an x86 variant ------*- C++ -*-===//
//
// Runs the flattened work-groups [first, first + count) of a launch by
// calling a work-group function (WorkGroupABI.h) once per group, on every
// thread of a pool, with no per-group check: the SKMD paper's "enhanced CPU
// driver". Each thread has its own __local memory and per-item state.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DEVICES_CPU_WORKGROUPRUNNER_H
#define SKMD_DEVICES_CPU_WORKGROUPRUNNER_H

#include "devices/NDRange.h"
#include "devices/cpu/ThreadPool.h"
#include "devices/cpu/WorkGroupABI.h"
#include "support/Result.h"

#include <array>
#include <cstdint>
#include <vector>

namespace skmd {

/// What one kernel's work-group function needs besides its arguments.
struct WorkGroupNeeds {
  uint64_t LocalMemBytes = 0;
  uint64_t StateBytesPerItem = 0;
};

/// \p Args holds, per kernel argument, a pointer to its value as the
/// work-group function reads it. A __local buffer argument is given instead
/// by a nonzero size in \p LocalArgBytes; each thread then gets its own
/// scratch of that size. At most \p MaxThreads of the pool's threads take
/// part (all when 0; see ThreadPool::computeThreads).
Status runWorkGroups(ThreadPool &Pool, skmd_wg_fn Fn,
                     const std::vector<void *> &Args,
                     const std::vector<uint64_t> &LocalArgBytes,
                     const NDRange &Launch, const WorkGroupNeeds &Needs,
                     uint64_t First, uint64_t Count, unsigned MaxThreads = 0);

} // namespace skmd

#endif // SKMD_DEVICES_CPU_WORKGROUPRUNNER_H
