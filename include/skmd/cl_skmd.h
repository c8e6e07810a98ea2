/*===- cl_skmd.h - What the SKMD OpenCL platform adds to OpenCL ----------===*
 *
 * Queries a program may make of the SKMD platform (libSKMD_OpenCL.so) on
 * top of OpenCL 1.2; other platforms answer them with CL_INVALID_VALUE.
 *
 * clGetEventInfo on the event of a kernel launch, once it is complete
 * (before: CL_PROFILING_INFO_NOT_AVAILABLE; on other events:
 * CL_INVALID_VALUE):
 *   CL_EVENT_SKMD_BYTES_TO_DEVICES    cl_ulong  bytes the launch copied from
 *                                               the host to devices
 *   CL_EVENT_SKMD_BYTES_FROM_DEVICES  cl_ulong  bytes it copied from devices
 *                                               to the host (results, and
 *                                               bytes a piece read that only
 *                                               a device held)
 *   CL_EVENT_SKMD_PLAN                char[]    the groups each device ran,
 *                                               "cpu:0+512 gpu0:512+1536"
 *                                               (first group + count)
 *
 *===----------------------------------------------------------------------===*/
#ifndef SKMD_CL_SKMD_H
#define SKMD_CL_SKMD_H

#define CL_EVENT_SKMD_BYTES_TO_DEVICES 0x4B80
#define CL_EVENT_SKMD_BYTES_FROM_DEVICES 0x4B81
#define CL_EVENT_SKMD_PLAN 0x4B82

#endif /* SKMD_CL_SKMD_H */
