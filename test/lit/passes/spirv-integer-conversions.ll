; skmd-spirv-integer-conversions: integer-to-integer convert_<T>_sat
; calls become clamps in the source's signedness and a truncation or an
; extension (LLVM's SPIR-V backend picks the wrong SatConvert for them);
; plain convert_<T> calls a truncation, an extension by the source's
; signedness, or nothing between equal widths (the backend emitted an
; OpUConvert of one width, which spirv-val refuses); conversions from
; floating point stay calls.
; RUN: %opt -passes=skmd-spirv-integer-conversions -S %s | FileCheck %s

target triple = "spirv64-unknown-unknown"

declare spir_func signext i8 @_Z16convert_char_satl(i64)
declare spir_func zeroext i8 @_Z17convert_uchar_satl(i64)
declare spir_func zeroext i8 @_Z17convert_uchar_satm(i64)
declare spir_func i64 @_Z16convert_long_satm(i64)
declare spir_func i64 @_Z16convert_long_satc(i8)
declare spir_func i32 @_Z15convert_int_satj(i32)
declare spir_func i64 @_Z17convert_ulong_satl(i64)
declare spir_func <8 x i16> @_Z18convert_short8_satDv8_l(<8 x i64>)
declare spir_func i16 @_Z21convert_short_sat_rtzl(i64)
declare spir_func i32 @_Z15convert_int_satf(float)
declare spir_func <4 x i32> @_Z12convert_int4Dv4_j(<4 x i32>)
declare spir_func i64 @_Z13convert_ulongi(i32)
declare spir_func i64 @_Z12convert_longj(i32)
declare spir_func i8 @_Z12convert_charl(i64)

; The integer conversions' declarations are gone; the float one stays.
; CHECK-NOT: @_Z16convert_char_satl
; CHECK: declare spir_func i32 @_Z15convert_int_satf(float)
; CHECK-LABEL: define spir_func void @conversions(
define spir_func void @conversions(i64 %x, i8 %c, i32 %u, <8 x i64> %v, float %f, <4 x i32> %u4, ptr %out) {
; long -> char: between -128 and 127, then truncated.
; CHECK: %[[A1:.*]] = call i64 @llvm.smax.i64(i64 %x, i64 -128)
; CHECK-NEXT: %[[A2:.*]] = call i64 @llvm.smin.i64(i64 %[[A1]], i64 127)
; CHECK-NEXT: %a = trunc i64 %[[A2]] to i8
  %a = call spir_func signext i8 @_Z16convert_char_satl(i64 %x)
  store volatile i8 %a, ptr %out
; long -> uchar: negatives to 0, then at most 255.
; CHECK: %[[B1:.*]] = call i64 @llvm.smax.i64(i64 %x, i64 0)
; CHECK-NEXT: %[[B2:.*]] = call i64 @llvm.umin.i64(i64 %[[B1]], i64 255)
; CHECK-NEXT: %b = trunc i64 %[[B2]] to i8
  %b = call spir_func zeroext i8 @_Z17convert_uchar_satl(i64 %x)
  store volatile i8 %b, ptr %out
; ulong -> uchar: at most 255, read as unsigned.
; CHECK: %[[C1:.*]] = call i64 @llvm.umin.i64(i64 %x, i64 255)
; CHECK-NEXT: %b2 = trunc i64 %[[C1]] to i8
  %b2 = call spir_func zeroext i8 @_Z17convert_uchar_satm(i64 %x)
  store volatile i8 %b2, ptr %out
; ulong -> long: at most 2^63 - 1; nothing to truncate.
; CHECK: %d = call i64 @llvm.umin.i64(i64 %x, i64 9223372036854775807)
  %d = call spir_func i64 @_Z16convert_long_satm(i64 %x)
  store volatile i64 %d, ptr %out
; char -> long: every value fits, sign-extended.
; CHECK: %e = sext i8 %c to i64
  %e = call spir_func i64 @_Z16convert_long_satc(i8 %c)
  store volatile i64 %e, ptr %out
; uint -> int: at most 2^31 - 1.
; CHECK: %g = call i32 @llvm.umin.i32(i32 %u, i32 2147483647)
  %g = call spir_func i32 @_Z15convert_int_satj(i32 %u)
  store volatile i32 %g, ptr %out
; long -> ulong: negatives to 0.
; CHECK: %h = call i64 @llvm.smax.i64(i64 %x, i64 0)
  %h = call spir_func i64 @_Z17convert_ulong_satl(i64 %x)
  store volatile i64 %h, ptr %out
; Vectors element by element; a rounding mode changes nothing for integers.
; CHECK: %[[V1:.*]] = call <8 x i64> @llvm.smax.v8i64(<8 x i64> %v, <8 x i64> splat (i64 -32768))
; CHECK-NEXT: %[[V2:.*]] = call <8 x i64> @llvm.smin.v8i64(<8 x i64> %[[V1]], <8 x i64> splat (i64 32767))
; CHECK-NEXT: %w = trunc <8 x i64> %[[V2]] to <8 x i16>
  %w = call spir_func <8 x i16> @_Z18convert_short8_satDv8_l(<8 x i64> %v)
  store volatile <8 x i16> %w, ptr %out
; CHECK: %[[R1:.*]] = call i64 @llvm.smax.i64(i64 %x, i64 -32768)
; CHECK: %r = trunc i64 %{{.*}} to i16
  %r = call spir_func i16 @_Z21convert_short_sat_rtzl(i64 %x)
  store volatile i16 %r, ptr %out
; Modulo: uint4 -> int4 is the value itself; int -> ulong sign-extends,
; uint -> long zero-extends, long -> char keeps the low bits.
; CHECK: store volatile <4 x i32> %u4, ptr %out
  %n1 = call spir_func <4 x i32> @_Z12convert_int4Dv4_j(<4 x i32> %u4)
  store volatile <4 x i32> %n1, ptr %out
; CHECK: %n2 = sext i32 %u to i64
  %n2 = call spir_func i64 @_Z13convert_ulongi(i32 %u)
  store volatile i64 %n2, ptr %out
; CHECK: %n3 = zext i32 %u to i64
  %n3 = call spir_func i64 @_Z12convert_longj(i32 %u)
  store volatile i64 %n3, ptr %out
; CHECK: %n4 = trunc i64 %x to i8
  %n4 = call spir_func i8 @_Z12convert_charl(i64 %x)
  store volatile i8 %n4, ptr %out
; From float: left to the backend.
; CHECK: %k = call spir_func i32 @_Z15convert_int_satf(float %f)
  %k = call spir_func i32 @_Z15convert_int_satf(float %f)
  store volatile i32 %k, ptr %out
  ret void
}
