//===- ResidentLoop.cpp - Many launches on buffers that stay on the devices ===//
//
// resident-loop [--n=N] [--launches=N] [--devices=LIST] [--plan=PLAN]
//
// A Jacobi solver's inner loop: --launches steps of jacobi2d.cl on an
// n x n grid, ping-ponging between two buffers, split over the devices by
// --plan (default "even"). Run twice, in turn:
//   - wrapped: the buffers are the caller's memory (skmd_wrap_buffer), so
//     every launch copies each device's part in and its results out, as
//     before buffers had a residency;
//   - resident: skmd_create_buffer, read once at the end; a launch moves
//     only the rows at the pieces' edges (the halo).
// Reported per mode: ms per launch (from the third launch on: the first
// two read a buffer each for the first time, which moves it whole), bytes
// moved per launch (into devices,
// out of them, and to the host for the CPU), and the largest difference
// from the same steps computed on the host. Exits 1 when a result is off.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int fail(const char *What) {
  std::fprintf(stderr, "resident-loop: %s: %s\n", What, skmd_last_error());
  return 1;
}

/// The grid with a hot top edge, the rest cold.
std::vector<float> initialGrid(int N) {
  std::vector<float> G(size_t(N) * N, 0.0f);
  for (int X = 0; X < N; ++X)
    G[size_t(X)] = 100.0f;
  return G;
}

void hostStep(const std::vector<float> &In, std::vector<float> &Out, int N) {
  for (int Y = 1; Y < N - 1; ++Y)
    for (int X = 1; X < N - 1; ++X) {
      size_t I = size_t(Y) * N + X;
      Out[I] = 0.25f * (In[I - 1] + In[I + 1] + In[I - N] + In[I + N]);
    }
}

struct ModeResult {
  double MsPerLaunch = 0;
  double BytesPerLaunch = 0;
  double MaxError = 0;
};

} // namespace

int main(int Argc, char **Argv) {
  int N = 2050, Launches = 100;
  std::string Devices, Plan = "even";
  std::string Bundle = SKMD_BENCH_BUNDLES_DIR "/jacobi2d.skmd";
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--n=", 0) == 0)
      N = std::atoi(A.c_str() + 4);
    else if (A.rfind("--launches=", 0) == 0)
      Launches = std::atoi(A.c_str() + 11);
    else if (A.rfind("--devices=", 0) == 0)
      Devices = A.substr(10);
    else if (A.rfind("--plan=", 0) == 0)
      Plan = A.substr(7);
    else if (A.rfind("--bundle=", 0) == 0)
      Bundle = A.substr(9);
    else {
      std::printf("usage: resident-loop [--n=N] [--launches=N] [--devices=LIST] "
                  "[--plan=PLAN] [--bundle=FILE]\n"
                  "Launches of a Jacobi step on wrapped and on resident buffers: time "
                  "and bytes moved per launch.\n");
      return A == "--help" ? 0 : 2;
    }
  }
  if (N < 18 || (N - 2) % 16 || Launches < 3) {
    std::fprintf(stderr, "resident-loop: --n must be 2 more than a multiple of 16 (at "
                         "least 18), --launches at least 3\n");
    return 2;
  }
  skmd_context Ctx;
  if (skmd_init(Devices.empty() ? nullptr : Devices.c_str(), &Ctx))
    return fail("skmd_init");
  skmd_program Prog;
  skmd_kernel K;
  if (skmd_load_bundle(Ctx, Bundle.c_str(), &Prog) || skmd_get_kernel(Prog, "jacobi2d", &K))
    return fail("loading jacobi2d");

  // The reference: the same steps on the host.
  const size_t Bytes = size_t(N) * N * sizeof(float);
  std::vector<float> RefA = initialGrid(N), RefB = RefA;
  for (int S = 0; S < Launches; ++S)
    S % 2 ? hostStep(RefB, RefA, N) : hostStep(RefA, RefB, N);
  const std::vector<float> &Ref = Launches % 2 ? RefB : RefA;

  size_t Offset[2] = {1, 1}, Global[2] = {size_t(N - 2), size_t(N - 2)}, Local[2] = {16, 16};
  std::string Used;
  auto run = [&](bool Resident, ModeResult &Out) -> int {
    std::vector<float> A = initialGrid(N), B = A;
    skmd_buffer BA, BB;
    if (Resident ? skmd_create_buffer(Ctx, Bytes, A.data(), &BA) ||
                       skmd_create_buffer(Ctx, Bytes, B.data(), &BB)
                 : skmd_wrap_buffer(Ctx, A.data(), Bytes, &BA) ||
                       skmd_wrap_buffer(Ctx, B.data(), Bytes, &BB))
      return fail("buffers");
    if (skmd_set_arg_scalar(K, 2, &N, sizeof N))
      return fail("skmd_set_arg_scalar");
    double Ms = 0, Moved = 0;
    for (int S = 0; S < Launches; ++S) {
      skmd_set_arg_buffer(K, 0, S % 2 ? BB : BA);
      skmd_set_arg_buffer(K, 1, S % 2 ? BA : BB);
      skmd_launch_report R;
      auto T = std::chrono::steady_clock::now();
      if (skmd_launch(K, 2, Offset, Global, Local, Plan.c_str(), &R))
        return fail("skmd_launch");
      double Took =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T)
              .count();
      if (S == 0)
        for (size_t P = 0; P < R.piece_count; ++P)
          Used += std::string(P ? ", " : "") + R.pieces[P].device + " " +
                  std::to_string(R.pieces[P].group_count);
      // The first two launches read each buffer for the first time.
      if (S < 2)
        continue;
      Ms += Took;
      Moved += double(R.bytes_to_host);
      for (size_t P = 0; P < R.piece_count; ++P)
        Moved += double(R.pieces[P].bytes_in + R.pieces[P].bytes_out);
    }
    std::vector<float> Result(size_t(N) * N);
    skmd_buffer Last = Launches % 2 ? BB : BA;
    if (Resident ? skmd_read_buffer(Last, 0, Bytes, Result.data())
                 : (std::memcpy(Result.data(), Launches % 2 ? B.data() : A.data(), Bytes), 0))
      return fail("skmd_read_buffer");
    for (size_t I = 0; I < Result.size(); ++I)
      Out.MaxError = std::max(Out.MaxError, double(std::fabs(Result[I] - Ref[I])));
    Out.MsPerLaunch = Ms / (Launches - 2);
    Out.BytesPerLaunch = Moved / (Launches - 2);
    skmd_release_buffer(BA);
    skmd_release_buffer(BB);
    return 0;
  };
  ModeResult Wrapped, Resident;
  if (int E = run(false, Wrapped))
    return E;
  Used.clear();
  if (int E = run(true, Resident))
    return E;

  std::printf("jacobi2d, %d x %d floats, %d launches, plan %s (%s groups)\n\n", N, N, Launches,
              Plan.c_str(), Used.c_str());
  std::printf("| buffers | ms per launch | bytes moved per launch | largest error |\n");
  std::printf("| --- | ---: | ---: | ---: |\n");
  for (auto [Name, R] : {std::pair{"wrapped (skmd_wrap_buffer)", &Wrapped},
                         std::pair{"resident (skmd_create_buffer)", &Resident}})
    std::printf("| %s | %.3f | %.0f | %.2g |\n", Name, R->MsPerLaunch, R->BytesPerLaunch,
                R->MaxError);
  skmd_release_context(Ctx);
  bool Off = Wrapped.MaxError > 1e-4 || Resident.MaxError > 1e-4;
  if (Off)
    std::fprintf(stderr, "resident-loop: the results differ from the host's\n");
  return Off ? 1 : 0;
}
