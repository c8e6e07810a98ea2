// saxpy through SKMD's C++ API (skmd/skmd.hpp), against an installed SKMD:
// loads the bundle the build made with SKMD::skmd-cc, runs the kernel over
// the devices (SKMD_DEVICES, else every device found), checks every element.
// Exits 0 when all are right, 1 otherwise.
#include <skmd/skmd.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  const char *Bundle = argc > 1 ? argv[1] : SAXPY_BUNDLE;
  const uint32_t N = 100000; // not a multiple of the work-group size
  const float A = 3.0f;
  std::vector<float> X(N), Y(N);
  for (uint32_t I = 0; I < N; ++I) {
    X[I] = float(I);
    Y[I] = 2.0f * float(I);
  }
  try {
    skmd::Context Ctx;
    for (const skmd_device_info &D : Ctx.devices())
      std::printf("device %s: %s\n", D.name, D.description);
    skmd::Program Prog = Ctx.load(Bundle);
    skmd::Kernel K = Prog.kernel("saxpy");
    skmd::Buffer BX = Ctx.wrap(X), BY = Ctx.wrap(Y);
    K.arg(0, BX).arg(1, BY).arg(2, A).arg(3, N);
    const size_t Local = 256, Global = (N + Local - 1) / Local * Local;
    skmd_launch_report R = K.launch({Global}, {Local});
    std::printf("plan %s: %llu groups in %.3f ms\n", R.plan,
                (unsigned long long)R.total_groups, R.total_ms);
    for (size_t P = 0; P < R.piece_count; ++P)
      std::printf("  %-10s groups [%llu, %llu)\n", R.pieces[P].device,
                  (unsigned long long)R.pieces[P].first_group,
                  (unsigned long long)(R.pieces[P].first_group + R.pieces[P].group_count));
  } catch (const skmd::Error &E) {
    std::fprintf(stderr, "saxpy: %s\n", E.what());
    return 1;
  }
  // 3*i + 2*i = 5*i, exact in float for these i (with or without FMA).
  size_t Wrong = 0;
  for (uint32_t I = 0; I < N; ++I)
    if (Y[I] != 5.0f * float(I) && Wrong++ < 5)
      std::fprintf(stderr, "saxpy: y[%u] = %g, expected %g\n", I, Y[I], 5.0f * float(I));
  if (Wrong) {
    std::fprintf(stderr, "saxpy: %zu of %u elements wrong\n", Wrong, N);
    return 1;
  }
  std::printf("saxpy: all %u elements right\n", N);
  return 0;
}
