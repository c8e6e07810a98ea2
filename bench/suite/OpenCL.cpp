//===- OpenCL.cpp - A Problem on an OpenCL driver's device ----------------===//
#include "OpenCL.h"

#ifdef SKMD_BENCH_HAVE_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

#include <cctype>
#include <map>
#include <utility>

namespace skmd::bench {

#ifdef SKMD_BENCH_HAVE_OPENCL

namespace {

std::string clFailed(const std::string &What, cl_int E) {
  return What + " failed with OpenCL error " + std::to_string(E);
}

/// Owns one OpenCL object.
template <typename T, cl_int(CL_API_CALL *Release)(T)> class ClHandle {
public:
  ClHandle() = default;
  explicit ClHandle(T H) : H(H) {}
  ClHandle(ClHandle &&O) noexcept : H(std::exchange(O.H, nullptr)) {}
  ClHandle &operator=(ClHandle &&O) noexcept {
    std::swap(H, O.H);
    return *this;
  }
  ~ClHandle() {
    if (H)
      Release(H);
  }
  T get() const { return H; }

private:
  T H = nullptr;
};

std::string platformInfo(cl_platform_id P, cl_platform_info What) {
  char Text[256] = {0};
  clGetPlatformInfo(P, What, sizeof(Text) - 1, Text, nullptr);
  return Text;
}

/// "pocl", "nvidia", or the platform name's first word in lower case.
std::string vendorWord(const std::string &Platform) {
  if (Platform.find("Portable Computing Language") != std::string::npos)
    return "pocl";
  std::string W;
  for (char C : Platform) {
    if (!std::isalnum(static_cast<unsigned char>(C)))
      break;
    W += char(std::tolower(static_cast<unsigned char>(C)));
  }
  return W.empty() ? "opencl" : W;
}

} // namespace

std::vector<ClDeviceInfo> listOpenClDevices(std::string &Why) {
  std::vector<ClDeviceInfo> Found;
  cl_uint Count = 0;
  cl_int E = clGetPlatformIDs(0, nullptr, &Count);
  if (E != CL_SUCCESS || Count == 0) {
    Why = "no OpenCL platform (clGetPlatformIDs: " + std::to_string(E) +
          "; is an ICD such as pocl-opencl-icd installed?)";
    return Found;
  }
  std::vector<cl_platform_id> Platforms(Count);
  clGetPlatformIDs(Count, Platforms.data(), nullptr);
  // Devices of a kind are numbered per vendor: nvidia-gpu0, nvidia-gpu1.
  std::map<std::string, unsigned> Numbered;
  for (cl_platform_id Platform : Platforms) {
    cl_uint Devices = 0;
    if (clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &Devices) != CL_SUCCESS)
      continue;
    std::vector<cl_device_id> Ids(Devices);
    clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, Devices, Ids.data(), nullptr);
    for (cl_device_id Id : Ids) {
      ClDeviceInfo D;
      D.Platform = platformInfo(Platform, CL_PLATFORM_NAME);
      D.Version = platformInfo(Platform, CL_PLATFORM_VERSION);
      char Name[256] = {0};
      clGetDeviceInfo(Id, CL_DEVICE_NAME, sizeof(Name) - 1, Name, nullptr);
      D.Name = Name;
      cl_device_type Type = 0;
      clGetDeviceInfo(Id, CL_DEVICE_TYPE, sizeof(Type), &Type, nullptr);
      D.IsCpu = Type & CL_DEVICE_TYPE_CPU;
      D.IsGpu = Type & CL_DEVICE_TYPE_GPU;
      cl_uint Units = 0;
      clGetDeviceInfo(Id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(Units), &Units, nullptr);
      D.ComputeUnits = Units;
      D.PlatformId = Platform;
      D.DeviceId = Id;
      std::string Kind = D.IsCpu ? "cpu" : D.IsGpu ? "gpu" : "dev";
      std::string Prefix = vendorWord(D.Platform) + "-" + Kind;
      unsigned N = Numbered[Prefix]++;
      D.Label = Prefix + (D.IsCpu && N == 0 ? "" : std::to_string(N));
      Found.push_back(std::move(D));
    }
  }
  if (Found.empty())
    Why = "the OpenCL platforms have no devices";
  return Found;
}

struct ClProblemRun::State {
  const Problem *P = nullptr;
  Outputs *Out = nullptr;
  Placement Where = Placement::Copied;
  cl_device_id Device = nullptr;
  ClHandle<cl_context, clReleaseContext> Context;
  ClHandle<cl_command_queue, clReleaseCommandQueue> Queue;
  ClHandle<cl_program, clReleaseProgram> Program;
  std::vector<ClHandle<cl_kernel, clReleaseKernel>> Kernels; // per launch
  std::vector<ClHandle<cl_mem, clReleaseMemObject>> Mems;    // per buffer

  std::string finish() {
    cl_int E = clFinish(Queue.get());
    return E == CL_SUCCESS ? std::string() : clFailed("clFinish", E);
  }
};

ClProblemRun::ClProblemRun(std::unique_ptr<State> S) : S(std::move(S)) {}
ClProblemRun::~ClProblemRun() = default;

std::unique_ptr<ClProblemRun> ClProblemRun::prepare(const ClDeviceInfo &D,
                                                    const std::string &Source,
                                                    const Problem &P, Placement Where,
                                                    Outputs &Out, std::string &Why) {
  auto S = std::make_unique<State>();
  S->P = &P;
  S->Out = &Out;
  S->Where = Where;
  S->Device = static_cast<cl_device_id>(D.DeviceId);
  cl_int E = CL_SUCCESS;
  S->Context = decltype(S->Context)(clCreateContext(nullptr, 1, &S->Device, nullptr, nullptr, &E));
  if (E != CL_SUCCESS) {
    Why = clFailed("clCreateContext", E);
    return nullptr;
  }
  S->Queue = decltype(S->Queue)(clCreateCommandQueue(S->Context.get(), S->Device, 0, &E));
  if (E != CL_SUCCESS) {
    Why = clFailed("clCreateCommandQueue", E);
    return nullptr;
  }
  const char *Text = Source.c_str();
  S->Program =
      decltype(S->Program)(clCreateProgramWithSource(S->Context.get(), 1, &Text, nullptr, &E));
  if (E != CL_SUCCESS) {
    Why = clFailed("clCreateProgramWithSource", E);
    return nullptr;
  }
  if ((E = clBuildProgram(S->Program.get(), 1, &S->Device, "-cl-std=CL1.2", nullptr, nullptr)) !=
      CL_SUCCESS) {
    size_t LogBytes = 0;
    clGetProgramBuildInfo(S->Program.get(), S->Device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                          &LogBytes);
    std::string Log(LogBytes, '\0');
    clGetProgramBuildInfo(S->Program.get(), S->Device, CL_PROGRAM_BUILD_LOG, LogBytes, Log.data(),
                          nullptr);
    Why = clFailed("clBuildProgram", E) + ":\n" + Log;
    return nullptr;
  }

  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (B.IsOutput && Out[I].bytes() != B.Bytes)
      Out[I] = HostArray(B.Bytes);
    cl_mem_flags Flags = B.IsOutput ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
    void *Host = nullptr;
    if (Where == Placement::InPlace) {
      Flags |= CL_MEM_USE_HOST_PTR;
      Host = B.IsOutput ? Out[I].data() : const_cast<uint8_t *>(B.Input.data());
    }
    S->Mems.emplace_back(clCreateBuffer(S->Context.get(), Flags, B.Bytes, Host, &E));
    if (E != CL_SUCCESS) {
      Why = clFailed("clCreateBuffer of " + std::to_string(B.Bytes) + " bytes", E);
      return nullptr;
    }
  }
  for (const Launch &L : P.Launches) {
    S->Kernels.emplace_back(clCreateKernel(S->Program.get(), L.Kernel.c_str(), &E));
    if (E != CL_SUCCESS) {
      Why = clFailed("clCreateKernel " + L.Kernel, E);
      return nullptr;
    }
    cl_kernel K = S->Kernels.back().get();
    for (size_t I = 0; I < L.Args.size(); ++I) {
      const Arg &A = L.Args[I];
      cl_mem Mem = A.K == Arg::BufferArg ? S->Mems[A.Index].get() : nullptr;
      E = A.K == Arg::BufferArg  ? clSetKernelArg(K, cl_uint(I), sizeof(cl_mem), &Mem)
          : A.K == Arg::ValueArg ? clSetKernelArg(K, cl_uint(I), A.Size, A.Value.data())
                                 : clSetKernelArg(K, cl_uint(I), A.Size, nullptr);
      if (E != CL_SUCCESS) {
        Why = clFailed(L.Kernel + ": clSetKernelArg " + std::to_string(I), E);
        return nullptr;
      }
    }
  }
  return std::unique_ptr<ClProblemRun>(new ClProblemRun(std::move(S)));
}

std::string ClProblemRun::reset() {
  const Problem &P = *S->P;
  const uint8_t Zero = 0;
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (!B.IsOutput)
      continue;
    cl_int E = CL_SUCCESS;
    // A copied in-out buffer gets its contents in the timed run.
    if (B.Input.bytes() && S->Where == Placement::InPlace)
      E = clEnqueueWriteBuffer(S->Queue.get(), S->Mems[I].get(), CL_FALSE, 0, B.Bytes,
                               B.Input.data(), 0, nullptr, nullptr);
    else if (!B.Input.bytes())
      E = clEnqueueFillBuffer(S->Queue.get(), S->Mems[I].get(), &Zero, 1, 0, B.Bytes, 0, nullptr,
                              nullptr);
    if (E != CL_SUCCESS)
      return clFailed("resetting buffer " + std::to_string(I), E);
    // What the last run read back must not pass for this run's results.
    if (S->Where == Placement::Copied)
      std::memset((*S->Out)[I].data(), 0, B.Bytes);
  }
  return S->finish();
}

std::string ClProblemRun::run() {
  const Problem &P = *S->P;
  cl_command_queue Q = S->Queue.get();
  bool Copied = S->Where == Placement::Copied;
  if (Copied)
    for (size_t I = 0; I < P.Buffers.size(); ++I)
      if (P.Buffers[I].Input.bytes())
        if (cl_int E = clEnqueueWriteBuffer(Q, S->Mems[I].get(), CL_FALSE, 0, P.Buffers[I].Bytes,
                                            P.Buffers[I].Input.data(), 0, nullptr, nullptr))
          return clFailed("clEnqueueWriteBuffer", E);
  for (size_t I = 0; I < P.Launches.size(); ++I) {
    const Launch &L = P.Launches[I];
    if (cl_int E = clEnqueueNDRangeKernel(Q, S->Kernels[I].get(), L.Dims, nullptr,
                                          L.Global.data(), L.Local.data(), 0, nullptr, nullptr))
      return clFailed(L.Kernel + ": clEnqueueNDRangeKernel", E);
  }
  if (Copied)
    for (size_t I = 0; I < P.Buffers.size(); ++I)
      if (P.Buffers[I].IsOutput && !P.Buffers[I].Scratch)
        if (cl_int E = clEnqueueReadBuffer(Q, S->Mems[I].get(), CL_FALSE, 0, P.Buffers[I].Bytes,
                                           (*S->Out)[I].data(), 0, nullptr, nullptr))
          return clFailed("clEnqueueReadBuffer", E);
  return S->finish();
}

std::string ClProblemRun::collect() {
  if (S->Where == Placement::Copied)
    return "";
  // With CL_MEM_USE_HOST_PTR the host array is only certain to hold the
  // results after a map.
  const Problem &P = *S->P;
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    if (!P.Buffers[I].IsOutput)
      continue;
    cl_int E = CL_SUCCESS;
    void *Mapped = clEnqueueMapBuffer(S->Queue.get(), S->Mems[I].get(), CL_TRUE, CL_MAP_READ, 0,
                                      P.Buffers[I].Bytes, 0, nullptr, nullptr, &E);
    if (E != CL_SUCCESS)
      return clFailed("clEnqueueMapBuffer", E);
    if (Mapped != (*S->Out)[I].data())
      std::memcpy((*S->Out)[I].data(), Mapped, P.Buffers[I].Bytes);
    clEnqueueUnmapMemObject(S->Queue.get(), S->Mems[I].get(), Mapped, 0, nullptr, nullptr);
  }
  return S->finish();
}

#else // !SKMD_BENCH_HAVE_OPENCL

std::vector<ClDeviceInfo> listOpenClDevices(std::string &Why) {
  Why = "built without OpenCL (CMake found no OpenCL headers and ICD loader; "
        "scripts/setup.sh installs ocl-icd-opencl-dev)";
  return {};
}

struct ClProblemRun::State {};
ClProblemRun::ClProblemRun(std::unique_ptr<State> S) : S(std::move(S)) {}
ClProblemRun::~ClProblemRun() = default;

std::unique_ptr<ClProblemRun> ClProblemRun::prepare(const ClDeviceInfo &, const std::string &,
                                                    const Problem &, Placement, Outputs &,
                                                    std::string &Why) {
  listOpenClDevices(Why);
  return nullptr;
}
std::string ClProblemRun::reset() { return "no OpenCL"; }
std::string ClProblemRun::run() { return "no OpenCL"; }
std::string ClProblemRun::collect() { return "no OpenCL"; }

#endif

} // namespace skmd::bench
