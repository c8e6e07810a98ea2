// The metadata records every argument's kind, address space, sizes and
// qualifiers, and the work-group attributes.
// RUN: %skmd-cc --emit=meta %s | FileCheck %s

typedef struct {
  float x, y, z;
  int id;
} Particle;

// CHECK:      "schema": 5,
// CHECK-NEXT: "producer": "skmd-cc {{.*}} (LLVM 22.{{.*}})",
// CHECK-NEXT: "source": {
// CHECK-NEXT:   "file": "metadata.cl",
// CHECK-NEXT:   "sha256": "{{[0-9a-f]+}}"
// CHECK-NEXT: },
// CHECK-NEXT: "options": [
// CHECK-NEXT:   "-cl-std=CL3.0",
// CHECK-NEXT:   "-O3"
// CHECK-NEXT: ],
// CHECK-NEXT: "targets": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "kind": "x86",
// CHECK-NEXT:     "triple": "x86_64-unknown-linux-gnu",
// CHECK-NEXT:     "cpu": "x86-64-v3",
// CHECK-NEXT:     "features": [
// CHECK-NEXT:       "avx",
// CHECK:            "sse4.2"
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "kind": "ptx",
// CHECK-NEXT:     "triple": "nvptx64-nvidia-cuda",
// CHECK-NEXT:     "cpu": "sm_90",
// CHECK-NEXT:     "features": []
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "kind": "spirv",
// CHECK-NEXT:     "triple": "spirv64v1.2-unknown-unknown",
// CHECK-NEXT:     "cpu": "",
// CHECK-NEXT:     "features": []
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK-NEXT: "kernels": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "everything",
// CHECK-NEXT:     "args": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "particles",
// CHECK-NEXT:         "type": "Particle*",
// CHECK-NEXT:         "base_type": "struct Particle*",
// CHECK-NEXT:         "layout": [
// CHECK-NEXT:           [
// CHECK-NEXT:             0,
// CHECK-NEXT:             "float",
// CHECK-NEXT:             3
// CHECK-NEXT:           ],
// CHECK-NEXT:           [
// CHECK-NEXT:             12,
// CHECK-NEXT:             "int",
// CHECK-NEXT:             1
// CHECK-NEXT:           ]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "kind": "global_buffer",
// CHECK-NEXT:         "address_space": "global",
// CHECK-NEXT:         "size": 8,
// CHECK-NEXT:         "element_size": 16,
// CHECK-NEXT:         "access": "none",
// CHECK-NEXT:         "const": false,
// CHECK-NEXT:         "restrict": true,
// CHECK-NEXT:         "volatile": false,
// CHECK-NEXT:         "read": true,
// CHECK-NEXT:         "written": true
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "coeffs",
// CHECK-NEXT:         "type": "float*",
// CHECK-NEXT:         "base_type": "float*",
// CHECK-NEXT:         "layout": [
// CHECK-NEXT:           [
// CHECK-NEXT:             0,
// CHECK-NEXT:             "float",
// CHECK-NEXT:             1
// CHECK-NEXT:           ]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "kind": "constant_buffer",
// CHECK-NEXT:         "address_space": "constant",
// CHECK-NEXT:         "size": 8,
// CHECK-NEXT:         "element_size": 4,
// CHECK-NEXT:         "access": "none",
// CHECK-NEXT:         "const": true,
// CHECK-NEXT:         "restrict": false,
// CHECK-NEXT:         "volatile": false,
// CHECK-NEXT:         "read": true,
// CHECK-NEXT:         "written": false
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "scratch",
// CHECK-NEXT:         "type": "float8*",
// CHECK-NEXT:         "base_type": "float8*",
// CHECK-NEXT:         "layout": [
// CHECK-NEXT:           [
// CHECK-NEXT:             0,
// CHECK-NEXT:             "float",
// CHECK-NEXT:             8
// CHECK-NEXT:           ]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "kind": "local_buffer",
// CHECK-NEXT:         "address_space": "local",
// CHECK-NEXT:         "size": 8,
// CHECK-NEXT:         "element_size": 32,
// CHECK:              "read": true,
// CHECK-NEXT:         "written": true
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "shift",
// CHECK-NEXT:         "type": "float4",
// CHECK-NEXT:         "base_type": "float4",
// CHECK-NEXT:         "layout": [
// CHECK-NEXT:           [
// CHECK-NEXT:             0,
// CHECK-NEXT:             "float",
// CHECK-NEXT:             4
// CHECK-NEXT:           ]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "kind": "scalar",
// CHECK-NEXT:         "address_space": "private",
// CHECK-NEXT:         "size": 16,
// CHECK-NEXT:         "element_size": 0,
// CHECK:              "read": false,
// CHECK-NEXT:         "written": false
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "name": "count",
// CHECK-NEXT:         "type": "ulong",
// CHECK-NEXT:         "base_type": "ulong",
// CHECK-NEXT:         "layout": [
// CHECK-NEXT:           [
// CHECK-NEXT:             0,
// CHECK-NEXT:             "ulong",
// CHECK-NEXT:             1
// CHECK-NEXT:           ]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "kind": "scalar",
// CHECK-NEXT:         "address_space": "private",
// CHECK-NEXT:         "size": 8,
// CHECK:            {
// CHECK-NEXT:         "name": "flags",
// CHECK-NEXT:         "type": "uchar*",
// CHECK-NEXT:         "base_type": "uchar*",
// CHECK-NEXT:         "layout": [
// CHECK-NEXT:           [
// CHECK-NEXT:             0,
// CHECK-NEXT:             "uchar",
// CHECK-NEXT:             1
// CHECK-NEXT:           ]
// CHECK-NEXT:         ],
// CHECK-NEXT:         "kind": "global_buffer",
// CHECK-NEXT:         "address_space": "global",
// CHECK-NEXT:         "size": 8,
// CHECK-NEXT:         "element_size": 1,
// CHECK-NEXT:         "access": "none",
// CHECK-NEXT:         "const": false,
// CHECK-NEXT:         "restrict": false,
// CHECK-NEXT:         "volatile": true,
// CHECK-NEXT:         "read": false,
// CHECK-NEXT:         "written": true
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "reqd_work_group_size": [
// CHECK-NEXT:       8,
// CHECK-NEXT:       4,
// CHECK-NEXT:       2
// CHECK-NEXT:     ],
// CHECK-NEXT:     "work_group_size_hint": [
// CHECK-NEXT:       0,
// CHECK-NEXT:       0,
// CHECK-NEXT:       0
// CHECK-NEXT:     ],
// CHECK-NEXT:     "vec_type_hint": "",
// CHECK-NEXT:     "symbols": {
// On x86 every entry point is a work-group function.
// CHECK-NEXT:       "x86": {
// CHECK-NEXT:         "kernel": "everything__skmd_wg",
// CHECK-NEXT:         "range": "everything__skmd_wg",
// CHECK-NEXT:         "merge": "everything__skmd_merge__skmd_wg"
// CHECK-NEXT:       },
// The CUDA device launches boxes of groups through the box form.
// CHECK-NEXT:       "ptx": {
// CHECK-NEXT:         "kernel": "everything",
// CHECK-NEXT:         "range": "everything__skmd_range",
// CHECK-NEXT:         "box": "everything__skmd_box",
// CHECK-NEXT:         "merge": "everything__skmd_merge"
// CHECK-NEXT:       },
// CHECK-NEXT:       "spirv": {
// CHECK-NEXT:         "kernel": "everything",
// CHECK-NEXT:         "range": "everything__skmd_range",
// CHECK-NEXT:         "merge": "everything__skmd_merge"
// CHECK-NEXT:       }
// CHECK-NEXT:     },
// CHECK-NEXT:     "partition": {
// CHECK-NEXT:       "partitionable": true,
// CHECK-NEXT:       "reasons": [],
// CHECK-NEXT:       "launch_tested": [],
// CHECK-NEXT:       "combined": [],
// CHECK-NEXT:       "contiguous": "no"
// CHECK-NEXT:     },
// CHECK-NEXT:     "footprint": {
// CHECK-NEXT:       "loops": [],
// CHECK-NEXT:       "args": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "arg": 0,
// CHECK-NEXT:           "kind": "affine",
// The work-group is 8x4x2, so a group's particles are not one run.
// CHECK-NEXT:           "contiguous": "no",
// CHECK:              "arg": 1,
// CHECK-NEXT:           "kind": "affine",
// CHECK-NEXT:           "contiguous": "always",
// CHECK-NEXT:           "accesses": [
// CHECK-NEXT:             {
// CHECK-NEXT:               "mode": "read",
// CHECK-NEXT:               "bytes": 4,
// CHECK-NEXT:               "guarded": false,
// CHECK-NEXT:               "base": 0,
// CHECK-NEXT:               "terms": []
// CHECK:              "arg": 5,
// CHECK-NEXT:           "kind": "affine",

__kernel __attribute__((reqd_work_group_size(8, 4, 2)))
void everything(__global Particle *restrict particles,
                __constant float *coeffs, __local float8 *scratch,
                float4 shift, ulong count, __global volatile uchar *flags) {
  size_t i = get_global_linear_id();
  scratch[get_local_linear_id()] = (float8)(coeffs[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < count) {
    particles[i].x += shift.x + scratch[0].s0;
    flags[i] = 1;
  }
}
