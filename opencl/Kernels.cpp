//===- Kernels.cpp - Kernels, their arguments and launches ---------------- ===//
//
// A cl_kernel is a LoadedKernel of its program's bundle with the
// arguments set so far; a launch is the session's, in the queue's turn.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <algorithm>
#include <array>

using namespace skmd;
using namespace skmd::opencl;

namespace {

// ---- Kernels -----------------------------------------------------------

cl_kernel newKernel(cl_program P, const KernelInfo &Info) {
  auto *K = new _cl_kernel();
  K->Program = P;
  P->retain();
  ++P->Kernels;
  K->Loaded.Source = P->Bundle.get();
  K->Loaded.Info = &Info;
  K->Loaded.Program = &P->Loaded;
  K->Args.resize(Info.Args.size());
  K->Set.assign(Info.Args.size(), false);
  K->ArgMems.assign(Info.Args.size(), nullptr);
  return K;
}

CL_API_ENTRY cl_kernel CL_API_CALL createKernel(cl_program P, const char *Name, cl_int *Err) {
  if (!P) {
    setError(Err, CL_INVALID_PROGRAM);
    return nullptr;
  }
  if (!Name) {
    setError(Err, CL_INVALID_VALUE);
    return nullptr;
  }
  if (!P->Bundle || P->Status == CL_BUILD_ERROR ||
      P->BinaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
    setError(Err, CL_INVALID_PROGRAM_EXECUTABLE);
    return nullptr;
  }
  const KernelInfo *Info = P->Bundle->metadata().findKernel(Name);
  if (!Info) {
    setError(Err, CL_INVALID_KERNEL_NAME);
    return nullptr;
  }
  setError(Err, CL_SUCCESS);
  return newKernel(P, *Info);
}

CL_API_ENTRY cl_int CL_API_CALL createKernelsInProgram(cl_program P, cl_uint N,
                                                       cl_kernel *Kernels, cl_uint *NumRet) {
  if (!P)
    return CL_INVALID_PROGRAM;
  if (!P->Bundle || P->Status == CL_BUILD_ERROR ||
      P->BinaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  const auto &All = P->Bundle->metadata().Kernels;
  if (Kernels && N < All.size())
    return CL_INVALID_VALUE;
  if (Kernels)
    for (size_t I = 0; I < All.size(); ++I)
      Kernels[I] = newKernel(P, All[I]);
  if (NumRet)
    *NumRet = cl_uint(All.size());
  return CL_SUCCESS;
}

} // namespace

cl_int CL_API_CALL skmd::opencl::releaseKernel(cl_kernel K) {
  if (!K)
    return CL_INVALID_KERNEL;
  if (K->release()) {
    // No launch holds it any more (Held): last released at the end of one,
    // or after the last has run.
    cl_program P = K->Program;
    --P->Kernels;
    delete K;
    releaseProgram(P);
  }
  return CL_SUCCESS;
}

namespace {

CL_API_ENTRY cl_int CL_API_CALL setKernelArg(cl_kernel K, cl_uint Index, size_t Size,
                                             const void *Value) {
  if (!K)
    return CL_INVALID_KERNEL;
  const KernelInfo &Info = *K->Loaded.Info;
  if (Index >= Info.Args.size())
    return CL_INVALID_ARG_INDEX;
  const KernelArg &Want = Info.Args[Index];
  HostArg A;
  cl_mem Mem = nullptr;
  switch (Want.Kind) {
  case ArgKind::GlobalBuffer:
  case ArgKind::ConstantBuffer: {
    if (Size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    cl_mem M = Value ? *static_cast<const cl_mem *>(Value) : nullptr;
    A.K = HostArg::Buffer;
    if (M) {
      if (M->Context != K->Program->Context)
        return CL_INVALID_MEM_OBJECT;
      A.Data = M->Object->host();
      A.Bytes = M->Object->bytes();
      A.Object = M->Object;
      Mem = M;
    }
    break;
  }
  case ArgKind::LocalBuffer:
    if (Value)
      return CL_INVALID_ARG_VALUE;
    if (Size == 0)
      return CL_INVALID_ARG_SIZE;
    A.K = HostArg::Local;
    A.LocalBytes = Size;
    break;
  case ArgKind::Sampler:
    // The size first, as the specification orders the checks.
    return Size != sizeof(cl_sampler) ? CL_INVALID_ARG_SIZE : CL_INVALID_SAMPLER;
  case ArgKind::Scalar:
    if (Size != Want.Size)
      return CL_INVALID_ARG_SIZE;
    if (!Value)
      return CL_INVALID_ARG_VALUE;
    A.K = HostArg::Scalar;
    A.Value.assign(static_cast<const uint8_t *>(Value),
                   static_cast<const uint8_t *>(Value) + Size);
    break;
  default:
    return CL_INVALID_ARG_VALUE;
  }
  K->Args[Index] = std::move(A);
  K->ArgMems[Index] = Mem;
  K->Set[Index] = true;
  return CL_SUCCESS;
}

/// CL_KERNEL_ATTRIBUTES: the kernel's attributes as written in the source,
/// separated by spaces ("reqd_work_group_size(8,4,1) vec_type_hint(float4)").
std::string kernelAttributes(const KernelInfo &Info) {
  std::string Out;
  auto Add = [&](const std::string &Attr) { Out += (Out.empty() ? "" : " ") + Attr; };
  auto Dims = [](const char *Name, const std::array<uint32_t, 3> &D) {
    return std::string(Name) + "(" + std::to_string(D[0]) + "," + std::to_string(D[1]) +
           "," + std::to_string(D[2]) + ")";
  };
  if (Info.ReqdWorkGroupSize[0])
    Add(Dims("reqd_work_group_size", Info.ReqdWorkGroupSize));
  if (Info.WorkGroupSizeHint[0])
    Add(Dims("work_group_size_hint", Info.WorkGroupSizeHint));
  if (!Info.VecTypeHint.empty())
    Add("vec_type_hint(" + Info.VecTypeHint + ")");
  return Out;
}

CL_API_ENTRY cl_int CL_API_CALL getKernelInfo(cl_kernel K, cl_kernel_info Param, size_t Size,
                                              void *Out, size_t *SizeRet) {
  if (!K)
    return CL_INVALID_KERNEL;
  switch (Param) {
  case CL_KERNEL_FUNCTION_NAME:
    return answerString(K->Loaded.Info->Name, Size, Out, SizeRet);
  case CL_KERNEL_NUM_ARGS:
    return put(cl_uint(K->Loaded.Info->Args.size()), Size, Out, SizeRet);
  case CL_KERNEL_REFERENCE_COUNT:
    return put(cl_uint(K->Refs), Size, Out, SizeRet);
  case CL_KERNEL_CONTEXT:
    return put(K->Program->Context, Size, Out, SizeRet);
  case CL_KERNEL_PROGRAM:
    return put(K->Program, Size, Out, SizeRet);
  case CL_KERNEL_ATTRIBUTES:
    return answerString(kernelAttributes(*K->Loaded.Info), Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getKernelWorkGroupInfo(cl_kernel K, cl_device_id D,
                                                       cl_kernel_work_group_info Param,
                                                       size_t Size, void *Out,
                                                       size_t *SizeRet) {
  if (!K)
    return CL_INVALID_KERNEL;
  const auto &Devices = K->Program->Context->Devices;
  if (!D && Devices.size() > 1)
    return CL_INVALID_VALUE;
  if (D && !hasDevice(Devices, D))
    return CL_INVALID_DEVICE;
  const KernelInfo &Info = *K->Loaded.Info;
  const auto &Reqd = Info.ReqdWorkGroupSize;
  switch (Param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    // A required size is the only one; else every device's limit.
    return put(Reqd[0] ? size_t(Reqd[0]) * Reqd[1] * Reqd[2] : size_t(1024), Size, Out,
               SizeRet);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t Sizes[3] = {Reqd[0], Reqd[1], Reqd[2]};
    return answerBytes(Sizes, sizeof Sizes, Size, Out, SizeRet);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    // The kernel's own __local variables and the __local arguments set.
    cl_ulong Bytes = Info.Cpu.LocalMemBytes;
    for (const HostArg &A : K->Args)
      if (A.K == HostArg::Local)
        Bytes += A.LocalBytes;
    return put(Bytes, Size, Out, SizeRet);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return put(size_t(32), Size, Out, SizeRet);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return put(cl_ulong(Info.Cpu.StateBytesPerItem), Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL getKernelArgInfo(cl_kernel K, cl_uint Index,
                                                 cl_kernel_arg_info Param, size_t Size,
                                                 void *Out, size_t *SizeRet) {
  if (!K)
    return CL_INVALID_KERNEL;
  const KernelInfo &Info = *K->Loaded.Info;
  if (Index >= Info.Args.size())
    return CL_INVALID_ARG_INDEX;
  const KernelArg &A = Info.Args[Index];
  // A source build keeps argument information only when asked to, as the
  // specification has it (a binary's bundle carries it always).
  cl_program Prog = K->Program;
  if (Prog->FromSource && Prog->Options.find("-cl-kernel-arg-info") == std::string::npos)
    return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  switch (Param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier Q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    if (A.Kind == ArgKind::GlobalBuffer)
      Q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    else if (A.Kind == ArgKind::ConstantBuffer)
      Q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
    else if (A.Kind == ArgKind::LocalBuffer)
      Q = CL_KERNEL_ARG_ADDRESS_LOCAL;
    return put(Q, Size, Out, SizeRet);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
    cl_kernel_arg_access_qualifier Q = CL_KERNEL_ARG_ACCESS_NONE;
    if (A.AccessQualifier == "read_only")
      Q = CL_KERNEL_ARG_ACCESS_READ_ONLY;
    else if (A.AccessQualifier == "write_only")
      Q = CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    else if (A.AccessQualifier == "read_write")
      Q = CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return put(Q, Size, Out, SizeRet);
  }
  case CL_KERNEL_ARG_TYPE_NAME:
    return answerString(A.TypeName, Size, Out, SizeRet);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    // The pointee's qualifiers, and restrict, of pointers alone (bundles
    // older than that marked a `const int` value const).
    cl_kernel_arg_type_qualifier Q = CL_KERNEL_ARG_TYPE_NONE;
    bool Pointer = A.Kind == ArgKind::GlobalBuffer || A.Kind == ArgKind::ConstantBuffer ||
                   A.Kind == ArgKind::LocalBuffer;
    if (Pointer && (A.IsConst || A.Kind == ArgKind::ConstantBuffer))
      Q |= CL_KERNEL_ARG_TYPE_CONST;
    if (Pointer && A.IsRestrict)
      Q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (Pointer && A.IsVolatile)
      Q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    return put(Q, Size, Out, SizeRet);
  }
  case CL_KERNEL_ARG_NAME:
    return answerString(A.Name, Size, Out, SizeRet);
  default:
    return CL_INVALID_VALUE;
  }
}

// ---- Launches ----------------------------------------------------------

/// A local size for \p Global when the program gives none: in each
/// dimension the largest divisor within what every device takes (the
/// product at most 256, x preferred).
std::array<size_t, 3> pickLocal(cl_uint Dims, const size_t *Global) {
  std::array<size_t, 3> Local{1, 1, 1};
  size_t Budget = 256;
  for (cl_uint D = 0; D < Dims; ++D) {
    size_t Best = 1;
    for (size_t L = std::min(Budget, Global[D]); L >= 1; --L)
      if (Global[D] % L == 0) {
        Best = L;
        break;
      }
    Local[D] = Best;
    Budget /= Best;
  }
  return Local;
}

CL_API_ENTRY cl_int CL_API_CALL enqueueNDRangeKernel(cl_command_queue Q, cl_kernel K,
                                                     cl_uint Dims, const size_t *Offset,
                                                     const size_t *Global,
                                                     const size_t *LocalIn, cl_uint NWait,
                                                     const cl_event *Wait, cl_event *Event) {
  if (!Q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!K)
    return CL_INVALID_KERNEL;
  if (K->Program->Context != Q->Context)
    return CL_INVALID_CONTEXT;
  if (Dims < 1 || Dims > 3)
    return CL_INVALID_WORK_DIMENSION;
  if (!Global)
    return CL_INVALID_GLOBAL_WORK_SIZE;
  for (cl_uint D = 0; D < Dims; ++D)
    if (Global[D] == 0)
      return CL_INVALID_GLOBAL_WORK_SIZE;
  if (std::find(K->Set.begin(), K->Set.end(), false) != K->Set.end())
    return CL_INVALID_KERNEL_ARGS;
  if (cl_int E = checkWaitList(Q, NWait, Wait); E != CL_SUCCESS)
    return E;
  std::array<size_t, 3> Local{1, 1, 1};
  // A reqd_work_group_size is the local size: given, it must match; not
  // given, it is taken.
  const auto &Reqd = K->Loaded.Info->ReqdWorkGroupSize;
  size_t ReqdSizes[3] = {Reqd[0], Reqd[1], Reqd[2]};
  if (Reqd[0] && !LocalIn)
    LocalIn = ReqdSizes;
  if (LocalIn) {
    const size_t MaxItems[3] = {1024, 1024, 64};
    size_t Items = 1;
    for (cl_uint D = 0; D < Dims; ++D) {
      if (LocalIn[D] > MaxItems[D])
        return CL_INVALID_WORK_ITEM_SIZE;
      if (LocalIn[D] == 0 || Global[D] % LocalIn[D] || (Reqd[0] && LocalIn[D] != Reqd[D]))
        return CL_INVALID_WORK_GROUP_SIZE;
      Local[D] = LocalIn[D];
      Items *= LocalIn[D];
    }
    if (Items > 1024)
      return CL_INVALID_WORK_GROUP_SIZE;
  } else {
    Local = pickLocal(Dims, Global);
  }
  NDRange Range;
  Range.WorkDim = Dims;
  for (cl_uint D = 0; D < Dims; ++D) {
    Range.GlobalOffset[D] = Offset ? Offset[D] : 0;
    Range.LocalSize[D] = Local[D];
    Range.NumGroups[D] = Global[D] / Local[D];
  }
  if (Status S = checkArgs(*K->Loaded.Info, K->Args); !S)
    return CL_INVALID_KERNEL_ARGS;
  // The arguments as they are now; the kernel (its loaded forms) and its
  // buffers are held until the launch has run.
  auto Record = std::make_shared<LaunchRecord>();
  LoadedKernel *Loaded = &K->Loaded;
  auto Uses = std::make_shared<Held>();
  Uses->hold(K);
  for (cl_mem M : K->ArgMems)
    Uses->hold(M);
  // A queue on one of the devices alone runs its launches there.
  return enqueueJob(Q, CL_COMMAND_NDRANGE_KERNEL, waitList(NWait, Wait), false, Event,
                    [Loaded, Args = K->Args, Range, Record, Plan = devicePlan(Q->Device)] {
                      return platformSession(nullptr)->launchNow(*Loaded, Args, Range, Plan,
                                                                 *Record);
                    },
                    Uses, Record);
}

CL_API_ENTRY cl_int CL_API_CALL enqueueTask(cl_command_queue Q, cl_kernel K, cl_uint NWait,
                                            const cl_event *Wait, cl_event *Event) {
  size_t One = 1;
  return enqueueNDRangeKernel(Q, K, 1, nullptr, &One, &One, NWait, Wait, Event);
}

} // namespace

void skmd::opencl::fillKernelEntries(cl_icd_dispatch &T) {
  T.clCreateKernel = createKernel;
  T.clCreateKernelsInProgram = createKernelsInProgram;
  T.clReleaseKernel = releaseKernel;
  T.clSetKernelArg = setKernelArg;
  T.clGetKernelInfo = getKernelInfo;
  T.clGetKernelWorkGroupInfo = getKernelWorkGroupInfo;
  T.clGetKernelArgInfo = getKernelArgInfo;
  T.clEnqueueNDRangeKernel = enqueueNDRangeKernel;
  T.clEnqueueTask = enqueueTask;
}
