//===- Platform.cpp - The SKMD platform and its one device ----------------===//
//
// One platform, "SKMD", with one device made of every device the runtime
// opens (SKMD_DEVICES chooses). Its answers hold for all of them: the
// smallest memory, work-group limits every device takes, the extensions
// all share, no images. SKMD_OPENCL_EXPOSE=each lists each runtime device
// after it too, so a program can run on one device alone (launches on
// such a device's queue are planned onto it). The platform's Session is opened on the first
// query that needs the devices, and every context uses it (one queue of
// launches for the process: the devices are not shared between two).
//
//===----------------------------------------------------------------------===//
#include "HostProcessor.h"
#include "Icd.h"

#include "bundle/Metadata.h"
#include "support/DeviceFeatures.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace skmd;
using namespace skmd::opencl;

namespace skmd::opencl {

_cl_platform_id ThePlatform;
_cl_device_id TheDevice;

namespace {
/// Set while this thread opens the platform's session. Opening an OpenCL
/// device enumerates the system's platforms through a loader, which may
/// load this platform again and ask it for its devices: that call finds
/// none (it would otherwise wait for the opening it is part of).
thread_local bool OpeningHere = false;
} // namespace

Session *platformSession(std::string *Why) {
  if (OpeningHere) {
    if (Why)
      *Why = "the SKMD platform is opening its devices";
    return nullptr;
  }
  static std::once_flag Once;
  static std::unique_ptr<Session> S;
  static std::string Failed;
  std::call_once(Once, [] {
    OpeningHere = true;
    struct Done {
      ~Done() { OpeningHere = false; }
    } Reset;
    auto Options = SessionOptions::fromEnvironment(nullptr);
    if (!Options) {
      Failed = Options.error().message();
      return;
    }
    auto Opened = Session::open(*Options);
    if (!Opened) {
      Failed = Opened.error().message();
      return;
    }
    S = std::move(*Opened);
  });
  // The platform is then without devices: say why once, where a program
  // that only sees CL_DEVICE_NOT_FOUND cannot.
  static std::once_flag Told;
  if (!S)
    std::call_once(Told, [] {
      std::fprintf(stderr, "skmd: the SKMD platform has no devices: %s\n", Failed.c_str());
    });
  if (!S && Why)
    *Why = Failed;
  return S.get();
}

namespace {

/// Each runtime device as a device of its own, when SKMD_OPENCL_EXPOSE
/// asks for them.
std::vector<_cl_device_id> &eachDevice() {
  static std::vector<_cl_device_id> Each;
  return Each;
}

} // namespace

const std::vector<cl_device_id> &platformDevices() {
  static const std::vector<cl_device_id> None;
  if (OpeningHere)
    return None;
  static std::once_flag Once;
  static std::vector<cl_device_id> All;
  std::call_once(Once, [] {
    Session *S = platformSession(nullptr);
    if (!S)
      return;
    All.push_back(&TheDevice);
    const char *Expose = std::getenv("SKMD_OPENCL_EXPOSE");
    std::string Mode = Expose ? Expose : "";
    if (Mode != "each") {
      if (!Mode.empty() && Mode != "one")
        std::fprintf(stderr,
                     "skmd: SKMD_OPENCL_EXPOSE=%s is not 'one' or 'each': one device it is\n",
                     Expose);
      return;
    }
    auto &Each = eachDevice();
    Each.resize(S->devices().size());
    for (size_t I = 0; I < Each.size(); ++I) {
      Each[I].Index = int(I);
      if (S->devices()[I]->info().InPlans)
        All.push_back(&Each[I]);
    }
  });
  return All;
}

std::string devicePlan(cl_device_id D) {
  if (!D || D->Index < 0)
    return "";
  return platformSession(nullptr)->deviceInfos()[size_t(D->Index)]->Name;
}

bool hasDevice(const std::vector<cl_device_id> &Devices, cl_device_id D) {
  return D && std::find(Devices.begin(), Devices.end(), D) != Devices.end();
}

cl_int answerBytes(const void *Data, size_t N, size_t Size, void *Out, size_t *SizeRet) {
  if (Out && Size < N)
    return CL_INVALID_VALUE;
  if (Out && N)
    std::memcpy(Out, Data, N);
  if (SizeRet)
    *SizeRet = N;
  return CL_SUCCESS;
}

cl_int answerString(const std::string &S, size_t Size, void *Out, size_t *SizeRet) {
  return answerBytes(S.c_str(), S.size() + 1, Size, Out, SizeRet);
}

} // namespace skmd::opencl

namespace {

const char *const Version = "OpenCL 1.2 SKMD";

/// What every device of the session can do.
struct Limits {
  std::string Name;
  /// What the device spans: CPU for devices on the host's cores, GPU for
  /// the others, both for a device made of both.
  cl_device_type Type = 0;
  cl_uint Units = 0;
  cl_ulong GlobalMem = 0;
  bool Doubles = true;
  cl_uint VendorId = 0;
};

/// The memory \p I offers a buffer that every member of \p Infos holds.
/// Members whose memory is the host's (the CPU, HostDiscrete devices)
/// share it: the user's buffer and each private copy are in it at once.
cl_ulong memoryForOneBuffer(const DeviceInfo &I, const std::vector<const DeviceInfo *> &Infos) {
  auto InHostMemory = [](const DeviceInfo &D) { return D.SharesHostMemory || D.UsesHostCores; };
  if (!InHostMemory(I))
    return I.MemoryBytes;
  cl_ulong Copies = 1;
  for (const DeviceInfo *D : Infos)
    Copies += D->UsesHostCores && !D->SharesHostMemory;
  return I.MemoryBytes / Copies;
}

/// \p D's limits: every device's for TheDevice, else its own.
Limits limits(Session &S, cl_device_id D) {
  Limits L;
  L.GlobalMem = ~cl_ulong(0);
  std::vector<const DeviceInfo *> Infos = S.deviceInfos();
  if (D->Index >= 0)
    Infos = {Infos[size_t(D->Index)]};
  else
    Infos.erase(std::remove_if(Infos.begin(), Infos.end(),
                               [](const DeviceInfo *I) { return !I->InPlans; }),
                Infos.end());
  L.VendorId = hostCpuVendorId();
  for (const DeviceInfo *I : Infos) {
    L.Name += (L.Name.empty() ? "" : " + ") + I->Name;
    L.Units += I->ComputeUnits;
    if (I->MemoryBytes)
      L.GlobalMem = std::min<cl_ulong>(L.GlobalMem, memoryForOneBuffer(*I, Infos));
    L.Type |= I->UsesHostCores ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    if (I->Kind == DeviceKind::Cuda)
      L.VendorId = 0x10de; // NVIDIA's PCI vendor id.
  }
  if (!L.Type)
    L.Type = CL_DEVICE_TYPE_CPU;
  if (L.GlobalMem == ~cl_ulong(0))
    L.GlobalMem = cl_ulong(4) << 30;
  L.Name = D->Index < 0 ? "SKMD (" + L.Name + ")" : "SKMD " + L.Name;
  return L;
}

} // namespace

SKMD_ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint NumEntries,
                                                         cl_platform_id *Platforms,
                                                         cl_uint *NumPlatforms) {
  if ((NumEntries == 0 && Platforms) || (!Platforms && !NumPlatforms))
    return CL_INVALID_VALUE;
  if (Platforms)
    Platforms[0] = &ThePlatform;
  if (NumPlatforms)
    *NumPlatforms = 1;
  return CL_SUCCESS;
}

SKMD_ICD_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id Platform,
                                                     cl_platform_info Param, size_t Size,
                                                     void *Out, size_t *SizeRet) {
  return skmd::opencl::getPlatformInfo(Platform, Param, Size, Out, SizeRet);
}

namespace skmd::opencl {

cl_int CL_API_CALL getPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms,
                                  cl_uint *NumPlatforms) {
  return clIcdGetPlatformIDsKHR(NumEntries, Platforms, NumPlatforms);
}

cl_int CL_API_CALL getPlatformInfo(cl_platform_id Platform, cl_platform_info Param,
                                   size_t Size, void *Out, size_t *SizeRet) {
  if (Platform && Platform != &ThePlatform)
    return CL_INVALID_PLATFORM;
  switch (Param) {
  case CL_PLATFORM_PROFILE:
    return answerString("FULL_PROFILE", Size, Out, SizeRet);
  case CL_PLATFORM_VERSION:
    return answerString(Version, Size, Out, SizeRet);
  case CL_PLATFORM_NAME:
    return answerString("SKMD", Size, Out, SizeRet);
  case CL_PLATFORM_VENDOR:
    return answerString("SKMD", Size, Out, SizeRet);
  case CL_PLATFORM_EXTENSIONS:
    return answerString("cl_khr_icd", Size, Out, SizeRet);
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return answerString("SKMD", Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL getDeviceIDs(cl_platform_id Platform, cl_device_type Type,
                                cl_uint NumEntries, cl_device_id *Devices,
                                cl_uint *NumDevices) {
  if (Platform && Platform != &ThePlatform)
    return CL_INVALID_PLATFORM;
  const cl_device_type Known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                               CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                               CL_DEVICE_TYPE_CUSTOM;
  if (Type != CL_DEVICE_TYPE_ALL && (Type & ~Known || !Type))
    return CL_INVALID_DEVICE_TYPE;
  if ((NumEntries == 0 && Devices) || (!Devices && !NumDevices))
    return CL_INVALID_VALUE;
  // Each device by what it spans (the device made of all by a CPU or a GPU
  // among its devices); the device made of all is the default.
  std::vector<cl_device_id> Found;
  for (cl_device_id D : platformDevices()) {
    bool Matches = Type == CL_DEVICE_TYPE_ALL ||
                   (D->Index < 0 && (Type & CL_DEVICE_TYPE_DEFAULT)) ||
                   (Type & limits(*platformSession(nullptr), D).Type) != 0;
    if (Matches)
      Found.push_back(D);
  }
  if (NumDevices)
    *NumDevices = cl_uint(Found.size());
  if (Found.empty())
    return CL_DEVICE_NOT_FOUND;
  for (cl_uint I = 0; Devices && I < NumEntries && I < Found.size(); ++I)
    Devices[I] = Found[I];
  return CL_SUCCESS;
}

cl_int CL_API_CALL getDeviceInfo(cl_device_id Device, cl_device_info Param, size_t Size,
                                 void *Out, size_t *SizeRet) {
  if (!hasDevice(platformDevices(), Device))
    return CL_INVALID_DEVICE;
  Session *S = platformSession(nullptr);
  Limits L = limits(*S, Device);
  auto U = [&](cl_uint V) { return answerBytes(&V, sizeof V, Size, Out, SizeRet); };
  auto UL = [&](cl_ulong V) { return answerBytes(&V, sizeof V, Size, Out, SizeRet); };
  auto Z = [&](size_t V) { return answerBytes(&V, sizeof V, Size, Out, SizeRet); };
  auto B = [&](cl_bool V) { return answerBytes(&V, sizeof V, Size, Out, SizeRet); };
  auto Str = [&](const std::string &V) { return answerString(V, Size, Out, SizeRet); };
  const cl_device_fp_config Fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                 CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  switch (Param) {
  case CL_DEVICE_TYPE:
    return answerBytes(&L.Type, sizeof L.Type, Size, Out, SizeRet);
  case CL_DEVICE_VENDOR_ID:
    return U(L.VendorId);
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return U(std::max<cl_uint>(L.Units, 1));
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return U(3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t Sizes[3] = {1024, 1024, 64};
    return answerBytes(Sizes, sizeof Sizes, Size, Out, SizeRet);
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return Z(1024);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return U(1);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return U(L.Doubles ? 1 : 0);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return U(0);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    // The host processor's: no member reports another clock.
    return U(hostCpuMaxMHz());
  case CL_DEVICE_ADDRESS_BITS:
    return U(64);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    // The specification's least, within the memory itself.
    return UL(std::min(L.GlobalMem, std::max<cl_ulong>(L.GlobalMem / 4, cl_ulong(128) << 20)));
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return UL(L.GlobalMem);
  case CL_DEVICE_IMAGE_SUPPORT:
    return B(CL_FALSE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_SAMPLERS:
    return U(0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return Z(0);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return Z(1024);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return U(1024);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return U(128);
  case CL_DEVICE_SINGLE_FP_CONFIG:
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return answerBytes(&Fp, sizeof Fp, Size, Out, SizeRet);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: {
    cl_device_mem_cache_type T = CL_READ_WRITE_CACHE;
    return answerBytes(&T, sizeof T, Size, Out, SizeRet);
  }
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return U(64);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return UL(cl_ulong(1) << 20);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return UL(64 << 10);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return U(8);
  case CL_DEVICE_LOCAL_MEM_TYPE: {
    cl_device_local_mem_type T = CL_LOCAL;
    return answerBytes(&T, sizeof T, Size, Out, SizeRet);
  }
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return UL(48 << 10);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return B(CL_FALSE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return Z(1);
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return B(CL_TRUE);
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    // With a build cache, builds and links may succeed without the compiler.
    return B(compilerAvailable() || std::getenv("SKMD_CACHE") ? CL_TRUE : CL_FALSE);

  case CL_DEVICE_EXECUTION_CAPABILITIES: {
    cl_device_exec_capabilities C = CL_EXEC_KERNEL;
    return answerBytes(&C, sizeof C, Size, Out, SizeRet);
  }
  case CL_DEVICE_QUEUE_PROPERTIES: {
    cl_command_queue_properties P =
        CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    return answerBytes(&P, sizeof P, Size, Out, SizeRet);
  }
  case CL_DEVICE_PLATFORM: {
    cl_platform_id P = &ThePlatform;
    return answerBytes(&P, sizeof P, Size, Out, SizeRet);
  }
  case CL_DEVICE_NAME:
    return Str(L.Name);
  case CL_DEVICE_VENDOR:
    return Str("SKMD");
  case CL_DRIVER_VERSION:
    // The minor number is the bundle's metadata schema: programs that keep
    // program binaries by driver version (hashcat) rebuild when the binary
    // format changes instead of getting CL_INVALID_BINARY.
    return Str("1." + std::to_string(MetadataSchemaVersion));
  case CL_DEVICE_PROFILE:
    return Str("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return Str(Version);
  case CL_DEVICE_OPENCL_C_VERSION:
    return Str("OpenCL C 1.2 ");
  case CL_DEVICE_EXTENSIONS:
    // What the compiler predefines for the variants programs are built
    // for, from the same list.
    return Str(extensionList(platformVariants()));
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    // printf writes to the host's stdout as it runs, unbounded: the
    // specification's least for the full profile.
    return Z(size_t(1) << 20);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return Str("");
  case CL_DEVICE_PARENT_DEVICE: {
    cl_device_id None = nullptr;
    return answerBytes(&None, sizeof None, Size, Out, SizeRet);
  }
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return U(0);
  case CL_DEVICE_PARTITION_PROPERTIES:
  case CL_DEVICE_PARTITION_TYPE: {
    cl_device_partition_property None = 0;
    return answerBytes(&None, sizeof None, Size, Out, SizeRet);
  }
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: {
    cl_device_affinity_domain None = 0;
    return answerBytes(&None, sizeof None, Size, Out, SizeRet);
  }
  case CL_DEVICE_REFERENCE_COUNT:
    return U(1);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL retainDevice(cl_device_id Device) {
  return hasDevice(platformDevices(), Device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL createSubDevices(cl_device_id Device,
                                    const cl_device_partition_property *Properties,
                                    cl_uint, cl_device_id *, cl_uint *) {
  if (!hasDevice(platformDevices(), Device))
    return CL_INVALID_DEVICE;
  // The devices partition no further (CL_DEVICE_PARTITION_PROPERTIES is
  // empty; each runtime device alone is SKMD_OPENCL_EXPOSE=each's): a
  // partition it does not support is CL_INVALID_VALUE, as one it does not
  // know.
  (void)Properties;
  return CL_INVALID_VALUE;
}

} // namespace skmd::opencl
