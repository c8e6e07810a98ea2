// Every variant is compiled with exactly the devices' extensions
// (support/DeviceFeatures.h, CL_DEVICE_EXTENSIONS): Clang's x86 and SPIR
// triples predefined cl_khr_fp16, the 64-bit atomics, cl_intel_subgroups
// and more, so code guarded by them (clpeak's half kernels) called
// builtins no variant has. __OPENCL_VERSION__ is the devices' 1.2,
// __OPENCL_C_VERSION__ -cl-std's.
// RUN: %skmd-cc --cl-std=CL1.2 -DC_VERSION=120 %s -o %t12.skmd
// RUN: %skmd-cc --cl-std=CL1.1 -DC_VERSION=110 %s -o %t11.skmd
// RUN: %skmd-cc -DC_VERSION=300 %s -o %t30.skmd
// RUN: %skmd-info %t12.skmd | FileCheck %s
// CHECK: versions

#if defined(cl_khr_fp16) || defined(cl_khr_int64_base_atomics) ||                    \
    defined(cl_khr_int64_extended_atomics) || defined(cl_khr_3d_image_writes) ||       \
    defined(cl_khr_depth_images) || defined(cl_intel_subgroups) ||                     \
    defined(cl_khr_gl_msaa_sharing) || defined(cl_amd_media_ops) ||                    \
    defined(cl_intel_device_side_avc_motion_estimation) || defined(__IMAGE_SUPPORT__)
#error an extension the devices do not list is defined
#endif
#if !defined(cl_khr_fp64) || !defined(cl_khr_byte_addressable_store) ||                \
    !defined(cl_khr_global_int32_base_atomics) ||                                      \
    !defined(cl_khr_global_int32_extended_atomics) ||                                  \
    !defined(cl_khr_local_int32_base_atomics) ||                                       \
    !defined(cl_khr_local_int32_extended_atomics)
#error an extension the devices list is not defined
#endif
#if __OPENCL_VERSION__ != 120 || __OPENCL_C_VERSION__ != C_VERSION || CL_VERSION_1_2 != 120
#error the versions are not the devices' and -cl-std's
#endif
#if C_VERSION == 300 && (defined(__opencl_c_subgroups) || defined(__opencl_c_pipes) ||  \
                         defined(__opencl_c_device_enqueue) || !defined(__opencl_c_fp64))
#error the OpenCL C 3.0 features are not the devices'
#endif

__kernel void versions(__global int *out) {
  out[0] = __OPENCL_VERSION__;
  out[1] = __OPENCL_C_VERSION__;
}
