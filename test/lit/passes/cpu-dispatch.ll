; skmd-cpu-dispatch gives each work-group function an x86-64-v4 body and
; makes its name an ifunc whose resolver picks that body when cpuid and
; xgetbv say the CPU and the OS support AVX-512, else the original one.
; Other functions are left alone. The second body is told to prefer no
; scattered stores (slower than scalar stores on the hosts measured).
; RUN: %opt -passes=skmd-cpu-dispatch -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK: @k__skmd_wg = ifunc void (ptr, ptr), ptr @k__skmd_wg.resolver
; CHECK-NOT: ifunc
; CHECK: define void @k__skmd_wg.baseline(ptr %args, ptr %ctx) {
; CHECK: define void @helper() {
; CHECK: define void @k__skmd_wg.x86-64-v4(ptr %args, ptr %ctx) #[[V4:[0-9]+]] {
; CHECK: define internal ptr @k__skmd_wg.resolver()
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[HAS:.*]] = call i1 @skmd.cpu.has_avx512()
; CHECK-NEXT: %[[PICK:.*]] = select i1 %[[HAS]], ptr @k__skmd_wg.x86-64-v4, ptr @k__skmd_wg.baseline
; CHECK-NEXT: ret ptr %[[PICK]]
; CHECK: define internal i1 @skmd.cpu.has_avx512()
; CHECK: asm "cpuid"
; CHECK: asm sideeffect "xgetbv"
; XMM, YMM, opmask and ZMM state enabled in XCR0.
; CHECK: and i32 %{{.*}}, 230
; AVX512F, DQ, CD, BW and VL: bits 16, 17, 28, 30, 31 of leaf 7's ebx.
; CHECK: and i32 %{{.*}}, -805109760
; The second body keeps AVX-512's gathers but not its scattered stores.
; CHECK: attributes #[[V4]] = { "target-cpu"="x86-64-v4" "target-features"="+prefer-no-scatter" }

define void @k__skmd_wg(ptr %args, ptr %ctx) {
  ret void
}

define void @helper() {
  ret void
}
