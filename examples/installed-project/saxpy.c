/* The same saxpy through SKMD's C API (skmd/skmd.h), built with the flags
 * of pkg-config (skmd.pc):
 *
 *   cc saxpy.c $(pkg-config --cflags --libs skmd) -o saxpy-c
 *   ./saxpy-c saxpy.skmd
 *
 * (an installed prefix outside the linker's path also needs
 * -Wl,-rpath,$(pkg-config --variable=libdir skmd)). Exits 0 when every
 * element is right, 1 otherwise. */
#include <skmd/skmd.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    skmd_status s_ = (call);                                                 \
    if (s_ != SKMD_SUCCESS) {                                                \
      fprintf(stderr, "saxpy-c: %s: %s: %s\n", #call, skmd_status_name(s_), \
              skmd_last_error());                                            \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: saxpy-c BUNDLE\n");
    return 2;
  }
  const uint32_t n = 100000;
  const float a = 3.0f;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  if (!x || !y)
    return 1;
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = (float)i;
    y[i] = 2.0f * (float)i;
  }
  skmd_context ctx;
  skmd_program prog;
  skmd_kernel k;
  skmd_buffer bx, by;
  CHECK(skmd_init(NULL, &ctx)); /* SKMD_DEVICES, else every device */
  CHECK(skmd_load_bundle(ctx, argv[1], &prog));
  CHECK(skmd_get_kernel(prog, "saxpy", &k));
  CHECK(skmd_wrap_buffer(ctx, x, n * sizeof *x, &bx));
  CHECK(skmd_wrap_buffer(ctx, y, n * sizeof *y, &by));
  CHECK(skmd_set_arg_buffer(k, 0, bx));
  CHECK(skmd_set_arg_buffer(k, 1, by));
  CHECK(skmd_set_arg_scalar(k, 2, &a, sizeof a));
  CHECK(skmd_set_arg_scalar(k, 3, &n, sizeof n));
  size_t local[1] = {256}, global[1] = {(n + 255) / 256 * 256};
  CHECK(skmd_launch(k, 1, NULL, global, local, NULL, NULL));
  skmd_release_context(ctx);

  size_t wrong = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (y[i] != 5.0f * (float)i && wrong++ < 5)
      fprintf(stderr, "saxpy-c: y[%u] = %g, expected %g\n", i, y[i], 5.0f * (float)i);
  free(x);
  free(y);
  if (wrong) {
    fprintf(stderr, "saxpy-c: %zu of %u elements wrong\n", wrong, n);
    return 1;
  }
  printf("saxpy-c: all %u elements right\n", n);
  return 0;
}
