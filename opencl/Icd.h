//===- Icd.h - The SKMD platform's entry points, for the dispatch table -*- C++ -*-===//
#ifndef SKMD_OPENCL_ICD_H
#define SKMD_OPENCL_ICD_H

#include "Objects.h"

#include <string>
#include <utility>
#include <vector>

/// The symbols the ICD loader looks up by name (cl_khr_icd: the platforms,
/// their names, extension functions); everything else is hidden.
#define SKMD_ICD_EXPORT extern "C" __attribute__((visibility("default")))

SKMD_ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id *, cl_uint *);
SKMD_ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *);
SKMD_ICD_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id, cl_platform_info, size_t,
                                                     void *, size_t *);

namespace skmd::opencl {

extern _cl_platform_id ThePlatform;
/// The device made of every device the session opened.
extern _cl_device_id TheDevice;

/// The platform's devices: TheDevice, then, with SKMD_OPENCL_EXPOSE=each,
/// each runtime device on its own. Empty when no device opens.
const std::vector<cl_device_id> &platformDevices();
/// The plan that runs a launch on \p D alone ("" for TheDevice: the
/// session's default over all devices).
std::string devicePlan(cl_device_id D);
/// Whether \p D is one of \p Devices.
bool hasDevice(const std::vector<cl_device_id> &Devices, cl_device_id D);

/// The platform's session, opened on first use; null (with \p Why) when no
/// device opens.
Session *platformSession(std::string *Why);

/// Writes an info query's answer: CL_INVALID_VALUE when \p Size is too
/// small for it.
cl_int answerBytes(const void *Data, size_t N, size_t Size, void *Out, size_t *SizeRet);
cl_int answerString(const std::string &S, size_t Size, void *Out, size_t *SizeRet);

/// Whether clBuildProgram compiles source here (the compiler library is
/// linked in).
bool compilerAvailable();
/// The variants programs are built for: x86 always (the CPU merges and
/// re-runs), and each device's. Their extensions are the device's.
std::vector<TargetKind> platformVariants();
/// Compiles \p Source with the build options \p Options into a bundle's
/// bytes for the variants the platform's devices run; \p Log gets the
/// compiler's messages. Fails with the OpenCL error code and the log.
/// Headers a program's #include directives name (clCompileProgram's
/// input headers): include name and text.
using Headers = std::vector<std::pair<std::string, std::string>>;
cl_int compileSource(const std::string &Source, const std::string &Options,
                     const Headers &Included, std::vector<uint8_t> &Bundle, std::string &Log);
/// clCompileProgram: one unit to a compiled object's bytes
/// (bundle/CompiledObject.h); a unit may call what another defines.
/// Without the compiler, from the build cache; else
/// CL_COMPILER_NOT_AVAILABLE.
cl_int compileObjectSource(const std::string &Source, const std::string &Options,
                           const Headers &Included, std::vector<uint8_t> &Object,
                           std::string &Log);
/// clLinkProgram: compiled objects (or libraries) to a library, a compiled
/// object of them all, or to a bundle for the platform's devices; the
/// build cache serves it by the objects' bytes.
cl_int linkObjects(const std::vector<const std::vector<uint8_t> *> &Objects, bool Library,
                   std::vector<uint8_t> &Bytes, std::string &Log);

cl_int CL_API_CALL getPlatformIDs(cl_uint, cl_platform_id *, cl_uint *);
cl_int CL_API_CALL getPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
cl_int CL_API_CALL getDeviceIDs(cl_platform_id, cl_device_type, cl_uint, cl_device_id *,
                                cl_uint *);
cl_int CL_API_CALL getDeviceInfo(cl_device_id, cl_device_info, size_t, void *, size_t *);
cl_int CL_API_CALL retainDevice(cl_device_id);
cl_int CL_API_CALL createSubDevices(cl_device_id, const cl_device_partition_property *, cl_uint,
                                    cl_device_id *, cl_uint *);


} // namespace skmd::opencl

#endif // SKMD_OPENCL_ICD_H
