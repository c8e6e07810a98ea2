/*===- WorkGroupABI.h - How the CPU device calls a work-group function ----===*
 *
 * skmd-cc's x86 variant holds, for each kernel K, a work-group function
 *
 *   void K__skmd_wg(void *const *args, const struct skmd_wg_ctx *ctx);
 *
 * that runs every work-item of the group ctx->group. args[i] points to the
 * value of argument i: the buffer pointer for a __global/__constant buffer,
 * the per-thread scratch pointer for a __local buffer, the value itself for
 * a scalar. The compiler's work-group pass (lib/Transforms/WorkGroupFunction)
 * builds the same layout as an LLVM struct; change both together.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SKMD_DEVICES_CPU_WORKGROUPABI_H
#define SKMD_DEVICES_CPU_WORKGROUPABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct skmd_wg_ctx {
  uint64_t group[3];         /* this group's id in each dimension */
  uint64_t num_groups[3];
  uint64_t local_size[3];
  uint64_t global_offset[3];
  uint32_t work_dim;
  uint32_t reserved;
  /* The kernel's own __local variables: "local_mem_bytes" bytes (from the
     bundle metadata), private to the calling thread. */
  char *local_mem;
  /* Per-work-item state kept across barriers: "wi_state_bytes" times the
     number of work-items in a group, private to the calling thread. */
  char *wi_state;
};

typedef void (*skmd_wg_fn)(void *const *args, const struct skmd_wg_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* SKMD_DEVICES_CPU_WORKGROUPABI_H */
