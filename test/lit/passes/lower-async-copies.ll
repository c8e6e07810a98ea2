; skmd-lower-async-copies: each work-group copy becomes the loop its group's
; items share (item k copies elements k, k + items, ... below n), the
; strided form stepping through the global side; wait_group_events becomes a
; barrier on local and global memory; prefetch goes. A copy of a type the
; pass cannot read from the mangling stays a call.
; RUN: %opt -passes=skmd-lower-async-copies -S %s | FileCheck %s

target triple = "spir64-unknown-unknown"

declare spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocaliPU8CLglobalKim9ocl_event(ptr addrspace(3), ptr addrspace(1), i64, target("spirv.Event"))
declare spir_func target("spirv.Event") @_Z29async_work_group_strided_copyPU8CLglobaliPU7CLlocalKimm9ocl_event(ptr addrspace(1), ptr addrspace(3), i64, i64, target("spirv.Event"))
declare spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocalDv3_fPU8CLglobalKS_m9ocl_event(ptr addrspace(3), ptr addrspace(1), i64, target("spirv.Event"))
declare spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocal5MyTypePU8CLglobalKS_m9ocl_event(ptr addrspace(3), ptr addrspace(1), i64, target("spirv.Event"))
declare spir_func void @_Z17wait_group_eventsiPU3AS49ocl_event(i32, ptr addrspace(4))
declare spir_func void @_Z8prefetchPU8CLglobalKim(ptr addrspace(1), i64)

; CHECK-LABEL: define spir_kernel void @in_and_out(
; CHECK-NOT: async_work_group
; The item's linear id and the group's item count, from all three dimensions.
; CHECK-DAG: call i64 @_Z12get_local_idj(i32 2)
; CHECK-DAG: call i64 @_Z14get_local_sizej(i32 1)
; CHECK-DAG: call i64 @_Z12get_local_idj(i32 0)
; CHECK: %[[ID:.*]] = add i64 %{{.*}}, %get_local_id{{[0-9]*}}
; CHECK: %[[ITEMS:.*]] = mul i64 %{{.*}}, %get_local_size{{[0-9]*}}
; CHECK: icmp ult i64 %[[ID]], 64
; CHECK: br i1 %{{.*}}, label %async.copy, label %async.copy.done
; CHECK: async.copy:
; CHECK-NEXT: %async.i = phi i64 [ %[[ID]],
; CHECK: %[[FROM:.*]] = getelementptr i32, ptr addrspace(1) %in, i64 %async.i
; CHECK: %[[TO:.*]] = getelementptr i32, ptr addrspace(3) %tile, i64 %async.i
; CHECK: %[[V:.*]] = load i32, ptr addrspace(1) %[[FROM]]
; CHECK: store i32 %[[V]], ptr addrspace(3) %[[TO]]
; CHECK: add i64 %async.i, %[[ITEMS]]
; CHECK: call void @_Z7barrierj(i32 3)
; CHECK-NOT: wait_group_events
; The strided copy out: element i of the tile to element i * stride.
; CHECK: %[[FAR:.*]] = mul i64 %async.i{{[0-9]*}}, 2
; CHECK: getelementptr i32, ptr addrspace(3) %tile, i64 %async.i
; CHECK: getelementptr i32, ptr addrspace(1) %out, i64 %[[FAR]]
; CHECK: call void @_Z7barrierj(i32 3)
; CHECK-NOT: prefetch
; CHECK: ret void
define spir_kernel void @in_and_out(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(3) %tile, ptr addrspace(4) %ev) {
  %e = call spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocaliPU8CLglobalKim9ocl_event(ptr addrspace(3) %tile, ptr addrspace(1) %in, i64 64, target("spirv.Event") zeroinitializer)
  call spir_func void @_Z17wait_group_eventsiPU3AS49ocl_event(i32 1, ptr addrspace(4) %ev)
  %f = call spir_func target("spirv.Event") @_Z29async_work_group_strided_copyPU8CLglobaliPU7CLlocalKimm9ocl_event(ptr addrspace(1) %out, ptr addrspace(3) %tile, i64 64, i64 2, target("spirv.Event") zeroinitializer)
  call spir_func void @_Z17wait_group_eventsiPU3AS49ocl_event(i32 1, ptr addrspace(4) %ev)
  call spir_func void @_Z8prefetchPU8CLglobalKim(ptr addrspace(1) %in, i64 16)
  ret void
}

; float3 elements step by four floats, as OpenCL lays them out.
; CHECK-LABEL: define spir_kernel void @three_lanes(
; CHECK: getelementptr <3 x float>, ptr addrspace(1) %in, i64 %async.i
; CHECK: load <3 x float>
define spir_kernel void @three_lanes(ptr addrspace(1) %in, ptr addrspace(3) %tile) {
  %e = call spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocalDv3_fPU8CLglobalKS_m9ocl_event(ptr addrspace(3) %tile, ptr addrspace(1) %in, i64 32, target("spirv.Event") zeroinitializer)
  ret void
}

; CHECK-LABEL: define spir_kernel void @unknown_type(
; CHECK: call spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocal5MyType
define spir_kernel void @unknown_type(ptr addrspace(1) %in, ptr addrspace(3) %tile) {
  %e = call spir_func target("spirv.Event") @_Z21async_work_group_copyPU7CLlocal5MyTypePU8CLglobalKS_m9ocl_event(ptr addrspace(3) %tile, ptr addrspace(1) %in, i64 32, target("spirv.Event") zeroinitializer)
  ret void
}
