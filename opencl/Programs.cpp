//===- Programs.cpp - Programs from source and from bundles ---------------- ===//
//
// A program is a bundle: built from source in-process by the compiler
// module (Compiler.cpp), or given as a binary. Build logs are clang's.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

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
  P->BinaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
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
  if (!P->Source.empty()) {
    // Without the compiler module this fails with CL_COMPILER_NOT_AVAILABLE
    // and the log says why.
    std::vector<uint8_t> Bytes;
    Result = compileSource(P->Source, P->Options, P->Included, Bytes, P->Log);
    if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
      Result = CL_BUILD_PROGRAM_FAILURE;
  } else if (!P->Bundle) {
    Result = CL_INVALID_PROGRAM;
  }
  return finishBuild(P, Result, CL_PROGRAM_BINARY_TYPE_EXECUTABLE, Notify, Data);
}

// Separate compilation. SKMD's bundles are whole programs: compiling a
// unit checks it (parsed and checked, as clang would) and keeps its source,
// options and headers; linking compiles the units' sources together, one
// after another, into one program's bundle. A library is the same
// units, kept for a later link.
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
  if (P->Source.empty() || P->Kernels)
    return CL_INVALID_OPERATION;
  Headers Included;
  for (cl_uint I = 0; I < NumHeaders; ++I) {
    if (!HeaderPrograms[I] || !HeaderNames[I])
      return CL_INVALID_VALUE;
    Included.push_back({HeaderNames[I], HeaderPrograms[I]->Source});
  }
  P->Options = Options ? Options : "";
  P->Included = std::move(Included);
  cl_int Result = checkSource(P->Source, P->Options, P->Included, P->Log);
  if (Result == CL_BUILD_PROGRAM_FAILURE)
    Result = CL_COMPILE_PROGRAM_FAILURE;
  return finishBuild(P, Result, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, Notify, Data);
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
  }
  // Link options change nothing SKMD compiles, but a library.
  bool Library = false;
  {
    std::istringstream In(Options ? Options : "");
    for (std::string W; In >> W;) {
      if (W == "-create-library")
        Library = true;
      else if (W != "-enable-link-options" && W.rfind("-cl-", 0) != 0) {
        setError(Err, CL_INVALID_LINKER_OPTIONS);
        return nullptr;
      }
    }
  }
  cl_program P = newProgram(C);
  if (N)
    P->Devices.assign(Devices, Devices + N);
  P->Options = Options ? Options : "";
  cl_int Result = CL_SUCCESS;
  {
    // One program of every input's source, in order, each from its own
    // line 1; their compile options must agree (they are one compile).
    std::string Source;
    for (cl_uint I = 0; I < NumInputs; ++I) {
      const cl_program In = Inputs[I];
      if (In->Source.empty() || In->Options != Inputs[0]->Options) {
        P->Log = In->Source.empty()
                     ? "skmd: program " + std::to_string(I) +
                           " has no source: SKMD links programs from their sources"
                     : "skmd: programs 0 and " + std::to_string(I) +
                           " were compiled with different options ('" + Inputs[0]->Options +
                           "', '" + In->Options + "'); SKMD links by compiling them as one";
        Result = CL_LINK_PROGRAM_FAILURE;
        break;
      }
      Source += "#line 1 \"input-" + std::to_string(I) + "\"\n" + In->Source + "\n";
      for (const auto &H : In->Included)
        if (std::find(P->Included.begin(), P->Included.end(), H) == P->Included.end())
          P->Included.push_back(H);
    }
    P->Source = Source;
    std::vector<uint8_t> Bytes;
    if (Result == CL_SUCCESS && Library) {
      // Checked, and compiled where it is linked into an executable, with
      // the options its units were compiled with.
      Result = checkSource(Source, Inputs[0]->Options, P->Included, P->Log);
      P->Options = Inputs[0]->Options;
    } else if (Result == CL_SUCCESS) {
      Result = compileSource(Source, Inputs[0]->Options, P->Included, Bytes, P->Log);
      if (Result == CL_SUCCESS && adoptBundle(P, std::move(Bytes)) != CL_SUCCESS)
        Result = CL_LINK_PROGRAM_FAILURE;
    }
    if (Result == CL_BUILD_PROGRAM_FAILURE)
      Result = CL_LINK_PROGRAM_FAILURE;
  }
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
