//===- ProfileDatabaseTest.cpp - Profiles between runs and processes ------===//
#include "model/ProfileDatabase.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

using namespace skmd;

namespace {

std::string freshPath(const char *Name) {
  std::string Dir = ::testing::TempDir() + "skmd-db-" + std::to_string(getpid());
  std::string Path = Dir + "/nested/" + Name;
  std::remove(Path.c_str());
  return Path;
}

ProfileRow row(uint64_t Groups, double Ms) {
  ProfileRow R;
  R.Kernel = "k:abc";
  R.Device = "gpu0:Test GPU";
  R.Shape = "buffers=4096,4096;scalars=1000";
  R.Vars = {0.0039, 1000};
  R.Groups = Groups;
  R.TotalGroups = 64;
  R.KernelMs = Ms;
  R.InputMs = 0.5;
  R.OutputMs = 0.25;
  R.BytesIn = 8192;
  R.BytesOut = 4096;
  return R;
}

TEST(ProfileDatabase, KeepsRowsAcrossOpens) {
  std::string Path = freshPath("keep.sqlite");
  {
    auto Db = ProfileDatabase::open(Path);
    ASSERT_TRUE(Db.ok()) << Db.error().message();
    ASSERT_TRUE((*Db)->add(row(4, 1.5)).ok());
    ASSERT_TRUE((*Db)->add(row(8, 2.5)).ok());
  }
  auto Db = ProfileDatabase::open(Path);
  ASSERT_TRUE(Db.ok()) << Db.error().message();
  auto Rows = (*Db)->rows("k:abc", "gpu0:Test GPU");
  ASSERT_TRUE(Rows.ok()) << Rows.error().message();
  ASSERT_EQ(Rows->size(), 2u);
  EXPECT_EQ((*Rows)[1].Groups, 8u);
  EXPECT_DOUBLE_EQ((*Rows)[1].KernelMs, 2.5);
  EXPECT_EQ((*Rows)[0].Vars, (std::vector<double>{0.0039, 1000}));
  EXPECT_EQ((*Rows)[0].Shape, "buffers=4096,4096;scalars=1000");
  // Another device or kernel sees nothing: an empty database answer.
  auto None = (*Db)->rows("k:abc", "cpu:Test CPU");
  ASSERT_TRUE(None.ok());
  EXPECT_TRUE(None->empty());
}

// Rows read once are kept; rows added after the first read join them, as
// the file has them.
TEST(ProfileDatabase, KeptRowsFollowWhatIsAdded) {
  std::string Path = freshPath("kept.sqlite");
  auto Db = ProfileDatabase::open(Path);
  ASSERT_TRUE(Db.ok()) << Db.error().message();
  auto Empty = (*Db)->rows("k:abc", "gpu0:Test GPU");
  ASSERT_TRUE(Empty.ok());
  EXPECT_TRUE(Empty->empty());
  ASSERT_TRUE((*Db)->add(row(4, 1.5)).ok());
  ASSERT_TRUE((*Db)->add(row(8, 2.5)).ok());
  auto Kept = (*Db)->rows("k:abc", "gpu0:Test GPU");
  ASSERT_TRUE(Kept.ok());
  auto Fresh = ProfileDatabase::open(Path);
  ASSERT_TRUE(Fresh.ok());
  auto Read = (*Fresh)->rows("k:abc", "gpu0:Test GPU");
  ASSERT_TRUE(Read.ok());
  ASSERT_EQ(Kept->size(), 2u);
  ASSERT_EQ(Read->size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    EXPECT_EQ((*Kept)[I].Groups, (*Read)[I].Groups);
    EXPECT_EQ((*Kept)[I].Vars, (*Read)[I].Vars);
    EXPECT_EQ((*Kept)[I].Shape, (*Read)[I].Shape);
    EXPECT_EQ((*Kept)[I].KernelMs, (*Read)[I].KernelMs);
  }
}

TEST(ProfileDatabase, SeveralProcessesWriteAtOnce) {
  std::string Path = freshPath("shared.sqlite");
  ASSERT_TRUE(ProfileDatabase::open(Path).ok());
  const int Children = 4, Each = 25;
  std::vector<pid_t> Pids;
  for (int C = 0; C < Children; ++C) {
    pid_t Pid = fork();
    if (Pid == 0) {
      auto Db = ProfileDatabase::open(Path);
      int Bad = Db.ok() ? 0 : 1;
      for (int I = 0; I < Each && !Bad; ++I)
        Bad = !(*Db)->add(row(uint64_t(C * 100 + I), I)).ok();
      _exit(Bad);
    }
    Pids.push_back(Pid);
  }
  for (pid_t Pid : Pids) {
    int Status = 0;
    waitpid(Pid, &Status, 0);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  auto Db = ProfileDatabase::open(Path);
  ASSERT_TRUE(Db.ok());
  auto Rows = (*Db)->rows("k:abc", "gpu0:Test GPU");
  ASSERT_TRUE(Rows.ok());
  EXPECT_EQ(Rows->size(), size_t(Children * Each));
}

TEST(ProfileDatabase, UnusablePlacesAreNamed) {
  auto Db = ProfileDatabase::open("/proc/skmd/profiles.sqlite");
  ASSERT_FALSE(Db.ok());
  EXPECT_NE(Db.error().message().find("/proc/skmd/profiles.sqlite"), std::string::npos)
      << Db.error().message();
  setenv("SKMD_PROFILE_DB", "/tmp/elsewhere.sqlite", 1);
  EXPECT_EQ(ProfileDatabase::defaultPath(), "/tmp/elsewhere.sqlite");
  unsetenv("SKMD_PROFILE_DB");
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(ProfileDatabase::defaultPath(), "/tmp/xdg/skmd/profiles.sqlite");
  unsetenv("XDG_CACHE_HOME");
}

} // namespace
