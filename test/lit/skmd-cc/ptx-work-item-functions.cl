// libclc's PTX build lacks get_global_offset, get_global_linear_id and
// get_enqueued_local_size; skmd-cc expresses them through the functions it
// has, so the PTX has no unresolved calls. get_work_dim is an error there.
// RUN: %skmd-cc --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: not %skmd-cc --emit=ptx -DUSE_WORK_DIM %s 2>&1 | FileCheck %s --check-prefix=WORKDIM
// RUN: %skmd-cc --targets=x86,spirv -DUSE_WORK_DIM %s -o %t.skmd

// CHECK-NOT: .extern .func
// CHECK: .visible .entry numbered(
// CHECK-NOT: get_global_linear_id
// CHECK-NOT: get_global_offset
// WORKDIM: skmd-cc: error: kernel 'numbered' calls get_work_dim(), which the PTX target cannot provide (a CUDA launch does not record it); build without PTX (--targets=x86,spirv) or avoid get_work_dim

__kernel void numbered(__global ulong *out) {
  size_t i = get_global_linear_id();
  out[i] = i + get_global_offset(0) + get_enqueued_local_size(0);
#ifdef USE_WORK_DIM
  out[i] += get_work_dim();
#endif
}
