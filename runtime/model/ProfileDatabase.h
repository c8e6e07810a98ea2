//===- ProfileDatabase.h - Profiles kept between runs, in SQLite -*- C++ -*-===//
//
// Every profiled piece becomes a row of `samples`: which kernel (a hash of
// the bundle's source, options and kernel name), which device (its name
// and description), the launch's shape (buffer sizes and scalar values, as
// text), the group count, and the measured times. The model is fitted from
// the rows of one kernel on one device. `links` keeps each device's
// measured copy costs (one row per direction and host memory kind), and
// the host's copy bandwidth, so that they are measured once.
//
// The file defaults to $XDG_CACHE_HOME/skmd/profiles.sqlite (or
// ~/.cache/skmd/profiles.sqlite); SKMD_PROFILE_DB overrides. Several
// processes may use it at once: the database is in WAL mode and waits up
// to 5 s for a lock instead of failing.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_MODEL_PROFILEDATABASE_H
#define SKMD_MODEL_PROFILEDATABASE_H

#include "support/Result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace skmd {

/// One measured piece of a launch.
struct ProfileRow {
  std::string Kernel;   ///< kernelKey()
  std::string Device;   ///< deviceKey()
  std::string Shape;    ///< launchShape(): buffer sizes, scalar values
  std::vector<double> Vars; ///< The model's variables of that shape.
  uint64_t Groups = 0;      ///< Groups the device ran.
  uint64_t TotalGroups = 0; ///< Groups of the launch.
  double KernelMs = 0, InputMs = 0, OutputMs = 0;
  uint64_t BytesIn = 0, BytesOut = 0;
};

/// A measured copy cost: Latency + bytes / bandwidth.
struct LinkCost {
  double LatencyMs = 0;
  double GBps = 0;
  double ms(uint64_t Bytes) const { return ms(Bytes, Bytes ? 1 : 0); }
  /// \p Bytes in \p Copies copies.
  double ms(uint64_t Bytes, uint64_t Copies) const {
    return double(Copies) * LatencyMs + (GBps > 0 ? double(Bytes) / GBps / 1e6 : 0);
  }
};

class ProfileDatabase {
public:
  /// Opens \p Path, or the default place when empty; creates it and its
  /// folder if needed and \p Create, else a missing file is NotFound.
  static Result<std::unique_ptr<ProfileDatabase>> open(const std::string &Path = "",
                                                       bool Create = true);
  ~ProfileDatabase();

  /// The path used when none is given.
  static std::string defaultPath();

  Status add(const ProfileRow &Row);
  /// Every row of \p Kernel on \p Device. Read from the file once per
  /// pair and kept (a planner asks at every new launch shape); rows this
  /// object adds join the kept ones, rows other processes add are seen by
  /// the next ProfileDatabase opened.
  Result<std::vector<ProfileRow>> rows(const std::string &Kernel,
                                       const std::string &Device) const;
  /// The kernels and devices with rows, and how many each pair has.
  struct Summary {
    std::string Kernel, Device;
    uint64_t Rows = 0, Shapes = 0;
  };
  Result<std::vector<Summary>> summary() const;

  /// Records (replacing) the cost \p What of \p Device, e.g. "in-pinned".
  Status setLink(const std::string &Device, const std::string &What, const LinkCost &Cost);
  /// The cost recorded, if any.
  Result<std::optional<LinkCost>> link(const std::string &Device,
                                       const std::string &What) const;
  /// Forgets every recorded copy cost (links, host memory, copies made
  /// together), so that the next use measures them again.
  Status forgetLinks() { return exec("DELETE FROM links"); }
  const std::string &path() const { return Path; }

private:
  ProfileDatabase(sqlite3 *Db, std::string Path) : Db(Db), Path(std::move(Path)) {}
  Status exec(const char *Sql) const;
  Result<std::vector<ProfileRow>> readRows(const std::string &Kernel,
                                           const std::string &Device) const;
  sqlite3 *Db;
  std::string Path;
  /// rows(), per (kernel, device) read so far.
  mutable std::mutex KeptLock;
  mutable std::map<std::pair<std::string, std::string>, std::vector<ProfileRow>> Kept;
};

} // namespace skmd

#endif // SKMD_MODEL_PROFILEDATABASE_H
