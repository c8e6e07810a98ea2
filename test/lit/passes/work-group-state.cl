// skmd-work-group-function keeps per-work-item state only for values live
// at a barrier that cannot be recomputed after it.
// RUN: %skmd-cc --emit=llvm %s | %opt -passes=skmd-work-group-function -S | FileCheck %s

// `v` is loaded before the barrier and used after it: it takes per-item
// state (4 bytes, padded to 16). `w` is computed after the barrier; the
// local id is recomputed from the loop counter where it is used.
// The sizes are attributes of the kernels, where the runtime's metadata
// comes from.
// CHECK: define {{.*}} @two_phase({{.*}} #[[TWO:[0-9]+]]
// CHECK: define {{.*}} @recomputed({{.*}} #[[RECOMPUTED:[0-9]+]]
// CHECK: define {{.*}} @private_array({{.*}} #[[PRIVATE:[0-9]+]]
// CHECK: define {{.*}} @scratch_array({{.*}} #[[SCRATCH:[0-9]+]]
// CHECK: define {{.*}} @per_round_array({{.*}} #[[PER_ROUND:[0-9]+]]
// CHECK: define {{.*}} @tree_reduction({{.*}} #[[RECOMPUTED]]
// CHECK: define {{.*}} @uniform_index_array({{.*}} #[[UNIFORM_INDEX:[0-9]+]]
// CHECK-LABEL: define {{.*}}void @two_phase__skmd_wg(
// CHECK-NOT: call {{.*}}get_local_id
// Per-item slots have their own alias scope, which the kernel's accesses
// are declared not to alias: `v` may stay in a register between them.
// CHECK: load i32, ptr %arrayidx.i.r0{{.*}}!noalias ![[STATE:[0-9]+]]
// CHECK: store i32 %{{.*}}, ptr %{{.*}}.item, {{.*}}!alias.scope ![[STATE]]
// CHECK-LABEL: define {{.*}}void @recomputed__skmd_wg(
// CHECK-NOT: call {{.*}}get_local_id
__kernel void two_phase(__global const int *in, __global int *out) {
  __local int tmp[64];
  int l = get_local_id(0);
  int v = in[l] * 3;
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  int w = tmp[63 - l] + 1;
  out[get_global_id(0)] = v + w;
}

// Addresses and indices made of ids, arguments and __local addresses are
// recomputed after the barrier, not saved: no state at all, and the tile
// read after the barrier is addressed from the loop counter, so the
// vectorizer sees a contiguous access rather than a gather of saved
// pointers.
__kernel void recomputed(__global const float *in, __global float *out, int n) {
  __local float tile[64];
  int l = get_local_id(0);
  __local float *mine = &tile[l];
  int row = get_global_id(0) * n;
  *mine = in[row];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[row] = *mine + tile[63 - l];
}

// A private array live at a barrier becomes a per-item slot of state (32
// bytes); its lifetime markers go with the alloca, since a slot is not one
// (the verifier, which opt runs, rejects them on anything else).
// CHECK-LABEL: define {{.*}}void @private_array__skmd_wg(
// CHECK-NOT: llvm.lifetime
// CHECK: ret void

// A float3 accumulator live at the barriers takes a slot per element, so
// that each element's copies over the items lie side by side (loaded whole
// by the vectorizer) rather than each item's three elements together.
// CHECK-LABEL: define {{.*}}void @vector_state__skmd_wg(
// CHECK-NOT: <3 x float>, ptr %{{[^ ,]*}}.item
// CHECK: mul i64 %r0.item, 4
// CHECK-NEXT: add i64
// CHECK-NEXT: %acc{{[^ ]*}}.reg2mem.0.item = getelementptr inbounds i8, ptr %wi_state
// CHECK-NOT: <3 x float>, ptr %{{[^ ,]*}}.item
// CHECK: ret void

__kernel void private_array(__global int *out, __global const int *idx) {
  __local int tmp[64];
  int priv[8];
  int l = get_local_id(0);
  for (int i = 0; i < 8; ++i)
    priv[i] = l * i;
  tmp[l] = priv[idx[l] & 7];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[63 - l] + priv[idx[63 - l] & 7];
}

__kernel void vector_state(__global const float4 *in, __global float4 *out) {
  __local float4 tile[64];
  int l = get_local_id(0);
  float3 acc = (float3)(0.0f, 0.0f, 0.0f);
  for (int k = 0; k < 4; ++k) {
    tile[l] = in[k * 64 + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += tile[63 - l].xyz;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = (float4)(acc, 0.0f);
}

// Private arrays whose lifetimes start after the barrier (AES's state
// words s and t, indexed by a column loop that only the full -O3 unrolls)
// hold nothing any barrier can see: they stay allocas of the work-group
// function, with their lifetime markers, which each work-item uses in
// turn; the x loop's parallel access group leaves their accesses out, as
// the items do share them. No state: once unrolled, SROA keeps them in
// registers (as slots, every round stored t to wi_state and reloaded it).
// CHECK-LABEL: define {{.*}}void @scratch_array__skmd_wg(
// CHECK: %s.i = alloca [4 x i32]
// CHECK: %t.i = alloca [4 x i32]
// CHECK-NOT: .item = getelementptr
// CHECK: r1.x:
// CHECK: call void @llvm.lifetime.start.p0(ptr nonnull %s.i)
// CHECK: store i32 %{{[0-9]+}}, ptr %arrayidx{{[0-9]*}}.i.r1, align 4, !tbaa !{{[0-9]+}}{{$}}
// CHECK: call void @llvm.lifetime.start.p0(ptr nonnull %t.i)
// CHECK: load i32, ptr %{{[a-z0-9.]+}}, align 4, !tbaa !{{[0-9]+}}, !llvm.access.group
// CHECK: call void @llvm.memcpy{{.*}}(ptr {{.*}}%s.i, ptr {{.*}}%t.i, i64 16, i1 false), !tbaa !{{[0-9]+}}{{$}}
// CHECK: ret void
__kernel void scratch_array(__global const uint *in, __global uint *out) {
  __local uint box[128];
  int l = get_local_id(0);
  box[l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s[4];
  for (int c = 0; c < 4; ++c)
    s[c] = in[get_global_id(0) * 4 + c];
  for (int r = 0; r < 3; ++r) {
    uint t[4];
    for (int c = 0; c < 4; ++c)
      t[c] = box[s[(c + 1) & 3] & 127] ^ s[c];
    for (int c = 0; c < 4; ++c)
      s[c] = t[c];
  }
  out[get_global_id(0)] = s[0] ^ s[1] ^ s[2] ^ s[3];
}

// A lifetime that starts each round but spans the round's first barrier:
// the array is live there and keeps its slot (32 bytes, with the saved
// round counter and sum).
// CHECK-LABEL: define {{.*}}void @per_round_array__skmd_wg(
// CHECK: %priv.i.item = getelementptr inbounds i8, ptr %wi_state
// CHECK-NOT: llvm.lifetime
// CHECK: ret void
__kernel void per_round_array(__global const int *in, __global int *out,
                              __global const int *idx) {
  __local int tmp[64];
  int l = get_local_id(0);
  int sum = 0;
  for (int k = 0; k < 4; ++k) {
    int priv[8];
    for (int i = 0; i < 8; ++i)
      priv[i] = in[k * 8 + i] * l;
    tmp[l] = priv[idx[l] & 7];
    barrier(CLK_LOCAL_MEM_FENCE);
    sum += tmp[63 - l] + priv[idx[63 - l] & 7];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = sum;
}

// A barrier loop's counter, halved in the latch that shares its sub-CFG
// with the header, is uniform but read before it is written there: one
// slot for the group, which each sub-CFG loads before its work-item loops
// into every item's scratch copy; an item reads and writes its copy and
// writes the slot through. No per-item state (it took 16 bytes).
// CHECK-LABEL: define {{.*}}void @tree_reduction__skmd_wg(
// CHECK: %[[SLOT:s[.a-z0-9]*reg2mem]] = alloca i32
// CHECK: %[[COPY:.*reg2mem.copy]] = alloca i32
// CHECK: %[[SNAP:.*]] = load i32, ptr %[[SLOT]]
// CHECK: store i32 %[[SNAP]], ptr %[[COPY]]
// CHECK: store i32 %[[NEW:.*]], ptr %[[COPY]]
// CHECK-NEXT: store i32 %[[NEW]], ptr %[[SLOT]]
// CHECK-NOT: wi_state
// CHECK: ret void
__kernel void tree_reduction(__global const float *in, __global float *out) {
  __local float part[64];
  int l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (l < s)
      part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = part[0];
}

// A private array live at the barriers whose every access is at an index
// the same for all work-items (a generator's state, stepped by a uniform
// counter) is laid out element-major: element e of item w at e * items + w,
// each index scaled by the item count and each item's copy one element
// after the previous item's, so the vectorized work-item loop loads and
// stores consecutive items' elements whole (item-major, 160 bytes apart,
// they were gathers and scatters). per_round_array's `priv`, indexed by
// loaded values, stays item-major.
// CHECK-LABEL: define {{.*}}void @uniform_index_array__skmd_wg(
// Element 0 is only as aligned as an element now.
// CHECK: r1.x:
// CHECK: %[[BASE:[0-9]+]] = mul i64 %r1.item, 4
// CHECK-NEXT: %[[OFF:[0-9]+]] = add i64 %{{[0-9]+}}, %[[BASE]]
// CHECK-NEXT: %[[S:s.i.item[0-9]*]] = getelementptr inbounds i8, ptr %wi_state, i64 %[[OFF]]
// CHECK: after.barrier.r1:
// CHECK: %[[SCALED:[0-9]+]] = mul nsw i64 %{{[a-z0-9.]+}}, %items
// CHECK-NEXT: getelementptr inbounds{{( nuw)?}} i32, ptr %[[S]], i64 %[[SCALED]]
// CHECK: %[[SCALED2:[0-9]+]] = mul nsw i64 %{{[a-z0-9.]+}}, %items
// CHECK-NEXT: getelementptr inbounds{{( nuw)?}} i32, ptr %[[S]], i64 %[[SCALED2]]
// CHECK: load i32, ptr %[[S]], align 4,
// CHECK: ret void
__kernel void uniform_index_array(__global uint *out, uint steps) {
  uint s[40];
  for (uint j = 0; j < 40; ++j)
    s[j] = (uint)get_global_id(0) * 7u + j;
  for (uint k = 0; k < steps; ++k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    s[k % 40] += s[(k + 1) % 40];
  }
  out[get_global_id(0)] = s[0];
}

// The state each kernel needs per work-item (kernels that need the same
// share their attributes).
// CHECK-DAG: attributes #[[TWO]] = {{.*}}"skmd-wg-local-mem-bytes"="256" "skmd-wg-state-bytes"="16"
// CHECK-DAG: attributes #[[RECOMPUTED]] = {{.*}}"skmd-wg-local-mem-bytes"="256" "skmd-wg-state-bytes"="0"
// CHECK-DAG: attributes #[[PRIVATE]] = {{.*}}"skmd-wg-local-mem-bytes"="256" "skmd-wg-state-bytes"="32"
// CHECK-DAG: attributes #[[SCRATCH]] = {{.*}}"skmd-wg-local-mem-bytes"="512" "skmd-wg-state-bytes"="0"
// CHECK-DAG: attributes #[[PER_ROUND]] = {{.*}}"skmd-wg-local-mem-bytes"="256" "skmd-wg-state-bytes"="48"
// CHECK-DAG: attributes #[[UNIFORM_INDEX]] = {{.*}}"skmd-wg-local-mem-bytes"="0" "skmd-wg-state-bytes"="160"
