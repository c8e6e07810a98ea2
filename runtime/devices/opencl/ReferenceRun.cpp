//===- ReferenceRun.cpp - A kernel's source on an installed OpenCL driver -===//
#include "devices/opencl/ReferenceRun.h"
#include "devices/opencl/OpenCLDriver.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

namespace skmd {

namespace {

enum : cl_uint { CL_PROGRAM_BUILD_LOG_ = 0x1183 };

struct Found {
  cl_device_id Device;
  std::string Name;
};

Result<std::vector<Found>> allDevices(const OpenCLDriver &D) {
  std::vector<Found> Out;
  for (auto [P, Dev] : D.allDevices())
    Out.push_back({Dev, D.deviceText(Dev, CL_DEVICE_NAME) + " (" +
                            D.platformText(P, CL_PLATFORM_NAME) + ")"});
  if (Out.empty())
    return Failure(ErrorCode::NoDevice,
                   "no OpenCL driver has a device (install one, e.g. Debian's "
                   "pocl-opencl-icd)");
  return Out;
}

Result<const OpenCLDriver *> driver() {
  std::string Error;
  const OpenCLDriver *D = OpenCLDriver::get(Error);
  if (!D)
    return Failure(ErrorCode::NoDevice, "no OpenCL ICD loader: " + Error);
  return D;
}

/// Releases an OpenCL object when it goes.
template <typename T, typename Fn> struct Held {
  T Obj = nullptr;
  Fn Release;
  Held(T Obj, Fn Release) : Obj(Obj), Release(Release) {}
  ~Held() {
    if (Obj)
      Release(Obj);
  }
  Held(const Held &) = delete;
  Held &operator=(const Held &) = delete;
};
template <typename T, typename Fn> Held(T, Fn) -> Held<T, Fn>;

/// A scratch folder, removed with everything in it.
struct ScratchDir {
  std::filesystem::path Path;
  ScratchDir() {
    std::string Template = (std::filesystem::temp_directory_path() / "skmd-ref-XXXXXX").string();
    if (mkdtemp(Template.data()))
      Path = Template;
  }
  ~ScratchDir() {
    std::error_code Ignored;
    if (!Path.empty())
      std::filesystem::remove_all(Path, Ignored);
  }
};

/// Ahead of the source for ReferencePrecision::Double. Macros, not a
/// rewrite: included files are promoted too, and the source keeps its lines.
/// Each is #undef'd first: drivers' headers define some of these names as
/// macros themselves (PoCL's convert_ and native_ functions).
std::string doublePrelude() {
  std::string P = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  // A float literal (6.0f) beside a promoted value makes a two-argument
  // builtin ambiguous (pow(double, float)): overloads that take the mixed
  // pairs, declared while float is still float.
  for (const char *F : {"pow", "powr", "fmin", "fmax", "fmod", "atan2", "hypot", "copysign",
                        "fdim", "nextafter", "remainder", "min", "max", "step"})
    for (const char *Args : {"double a, float b", "float a, double b"})
      P += std::string("__attribute__((overloadable)) double ") + F + "(" + Args +
           ") { return " + F + "((double)a, (double)b); }\n";
  auto Define = [&](const std::string &Name, const std::string &Params,
                    const std::string &Body) {
    P += "#undef " + Name + "\n#define " + Name + Params + " " + Body + "\n";
  };
  for (std::string N : {"", "2", "3", "4", "8", "16"}) {
    Define("float" + N, "", "double" + N);
    for (std::string R : {"", "_rte", "_rtz", "_rtp", "_rtn"})
      Define("convert_float" + N + R, "", "convert_double" + N + R);
  }
  // native_ and half_ functions are defined for float only.
  for (std::string Prefix : {"native_", "half_"}) {
    for (std::string F : {"cos", "exp", "exp2", "exp10", "log", "log2", "log10", "powr",
                          "rsqrt", "sin", "sqrt", "tan"})
      Define(Prefix + F, "", F);
    Define(Prefix + "divide", "(a, b)", "((a) / (b))");
    Define(Prefix + "recip", "(a)", "(1.0 / (a))");
  }
  return P;
}

} // namespace

Result<std::vector<std::string>> referenceDevices() {
  auto D = driver();
  if (!D)
    return D.error();
  auto Devs = allDevices(**D);
  if (!Devs)
    return Devs.error();
  std::vector<std::string> Names;
  for (const Found &F : *Devs)
    Names.push_back(F.Name);
  return Names;
}

Status runReference(const BundleSource &Source, const std::string &Kernel, unsigned Device,
                    unsigned WorkDim, const size_t *Offset, const size_t *Global,
                    const size_t *Local, std::vector<ReferenceArg> &Args,
                    std::string &DeviceName, ReferencePrecision Precision) {
  auto Drv = driver();
  if (!Drv)
    return Drv.error();
  const OpenCLDriver &D = **Drv;
  auto Devs = allDevices(D);
  if (!Devs)
    return Devs.error();
  if (Device >= Devs->size())
    return Failure(ErrorCode::NoDevice, "there is no OpenCL device " + std::to_string(Device) +
                                            " (the drivers have " +
                                            std::to_string(Devs->size()) + ")");
  cl_device_id Dev = (*Devs)[Device].Device;
  DeviceName = (*Devs)[Device].Name;
  auto Fail = [&](const std::string &What, cl_int E) {
    return Failure(ErrorCode::DeviceFailed, DeviceName + ": " + What + " failed: " +
                                                OpenCLDriver::describe(E));
  };

  // The files as compiled, in a folder of their own: the headers are found
  // there (-I), and nothing outside it is read.
  ScratchDir Dir;
  if (Dir.Path.empty())
    return Failure(ErrorCode::IOError, "cannot make a scratch folder for the reference build");
  std::string MainText;
  for (const auto &[Name, Text] : Source.Files) {
    std::filesystem::path P = Dir.Path / Name;
    std::error_code E;
    std::filesystem::create_directories(P.parent_path(), E);
    std::ofstream Out(P, std::ios::binary);
    Out << Text;
    if (!Out)
      return Failure(ErrorCode::IOError, "cannot write " + P.string());
    if (Name == Source.Main)
      MainText = Text;
  }
  // The -D options become #define lines ahead of the source, not build
  // options: a driver splits its options at spaces, and values have them
  // (ArrayFire's `-DKParam=struct { ... }`).
  std::string Options = "-I " + Dir.Path.string();
  std::string Std, Defines;
  for (const std::string &O : Source.Options)
    if (O.rfind("-D", 0) == 0) {
      std::string Def = O.substr(2);
      size_t Eq = Def.find('=');
      Defines += "#define " +
                 (Eq == std::string::npos ? Def + " 1" : Def.substr(0, Eq) + " " + Def.substr(Eq + 1)) +
                 "\n";
    } else if (O.rfind("-cl-std=", 0) == 0) {
      Std = O;
    }
  if (Precision == ReferencePrecision::Double) {
    if (D.deviceText(Dev, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") == std::string::npos)
      return Failure(ErrorCode::NoDevice,
                     DeviceName + " has no double precision (cl_khr_fp64)");
    Defines = doublePrelude() + Defines;
  }
  if (!Defines.empty())
    MainText = Defines + "#line 1\n" + MainText;

  cl_int E = CL_SUCCESS;
  Held Ctx(D.clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &E), D.clReleaseContext);
  if (!Ctx.Obj)
    return Fail("clCreateContext", E);
  Held Queue(D.clCreateCommandQueue(Ctx.Obj, Dev, 0, &E), D.clReleaseCommandQueue);
  if (!Queue.Obj)
    return Fail("clCreateCommandQueue", E);
  const char *Text = MainText.c_str();
  size_t Length = MainText.size();
  Held Program(D.clCreateProgramWithSource(Ctx.Obj, 1, &Text, &Length, &E), D.clReleaseProgram);
  if (!Program.Obj)
    return Fail("clCreateProgramWithSource", E);
  // The bundle's OpenCL C version, else the driver's default (a driver
  // older than 3.0 refuses -cl-std=CL3.0).
  E = D.clBuildProgram(Program.Obj, 1, &Dev, (Options + " " + Std).c_str(), nullptr, nullptr);
  if (E != CL_SUCCESS && !Std.empty())
    E = D.clBuildProgram(Program.Obj, 1, &Dev, Options.c_str(), nullptr, nullptr);
  if (E != CL_SUCCESS) {
    size_t Size = 0;
    D.clGetProgramBuildInfo(Program.Obj, Dev, CL_PROGRAM_BUILD_LOG_, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    if (Size)
      D.clGetProgramBuildInfo(Program.Obj, Dev, CL_PROGRAM_BUILD_LOG_, Size, Log.data(),
                              nullptr);
    return Failure(ErrorCode::DeviceFailed,
                   DeviceName + " cannot build " + Source.Main +
                       (Precision == ReferencePrecision::Double ? " with doubles for floats"
                                                                : "") +
                       " (" + OpenCLDriver::describe(E) + "):\n" + Log);
  }
  Held K(D.clCreateKernel(Program.Obj, Kernel.c_str(), &E), D.clReleaseKernel);
  if (!K.Obj)
    return Fail("clCreateKernel(" + Kernel + ")", E);

  std::vector<std::unique_ptr<Held<cl_mem, decltype(D.clReleaseMemObject)>>> Buffers;
  std::vector<cl_mem> Mems(Args.size(), nullptr);
  for (size_t I = 0; I < Args.size(); ++I) {
    ReferenceArg &A = Args[I];
    cl_uint Index = cl_uint(I);
    if (A.K == ReferenceArg::Buffer) {
      // A driver refuses an empty buffer; one byte stands for it.
      std::vector<uint8_t> &Bytes = *A.Data;
      size_t Size = Bytes.empty() ? 1 : Bytes.size();
      uint8_t Zero = 0;
      cl_mem M = D.clCreateBuffer(Ctx.Obj, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Size,
                                  Bytes.empty() ? &Zero : Bytes.data(), &E);
      if (!M)
        return Fail("clCreateBuffer for argument " + std::to_string(I), E);
      Buffers.push_back(std::make_unique<Held<cl_mem, decltype(D.clReleaseMemObject)>>(
          M, D.clReleaseMemObject));
      Mems[I] = M;
      E = D.clSetKernelArg(K.Obj, Index, sizeof(cl_mem), &Mems[I]);
    } else if (A.K == ReferenceArg::Local) {
      E = D.clSetKernelArg(K.Obj, Index, A.LocalBytes, nullptr);
    } else {
      E = D.clSetKernelArg(K.Obj, Index, A.Bytes.size(), A.Bytes.data());
    }
    if (E != CL_SUCCESS)
      return Fail("clSetKernelArg(" + std::to_string(I) + ")", E);
  }
  E = D.clEnqueueNDRangeKernel(Queue.Obj, K.Obj, WorkDim, Offset, Global, Local, 0, nullptr,
                               nullptr);
  if (E != CL_SUCCESS)
    return Fail("clEnqueueNDRangeKernel", E);
  for (size_t I = 0; I < Args.size(); ++I)
    if (Mems[I] && !Args[I].Data->empty()) {
      E = D.clEnqueueReadBuffer(Queue.Obj, Mems[I], CL_TRUE, 0, Args[I].Data->size(),
                                Args[I].Data->data(), 0, nullptr, nullptr);
      if (E != CL_SUCCESS)
        return Fail("clEnqueueReadBuffer", E);
    }
  if ((E = D.clFinish(Queue.Obj)) != CL_SUCCESS)
    return Fail("clFinish", E);
  return Status::success();
}

} // namespace skmd
