//===- OpenCLDevice.cpp - A device that takes SPIR-V through OpenCL -------===//
#include "devices/opencl/OpenCLDevice.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace skmd {

namespace {

/// The SPIR-V version skmd-cc writes (lib/CodeGen: SPIR-V 1.2).
constexpr int BundleSpirvMinor = 2;

/// The bundle's SPIR-V, built for the device.
class OpenCLModule : public DeviceModule {
public:
  OpenCLModule(const OpenCLDriver &D, cl_program Program) : D(D), Program(Program) {}
  ~OpenCLModule() override { D.clReleaseProgram(Program); }
  const OpenCLDriver &D;
  cl_program Program;
};

class OpenCLKernel : public DeviceKernel {
public:
  OpenCLKernel(const OpenCLDriver &D, std::shared_ptr<DeviceModule> Module, cl_kernel Range)
      : D(D), Module(std::move(Module)), Range(Range) {}
  ~OpenCLKernel() override { D.clReleaseKernel(Range); }
  bool hasMerge() const override { return false; }

  const OpenCLDriver &D;
  std::shared_ptr<DeviceModule> Module;
  cl_kernel Range;
  /// clSetKernelArg is not thread-safe on one cl_kernel.
  std::mutex Lock;
};

/// Whether CL_DEVICE_IL_VERSION ("SPIR-V_1.0 SPIR-V_1.1 ...") names SPIR-V
/// 1.BundleSpirvMinor or later.
bool takesBundleSpirv(const std::string &IL) {
  std::istringstream In(IL);
  std::string Word;
  while (In >> Word) {
    int Major = 0, Minor = 0;
    if (std::sscanf(Word.c_str(), "SPIR-V_%d.%d", &Major, &Minor) == 2 &&
        (Major > 1 || (Major == 1 && Minor >= BundleSpirvMinor)))
      return true;
  }
  return false;
}

} // namespace

OpenCLDevice::OpenCLDevice(DeviceInfo Info, const OpenCLDriver &D, cl_device_id Dev,
                           cl_context Ctx, cl_command_queue Queue)
    : Device(std::move(Info)), D(D), Dev(Dev), Ctx(Ctx), Queue(Queue) {}

OpenCLDevice::~OpenCLDevice() {
  D.clFinish(Queue);
  for (uint64_t A : Live)
    D.clReleaseMemObject(reinterpret_cast<cl_mem>(A));
  D.clReleaseCommandQueue(Queue);
  D.clReleaseContext(Ctx);
}

Status OpenCLDevice::check(cl_int R, const std::string &What) const {
  if (R == CL_SUCCESS)
    return Status::success();
  return Failure(ErrorCode::DeviceFailed,
                 Info.Name + ": " + What + ": " + OpenCLDriver::describe(R));
}

Result<std::vector<std::unique_ptr<OpenCLDevice>>>
OpenCLDevice::open(Selection S, unsigned Index, unsigned NameFrom) {
  std::vector<std::unique_ptr<OpenCLDevice>> Out;
  std::string Error;
  const OpenCLDriver *D = OpenCLDriver::get(Error);
  if (!D) {
    if (S == Selection::AllButCpus)
      return Out;
    return Failure(ErrorCode::NoDevice, "opencl: " + Error);
  }
  // Every device, in the loader's order; those that take the bundle's
  // SPIR-V are candidates, the others are named in the error.
  std::vector<std::pair<cl_device_id, std::string>> Candidates;
  std::vector<std::string> Refused;
  for (auto [P, Dev] : D->allDevices()) {
    std::string Platform = D->platformText(P, CL_PLATFORM_NAME);
    std::string Name = D->deviceText(Dev, CL_DEVICE_NAME);
    std::string IL = D->deviceText(Dev, CL_DEVICE_IL_VERSION);
    if (!takesBundleSpirv(IL)) {
      Refused.push_back("'" + Name + "' (" + Platform + "): " +
                        (IL.empty() ? "no SPIR-V" : "only " + IL));
      continue;
    }
    cl_bitfield Type = 0;
    D->clGetDeviceInfo(Dev, CL_DEVICE_TYPE, sizeof Type, &Type, nullptr);
    if (S == Selection::AllButCpus && (Type & CL_DEVICE_TYPE_CPU))
      continue;
    Candidates.push_back({Dev, Name + " (" + Platform + ", SPIR-V through " +
                                   D->deviceText(Dev, CL_DEVICE_VERSION) + ")"});
  }
  if (Candidates.empty()) {
    if (S == Selection::AllButCpus)
      return Out;
    std::string Why = "no OpenCL device takes SPIR-V 1." + std::to_string(BundleSpirvMinor);
    if (Refused.empty())
      Why += " (no OpenCL device found)";
    for (size_t I = 0; I < Refused.size(); ++I)
      Why += (I ? "; " : ": ") + Refused[I];
    return Failure(ErrorCode::NoDevice, "opencl: " + Why);
  }
  if (S == Selection::Index) {
    if (Index >= Candidates.size())
      return Failure(ErrorCode::NoDevice, "opencl:" + std::to_string(Index) + ": " +
                                              std::to_string(Candidates.size()) +
                                              " OpenCL device(s) take SPIR-V");
    Candidates = {Candidates[Index]};
  }

  for (auto &[Dev, Description] : Candidates) {
    std::string Name = "opencl" + std::to_string(NameFrom + Out.size());
    cl_int E = CL_SUCCESS;
    cl_context Ctx = D->clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &E);
    if (E != CL_SUCCESS)
      return Failure(ErrorCode::NoDevice,
                     Name + ": clCreateContext: " + OpenCLDriver::describe(E));
    cl_command_queue Queue = D->clCreateCommandQueue(Ctx, Dev, 0, &E);
    if (E != CL_SUCCESS) {
      D->clReleaseContext(Ctx);
      return Failure(ErrorCode::NoDevice,
                     Name + ": clCreateCommandQueue: " + OpenCLDriver::describe(E));
    }
    DeviceInfo I;
    I.Name = Name;
    I.Description = Description;
    I.Kind = DeviceKind::OpenCL;
    I.Variant = TargetKind::SPIRV;
    cl_ulong Memory = 0;
    cl_uint Units = 0;
    D->clGetDeviceInfo(Dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof Memory, &Memory, nullptr);
    D->clGetDeviceInfo(Dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof Units, &Units, nullptr);
    I.MemoryBytes = Memory;
    I.ComputeUnits = Units;
    I.BuffersAreHandles = true;
    // A CPU driver computes on the host's cores; a GPU's units run warps.
    cl_bitfield Type = 0;
    D->clGetDeviceInfo(Dev, CL_DEVICE_TYPE, sizeof Type, &Type, nullptr);
    I.UsesHostCores = (Type & CL_DEVICE_TYPE_CPU) != 0;
    I.LanesPerUnit = I.UsesHostCores ? 1 : 32;
    I.CopyEngines = I.UsesHostCores ? 0 : 1;
    Out.push_back(std::unique_ptr<OpenCLDevice>(
        new OpenCLDevice(std::move(I), *D, Dev, Ctx, Queue)));
  }
  return Out;
}

Result<std::shared_ptr<DeviceModule>> OpenCLDevice::loadModule(const Bundle &B) {
  std::string_view Spirv = B.variant(TargetKind::SPIRV);
  if (Spirv.empty())
    return Failure(ErrorCode::NotFound, Info.Name + ": the bundle has no SPIR-V variant "
                                                    "(rebuild it with skmd-cc --targets=...,spirv)");
  cl_int E = CL_SUCCESS;
  cl_program Program = D.clCreateProgramWithIL(Ctx, Spirv.data(), Spirv.size(), &E);
  if (E != CL_SUCCESS)
    return Failure(ErrorCode::UnsupportedHost,
                   Info.Name + ": the bundle's SPIR-V is refused: " + OpenCLDriver::describe(E));
  if (cl_int B = D.clBuildProgram(Program, 1, &Dev, "", nullptr, nullptr); B != CL_SUCCESS) {
    // The driver's own words (an unsupported capability, a resource limit).
    std::string Log(16384, '\0');
    size_t Size = 0;
    D.clGetProgramBuildInfo(Program, Dev, CL_PROGRAM_BUILD_LOG, Log.size(), Log.data(), &Size);
    Log.resize(Size ? Size - 1 : 0);
    D.clReleaseProgram(Program);
    return Failure(ErrorCode::UnsupportedHost,
                   Info.Name + ": the bundle's SPIR-V does not build (" +
                       OpenCLDriver::describe(B) + ")" + (Log.empty() ? "" : ": " + Log));
  }
  return std::shared_ptr<DeviceModule>(std::make_shared<OpenCLModule>(D, Program));
}

Result<std::unique_ptr<DeviceKernel>>
OpenCLDevice::loadKernel(const std::shared_ptr<DeviceModule> &Module,
                         const KernelInfo &Kernel) {
  auto Symbols = Kernel.Symbols.find(TargetKind::SPIRV);
  if (Symbols == Kernel.Symbols.end())
    return Failure(ErrorCode::NotFound,
                   Info.Name + ": the bundle has no SPIR-V variant of kernel '" +
                       Kernel.Name + "' (rebuild it with skmd-cc --targets=...,spirv)");
  cl_int E = CL_SUCCESS;
  cl_kernel Range = D.clCreateKernel(static_cast<OpenCLModule &>(*Module).Program,
                                     Symbols->second.Range.c_str(), &E);
  if (E != CL_SUCCESS)
    return Failure(ErrorCode::CorruptBundle, Info.Name + ": the SPIR-V has no " +
                                                 Symbols->second.Range + ": " +
                                                 OpenCLDriver::describe(E));
  return std::unique_ptr<DeviceKernel>(new OpenCLKernel(D, Module, Range));
}

Status OpenCLDevice::outside() const {
  return Failure(ErrorCode::InvalidArgument, Info.Name + ": a copy outside its allocation");
}

cl_mem OpenCLDevice::handle(uint64_t Address) const {
  std::lock_guard<std::mutex> Hold(Lock);
  return Live.count(Address) ? reinterpret_cast<cl_mem>(Address) : nullptr;
}

Result<DeviceMemory> OpenCLDevice::allocate(uint64_t Bytes) {
  cl_int E = CL_SUCCESS;
  // Zero bytes is an error in OpenCL; an empty region still needs a handle.
  cl_mem M = D.clCreateBuffer(Ctx, CL_MEM_READ_WRITE, std::max<uint64_t>(Bytes, 1), nullptr, &E);
  if (E != CL_SUCCESS)
    return Failure(ErrorCode::OutOfMemory, Info.Name + ": cannot allocate " +
                                               std::to_string(Bytes) +
                                               " bytes: " + OpenCLDriver::describe(E));
  uint64_t Address = reinterpret_cast<uint64_t>(M);
  std::lock_guard<std::mutex> Hold(Lock);
  Live.insert(Address);
  return DeviceMemory{Address, Bytes};
}

void OpenCLDevice::release(DeviceMemory Memory) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    if (!Live.erase(Memory.Address))
      return;
  }
  D.clReleaseMemObject(reinterpret_cast<cl_mem>(Memory.Address));
}

Status OpenCLDevice::copyIn(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                            uint64_t Bytes) {
  if (Bytes == 0)
    return Status::success();
  cl_mem M = handle(Dst.Address);
  if (!M || DstOffset + Bytes > Dst.Bytes)
    return outside();
  // Not blocking: the host's buffers outlive the launch's copies, which
  // finishCopies waits for.
  return check(D.clEnqueueWriteBuffer(Queue, M, CL_FALSE, DstOffset, Bytes, Src, 0, nullptr,
                                      nullptr),
               "clEnqueueWriteBuffer");
}

Status OpenCLDevice::copyOut(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                             uint64_t Bytes) {
  if (Bytes == 0)
    return Status::success();
  cl_mem M = handle(Src.Address);
  if (!M || SrcOffset + Bytes > Src.Bytes)
    return outside();
  return check(D.clEnqueueReadBuffer(Queue, M, CL_TRUE, SrcOffset, Bytes, Dst, 0, nullptr,
                                     nullptr),
               "clEnqueueReadBuffer");
}

namespace {

/// A rect's rows at the same offsets and pitch on both sides, as one
/// strided copy: origin x = the first row's offset, rows at the pitch.
struct StridedCopy {
  size_t Device[3], Host[3], Region[3];
  StridedCopy(uint64_t DeviceOffset, const Rect &R)
      : Device{size_t(DeviceOffset + R.Offset), 0, 0}, Host{size_t(R.Offset), 0, 0},
        Region{size_t(R.RowBytes), size_t(R.Rows), 1} {}
};

} // namespace

Status OpenCLDevice::copyInRect(DeviceMemory Dst, uint64_t DstOffset, const void *Src,
                                const Rect &R) {
  if (R.Rows <= 1)
    return copyIn(Dst, DstOffset + R.Offset, static_cast<const char *>(Src) + R.Offset,
                  R.Rows ? R.RowBytes : 0);
  cl_mem M = handle(Dst.Address);
  if (!M || DstOffset + R.end() > Dst.Bytes)
    return outside();
  StridedCopy C(DstOffset, R);
  return check(D.clEnqueueWriteBufferRect(Queue, M, CL_FALSE, C.Device, C.Host, C.Region,
                                          R.Pitch, 0, R.Pitch, 0, Src, 0, nullptr, nullptr),
               "clEnqueueWriteBufferRect");
}

Status OpenCLDevice::copyOutRect(void *Dst, DeviceMemory Src, uint64_t SrcOffset,
                                 const Rect &R) {
  if (R.Rows <= 1)
    return copyOut(static_cast<char *>(Dst) + R.Offset, Src, SrcOffset + R.Offset,
                   R.Rows ? R.RowBytes : 0);
  cl_mem M = handle(Src.Address);
  if (!M || SrcOffset + R.end() > Src.Bytes)
    return outside();
  StridedCopy C(SrcOffset, R);
  return check(D.clEnqueueReadBufferRect(Queue, M, CL_TRUE, C.Device, C.Host, C.Region,
                                         R.Pitch, 0, R.Pitch, 0, Dst, 0, nullptr, nullptr),
               "clEnqueueReadBufferRect");
}

Status OpenCLDevice::finishCopies() { return check(D.clFinish(Queue), "copies to the device"); }

Status OpenCLDevice::run(DeviceKernel &Kernel, const std::vector<DeviceArg> &Args,
                         const NDRange &Range, uint64_t First, uint64_t Count) {
  auto &K = static_cast<OpenCLKernel &>(Kernel);
  std::lock_guard<std::mutex> Hold(K.Lock);
  auto Set = [&](unsigned Index, size_t Size, const void *Value) {
    return check(D.clSetKernelArg(K.Range, Index, Size, Value),
                 "clSetKernelArg " + std::to_string(Index));
  };
  Status Params = forEachParam(
      Args, Range, First,
      [&](unsigned Index, const DeviceArg &A) -> Status {
        switch (A.K) {
        case DeviceArg::Buffer: {
          cl_mem M = handle(A.Address);
          if (!M)
            return Failure(ErrorCode::InvalidArgument,
                           Info.Name + ": argument " + std::to_string(Index) +
                               " is not a buffer of this device");
          return Set(Index, sizeof M, &M);
        }
        case DeviceArg::Scalar:
          return Set(Index, A.Bytes.size(), A.Bytes.data());
        case DeviceArg::Local:
          return Set(Index, size_t(A.LocalBytes), nullptr);
        }
        return Status::success();
      },
      [&](unsigned Index, uint64_t V) { return Set(Index, sizeof V, &V); });
  if (!Params)
    return Params;
  if (Count == 0)
    return Status::success();
  // Count groups along x with the kernel's local size; y and z hold one
  // group each (the kernel maps launched group x to first + x).
  size_t Local[3] = {size_t(Range.LocalSize[0]), size_t(Range.LocalSize[1]),
                     size_t(Range.LocalSize[2])};
  size_t Global[3] = {size_t(Count * Range.LocalSize[0]), Local[1], Local[2]};
  cl_uint Dims = std::max<cl_uint>(1, std::min<cl_uint>(3, Range.WorkDim));
  if (Status S = check(D.clEnqueueNDRangeKernel(Queue, K.Range, Dims, nullptr, Global, Local, 0,
                                                nullptr, nullptr),
                       "clEnqueueNDRangeKernel");
      !S)
    return S;
  return check(D.clFinish(Queue), "the kernel");
}

} // namespace skmd
