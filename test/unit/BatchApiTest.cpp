//===- BatchApiTest.cpp - skmd_batch_*: copies and kernel pieces, as a user calls them -===//
//
// On the CPU and two HostDiscrete devices: a launch split by hand into a
// batch gives the bytes the CPU alone gives; a piece on bytes no copy made
// current fails, naming them, and leaves the output as it was; prediction
// needs profiles; wrong arguments are refused.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"
#include "skmd/skmd.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string corpus(const char *Name) {
  const char *Env = std::getenv("SKMD_CORPUS_DIR");
  return std::string(Env ? Env : SKMD_CORPUS_DIR) + "/" + Name + ".skmd";
}

constexpr uint32_t N = 1 << 16; // 256 groups of 256
constexpr size_t Local = 256, Global = N;

class Batch : public ::testing::Test {
protected:
  void SetUp() override {
    Db = ::testing::TempDir() + "skmd-batch-api-" + std::to_string(getpid()) + ".sqlite";
    std::remove(Db.c_str());
    setenv("SKMD_PROFILE_DB", Db.c_str(), 1);
    ASSERT_EQ(skmd_init("cpu,discrete,discrete", &Ctx), SKMD_SUCCESS) << skmd_last_error();
    ASSERT_EQ(skmd_load_bundle(Ctx, corpus("vector_add").c_str(), &Prog), SKMD_SUCCESS);
    ASSERT_EQ(skmd_get_kernel(Prog, "vector_add", &K), SKMD_SUCCESS);
    std::mt19937 Rng(3);
    std::uniform_real_distribution<float> D(-1, 1);
    A.resize(N);
    B.resize(N);
    for (uint32_t I = 0; I < N; ++I) {
      A[I] = D(Rng);
      B[I] = D(Rng);
    }
    ASSERT_EQ(skmd_create_buffer(Ctx, N * 4, A.data(), &BA), SKMD_SUCCESS);
    ASSERT_EQ(skmd_create_buffer(Ctx, N * 4, B.data(), &BB), SKMD_SUCCESS);
    ASSERT_EQ(skmd_create_buffer(Ctx, N * 4, nullptr, &BC), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 0, BA), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 1, BB), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 2, BC), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_scalar(K, 3, &N, sizeof N), SKMD_SUCCESS);
  }
  void TearDown() override {
    skmd_release_context(Ctx);
    for (const char *Suffix : {"", "-wal", "-shm"})
      std::remove((Db + Suffix).c_str());
    unsetenv("SKMD_PROFILE_DB");
  }
  /// A kernel piece of groups [First, First + Count) on \p Device.
  size_t piece(skmd_batch Bt, size_t Device, uint64_t First, uint64_t Count) {
    size_t Op = ~size_t(0);
    EXPECT_EQ(skmd_batch_add_kernel(Bt, K, Device, 1, nullptr, &Global, &Local, First, Count, &Op),
              SKMD_SUCCESS)
        << skmd_last_error();
    return Op;
  }
  size_t copy(skmd_batch Bt, skmd_buffer Buf, size_t Offset, size_t Bytes, size_t From,
              size_t To, std::vector<size_t> After = {}) {
    size_t Op = ~size_t(0);
    EXPECT_EQ(skmd_batch_add_copy(Bt, Buf, Offset, Bytes, From, To, &Op), SKMD_SUCCESS)
        << skmd_last_error();
    for (size_t A : After)
      EXPECT_EQ(skmd_batch_add_dependency(Bt, Op, A), SKMD_SUCCESS) << skmd_last_error();
    return Op;
  }
  std::vector<float> result() {
    std::vector<float> C(N);
    EXPECT_EQ(skmd_read_buffer(BC, 0, N * 4, C.data()), SKMD_SUCCESS) << skmd_last_error();
    return C;
  }

  std::string Db;
  skmd_context Ctx = nullptr;
  skmd_program Prog = nullptr;
  skmd_kernel K = nullptr;
  skmd_buffer BA = nullptr, BB = nullptr, BC = nullptr;
  std::vector<float> A, B;
};

} // namespace

TEST_F(Batch, ALaunchSplitByHandGivesTheBytesOfTheCpuAlone) {
  ASSERT_EQ(skmd_launch(K, 1, nullptr, &Global, &Local, "cpu", nullptr), SKMD_SUCCESS);
  std::vector<float> Alone = result();
  std::vector<float> Zero(N, 0.0f);
  ASSERT_EQ(skmd_write_buffer(BC, 0, N * 4, Zero.data()), SKMD_SUCCESS);

  // Groups [0, 96) on the CPU, [96, 192) on discrete0, [192, 256) on
  // discrete1: each device's inputs in, its piece, its output back (and
  // discrete1's inputs through discrete0 for its first half).
  skmd_batch Bt;
  ASSERT_EQ(skmd_batch_create(Ctx, &Bt), SKMD_SUCCESS);
  const size_t G = Local * 4; // bytes of a group's floats
  piece(Bt, 0, 0, 96);
  size_t A1 = copy(Bt, BA, 96 * G, 96 * G, SKMD_HOST, 1);
  size_t B1 = copy(Bt, BB, 96 * G, 96 * G, SKMD_HOST, 1);
  size_t K1 = piece(Bt, 1, 96, 96);
  ASSERT_EQ(skmd_batch_add_dependency(Bt, K1, A1), SKMD_SUCCESS);
  ASSERT_EQ(skmd_batch_add_dependency(Bt, K1, B1), SKMD_SUCCESS);
  size_t C1 = copy(Bt, BC, 96 * G, 96 * G, 1, SKMD_HOST, {K1});
  size_t A2a = copy(Bt, BA, 192 * G, 32 * G, SKMD_HOST, 1);
  size_t A2b = copy(Bt, BA, 192 * G, 32 * G, 1, 2, {A2a});
  size_t A2c = copy(Bt, BA, 224 * G, 32 * G, SKMD_HOST, 2);
  size_t B2 = copy(Bt, BB, 192 * G, 64 * G, SKMD_HOST, 2);
  size_t K2 = piece(Bt, 2, 192, 64);
  for (size_t Op : {A2b, A2c, B2})
    ASSERT_EQ(skmd_batch_add_dependency(Bt, K2, Op), SKMD_SUCCESS);
  size_t C2 = copy(Bt, BC, 192 * G, 64 * G, 2, SKMD_HOST, {K2});
  ASSERT_EQ(skmd_batch_submit(Bt), SKMD_SUCCESS) << skmd_last_error();
  ASSERT_EQ(skmd_batch_wait(Bt), SKMD_SUCCESS) << skmd_last_error();
  int Done = 0;
  ASSERT_EQ(skmd_batch_query(Bt, &Done), SKMD_SUCCESS);
  EXPECT_TRUE(Done);
  EXPECT_EQ(result(), Alone);
  // Measured times: each piece after its inputs, each output after its piece.
  double T[4][4];
  for (auto [I, Op] : {std::pair{0, K1}, {1, C1}, {2, K2}, {3, C2}})
    ASSERT_EQ(skmd_batch_times(Bt, Op, T[I]), SKMD_SUCCESS) << skmd_last_error();
  EXPECT_GE(T[1][2], T[0][3]);
  EXPECT_GE(T[3][2], T[2][3]);
  skmd_batch_release(Bt);
}

TEST_F(Batch, APieceOnBytesNoCopyMadeCurrentFailsNamingThemAndWritesNothing) {
  std::vector<float> Before = result();
  skmd_batch Bt;
  ASSERT_EQ(skmd_batch_create(Ctx, &Bt), SKMD_SUCCESS);
  // Only A's first half goes to discrete0; the piece reads all of A.
  copy(Bt, BA, 0, N * 2, SKMD_HOST, 1);
  copy(Bt, BB, 0, N * 4, SKMD_HOST, 1);
  size_t P = piece(Bt, 1, 0, 256);
  ASSERT_EQ(skmd_batch_add_dependency(Bt, P, 0), SKMD_SUCCESS);
  ASSERT_EQ(skmd_batch_add_dependency(Bt, P, 1), SKMD_SUCCESS);
  copy(Bt, BC, 0, N * 4, 1, SKMD_HOST, {P});
  ASSERT_EQ(skmd_batch_submit(Bt), SKMD_SUCCESS);
  ASSERT_EQ(skmd_batch_wait(Bt), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(skmd_last_error(),
               "batch operation 2 (vector_add on discrete0, groups [0, 256)): reads bytes "
               "[131072, 262144) of argument 0 that are not current on discrete0: copy them "
               "there first");
  EXPECT_EQ(result(), Before);
  skmd_batch_release(Bt);
}

TEST_F(Batch, APredictionNeedsTheKernelsProfiles) {
  skmd_batch Bt;
  ASSERT_EQ(skmd_batch_create(Ctx, &Bt), SKMD_SUCCESS);
  copy(Bt, BA, 0, N * 4, SKMD_HOST, 1);
  double Ms = 0;
  ASSERT_EQ(skmd_batch_predict(Bt, &Ms), SKMD_SUCCESS) << skmd_last_error();
  EXPECT_GT(Ms, 0);
  // The piece waits for the copy, so its time adds to the copy's rather than
  // hiding beside it on another engine.
  size_t P = piece(Bt, 1, 0, 256);
  ASSERT_EQ(skmd_batch_add_dependency(Bt, P, 0), SKMD_SUCCESS);
  ASSERT_EQ(skmd_batch_predict(Bt, &Ms), SKMD_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(skmd_last_error()).find("vector_add on discrete0, groups [0, 256)"),
            std::string::npos);
  ASSERT_EQ(skmd_profile(K, 1, nullptr, &Global, &Local, nullptr, 1), SKMD_SUCCESS)
      << skmd_last_error();
  double WithKernel = 0;
  ASSERT_EQ(skmd_batch_predict(Bt, &WithKernel), SKMD_SUCCESS) << skmd_last_error();
  EXPECT_GT(WithKernel, Ms);
  skmd_batch_release(Bt);
}

TEST_F(Batch, WrongArgumentsAreRefused) {
  skmd_batch Bt;
  ASSERT_EQ(skmd_batch_create(Ctx, &Bt), SKMD_SUCCESS);
  size_t Op;
  EXPECT_EQ(skmd_batch_add_copy(Bt, BA, 0, 4, SKMD_HOST, 7, &Op), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("no device 7"), std::string::npos);
  EXPECT_EQ(skmd_batch_add_kernel(Bt, K, 9, 1, nullptr, &Global, &Local, 0, 1, &Op),
            SKMD_ERROR_INVALID_ARGUMENT);
  copy(Bt, BA, 0, 4, SKMD_HOST, 1);
  EXPECT_EQ(skmd_batch_add_dependency(Bt, 0, 0), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(skmd_batch_add_dependency(Bt, 3, 0), SKMD_ERROR_INVALID_ARGUMENT);
  double T[4];
  EXPECT_EQ(skmd_batch_times(Bt, 0, T), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(skmd_batch_wait(Bt), SKMD_ERROR_INVALID_ARGUMENT);
  // Checked when it runs: past the buffer's end, to the CPU, groups past
  // the launch's.
  for (int Case = 0; Case < 3; ++Case) {
    skmd_batch Bad;
    ASSERT_EQ(skmd_batch_create(Ctx, &Bad), SKMD_SUCCESS);
    if (Case == 0)
      copy(Bad, BA, N * 4 - 4, 8, SKMD_HOST, 1);
    else if (Case == 1)
      copy(Bad, BA, 0, 4, SKMD_HOST, 0);
    else
      piece(Bad, 1, 200, 100);
    ASSERT_EQ(skmd_batch_submit(Bad), SKMD_SUCCESS);
    EXPECT_EQ(skmd_batch_wait(Bad), SKMD_ERROR_INVALID_ARGUMENT);
    const char *Want[] = {"are not within the buffer's", "computes on host memory",
                          "are not within the 256 groups"};
    EXPECT_NE(std::string(skmd_last_error()).find(Want[Case]), std::string::npos)
        << skmd_last_error();
    skmd_batch_release(Bad);
  }
  ASSERT_EQ(skmd_batch_submit(Bt), SKMD_SUCCESS);
  EXPECT_EQ(skmd_batch_submit(Bt), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(skmd_batch_add_copy(Bt, BA, 0, 4, SKMD_HOST, 1, &Op), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(skmd_batch_wait(Bt), SKMD_SUCCESS) << skmd_last_error();
  skmd_batch_release(Bt);
}

TEST(BatchCpp, TheWrapperRunsABatchThroughADevice) {
  std::string Db = ::testing::TempDir() + "skmd-batch-cpp-" + std::to_string(getpid()) + ".sqlite";
  setenv("SKMD_PROFILE_DB", Db.c_str(), 1);
  {
    skmd::Context Ctx("cpu,discrete");
    skmd::Program P = Ctx.load(corpus("vector_add"));
    skmd::Kernel K = P.kernel("vector_add");
    std::vector<float> A(N, 1.5f), B(N, 2.25f), C(N, 0.0f);
    skmd::Buffer BA = Ctx.create(A), BB = Ctx.create(B), BC = Ctx.create(C);
    K.arg(0, BA).arg(1, BB).arg(2, BC).arg(3, N);
    skmd::Batch Bt = Ctx.batch();
    size_t InA = Bt.copy(BA, 0, N * 4, skmd::Batch::Host, 1);
    size_t InB = Bt.copy(BB, 0, N * 4, skmd::Batch::Host, 1);
    size_t Run = Bt.kernel(K, 1, {Global}, {Local}, 0, N / Local);
    size_t Out = Bt.copy(BC, 0, N * 4, 1, skmd::Batch::Host);
    Bt.after(Run, InA).after(Run, InB).after(Out, Run);
    Bt.submit();
    Bt.wait();
    EXPECT_TRUE(Bt.done());
    BC.read(C);
    EXPECT_EQ(C, std::vector<float>(N, 3.75f));
    std::array<double, 4> T = Bt.times(Out);
    EXPECT_GE(T[2], Bt.times(Run)[3]);
    EXPECT_THROW(Bt.after(Out, Run), skmd::Error);
  }
  for (const char *Suffix : {"", "-wal", "-shm"})
    std::remove((Db + Suffix).c_str());
  unsetenv("SKMD_PROFILE_DB");
}
