//===- RuntimeApiTest.cpp - The C API, plans, faults and bad input --------===//
//
// Through include/skmd/skmd.h, as a user calls it, with the CPU and two
// HostDiscrete devices: partitioned launches against the CPU alone, every
// plan form, injected device failures (outputs complete, the error names
// the device), and the refusals of bad input.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"

#include "bundle/Bundle.h"
#include "bundle/BundleFormat.h"
#include "model/ProfileDatabase.h"
#include "model/Profiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

namespace {

/// A profile database of the test's own, none there yet; removed after.
struct ScratchProfiles {
  std::string Path;
  explicit ScratchProfiles(const std::string &Name)
      : Path(::testing::TempDir() + "skmd-" + Name + "-" + std::to_string(getpid()) +
             ".sqlite") {
    clear();
    setenv("SKMD_PROFILE_DB", Path.c_str(), 1);
  }
  ~ScratchProfiles() {
    clear();
    unsetenv("SKMD_PROFILE_DB");
  }
  void clear() {
    for (const char *Suffix : {"", "-wal", "-shm"})
      std::remove((Path + Suffix).c_str());
  }
  bool exists() const {
    struct stat St;
    return stat(Path.c_str(), &St) == 0;
  }
};

std::string corpus(const std::string &Name) {
  const char *Env = std::getenv("SKMD_CORPUS_DIR");
  return std::string(Env ? Env : SKMD_CORPUS_DIR) + "/" + Name + ".skmd";
}

std::vector<uint8_t> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(In), {});
}

/// A context on cpu + 2 HostDiscrete devices, with vector_add loaded.
class Api : public ::testing::Test {
protected:
  void SetUp() override {
    unsetenv("SKMD_INJECT_FAULT");
    ASSERT_EQ(skmd_init("cpu,discrete,discrete", &Ctx), SKMD_SUCCESS)
        << skmd_last_error();
    ASSERT_EQ(skmd_load_bundle(Ctx, corpus("vector_add").c_str(), &Prog),
              SKMD_SUCCESS)
        << skmd_last_error();
    ASSERT_EQ(skmd_get_kernel(Prog, "vector_add", &K), SKMD_SUCCESS)
        << skmd_last_error();
    std::mt19937 Rng(7);
    std::uniform_real_distribution<float> D(-1, 1);
    A.resize(N);
    B.resize(N);
    for (uint32_t I = 0; I < N; ++I) {
      A[I] = D(Rng);
      B[I] = D(Rng);
    }
  }
  void TearDown() override {
    unsetenv("SKMD_INJECT_FAULT");
    skmd_release_context(Ctx);
  }

  /// Sets vector_add's arguments, C zeroed, in the context of K.
  void setArgs() {
    C.assign(N, 0.0f);
    skmd_buffer BA, BB, BC;
    skmd_context Of = KernelCtx ? KernelCtx : Ctx;
    ASSERT_EQ(skmd_wrap_buffer(Of, A.data(), N * 4, &BA), SKMD_SUCCESS);
    ASSERT_EQ(skmd_wrap_buffer(Of, B.data(), N * 4, &BB), SKMD_SUCCESS);
    ASSERT_EQ(skmd_wrap_buffer(Of, C.data(), N * 4, &BC), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 0, BA), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 1, BB), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 2, BC), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_scalar(K, 3, &N, sizeof N), SKMD_SUCCESS);
  }

  /// vector_add of a context of the test's own, as K (the fixture's K
  /// goes to \p Saved until restored with std::swap).
  void useKernelOf(skmd_context Other, skmd_kernel &Saved) {
    skmd_program P;
    ASSERT_EQ(skmd_load_bundle(Other, corpus("vector_add").c_str(), &P), SKMD_SUCCESS);
    ASSERT_EQ(skmd_get_kernel(P, "vector_add", &Saved), SKMD_SUCCESS);
    std::swap(K, Saved);
    KernelCtx = Other;
  }
  /// Back to the fixture's kernel.
  void restoreKernel(skmd_kernel &Saved) {
    std::swap(K, Saved);
    KernelCtx = nullptr;
  }

  skmd_status launch(const char *Plan, skmd_launch_report *R = nullptr) {
    size_t Global = (N + 63) / 64 * 64, Local = 64;
    return skmd_launch(K, 1, nullptr, &Global, &Local, Plan, R);
  }

  void expectSums() {
    for (uint32_t I = 0; I < N; ++I)
      ASSERT_EQ(C[I], A[I] + B[I]) << "element " << I;
  }

  const uint32_t N = 100003;
  std::vector<float> A, B, C;
  skmd_context Ctx = nullptr;
  /// The context of K when useKernelOf switched it.
  skmd_context KernelCtx = nullptr;
  skmd_program Prog = nullptr;
  skmd_kernel K = nullptr;
};

TEST_F(Api, ListsTheDevicesAskedFor) {
  ASSERT_EQ(skmd_device_count(Ctx), 3u);
  const char *Names[] = {"cpu", "discrete0", "discrete1"};
  for (size_t I = 0; I < 3; ++I) {
    skmd_device_info Info;
    ASSERT_EQ(skmd_get_device_info(Ctx, I, &Info), SKMD_SUCCESS);
    EXPECT_STREQ(Info.name, Names[I]);
    EXPECT_GT(Info.compute_units, 0u);
  }
  skmd_device_info Info;
  EXPECT_EQ(skmd_get_device_info(Ctx, 3, &Info), SKMD_ERROR_INVALID_ARGUMENT);
}

TEST_F(Api, EveryPlanGivesTheSameResult) {
  for (const char *Plan : std::vector<const char *>{"cpu", "discrete0", "discrete1", "even", "proportional",
                           "manual:cpu=1,discrete0=2,discrete1=3",
                           "manual:discrete1=1,discrete0=1", "discrete0@4",
                           "manual:cpu=1,discrete0=2@3,discrete1=3@7", nullptr}) {
    SCOPED_TRACE(Plan ? Plan : "(default)");
    setArgs();
    skmd_launch_report R;
    ASSERT_EQ(launch(Plan, &R), SKMD_SUCCESS) << skmd_last_error();
    expectSums();
    uint64_t Covered = 0;
    for (size_t I = 0; I < R.piece_count; ++I) {
      EXPECT_EQ(R.pieces[I].failed, 0);
      Covered += R.pieces[I].group_count;
      if (std::strncmp(R.pieces[I].device, "discrete", 8) == 0) {
        EXPECT_GT(R.pieces[I].bytes_in, 0u);
      }
    }
    EXPECT_EQ(Covered, R.total_groups);
  }
}

TEST_F(Api, DiscreteDevicesMoveOnlyTheirBytes) {
  setArgs();
  skmd_launch_report R;
  ASSERT_EQ(launch("manual:cpu=1,discrete0=1", &R), SKMD_SUCCESS)
      << skmd_last_error();
  expectSums();
  ASSERT_EQ(R.piece_count, 2u);
  const skmd_piece_report &D = R.pieces[1];
  EXPECT_STREQ(D.device, "discrete0");
  // Its groups' items, up to n: a and b in (4 bytes each), c out (4).
  // Not c in: its store is under `if (i < n)`, which the footprint records
  // as a bound, so every byte of c below 4n in those groups is written.
  uint64_t Items = std::min<uint64_t>(N - D.first_group * 64, D.group_count * 64);
  EXPECT_EQ(D.bytes_in, 8 * Items);
  EXPECT_EQ(D.bytes_out, 4 * Items);
  // (Its copies are made by the host's cores; the CPU computes beside
  // them on the cores they leave: Launcher.TheCpuComputesBeside...)
  EXPECT_STREQ(R.pieces[0].device, "cpu");
}

TEST_F(Api, AsyncLaunchAndWait) {
  setArgs();
  skmd_event Ev;
  size_t Global = (N + 63) / 64 * 64, Local = 64;
  ASSERT_EQ(skmd_launch_async(K, 1, nullptr, &Global, &Local, "even", &Ev),
            SKMD_SUCCESS);
  skmd_launch_report R;
  ASSERT_EQ(skmd_wait(Ev, &R), SKMD_SUCCESS) << skmd_last_error();
  EXPECT_EQ(R.piece_count, 3u);
  expectSums();
}

// Asynchronous launches run in the order they were submitted, as an
// in-order queue: a chain X[k + 1] = X[k] + B of eight launches, all
// submitted before any is waited for (the last waited for first), ends in
// A + 8B, added in order.
TEST_F(Api, AsyncLaunchesRunInTheOrderSubmitted) {
  constexpr int Steps = 8;
  std::vector<std::vector<float>> X(Steps + 1, std::vector<float>(N, 0.0f));
  X[0] = A;
  std::vector<skmd_buffer> Buffers(Steps + 1);
  for (int I = 0; I <= Steps; ++I)
    ASSERT_EQ(skmd_wrap_buffer(Ctx, X[I].data(), N * 4, &Buffers[I]), SKMD_SUCCESS);
  skmd_buffer BB;
  ASSERT_EQ(skmd_wrap_buffer(Ctx, B.data(), N * 4, &BB), SKMD_SUCCESS);
  ASSERT_EQ(skmd_set_arg_buffer(K, 1, BB), SKMD_SUCCESS);
  ASSERT_EQ(skmd_set_arg_scalar(K, 3, &N, sizeof N), SKMD_SUCCESS);
  size_t Global = (N + 63) / 64 * 64, Local = 64;
  std::vector<skmd_event> Events(Steps);
  for (int I = 0; I < Steps; ++I) {
    ASSERT_EQ(skmd_set_arg_buffer(K, 0, Buffers[I]), SKMD_SUCCESS);
    ASSERT_EQ(skmd_set_arg_buffer(K, 2, Buffers[I + 1]), SKMD_SUCCESS);
    ASSERT_EQ(skmd_launch_async(K, 1, nullptr, &Global, &Local, I % 2 ? "even" : "cpu",
                                &Events[I]),
              SKMD_SUCCESS)
        << skmd_last_error();
  }
  for (int I = Steps - 1; I >= 0; --I)
    ASSERT_EQ(skmd_wait(Events[I], nullptr), SKMD_SUCCESS) << skmd_last_error();
  for (uint32_t I = 0; I < N; ++I) {
    float Want = A[I];
    for (int Step = 0; Step < Steps; ++Step)
      Want = Want + B[I];
    ASSERT_EQ(X[Steps][I], Want) << "element " << I;
  }
}

// Releasing a context finishes the launches made in it first: they use its
// kernels and buffer handles.
TEST_F(Api, ReleasingAContextFinishesItsLaunches) {
  setArgs();
  skmd_event Ev;
  size_t Global = (N + 63) / 64 * 64, Local = 64;
  ASSERT_EQ(skmd_launch_async(K, 1, nullptr, &Global, &Local, "even", &Ev), SKMD_SUCCESS);
  skmd_release_context(Ctx);
  Ctx = nullptr;
  expectSums();
  skmd_launch_report R;
  ASSERT_EQ(skmd_wait(Ev, &R), SKMD_SUCCESS) << skmd_last_error();
  EXPECT_EQ(R.piece_count, 3u);
}

TEST_F(Api, AFailingDeviceIsNamedAndTheOutputIsComplete) {
  for (const char *Step : {"copy-in", "kernel", "copy-out"}) {
    SCOPED_TRACE(Step);
    setenv("SKMD_INJECT_FAULT", (std::string("discrete1:") + Step).c_str(), 1);
    setArgs();
    skmd_launch_report R;
    ASSERT_EQ(launch("even", &R), SKMD_ERROR_DEVICE_FAILED);
    std::string Message = skmd_last_error();
    EXPECT_NE(Message.find("discrete1 failed in " + std::string(Step)),
              std::string::npos)
        << Message;
    EXPECT_NE(Message.find("re-run on the CPU"), std::string::npos) << Message;
    EXPECT_NE(Message.find("every output is complete"), std::string::npos)
        << Message;
    expectSums();
    ASSERT_EQ(R.piece_count, 3u);
    EXPECT_EQ(R.pieces[0].failed, 0);
    EXPECT_EQ(R.pieces[1].failed, 0);
    EXPECT_EQ(R.pieces[2].failed, 1);
  }
}

// A share in pipelined chunks moves the same bytes as in one piece, and
// the report keeps one piece per device: its chunks' steps overlap.
TEST_F(Api, ChunkedSharesMoveTheSameBytesAsWholeOnes) {
  setArgs();
  skmd_launch_report Whole, Chunked;
  ASSERT_EQ(launch("manual:cpu=1,discrete0=1", &Whole), SKMD_SUCCESS) << skmd_last_error();
  expectSums();
  setArgs();
  ASSERT_EQ(launch("manual:cpu=1,discrete0=1@5", &Chunked), SKMD_SUCCESS) << skmd_last_error();
  expectSums();
  ASSERT_EQ(Chunked.piece_count, 2u);
  const skmd_piece_report &W = Whole.pieces[1], &C = Chunked.pieces[1];
  EXPECT_EQ(W.chunks, 1u);
  EXPECT_EQ(C.chunks, 5u);
  EXPECT_EQ(C.first_group, W.first_group);
  EXPECT_EQ(C.group_count, W.group_count);
  EXPECT_EQ(C.bytes_in, W.bytes_in);
  EXPECT_EQ(C.bytes_out, W.bytes_out);
  // The last chunk's copies out end after the first chunk's kernel began.
  EXPECT_GE(C.output_at_ms + C.output_ms, C.kernel_at_ms);
}

TEST_F(Api, ChunkedPlansAreChecked) {
  setArgs();
  for (const char *Plan : {"discrete0@0", "discrete0@x", "manual:cpu=1,discrete0=1@-2",
                           "discrete0@2000"}) {
    SCOPED_TRACE(Plan);
    EXPECT_EQ(launch(Plan), SKMD_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(skmd_last_error()).find("chunks"), std::string::npos)
        << skmd_last_error();
  }
}

// A device that fails in one chunk: the chunks after it are re-run too,
// and the message names the piece's groups once.
TEST_F(Api, AFailingChunkedDeviceLeavesEveryOutputComplete) {
  for (const char *Step : {"copy-in", "kernel", "copy-out"}) {
    SCOPED_TRACE(Step);
    setenv("SKMD_INJECT_FAULT", (std::string("discrete0:") + Step).c_str(), 1);
    setArgs();
    skmd_launch_report R;
    ASSERT_EQ(launch("manual:cpu=1,discrete0=2@4", &R), SKMD_ERROR_DEVICE_FAILED);
    std::string Message = skmd_last_error();
    EXPECT_NE(Message.find("every output is complete"), std::string::npos) << Message;
    expectSums();
    ASSERT_EQ(R.piece_count, 2u);
    EXPECT_EQ(R.pieces[1].failed, 1);
    EXPECT_EQ(R.pieces[1].chunks, 4u);
  }
}

// Buffers of SKMD's own: filled at creation, results read back after
// launches split over every device, a write between launches taken by the
// next one, and reads outside the buffer refused.
TEST_F(Api, CreatedBuffersAreReadAndWrittenThroughTheApi) {
  skmd_buffer BA, BB, BC;
  ASSERT_EQ(skmd_create_buffer(Ctx, N * 4, A.data(), &BA), SKMD_SUCCESS) << skmd_last_error();
  ASSERT_EQ(skmd_create_buffer(Ctx, N * 4, B.data(), &BB), SKMD_SUCCESS);
  ASSERT_EQ(skmd_create_buffer(Ctx, N * 4, nullptr, &BC), SKMD_SUCCESS);
  ASSERT_EQ(skmd_set_arg_buffer(K, 0, BA), SKMD_SUCCESS);
  ASSERT_EQ(skmd_set_arg_buffer(K, 1, BB), SKMD_SUCCESS);
  ASSERT_EQ(skmd_set_arg_buffer(K, 2, BC), SKMD_SUCCESS);
  ASSERT_EQ(skmd_set_arg_scalar(K, 3, &N, sizeof N), SKMD_SUCCESS);
  skmd_launch_report R;
  ASSERT_EQ(launch("even", &R), SKMD_SUCCESS) << skmd_last_error();
  C.assign(N, -1.0f);
  ASSERT_EQ(skmd_read_buffer(BC, 0, N * 4, C.data()), SKMD_SUCCESS) << skmd_last_error();
  expectSums();

  // The host changes a's last quarter; the next launch sees it.
  for (uint32_t I = 3 * N / 4; I < N; ++I)
    A[I] = 2.0f;
  ASSERT_EQ(skmd_write_buffer(BA, 3 * N / 4 * 4, (N - 3 * N / 4) * 4, A.data() + 3 * N / 4),
            SKMD_SUCCESS);
  ASSERT_EQ(launch("even", &R), SKMD_SUCCESS) << skmd_last_error();
  // Only the changed bytes went in, all to the last device.
  ASSERT_LE(R.pieces[2].first_group * 64, 3 * N / 4);
  EXPECT_EQ(R.pieces[2].bytes_in, (N - 3 * N / 4) * 4);
  EXPECT_EQ(R.pieces[1].bytes_in, 0u);
  ASSERT_EQ(skmd_read_buffer(BC, 0, N * 4, C.data()), SKMD_SUCCESS);
  expectSums();

  EXPECT_EQ(skmd_read_buffer(BC, 4, N * 4, C.data()), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("of a buffer of"), std::string::npos)
      << skmd_last_error();
  EXPECT_EQ(skmd_write_buffer(BC, 0, 4, nullptr), SKMD_ERROR_INVALID_ARGUMENT);
  // A buffer of another context is refused (its copies live on that
  // context's devices).
  skmd_context Other;
  ASSERT_EQ(skmd_init("cpu", &Other), SKMD_SUCCESS);
  skmd_buffer Foreign;
  ASSERT_EQ(skmd_create_buffer(Other, N * 4, nullptr, &Foreign), SKMD_SUCCESS);
  EXPECT_EQ(skmd_set_arg_buffer(K, 0, Foreign), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("another context"), std::string::npos)
      << skmd_last_error();
  skmd_release_context(Other);
  skmd_release_buffer(BA);
  skmd_release_buffer(BB);
  skmd_release_buffer(BC);
}

// Two launches alike but for their global offset are two launches: the
// second gets its own moves (the moves cache's key left the offset out, and
// the second launch's HostDiscrete piece wrote nothing back: a quarter of
// the output was lost, and both launches reported success).
TEST_F(Api, LaunchesAtAnotherOffsetMoveTheirOwnBytes) {
  setArgs();
  // Two launches of the same size cover the buffers (the kernel guards
  // i < n).
  size_t Half = (N + 127) / 128 * 64, Local = 64;
  for (size_t Offset : {size_t(0), Half})
    ASSERT_EQ(skmd_launch(K, 1, &Offset, &Half, &Local, "even", nullptr), SKMD_SUCCESS)
        << skmd_last_error();
  expectSums();
}

TEST_F(Api, BadArgumentsAreRefusedAndTouchNothing) {
  setArgs();
  std::vector<float> Before = C;
  size_t Global = (N + 63) / 64 * 64, Local = 64;

  EXPECT_EQ(skmd_set_arg_scalar(K, 4, &N, sizeof N), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("has 4 arguments"),
            std::string::npos)
      << skmd_last_error();
  uint64_t Wide = N;
  EXPECT_EQ(skmd_set_arg_scalar(K, 3, &Wide, sizeof Wide),
            SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("is 4 bytes, 8 given"),
            std::string::npos)
      << skmd_last_error();
  EXPECT_EQ(skmd_set_arg_scalar(K, 0, &N, sizeof N), SKMD_ERROR_INVALID_ARGUMENT);

  size_t Odd = Global + 1;
  EXPECT_EQ(skmd_launch(K, 1, nullptr, &Odd, &Local, nullptr, nullptr),
            SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(skmd_launch(K, 4, nullptr, &Global, &Local, nullptr, nullptr),
            SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(launch("manual:gpu7=1"), SKMD_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(skmd_last_error()).find("no device 'gpu7'"),
            std::string::npos)
      << skmd_last_error();
  EXPECT_EQ(launch("fastest"), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("unknown plan 'fastest'"),
            std::string::npos)
      << skmd_last_error();
  EXPECT_EQ(C, Before);

  // A fresh kernel: nothing set.
  skmd_kernel Fresh;
  ASSERT_EQ(skmd_get_kernel(Prog, "vector_add", &Fresh), SKMD_SUCCESS);
  EXPECT_EQ(skmd_launch(Fresh, 1, nullptr, &Global, &Local, nullptr, nullptr),
            SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("argument 0 ('a')"),
            std::string::npos)
      << skmd_last_error();
  EXPECT_NE(std::string(skmd_last_error()).find("is not set"), std::string::npos);
}

TEST_F(Api, ABufferSmallerThanTheFootprintIsRefused) {
  skmd_program Stencil;
  ASSERT_EQ(skmd_load_bundle(Ctx, corpus("stencil").c_str(), &Stencil),
            SKMD_SUCCESS);
  skmd_kernel Blur;
  ASSERT_EQ(skmd_get_kernel(Stencil, "blur3", &Blur), SKMD_SUCCESS);
  // out[i + 1] for i < 1024 needs 1026 floats of `in` and of `out`.
  std::vector<float> In(1025, 1.0f), Out(1026, 0.0f);
  skmd_buffer BI, BO;
  ASSERT_EQ(skmd_wrap_buffer(Ctx, In.data(), In.size() * 4, &BI), SKMD_SUCCESS);
  ASSERT_EQ(skmd_wrap_buffer(Ctx, Out.data(), Out.size() * 4, &BO), SKMD_SUCCESS);
  skmd_set_arg_buffer(Blur, 0, BI);
  skmd_set_arg_buffer(Blur, 1, BO);
  size_t Global = 1024, Local = 64;
  EXPECT_EQ(skmd_launch(Blur, 1, nullptr, &Global, &Local, "even", nullptr),
            SKMD_ERROR_INVALID_ARGUMENT);
  std::string Message = skmd_last_error();
  EXPECT_NE(Message.find("argument 0 ('in')"), std::string::npos) << Message;
  EXPECT_NE(Message.find("accesses bytes [0, 4104) but the buffer has 4100 bytes"),
            std::string::npos)
      << Message;
  EXPECT_TRUE(std::all_of(Out.begin(), Out.end(), [](float F) { return F == 0; }));
}

/// builtins_mix's \p Kernel (histogram or histogram_seen) over 4096 values
/// into 16 bins that start at \p Start, its arguments set on the fixture's
/// context, with the counts it must give.
struct HistogramRun {
  static constexpr uint32_t Count = 4096;
  std::vector<uint32_t> Data = std::vector<uint32_t>(Count), Bins, Want;
  skmd_kernel K = nullptr;
  size_t Global = Count, Local = 64;
};

void setHistogram(skmd_context Ctx, const char *Kernel, uint32_t Start, HistogramRun &H) {
  skmd_program Atomics;
  ASSERT_EQ(skmd_load_bundle(Ctx, corpus("builtins_mix").c_str(), &Atomics), SKMD_SUCCESS);
  ASSERT_EQ(skmd_get_kernel(Atomics, Kernel, &H.K), SKMD_SUCCESS) << skmd_last_error();
  ASSERT_EQ(skmd_kernel_arg_count(H.K), 3u);
  H.Bins.assign(16, Start);
  H.Want.assign(16, Start);
  for (uint32_t I = 0; I < H.Count; ++I) {
    H.Data[I] = I * 7919u;
    ++H.Want[H.Data[I] % 16];
  }
  skmd_buffer BD, BB;
  skmd_wrap_buffer(Ctx, H.Data.data(), H.Count * 4, &BD);
  skmd_wrap_buffer(Ctx, H.Bins.data(), 16 * 4, &BB);
  skmd_set_arg_buffer(H.K, 0, BD);
  skmd_set_arg_buffer(H.K, 1, BB);
  skmd_set_arg_scalar(H.K, 2, &H.Count, 4);
}

// A histogram's bins, updated by atomics alone, split: each device counts
// into its own copy, and the copies add up to the counts of a CPU alone.
TEST_F(Api, AtomicCountsSplitAcrossDevices) {
  HistogramRun H;
  setHistogram(Ctx, "histogram", 5, H);
  skmd_launch_report R;
  ASSERT_EQ(skmd_launch(H.K, 1, nullptr, &H.Global, &H.Local, "even", &R), SKMD_SUCCESS)
      << skmd_last_error();
  EXPECT_EQ(R.piece_count, 3u);
  EXPECT_EQ(H.Bins, H.Want);
}

TEST_F(Api, AKernelThatCannotBeSplitRunsWholeOrIsRefused) {
  HistogramRun H;
  setHistogram(Ctx, "histogram_seen", 0, H);
  skmd_kernel Histogram = H.K;
  std::vector<uint32_t> &Bins = H.Bins, &Want = H.Want;
  size_t &Global = H.Global, &Local = H.Local;
  EXPECT_EQ(skmd_launch(Histogram, 1, nullptr, &Global, &Local, "even", nullptr),
            SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("cannot be split"),
            std::string::npos)
      << skmd_last_error();
  // The default plan runs it whole on one device.
  skmd_launch_report R;
  ASSERT_EQ(skmd_launch(Histogram, 1, nullptr, &Global, &Local, nullptr, &R),
            SKMD_SUCCESS)
      << skmd_last_error();
  EXPECT_EQ(R.piece_count, 1u);
  EXPECT_EQ(Bins, Want);

  // So does the model: on the device it predicts fastest.
  ScratchProfiles Db("api-unsplittable");
  ASSERT_EQ(skmd_profile(Histogram, 1, nullptr, &Global, &Local, nullptr, 1), SKMD_SUCCESS)
      << skmd_last_error();
  EXPECT_EQ(Bins, Want) << "profiling changed the caller's buffer";
  std::fill(Bins.begin(), Bins.end(), 0);
  ASSERT_EQ(skmd_launch(Histogram, 1, nullptr, &Global, &Local, "auto", &R), SKMD_SUCCESS)
      << skmd_last_error();
  EXPECT_EQ(R.piece_count, 1u);
  EXPECT_EQ(std::string(R.plan), "fastest single device (the kernel cannot be split)");
  EXPECT_EQ(Bins, Want);
}

TEST_F(Api, TheModelPlansOnceTheKernelIsProfiled) {
  ScratchProfiles Db("api-model");
  unsetenv("SKMD_PROFILE");
  setArgs();
  // No profiles: the default falls back and says why; "auto" refuses.
  skmd_launch_report R;
  ASSERT_EQ(launch(nullptr, &R), SKMD_SUCCESS) << skmd_last_error();
  expectSums();
  EXPECT_EQ(std::string(R.plan).rfind("proportional (no model: ", 0), 0u) << R.plan;
  EXPECT_NE(std::string(R.plan).find("skmd-prof"), std::string::npos) << R.plan;
  EXPECT_EQ(R.predicted_ms, 0.0);
  EXPECT_FALSE(Db.exists()) << "planning alone created " << Db.Path;
  EXPECT_EQ(launch("auto"), SKMD_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(skmd_last_error()).find("SKMD_PROFILE=auto"), std::string::npos)
      << skmd_last_error();

  // Profiling leaves the caller's buffers as they were.
  C.assign(N, 0.0f);
  size_t Global = (N + 63) / 64 * 64, Local = 64;
  ASSERT_EQ(skmd_profile(K, 1, nullptr, &Global, &Local, nullptr, 1), SKMD_SUCCESS)
      << skmd_last_error();
  EXPECT_TRUE(std::all_of(C.begin(), C.end(), [](float F) { return F == 0.0f; }));
  EXPECT_EQ(skmd_profile(K, 1, nullptr, &Global, &Local, "cpu,gpu7", 1),
            SKMD_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(skmd_last_error()).find("no device 'gpu7'"), std::string::npos);

  for (const char *Plan : {(const char *)nullptr, "auto", "linear"}) {
    SCOPED_TRACE(Plan ? Plan : "(default)");
    C.assign(N, 0.0f);
    ASSERT_EQ(launch(Plan, &R), SKMD_SUCCESS) << skmd_last_error();
    expectSums();
    EXPECT_STREQ(R.plan, Plan && std::string(Plan) == "linear" ? "linear" : "auto");
    EXPECT_GT(R.predicted_ms, 0.0);
    uint64_t Covered = 0;
    for (size_t I = 0; I < R.piece_count; ++I) {
      Covered += R.pieces[I].group_count;
      EXPECT_GT(R.pieces[I].predicted_kernel_ms, 0.0) << R.pieces[I].device;
    }
    EXPECT_EQ(Covered, R.total_groups);
  }
  // Other plans carry the model's prediction too: it picks the chunks of
  // their shares on devices with their own memory (none here: HostDiscrete
  // devices have no copy engines)... unless the plan gives the chunks.
  ASSERT_EQ(launch("even", &R), SKMD_SUCCESS);
  EXPECT_GT(R.predicted_ms, 0.0);
  for (size_t I = 0; I < R.piece_count; ++I)
    EXPECT_EQ(R.pieces[I].chunks, 1u);
  ASSERT_EQ(launch("manual:cpu=1,discrete0=1@2", &R), SKMD_SUCCESS);
  EXPECT_EQ(R.predicted_ms, 0.0);
  EXPECT_EQ(R.pieces[1].chunks, 2u);

  uint64_t Counts[2] = {Global / 64 / 2, Global / 64};
  double Measured[2] = {0, 0}, Predicted[2] = {0, 0};
  ASSERT_EQ(skmd_check_model(K, 1, nullptr, &Global, &Local, "discrete1", Counts, 2, 1,
                             Measured, Predicted),
            SKMD_SUCCESS)
      << skmd_last_error();
  for (int I = 0; I < 2; ++I) {
    EXPECT_GT(Measured[I], 0.0);
    EXPECT_GT(Predicted[I], 0.0);
  }
  uint64_t TooMany = Global;
  EXPECT_EQ(skmd_check_model(K, 1, nullptr, &Global, &Local, "cpu", &TooMany, 1, 1, Measured,
                             Predicted),
            SKMD_ERROR_INVALID_ARGUMENT);
}

TEST_F(Api, BadProfilesGiveDefinedAnswers) {
  // cpu and discrete0 profiled; discrete1 has one good profile at this
  // launch's shape, and negative and infinite ones.
  ScratchProfiles Db("api-bad-profiles");
  setArgs();
  size_t Global = (N + 63) / 64 * 64, Local = 64;
  ASSERT_EQ(skmd_profile(K, 1, nullptr, &Global, &Local, "cpu,discrete0", 1), SKMD_SUCCESS)
      << skmd_last_error();
  {
    auto B = skmd::Bundle::fromFile(corpus("vector_add"));
    ASSERT_TRUE(B.ok());
    auto Open = skmd::ProfileDatabase::open(Db.Path);
    ASSERT_TRUE(Open.ok()) << Open.error().message();
    std::string Kernel =
        skmd::kernelKey(B->metadata(), *B->metadata().findKernel("vector_add"));
    skmd::DeviceInfo Cpu, Bad;
    skmd_device_info I;
    skmd_get_device_info(Ctx, 0, &I);
    Cpu.Name = I.name;
    Cpu.Description = I.description;
    skmd_get_device_info(Ctx, 2, &I);
    Bad.Name = I.name;
    Bad.Description = I.description;
    auto Rows = (*Open)->rows(Kernel, skmd::deviceKey(Cpu));
    ASSERT_TRUE(Rows.ok() && !Rows->empty());
    skmd::ProfileRow R = Rows->front();
    R.Device = skmd::deviceKey(Bad);
    for (double Ms : {-1.0, -2.0, -0.5, double(INFINITY), 0.5}) {
      R.KernelMs = Ms;
      R.Groups *= 2;
      ASSERT_TRUE((*Open)->add(R).ok());
    }
    // A time that is not a number is refused (SQLite keeps no NaN).
    R.KernelMs = NAN;
    skmd::Status S = (*Open)->add(R);
    ASSERT_FALSE(S.ok());
    EXPECT_NE(S.error().message().find("cannot add a sample"), std::string::npos);
  }
  // The default plan falls back and says why; "auto" names the device.
  skmd_launch_report Report;
  ASSERT_EQ(launch(nullptr, &Report), SKMD_SUCCESS) << skmd_last_error();
  expectSums();
  EXPECT_NE(std::string(Report.plan).find("discrete1 make no model"), std::string::npos)
      << Report.plan;
  EXPECT_EQ(launch("auto"), SKMD_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(skmd_last_error()).find("at least 4 valid samples, 1 given"),
            std::string::npos)
      << skmd_last_error();
  // An empty database file is no profiles at all.
  Db.clear();
  { ASSERT_TRUE(skmd::ProfileDatabase::open(Db.Path).ok()); }
  skmd_context Fresh;
  ASSERT_EQ(skmd_init("cpu,discrete", &Fresh), SKMD_SUCCESS);
  skmd_kernel VA;
  useKernelOf(Fresh, VA);
  setArgs();
  EXPECT_EQ(launch("auto"), SKMD_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(skmd_last_error()).find("has 0 profiles of this launch on cpu"),
            std::string::npos)
      << skmd_last_error();
  ASSERT_EQ(launch(nullptr, &Report), SKMD_SUCCESS);
  restoreKernel(VA);
  skmd_release_context(Fresh);
}

TEST_F(Api, AutomaticProfilingRunsBeforeTheFirstLaunch) {
  ScratchProfiles Db("api-auto");
  setenv("SKMD_PROFILE", "bogus", 1);
  skmd_context Bad = nullptr;
  EXPECT_EQ(skmd_init("cpu", &Bad), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("SKMD_PROFILE is 'bogus'"),
            std::string::npos);

  setenv("SKMD_PROFILE", "auto", 1);
  skmd_context Auto;
  ASSERT_EQ(skmd_init("cpu,discrete,discrete", &Auto), SKMD_SUCCESS) << skmd_last_error();
  unsetenv("SKMD_PROFILE");
  std::vector<std::string> Lines;
  skmd_set_progress(
      Auto,
      [](const char *Line, void *User) {
        static_cast<std::vector<std::string> *>(User)->push_back(Line);
      },
      &Lines);
  skmd_kernel VA;
  useKernelOf(Auto, VA);
  setArgs();
  skmd_launch_report R;
  ASSERT_EQ(launch(nullptr, &R), SKMD_SUCCESS) << skmd_last_error();
  restoreKernel(VA);
  expectSums();
  EXPECT_STREQ(R.plan, "auto");
  ASSERT_FALSE(Lines.empty());
  EXPECT_EQ(Lines.front(), "profiling vector_add on cpu (11 group counts)");
  EXPECT_TRUE(Db.exists());
  skmd_release_context(Auto);
}

// A launch of fewer groups than a fit needs profiles (a scan's second
// level is one group) is profiled at every count it has and planned from
// the measured times, split or not, with the same result.
TEST_F(Api, LaunchesOfFewGroupsArePlannedToo) {
  ScratchProfiles Db("api-few");
  setenv("SKMD_PROFILE", "auto", 1);
  skmd_context Auto;
  ASSERT_EQ(skmd_init("cpu,discrete,discrete", &Auto), SKMD_SUCCESS) << skmd_last_error();
  unsetenv("SKMD_PROFILE");
  skmd_set_progress(Auto, [](const char *, void *) {}, nullptr);
  skmd_kernel VA;
  useKernelOf(Auto, VA);
  setArgs();
  for (size_t Groups : {1, 3, 10}) {
    size_t Global = Groups * 64, Local = 64;
    for (const char *Plan : {"auto", "linear"}) {
      std::fill(C.begin(), C.end(), 0.0f);
      skmd_launch_report R;
      ASSERT_EQ(skmd_launch(K, 1, nullptr, &Global, &Local, Plan, &R), SKMD_SUCCESS)
          << Groups << " groups, plan " << Plan << ": " << skmd_last_error();
      EXPECT_STREQ(R.plan, Plan);
      EXPECT_GT(R.predicted_ms, 0);
      for (size_t I = 0; I < Global; ++I)
        ASSERT_EQ(C[I], A[I] + B[I]) << Groups << " groups, plan " << Plan << ", element " << I;
      EXPECT_EQ(C[Global], 0.0f) << "written past the range";
    }
  }
  restoreKernel(VA);
  skmd_release_context(Auto);
}

TEST(ApiErrors, BadBundlesAndDevicesAreNamed) {
  skmd_context Ctx;
  EXPECT_EQ(skmd_init("cpu,tpu", &Ctx), SKMD_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(skmd_last_error()).find("unknown device 'tpu'"),
            std::string::npos)
      << skmd_last_error();
  ASSERT_EQ(skmd_init("cpu", &Ctx), SKMD_SUCCESS);

  skmd_program P;
  EXPECT_EQ(skmd_load_bundle(Ctx, "/nonexistent/k.skmd", &P), SKMD_ERROR_IO);
  EXPECT_NE(std::string(skmd_last_error()).find("/nonexistent/k.skmd"),
            std::string::npos)
      << skmd_last_error();

  std::vector<uint8_t> Bytes = readFile(corpus("vector_add"));
  ASSERT_GT(Bytes.size(), 64u);
  std::vector<uint8_t> Newer = Bytes;
  uint16_t Major = skmd::bundle::FormatMajor + 1;
  std::memcpy(Newer.data() + skmd::bundle::OffMajor, &Major, 2);
  EXPECT_EQ(skmd_load_bundle_bytes(Ctx, Newer.data(), Newer.size(), &P),
            SKMD_ERROR_UNSUPPORTED_BUNDLE_VERSION)
      << skmd_last_error();

  std::vector<uint8_t> Corrupt = Bytes;
  Corrupt[Corrupt.size() - 10] ^= 0xff;
  EXPECT_EQ(skmd_load_bundle_bytes(Ctx, Corrupt.data(), Corrupt.size(), &P),
            SKMD_ERROR_CORRUPT_BUNDLE)
      << skmd_last_error();

  ASSERT_EQ(skmd_load_bundle_bytes(Ctx, Bytes.data(), Bytes.size(), &P),
            SKMD_SUCCESS);
  skmd_kernel K;
  EXPECT_EQ(skmd_get_kernel(P, "vector_sub", &K), SKMD_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(skmd_last_error()).find("has no kernel 'vector_sub'; it has: vector_add"),
            std::string::npos)
      << skmd_last_error();
  skmd_release_context(Ctx);
}

} // namespace

#include "skmd/skmd.hpp"

namespace {

TEST(CppLayer, LaunchesAndThrowsWithTheMessage) {
  skmd::Context Ctx("cpu,discrete");
  EXPECT_EQ(Ctx.devices().size(), 2u);
  skmd::Program Prog = Ctx.load(corpus("vector_add"));
  skmd::Kernel K = Prog.kernel("vector_add");
  const uint32_t N = 1000;
  std::vector<float> A(N, 1.5f), B(N, 2.0f), C(N, 0.0f);
  skmd::Buffer BA = Ctx.wrap(A), BB = Ctx.wrap(B), BC = Ctx.wrap(C);
  K.arg(0, BA).arg(1, BB).arg(2, BC).arg(3, N);
  skmd_launch_report R = K.launch({1024}, {64}, "even");
  EXPECT_EQ(R.piece_count, 2u);
  EXPECT_TRUE(std::all_of(C.begin(), C.end(), [](float F) { return F == 3.5f; }));
  // Buffers of SKMD's own, read back through the layer.
  skmd::Buffer RA = Ctx.create(A), RB = Ctx.create(B), RC = Ctx.create(N * sizeof(float));
  K.arg(0, RA).arg(1, RB).arg(2, RC);
  K.launch({1024}, {64}, "even");
  std::vector<float> Back(N);
  RC.read(Back);
  EXPECT_TRUE(std::all_of(Back.begin(), Back.end(), [](float F) { return F == 3.5f; }));
  try {
    Prog.kernel("nope");
    FAIL() << "no exception";
  } catch (const skmd::Error &E) {
    EXPECT_EQ(E.status(), SKMD_ERROR_NOT_FOUND);
    EXPECT_NE(std::string(E.what()).find("has no kernel 'nope'"), std::string::npos);
  }
}

} // namespace
