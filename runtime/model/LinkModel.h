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

namespace skmd {

struct LinkModel {
  LinkCost InPageable, InPinned, OutPageable, OutPinned;
  const LinkCost &in(bool Pinned) const { return Pinned ? InPinned : InPageable; }
  const LinkCost &out(bool Pinned) const { return Pinned ? OutPinned : OutPageable; }
};

/// Measures \p D's copies: latency from small copies, bandwidth from large
/// ones, best of several runs. A device without page-locked memory gets
/// its pageable costs for both kinds.
Result<LinkModel> measureLink(Device &D);

/// \p D's link model from \p Db, measured and recorded there if missing.
Result<LinkModel> linkModel(Device &D, ProfileDatabase &Db);

/// The host's memcpy cost (the merge model), from \p Db or measured now
/// and recorded under \p HostKey.
Result<LinkCost> hostCopyModel(ProfileDatabase &Db, const std::string &HostKey);

} // namespace skmd

#endif // SKMD_MODEL_LINKMODEL_H
