//===- ProfileDatabase.h - Profiles kept between runs, in SQLite -*- C++ -*-===//
//
// Every profiled or real launch piece becomes a row: which kernel (a hash
// of the bundle's source, options and kernel name), which device (its name
// and description), the launch's shape (buffer sizes and scalar values, as
// text), the group count, and the measured times. The model is fitted from
// the rows of one kernel on one device.
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
#include <memory>
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

class ProfileDatabase {
public:
  /// Opens (creating it and its folder if needed) \p Path, or the default
  /// place when empty.
  static Result<std::unique_ptr<ProfileDatabase>> open(const std::string &Path = "");
  ~ProfileDatabase();

  /// The path used when none is given.
  static std::string defaultPath();

  Status add(const ProfileRow &Row);
  /// Every row of \p Kernel on \p Device.
  Result<std::vector<ProfileRow>> rows(const std::string &Kernel,
                                       const std::string &Device) const;
  const std::string &path() const { return Path; }

private:
  ProfileDatabase(sqlite3 *Db, std::string Path) : Db(Db), Path(std::move(Path)) {}
  Status exec(const char *Sql) const;
  sqlite3 *Db;
  std::string Path;
};

} // namespace skmd

#endif // SKMD_MODEL_PROFILEDATABASE_H
