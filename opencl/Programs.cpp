//===- Programs.cpp - Programs from source and from bundles ---------------- ===//
//
// A program is a bundle: built from source in-process by the compiler
// module (Compiler.cpp), or given as a binary. Build logs are clang's.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <cstring>

using namespace skmd;
using namespace skmd::opencl;

namespace {

// ---- Programs ----------------------------------------------------------

cl_program newProgram(cl_context C) {
  auto *P = new _cl_program();
  P->Context = C;
  P->Devices = C->Devices;
  C->retain();
  P->Loaded.Source = nullptr;
  return P;
}

cl_int adoptBundle(cl_program P, std::vector<uint8_t> Bytes) {
  P->Binary = Bytes;
  auto B = Bundle::fromBytes(std::move(Bytes));
  if (!B) {
    P->Log = B.error().message();
    return CL_INVALID_BINARY;
  }
  P->Bundle = std::make_unique<Bundle>(std::move(*B));
  P->Loaded = LoadedProgram();
  P->Loaded.Source = P->Bundle.get();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_program CL_API_CALL createProgramWithSource(cl_context C, cl_uint Count,
                                                            const char **Strings,
                                                            const size_t *Lengths,
                                                            cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (Count == 0 || !Strings) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  std::string Source;
  for (cl_uint I = 0; I < Count; ++I) {
    if (!Strings[I]) {
      setError(Err, CL_INVALID_VALUE);
      return nullptr;
    }
    Source += Lengths && Lengths[I] ? std::string(Strings[I], Lengths[I])
                                    : std::string(Strings[I]);
  }
  cl_program P = newProgram(C);
  P->Source = std::move(Source);
  setError(Err, CL_SUCCESS);
  return P;
}

CL_API_ENTRY cl_program CL_API_CALL
createProgramWithBinary(cl_context C, cl_uint N, const cl_device_id *Devices,
                        const size_t *Lengths, const unsigned char **Binaries,
                        cl_int *BinaryStatus, cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (cl_int E = checkDevices(N, Devices); E != CL_SUCCESS) {
    setError(Err, E);
    return nullptr;
  }
  for (cl_uint I = 0; I < N; ++I)
    if (!hasDevice(C->Devices, Devices[I])) {
      setError(Err, CL_INVALID_DEVICE);
      return nullptr;
    }
  if (!Lengths || !Binaries) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  for (cl_uint I = 0; I < N; ++I)
    if (!Binaries[I] || !Lengths[I]) {
      if (BinaryStatus)
        BinaryStatus[I] = CL_INVALID_VALUE;
      setError(Err, CL_INVALID_VALUE);
      return nullptr;
    }
  // One bundle serves every device: each binary must be one, the first is
  // kept.
  cl_program P = newProgram(C);
  P->Devices.assign(Devices, Devices + N);
  cl_int E = CL_SUCCESS;
  for (cl_uint I = N; I-- > 0;) {
    cl_int Each =
        adoptBundle(P, std::vector<uint8_t>(Binaries[I], Binaries[I] + Lengths[I]));
    if (BinaryStatus)
      BinaryStatus[I] = Each;
    if (Each != CL_SUCCESS)
      E = Each;
  }
  if (E != CL_SUCCESS) {
    releaseContext(C);
    delete P;
    setError(Err, E);
    return nullptr;
  }
  setError(Err, CL_SUCCESS);
  return P;
}

} // namespace

cl_int CL_API_CALL skmd::opencl::releaseProgram(cl_program P) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if (P->release()) {
    platformSession(nullptr)->drain();
    releaseContext(P->Context);
    delete P;
  }
  return CL_SUCCESS;
}

namespace {

CL_API_ENTRY cl_int CL_API_CALL buildProgram(cl_program P, cl_uint N,
                                             const cl_device_id *Devices, const char *Options,
                                             void(CL_CALLBACK *Notify)(cl_program, void *),
                                             void *Data) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if ((N == 0) != (Devices == nullptr) || (!Notify && Data))
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I)
    if (!hasDevice(P->Devices, Devices[I]))
      return CL_INVALID_DEVICE;
  if (P->Kernels)
    return CL_INVALID_OPERATION;
  P->Options = Options ? Options : "";
  cl_int Result = CL_SUCCESS;
  if (!P->Source.empty()) {
    // Without the compiler module this fails with CL_COMPILER_NOT_AVAILABLE
    // and the log says why.
    std::vector<uint8_t> Bytes;
    Result = compileSource(P->Source, P->Options, Bytes, P->Log);
    if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
      Result = CL_BUILD_PROGRAM_FAILURE;
  } else if (!P->Bundle) {
    Result = CL_INVALID_PROGRAM;
  }
  P->Status = Result == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (Notify)
    Notify(P, Data);
  return Result;
}

CL_API_ENTRY cl_int CL_API_CALL getProgramInfo(cl_program P, cl_program_info Param,
                                               size_t Size, void *Out, size_t *SizeRet) {
  if (!P)
    return CL_INVALID_PROGRAM;
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return put(cl_uint(P->Refs), Size, Out, SizeRet);
  case CL_PROGRAM_CONTEXT:
    return put(P->Context, Size, Out, SizeRet);
  case CL_PROGRAM_NUM_DEVICES:
    return put(cl_uint(P->Devices.size()), Size, Out, SizeRet);
  case CL_PROGRAM_DEVICES:
    return answerBytes(P->Devices.data(), P->Devices.size() * sizeof(cl_device_id), Size, Out,
                       SizeRet);
  case CL_PROGRAM_SOURCE:
    return answerString(P->Source, Size, Out, SizeRet);
  case CL_PROGRAM_BINARY_SIZES: {
    // The same bundle for each device.
    std::vector<size_t> Sizes(P->Devices.size(), P->Binary.size());
    return answerBytes(Sizes.data(), Sizes.size() * sizeof(size_t), Size, Out, SizeRet);
  }
  case CL_PROGRAM_BINARIES: {
    size_t N = P->Devices.size();
    if (Out && Size < N * sizeof(unsigned char *))
      return CL_INVALID_VALUE;
    if (Out)
      for (size_t I = 0; I < N; ++I)
        if (auto *To = static_cast<unsigned char **>(Out)[I]; To && !P->Binary.empty())
          std::memcpy(To, P->Binary.data(), P->Binary.size());
    if (SizeRet)
      *SizeRet = N * sizeof(unsigned char *);
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!P->Bundle)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    const auto &Kernels = P->Bundle->metadata().Kernels;
    if (Param == CL_PROGRAM_NUM_KERNELS)
      return put(size_t(Kernels.size()), Size, Out, SizeRet);
    std::string Names;
    for (const KernelInfo &K : Kernels)
      Names += (Names.empty() ? "" : ";") + K.Name;
    return answerString(Names, Size, Out, SizeRet);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getProgramBuildInfo(cl_program P, cl_device_id D,
                                                    cl_program_build_info Param, size_t Size,
                                                    void *Out, size_t *SizeRet) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if (!hasDevice(P->Devices, D))
    return CL_INVALID_DEVICE;
  switch (Param) {
  case CL_PROGRAM_BUILD_STATUS:
    return put(P->Status, Size, Out, SizeRet);
  case CL_PROGRAM_BUILD_OPTIONS:
    return answerString(P->Options, Size, Out, SizeRet);
  case CL_PROGRAM_BUILD_LOG:
    return answerString(P->Log, Size, Out, SizeRet);
  case CL_PROGRAM_BINARY_TYPE:
    return put(cl_program_binary_type(P->Bundle ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                                : CL_PROGRAM_BINARY_TYPE_NONE),
               Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL unloadCompiler() { return CL_SUCCESS; }
CL_API_ENTRY cl_int CL_API_CALL unloadPlatformCompiler(cl_platform_id P) {
  return P == &ThePlatform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

} // namespace

void skmd::opencl::fillProgramEntries(cl_icd_dispatch &T) {
  T.clCreateProgramWithSource = createProgramWithSource;
  T.clCreateProgramWithBinary = createProgramWithBinary;
  T.clBuildProgram = buildProgram;
  T.clGetProgramInfo = getProgramInfo;
  T.clGetProgramBuildInfo = getProgramBuildInfo;
  T.clUnloadCompiler = unloadCompiler;
  T.clUnloadPlatformCompiler = unloadPlatformCompiler;
}
