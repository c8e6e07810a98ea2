// libclc's PTX build lacks get_global_offset, get_global_linear_id,
// get_enqueued_local_size and get_work_dim; skmd-cc expresses the first
// three through the functions it has, so the PTX has no unresolved calls.
// get_work_dim, which a CUDA launch does not record, comes from a hidden
// argument of the range and box forms; the kernel as written, which SKMD
// never launches on a GPU, traps there.
// RUN: %skmd-cc --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: %skmd-cc --emit=ptx -DUSE_WORK_DIM %s -o %t.dim.ptx
// RUN: FileCheck %s --check-prefix=WORKDIM < %t.dim.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.dim.ptx -o %t.dim.cubin %}

// CHECK-NOT: .extern .func
// CHECK: .visible .entry numbered(
// CHECK-NOT: get_global_linear_id
// CHECK-NOT: get_global_offset

// WORKDIM-NOT: .extern .func
// WORKDIM-LABEL: .visible .entry numbered(
// WORKDIM: trap;
// WORKDIM-LABEL: .visible .entry numbered__skmd_range(
// WORKDIM: .param .u64 numbered__skmd_range_param_10
// WORKDIM-NOT: trap;
// WORKDIM: ld.param.{{b32|b64}} {{.*}}[numbered__skmd_range_param_10]
// WORKDIM-LABEL: .visible .entry numbered__skmd_box(
// WORKDIM-NOT: trap;
// WORKDIM: ld.param.{{b32|b64}} {{.*}}[numbered__skmd_box_param_10]

__kernel void numbered(__global ulong *out) {
  size_t i = get_global_linear_id();
  out[i] = i + get_global_offset(0) + get_enqueued_local_size(0);
#ifdef USE_WORK_DIM
  out[i] += get_work_dim();
#endif
}
