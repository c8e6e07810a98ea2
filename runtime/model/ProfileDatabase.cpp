//===- ProfileDatabase.cpp - Profiles kept between runs, in SQLite --------===//
#include "model/ProfileDatabase.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <sys/stat.h>

namespace skmd {

namespace {

Failure dbError(sqlite3 *Db, const std::string &Path, const std::string &What) {
  return Failure(ErrorCode::IOError, "profile database " + Path + ": " + What + ": " +
                                         (Db ? sqlite3_errmsg(Db) : "out of memory"));
}

/// mkdir -p of the folder holding \p File.
bool makeParents(const std::string &File) {
  for (size_t Slash = File.find('/', 1); Slash != std::string::npos;
       Slash = File.find('/', Slash + 1)) {
    std::string Dir = File.substr(0, Slash);
    if (mkdir(Dir.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

std::string joinVars(const std::vector<double> &V) {
  std::ostringstream OS;
  OS.precision(17);
  for (size_t I = 0; I < V.size(); ++I)
    OS << (I ? "," : "") << V[I];
  return OS.str();
}

std::vector<double> splitVars(const char *Text) {
  std::vector<double> V;
  if (!Text || !*Text)
    return V;
  std::istringstream IS(Text);
  std::string Part;
  while (std::getline(IS, Part, ','))
    V.push_back(std::strtod(Part.c_str(), nullptr));
  return V;
}

/// Closes a statement on every path.
struct Statement {
  sqlite3_stmt *S = nullptr;
  ~Statement() { sqlite3_finalize(S); }
};

} // namespace

std::string ProfileDatabase::defaultPath() {
  if (const char *Env = std::getenv("SKMD_PROFILE_DB"); Env && *Env)
    return Env;
  std::string Cache;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    Cache = Xdg;
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    Cache = std::string(Home) + "/.cache";
  else
    Cache = "/tmp";
  return Cache + "/skmd/profiles.sqlite";
}

Result<std::unique_ptr<ProfileDatabase>> ProfileDatabase::open(const std::string &Given,
                                                               bool Create) {
  std::string Path = Given.empty() ? defaultPath() : Given;
  struct stat St;
  if (!Create && stat(Path.c_str(), &St) != 0)
    return Failure(ErrorCode::NotFound, "there is no profile database at " + Path);
  if (!makeParents(Path))
    return Failure(ErrorCode::IOError, "profile database " + Path +
                                           ": cannot create its folder: " +
                                           std::strerror(errno));
  sqlite3 *Db = nullptr;
  if (sqlite3_open_v2(Path.c_str(), &Db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    Failure F = dbError(Db, Path, "cannot open");
    sqlite3_close(Db);
    return F;
  }
  std::unique_ptr<ProfileDatabase> P(new ProfileDatabase(Db, Path));
  // Other processes may hold the lock for a moment: wait, do not fail.
  sqlite3_busy_timeout(Db, 5000);
  for (const char *Sql :
       {"PRAGMA journal_mode=WAL",
        "CREATE TABLE IF NOT EXISTS samples ("
        " kernel TEXT NOT NULL, device TEXT NOT NULL, shape TEXT NOT NULL,"
        " vars TEXT NOT NULL, groups INTEGER NOT NULL, total_groups INTEGER NOT NULL,"
        " kernel_ms REAL NOT NULL, input_ms REAL NOT NULL, output_ms REAL NOT NULL,"
        " bytes_in INTEGER NOT NULL, bytes_out INTEGER NOT NULL,"
        " recorded TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)",
        "CREATE INDEX IF NOT EXISTS samples_by_kernel ON samples (kernel, device)",
        "CREATE TABLE IF NOT EXISTS links ("
        " device TEXT NOT NULL, what TEXT NOT NULL, latency_ms REAL NOT NULL,"
        " gbps REAL NOT NULL, recorded TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,"
        " PRIMARY KEY (device, what))"})
    if (Status S = P->exec(Sql); !S)
      return S.error();
  return P;
}

ProfileDatabase::~ProfileDatabase() { sqlite3_close(Db); }

Status ProfileDatabase::exec(const char *Sql) const {
  char *Message = nullptr;
  if (sqlite3_exec(Db, Sql, nullptr, nullptr, &Message) != SQLITE_OK) {
    std::string Why = Message ? Message : "unknown error";
    sqlite3_free(Message);
    return Failure(ErrorCode::IOError, "profile database " + Path + ": " + Why);
  }
  return Status::success();
}

Status ProfileDatabase::add(const ProfileRow &R) {
  Statement St;
  if (sqlite3_prepare_v2(Db,
                         "INSERT INTO samples (kernel, device, shape, vars, groups,"
                         " total_groups, kernel_ms, input_ms, output_ms, bytes_in,"
                         " bytes_out) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                         -1, &St.S, nullptr) != SQLITE_OK)
    return dbError(Db, Path, "cannot prepare an insert");
  std::string Vars = joinVars(R.Vars);
  sqlite3_bind_text(St.S, 1, R.Kernel.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St.S, 2, R.Device.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St.S, 3, R.Shape.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St.S, 4, Vars.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(St.S, 5, sqlite3_int64(R.Groups));
  sqlite3_bind_int64(St.S, 6, sqlite3_int64(R.TotalGroups));
  sqlite3_bind_double(St.S, 7, R.KernelMs);
  sqlite3_bind_double(St.S, 8, R.InputMs);
  sqlite3_bind_double(St.S, 9, R.OutputMs);
  sqlite3_bind_int64(St.S, 10, sqlite3_int64(R.BytesIn));
  sqlite3_bind_int64(St.S, 11, sqlite3_int64(R.BytesOut));
  if (sqlite3_step(St.S) != SQLITE_DONE)
    return dbError(Db, Path, "cannot add a sample");
  std::lock_guard<std::mutex> Hold(KeptLock);
  if (auto It = Kept.find({R.Kernel, R.Device}); It != Kept.end())
    It->second.push_back(R);
  return Status::success();
}

Result<std::vector<ProfileRow>> ProfileDatabase::rows(const std::string &Kernel,
                                                      const std::string &Device) const {
  auto Key = std::make_pair(Kernel, Device);
  std::lock_guard<std::mutex> Hold(KeptLock);
  if (auto It = Kept.find(Key); It != Kept.end())
    return It->second;
  auto Read = readRows(Kernel, Device);
  if (Read)
    Kept.emplace(std::move(Key), *Read);
  return Read;
}

Result<std::vector<ProfileRow>> ProfileDatabase::readRows(const std::string &Kernel,
                                                          const std::string &Device) const {
  Statement St;
  if (sqlite3_prepare_v2(Db,
                         "SELECT shape, vars, groups, total_groups, kernel_ms, input_ms,"
                         " output_ms, bytes_in, bytes_out FROM samples"
                         " WHERE kernel = ? AND device = ? ORDER BY rowid",
                         -1, &St.S, nullptr) != SQLITE_OK)
    return dbError(Db, Path, "cannot prepare a query");
  sqlite3_bind_text(St.S, 1, Kernel.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St.S, 2, Device.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<ProfileRow> Out;
  int Rc;
  while ((Rc = sqlite3_step(St.S)) == SQLITE_ROW) {
    ProfileRow R;
    R.Kernel = Kernel;
    R.Device = Device;
    R.Shape = reinterpret_cast<const char *>(sqlite3_column_text(St.S, 0));
    R.Vars = splitVars(reinterpret_cast<const char *>(sqlite3_column_text(St.S, 1)));
    R.Groups = uint64_t(sqlite3_column_int64(St.S, 2));
    R.TotalGroups = uint64_t(sqlite3_column_int64(St.S, 3));
    R.KernelMs = sqlite3_column_double(St.S, 4);
    R.InputMs = sqlite3_column_double(St.S, 5);
    R.OutputMs = sqlite3_column_double(St.S, 6);
    R.BytesIn = uint64_t(sqlite3_column_int64(St.S, 7));
    R.BytesOut = uint64_t(sqlite3_column_int64(St.S, 8));
    Out.push_back(std::move(R));
  }
  if (Rc != SQLITE_DONE)
    return dbError(Db, Path, "cannot read samples");
  return Out;
}

Result<std::vector<ProfileDatabase::Summary>> ProfileDatabase::summary() const {
  Statement St;
  if (sqlite3_prepare_v2(Db,
                         "SELECT kernel, device, COUNT(*), COUNT(DISTINCT shape) FROM samples"
                         " GROUP BY kernel, device ORDER BY kernel, device",
                         -1, &St.S, nullptr) != SQLITE_OK)
    return dbError(Db, Path, "cannot prepare a query");
  std::vector<Summary> Out;
  int Rc;
  while ((Rc = sqlite3_step(St.S)) == SQLITE_ROW)
    Out.push_back({reinterpret_cast<const char *>(sqlite3_column_text(St.S, 0)),
                   reinterpret_cast<const char *>(sqlite3_column_text(St.S, 1)),
                   uint64_t(sqlite3_column_int64(St.S, 2)),
                   uint64_t(sqlite3_column_int64(St.S, 3))});
  if (Rc != SQLITE_DONE)
    return dbError(Db, Path, "cannot read samples");
  return Out;
}

Status ProfileDatabase::setLink(const std::string &Device, const std::string &What,
                                const LinkCost &Cost) {
  Statement St;
  if (sqlite3_prepare_v2(Db,
                         "INSERT OR REPLACE INTO links (device, what, latency_ms, gbps)"
                         " VALUES (?,?,?,?)",
                         -1, &St.S, nullptr) != SQLITE_OK)
    return dbError(Db, Path, "cannot prepare an insert");
  sqlite3_bind_text(St.S, 1, Device.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St.S, 2, What.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(St.S, 3, Cost.LatencyMs);
  sqlite3_bind_double(St.S, 4, Cost.GBps);
  if (sqlite3_step(St.S) != SQLITE_DONE)
    return dbError(Db, Path, "cannot record a link");
  return Status::success();
}

Result<std::optional<LinkCost>> ProfileDatabase::link(const std::string &Device,
                                                      const std::string &What) const {
  Statement St;
  if (sqlite3_prepare_v2(Db,
                         "SELECT latency_ms, gbps FROM links WHERE device = ? AND what = ?",
                         -1, &St.S, nullptr) != SQLITE_OK)
    return dbError(Db, Path, "cannot prepare a query");
  sqlite3_bind_text(St.S, 1, Device.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(St.S, 2, What.c_str(), -1, SQLITE_TRANSIENT);
  int Rc = sqlite3_step(St.S);
  if (Rc == SQLITE_DONE)
    return std::optional<LinkCost>();
  if (Rc != SQLITE_ROW)
    return dbError(Db, Path, "cannot read links");
  LinkCost C;
  C.LatencyMs = sqlite3_column_double(St.S, 0);
  C.GBps = sqlite3_column_double(St.S, 1);
  return std::optional<LinkCost>(C);
}

} // namespace skmd
