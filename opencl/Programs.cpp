//===- Programs.cpp - Programs from source and from bundles ---------------- ===//
//
// A program is a bundle: built from source in-process by the compiler
// module (Compiler.cpp), or given as a binary. Build logs are clang's.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "bundle/CompiledObject.h"

#include <algorithm>
#include <cstring>
#include <sstream>

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

/// A compiled object or library given as a binary: its type, or
/// CL_PROGRAM_BINARY_TYPE_NONE (with the log) where it does not read.
cl_program_binary_type adoptObject(cl_program P, std::vector<uint8_t> Bytes) {
  auto Object = parseCompiledObject(Bytes);
  if (!Object) {
    P->Log = Object.error().message();
    return CL_PROGRAM_BINARY_TYPE_NONE;
  }
  P->Binary = std::move(Bytes);
  P->Bundle.reset();
  P->Loaded = LoadedProgram();
  P->Loaded.Source = nullptr;
  return Object->Library ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                         : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
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
  P->FromSource = true;
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
  // One binary serves every device: each must be a bundle (an executable)
  // or a compiled object or library, of one type; the first is kept.
  cl_program P = newProgram(C);
  P->Devices.assign(Devices, Devices + N);
  cl_int E = CL_SUCCESS;
  for (cl_uint I = N; I-- > 0;) {
    std::vector<uint8_t> Bytes(Binaries[I], Binaries[I] + Lengths[I]);
    cl_program_binary_type Type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    cl_int Each = CL_SUCCESS;
    if (isCompiledObject(Bytes))
      Type = adoptObject(P, std::move(Bytes));
    else
      Each = adoptBundle(P, std::move(Bytes));
    if (Type == CL_PROGRAM_BINARY_TYPE_NONE ||
        (I + 1 < N && Type != P->BinaryType))
      Each = CL_INVALID_BINARY;
    P->BinaryType = Type;
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
    // Its kernels hold it, and launches hold their kernels.
    releaseContext(P->Context);
    delete P;
  }
  return CL_SUCCESS;
}

namespace {

/// The end of a build, compile or link: the status and binary type its
/// outcome gives, then the program's callback.
cl_int finishBuild(cl_program P, cl_int Result, cl_program_binary_type Type,
                   void(CL_CALLBACK *Notify)(cl_program, void *), void *Data) {
  P->Status = Result == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  P->BinaryType = Result == CL_SUCCESS ? Type : CL_PROGRAM_BINARY_TYPE_NONE;
  if (Notify)
    Notify(P, Data);
  return Result;
}

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
  if (P->FromSource) {
    // Without the compiler module this fails with CL_COMPILER_NOT_AVAILABLE
    // and the log says why.
    std::vector<uint8_t> Bytes;
    Result = compileSource(P->Source, P->Options, P->Included, Bytes, P->Log);
    if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
      Result = CL_BUILD_PROGRAM_FAILURE;
  } else if (P->BinaryType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
             P->BinaryType == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
    // A compiled object or library given as a binary: linked alone.
    std::vector<uint8_t> Bytes;
    Result = linkObjects({&P->Binary}, /*Library=*/false, Bytes, P->Log);
    if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
      Result = CL_BUILD_PROGRAM_FAILURE;
    if (Result == CL_LINK_PROGRAM_FAILURE)
      Result = CL_BUILD_PROGRAM_FAILURE;
  } else if (!P->Bundle) {
    Result = CL_INVALID_PROGRAM;
  }
  return finishBuild(P, Result, CL_PROGRAM_BINARY_TYPE_EXECUTABLE, Notify, Data);
}

// Separate compilation (docs/opencl.md): compiling a unit makes its
// compiled object (the frontend's bitcode for each target, and its kernels'
// descriptions), the program's binary; linking links the objects' bitcode,
// each unit's static functions its own, and compiles the result as a
// source build does, or keeps it as a library for a later link.
CL_API_ENTRY cl_int CL_API_CALL compileProgram(cl_program P, cl_uint N,
                                               const cl_device_id *Devices, const char *Options,
                                               cl_uint NumHeaders, const cl_program *HeaderPrograms,
                                               const char **HeaderNames,
                                               void(CL_CALLBACK *Notify)(cl_program, void *),
                                               void *Data) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if ((N == 0) != (Devices == nullptr) || (!Notify && Data) ||
      (NumHeaders == 0) != (HeaderPrograms == nullptr) ||
      (NumHeaders == 0) != (HeaderNames == nullptr))
    return CL_INVALID_VALUE;
  for (cl_uint I = 0; I < N; ++I)
    if (!hasDevice(P->Devices, Devices[I]))
      return CL_INVALID_DEVICE;
  if (!P->FromSource || P->Kernels)
    return CL_INVALID_OPERATION;
  Headers Included;
  for (cl_uint I = 0; I < NumHeaders; ++I) {
    if (!HeaderPrograms[I] || !HeaderNames[I])
      return CL_INVALID_VALUE;
    Included.push_back({HeaderNames[I], HeaderPrograms[I]->Source});
  }
  P->Options = Options ? Options : "";
  P->Included = std::move(Included);
  std::vector<uint8_t> Object;
  cl_int Result = compileObjectSource(P->Source, P->Options, P->Included, Object, P->Log);
  if (Result == CL_SUCCESS)
    adoptObject(P, std::move(Object));
  return finishBuild(P, Result, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, Notify, Data);
}

/// Parses clLinkProgram's \p Options: -create-library, -enable-link-options
/// (with -create-library alone) and the math options a link may take, which
/// change nothing (SKMD keeps precise math). False for anything else.
bool parseLinkOptions(const char *Options, bool &Library) {
  Library = false;
  bool LinkOptions = false;
  std::istringstream In(Options ? Options : "");
  for (std::string W; In >> W;) {
    if (W == "-create-library")
      Library = true;
    else if (W == "-enable-link-options")
      LinkOptions = true;
    else if (W != "-cl-denorms-are-zero" && W != "-cl-no-signed-zeros" &&
             W != "-cl-unsafe-math-optimizations" && W != "-cl-finite-math-only" &&
             W != "-cl-fast-relaxed-math" && W != "-cl-no-subgroup-ifp")
      return false;
  }
  return Library || !LinkOptions;
}

CL_API_ENTRY cl_program CL_API_CALL linkProgram(cl_context C, cl_uint N,
                                                const cl_device_id *Devices, const char *Options,
                                                cl_uint NumInputs, const cl_program *Inputs,
                                                void(CL_CALLBACK *Notify)(cl_program, void *),
                                                void *Data, cl_int *Err) {
  if (!C) {
    setError(Err, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if ((N == 0) != (Devices == nullptr) || (!Notify && Data) || NumInputs == 0 || !Inputs) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  for (cl_uint I = 0; I < N; ++I)
    if (!hasDevice(C->Devices, Devices[I])) {
      setError(Err, CL_INVALID_DEVICE);
      return nullptr;
    }
  std::vector<const std::vector<uint8_t> *> Objects;
  for (cl_uint I = 0; I < NumInputs; ++I) {
    if (!Inputs[I] || Inputs[I]->Context != C) {
      setError(Err, CL_INVALID_PROGRAM);
      return nullptr;
    }
    if (Inputs[I]->BinaryType != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        Inputs[I]->BinaryType != CL_PROGRAM_BINARY_TYPE_LIBRARY) {
      setError(Err, CL_INVALID_OPERATION);
      return nullptr;
    }
    Objects.push_back(&Inputs[I]->Binary);
  }
  bool Library;
  if (!parseLinkOptions(Options, Library)) {
    setError(Err, CL_INVALID_LINKER_OPTIONS);
    return nullptr;
  }
  cl_program P = newProgram(C);
  if (N)
    P->Devices.assign(Devices, Devices + N);
  P->Options = Options ? Options : "";
  std::vector<uint8_t> Bytes;
  cl_int Result = linkObjects(Objects, Library, Bytes, P->Log);
  if (Result == CL_SUCCESS && Library)
    adoptObject(P, std::move(Bytes));
  else if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
    Result = CL_LINK_PROGRAM_FAILURE;
  if (Result == CL_COMPILER_NOT_AVAILABLE)
    Result = CL_LINKER_NOT_AVAILABLE;
  finishBuild(P, Result,
              Library ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
              Notify, Data);
  // A failed link still gives the program, for its log.
  setError(Err, Result);
  if (Result != CL_SUCCESS && Result != CL_LINK_PROGRAM_FAILURE) {
    releaseProgram(P);
    return nullptr;
  }
  return P;
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
    return put(P->BinaryType, Size, Out, SizeRet);
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
  T.clCompileProgram = compileProgram;
  T.clLinkProgram = linkProgram;
  T.clGetProgramInfo = getProgramInfo;
  T.clGetProgramBuildInfo = getProgramBuildInfo;
  T.clUnloadCompiler = unloadCompiler;
  T.clUnloadPlatformCompiler = unloadPlatformCompiler;
}
