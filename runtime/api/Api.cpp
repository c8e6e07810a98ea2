//===- Api.cpp - SKMD's C API over a session ------------------------------===//
//
// The C surface of a Session (session/Session.h), which owns the devices,
// plan choice and the order of launches. Handles own C++ objects; every
// entry point catches what could escape
// (std::bad_alloc included) and turns it into a status and a message, so no
// exception crosses into C.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"

#include "session/Session.h"

#include <algorithm>
#include <cstring>
#include <future>
#include <new>
#include <set>

using namespace skmd;

struct skmd_context_s {
  std::unique_ptr<Session> S;
  std::set<skmd_program> Programs;
  std::set<skmd_buffer> Buffers;
};

struct skmd_program_s {
  skmd_context Ctx;
  std::unique_ptr<Bundle> Source;
  /// Each device's module, loaded once for all the program's kernels.
  LoadedProgram Loaded;
  std::set<skmd_kernel> Kernels;
};

struct skmd_kernel_s {
  skmd_program Program;
  LoadedKernel Loaded;
  std::vector<HostArg> Args;
};

struct skmd_buffer_s {
  skmd_context Ctx;
  /// The session's: released through it, after the launches using it.
  BufferObject *Object;
};

struct skmd_batch_s {
  skmd_context Ctx;
  UserBatch Batch;
  std::optional<std::future<Status>> Done;
  bool Waited = false;
  Status Outcome;
};

struct skmd_event_s {
  std::future<Status> Done;
  LaunchRecord Record;
  uint64_t TotalGroups = 0;
};

namespace {

thread_local std::string LastError;

skmd_status statusOf(ErrorCode Code) {
  switch (Code) {
  case ErrorCode::Success:
    return SKMD_SUCCESS;
  case ErrorCode::InvalidArgument:
    return SKMD_ERROR_INVALID_ARGUMENT;
  case ErrorCode::IOError:
    return SKMD_ERROR_IO;
  case ErrorCode::CorruptBundle:
    return SKMD_ERROR_CORRUPT_BUNDLE;
  case ErrorCode::UnsupportedBundleVersion:
    return SKMD_ERROR_UNSUPPORTED_BUNDLE_VERSION;
  case ErrorCode::NotFound:
    return SKMD_ERROR_NOT_FOUND;
  case ErrorCode::UnsupportedHost:
    return SKMD_ERROR_UNSUPPORTED_HOST;
  case ErrorCode::OutOfMemory:
    return SKMD_ERROR_OUT_OF_MEMORY;
  case ErrorCode::DeviceFailed:
    return SKMD_ERROR_DEVICE_FAILED;
  case ErrorCode::NoDevice:
    return SKMD_ERROR_NO_DEVICE;
  }
  return SKMD_ERROR_INVALID_ARGUMENT;
}

skmd_status fail(skmd_status S, std::string Message) {
  LastError = std::move(Message);
  return S;
}

skmd_status fail(const Failure &F) { return fail(statusOf(F.code()), F.message()); }

skmd_status ok() {
  LastError.clear();
  return SKMD_SUCCESS;
}

/// Runs \p Body, turning exceptions into statuses.
template <typename F> skmd_status guarded(F &&Body) {
  try {
    return Body();
  } catch (const std::bad_alloc &) {
    return fail(SKMD_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &E) {
    return fail(SKMD_ERROR_INVALID_ARGUMENT, std::string("internal error: ") + E.what());
  }
}

void copyName(char *Dst, size_t Size, const std::string &Src) {
  std::snprintf(Dst, Size, "%s", Src.c_str());
}

void fillReport(const LaunchRecord &L, uint64_t Total, skmd_launch_report *Out) {
  if (!Out)
    return;
  const LaunchReport &R = L.Report;
  std::memset(Out, 0, sizeof *Out);
  Out->total_groups = Total;
  Out->total_ms = R.TotalMs;
  Out->plan_ms = R.PlanMs;
  copyName(Out->plan, sizeof Out->plan, L.Plan);
  Out->predicted_ms = L.Model ? L.Model->PredictedMs : 0;
  Out->bound_ms = L.Model ? L.Model->BoundMs : 0;
  Out->estimated_ms = L.Model ? L.Model->EstimatedMs : 0;
  // The plan's predicted batch where it has the same operations.
  const auto &Ops = R.Operations;
  bool Predicted = L.Model && L.Model->Batch.size() == Ops.size();
  for (size_t I = 0; Predicted && I < Ops.size(); ++I)
    Predicted = L.Model->Batch[I].Label == Ops[I].Label;
  Out->operations_total = Ops.size();
  Out->operation_count =
      std::min(Ops.size(), sizeof Out->operations / sizeof Out->operations[0]);
  for (size_t I = 0; I < Out->operation_count; ++I) {
    skmd_operation_report &O = Out->operations[I];
    copyName(O.label, sizeof O.label, Ops[I].Label);
    copyName(O.engine, sizeof O.engine, Ops[I].Engine);
    O.start_ms = Ops[I].Ran ? Ops[I].StartMs : 0;
    O.end_ms = Ops[I].Ran ? Ops[I].EndMs : 0;
    O.predicted_start_ms = Predicted ? L.Model->Batch[I].StartMs : -1;
    O.predicted_end_ms = Predicted ? L.Model->Batch[I].EndMs : -1;
  }
  Out->bytes_to_host = R.BytesToHost;
  Out->to_host_ms = R.ToHostMs;
  size_t N = std::min<size_t>(R.Pieces.size(), sizeof Out->pieces / sizeof Out->pieces[0]);
  Out->piece_count = N;
  for (size_t I = 0; I < N; ++I) {
    const PieceReport &P = R.Pieces[I];
    skmd_piece_report &Q = Out->pieces[I];
    copyName(Q.device, sizeof Q.device, P.Device);
    Q.first_group = P.First;
    Q.group_count = P.Count;
    Q.input_ms = P.InputMs;
    Q.kernel_ms = P.KernelMs;
    Q.output_ms = P.OutputMs;
    Q.merge_ms = P.MergeMs;
    Q.input_at_ms = P.InputAt;
    Q.kernel_at_ms = P.KernelAt;
    Q.output_at_ms = P.OutputAt;
    Q.merge_at_ms = P.MergeAt;
    Q.bytes_in = P.BytesIn;
    Q.bytes_out = P.BytesOut;
    Q.chunks = P.Chunks;
    Q.failed = !P.Failure.empty();
    if (L.Model)
      for (const DevicePrediction &Pr : L.Model->Predicted)
        if (P.Device == Pr.Device) {
          Q.predicted_input_ms = Pr.InputMs;
          Q.predicted_kernel_ms = Pr.KernelMs;
          Q.predicted_output_ms = Pr.OutputMs;
          Q.predicted_merge_ms = Pr.MergeMs;
        }
  }
}

/// The launch's geometry in groups, or an error naming the dimension.
Result<NDRange> ndRange(uint32_t WorkDim, const size_t *Offset,
                        const size_t *Global, const size_t *Local) {
  if (WorkDim < 1 || WorkDim > 3)
    return Failure(ErrorCode::InvalidArgument,
                   "work_dim is " + std::to_string(WorkDim) + "; it must be 1, 2 or 3");
  if (!Global || !Local)
    return Failure(ErrorCode::InvalidArgument,
                   "global_size and local_size are required");
  NDRange R;
  R.WorkDim = WorkDim;
  for (uint32_t D = 0; D < WorkDim; ++D) {
    if (Local[D] == 0 || Global[D] == 0 || Global[D] % Local[D])
      return Failure(ErrorCode::InvalidArgument,
                     "dimension " + std::to_string(D) + ": global size " +
                         std::to_string(Global[D]) +
                         " must be a nonzero multiple of local size " +
                         std::to_string(Local[D]));
    R.NumGroups[D] = Global[D] / Local[D];
    R.LocalSize[D] = Local[D];
    R.GlobalOffset[D] = Offset ? Offset[D] : 0;
  }
  return R;
}

skmd_status checkIndex(skmd_kernel K, unsigned Index, const char *Fn) {
  if (!K)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, std::string(Fn) + ": kernel is NULL");
  if (Index >= K->Args.size())
    return fail(SKMD_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": kernel '" + K->Loaded.Info->Name + "' has " +
                    std::to_string(K->Args.size()) + " arguments, not " +
                    std::to_string(Index + 1));
  return SKMD_SUCCESS;
}

skmd_status adoptBundle(skmd_context Ctx, Result<Bundle> B,
                               skmd_program *Out) {
  if (!B)
    return fail(B.error());
  auto P = std::make_unique<skmd_program_s>();
  P->Ctx = Ctx;
  P->Source = std::make_unique<Bundle>(std::move(*B));
  P->Loaded.Source = P->Source.get();
  *Out = P.release();
  Ctx->Programs.insert(*Out);
  return ok();
}

} // namespace

extern "C" {

const char *skmd_last_error(void) { return LastError.c_str(); }

const char *skmd_status_name(skmd_status S) {
  switch (S) {
  case SKMD_SUCCESS:
    return "SKMD_SUCCESS";
  case SKMD_ERROR_INVALID_ARGUMENT:
    return "SKMD_ERROR_INVALID_ARGUMENT";
  case SKMD_ERROR_IO:
    return "SKMD_ERROR_IO";
  case SKMD_ERROR_CORRUPT_BUNDLE:
    return "SKMD_ERROR_CORRUPT_BUNDLE";
  case SKMD_ERROR_UNSUPPORTED_BUNDLE_VERSION:
    return "SKMD_ERROR_UNSUPPORTED_BUNDLE_VERSION";
  case SKMD_ERROR_NOT_FOUND:
    return "SKMD_ERROR_NOT_FOUND";
  case SKMD_ERROR_UNSUPPORTED_HOST:
    return "SKMD_ERROR_UNSUPPORTED_HOST";
  case SKMD_ERROR_OUT_OF_MEMORY:
    return "SKMD_ERROR_OUT_OF_MEMORY";
  case SKMD_ERROR_DEVICE_FAILED:
    return "SKMD_ERROR_DEVICE_FAILED";
  case SKMD_ERROR_NO_DEVICE:
    return "SKMD_ERROR_NO_DEVICE";
  }
  return "SKMD_ERROR_UNKNOWN";
}

skmd_status skmd_init(const char *Spec, skmd_context *Out) {
  return guarded([&] {
    if (!Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_init: out is NULL");
    *Out = nullptr;
    auto Options = SessionOptions::fromEnvironment(Spec);
    if (!Options)
      return fail(Options.error());
    auto S = Session::open(*Options);
    if (!S)
      return fail(S.error());
    auto Ctx = std::make_unique<skmd_context_s>();
    Ctx->S = std::move(*S);
    *Out = Ctx.release();
    return ok();
  });
}

void skmd_release_context(skmd_context Ctx) {
  if (!Ctx)
    return;
  // Launches not waited for still use the kernels and buffers below.
  Ctx->S->drain();
  for (skmd_program P : std::set<skmd_program>(Ctx->Programs))
    skmd_release_program(P);
  for (skmd_buffer B : Ctx->Buffers) {
    Ctx->S->releaseBuffer(B->Object);
    delete B;
  }
  delete Ctx;
}

size_t skmd_device_count(skmd_context Ctx) { return Ctx ? Ctx->S->devices().size() : 0; }

skmd_status skmd_get_device_info(skmd_context Ctx, size_t Index,
                                 skmd_device_info *Out) {
  if (!Ctx || !Out)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_get_device_info: NULL argument");
  const auto &Devices = Ctx->S->devices();
  if (Index >= Devices.size())
    return fail(SKMD_ERROR_INVALID_ARGUMENT,
                "device " + std::to_string(Index) + " of " + std::to_string(Devices.size()));
  const DeviceInfo &I = Devices[Index]->info();
  std::memset(Out, 0, sizeof *Out);
  copyName(Out->name, sizeof Out->name, I.Name);
  copyName(Out->description, sizeof Out->description, I.Description);
  static_assert(int(DeviceKind::Remote) == SKMD_DEVICE_REMOTE,
                "skmd_device_kind follows DeviceKind");
  Out->kind = skmd_device_kind(I.Kind);
  Out->memory_bytes = I.MemoryBytes;
  Out->compute_units = I.ComputeUnits;
  Out->link_gbps = I.LinkGBps;
  return ok();
}

skmd_status skmd_measure_link(skmd_context Ctx, size_t Index, size_t Bytes,
                              double *ToDevice, double *ToHost) {
  return guarded([&] {
    if (!Ctx || !ToDevice || !ToHost)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_measure_link: NULL argument");
    *ToDevice = *ToHost = 0;
    auto Rates = Ctx->S->measureLink(unsigned(std::min<size_t>(Index, UINT32_MAX)), Bytes);
    if (!Rates)
      return fail(Rates.error());
    *ToDevice = Rates->first;
    *ToHost = Rates->second;
    return ok();
  });
}

skmd_status skmd_load_bundle(skmd_context Ctx, const char *Path, skmd_program *Out) {
  return guarded([&] {
    if (!Ctx || !Path || !Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_load_bundle: NULL argument");
    return adoptBundle(Ctx, Bundle::fromFile(Path), Out);
  });
}

skmd_status skmd_load_bundle_bytes(skmd_context Ctx, const void *Bytes,
                                   size_t Size, skmd_program *Out) {
  return guarded([&] {
    if (!Ctx || !Bytes || !Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_load_bundle_bytes: NULL argument");
    auto *P = static_cast<const uint8_t *>(Bytes);
    return adoptBundle(Ctx, Bundle::fromBytes(std::vector<uint8_t>(P, P + Size)), Out);
  });
}

void skmd_release_program(skmd_program P) {
  if (!P)
    return;
  P->Ctx->S->drain();
  for (skmd_kernel K : P->Kernels)
    delete K;
  P->Ctx->Programs.erase(P);
  delete P;
}

skmd_status skmd_get_kernel(skmd_program P, const char *Name, skmd_kernel *Out) {
  return guarded([&] {
    if (!P || !Name || !Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_get_kernel: NULL argument");
    const BundleMetadata &Meta = P->Source->metadata();
    const KernelInfo *Info = Meta.findKernel(Name);
    if (!Info) {
      std::string Names;
      for (const KernelInfo &K : Meta.Kernels)
        Names += (Names.empty() ? "" : ", ") + K.Name;
      return fail(SKMD_ERROR_NOT_FOUND,
                  "the bundle (" + Meta.SourceFile + ") has no kernel '" + Name + "'; " +
                      (Names.empty() ? "it has none" : "it has: " + Names));
    }
    auto K = std::make_unique<skmd_kernel_s>();
    K->Program = P;
    K->Loaded.Source = P->Source.get();
    K->Loaded.Info = Info;
    K->Loaded.Program = &P->Loaded;
    K->Args.resize(Info->Args.size());
    *Out = K.release();
    P->Kernels.insert(*Out);
    return ok();
  });
}

void skmd_release_kernel(skmd_kernel K) {
  if (!K)
    return;
  // Launches not waited for may still run it.
  K->Program->Ctx->S->drain();
  K->Program->Kernels.erase(K);
  delete K;
}

size_t skmd_kernel_arg_count(skmd_kernel K) { return K ? K->Args.size() : 0; }

skmd_status skmd_get_kernel_arg_info(skmd_kernel K, unsigned Index,
                                     skmd_arg_info *Out) {
  if (skmd_status S = checkIndex(K, Index, "skmd_get_kernel_arg_info"))
    return S;
  if (!Out)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_get_kernel_arg_info: out is NULL");
  const KernelArg &A = K->Loaded.Info->Args[Index];
  std::memset(Out, 0, sizeof *Out);
  copyName(Out->name, sizeof Out->name, A.Name);
  copyName(Out->type_name, sizeof Out->type_name, A.TypeName);
  copyName(Out->base_type_name, sizeof Out->base_type_name, A.BaseTypeName);
  switch (A.Kind) {
  case ArgKind::GlobalBuffer:
    Out->kind = SKMD_ARG_GLOBAL_BUFFER;
    break;
  case ArgKind::ConstantBuffer:
    Out->kind = SKMD_ARG_CONSTANT_BUFFER;
    break;
  case ArgKind::LocalBuffer:
    Out->kind = SKMD_ARG_LOCAL;
    break;
  case ArgKind::Scalar:
    Out->kind = SKMD_ARG_SCALAR;
    break;
  case ArgKind::Sampler:
    Out->kind = SKMD_ARG_SAMPLER;
    break;
  }
  Out->size = A.Size;
  Out->element_size = A.ElementSize;
  Out->read = A.Read;
  Out->written = A.Written;
  return ok();
}

skmd_status skmd_get_kernel_arg_layout(skmd_kernel K, unsigned Index,
                                       skmd_scalar_run *Out, size_t Max,
                                       size_t *Count) {
  if (skmd_status S = checkIndex(K, Index, "skmd_get_kernel_arg_layout"))
    return S;
  if (!Count || (Max && !Out))
    return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_get_kernel_arg_layout: NULL argument");
  const std::vector<ScalarRun> &Layout = K->Loaded.Info->Args[Index].Layout;
  *Count = Layout.size();
  for (size_t I = 0; I < Layout.size() && I < Max; ++I) {
    Out[I].offset = Layout[I].Offset;
    copyName(Out[I].type, sizeof Out[I].type, Layout[I].Type);
    Out[I].count = Layout[I].Count;
  }
  return ok();
}

namespace {
skmd_status newBuffer(skmd_context Ctx, void *Host, size_t Bytes, const void *Init,
                      skmd_buffer *Out) {
  auto Object = Ctx->S->createBuffer(Host, Bytes, Init);
  if (!Object)
    return fail(Object.error());
  *Out = new skmd_buffer_s{Ctx, *Object};
  Ctx->Buffers.insert(*Out);
  return ok();
}
} // namespace

skmd_status skmd_wrap_buffer(skmd_context Ctx, void *Host, size_t Bytes,
                             skmd_buffer *Out) {
  return guarded([&] {
    if (!Ctx || !Out || (!Host && Bytes))
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_wrap_buffer: NULL argument");
    // A null pointer of no bytes is still the user's (empty) memory.
    static char Empty;
    return newBuffer(Ctx, Host ? Host : &Empty, Bytes, nullptr, Out);
  });
}

skmd_status skmd_create_buffer(skmd_context Ctx, size_t Bytes, const void *Init,
                               skmd_buffer *Out) {
  return guarded([&] {
    if (!Ctx || !Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_create_buffer: NULL argument");
    return newBuffer(Ctx, nullptr, Bytes, Init, Out);
  });
}

skmd_status skmd_read_buffer(skmd_buffer B, size_t Offset, size_t Bytes, void *Dst) {
  return guarded([&] {
    if (!B)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_read_buffer: buffer is NULL");
    if (Status S = B->Ctx->S->readBuffer(*B->Object, Offset, Bytes, Dst); !S)
      return fail(S.error());
    return ok();
  });
}

skmd_status skmd_write_buffer(skmd_buffer B, size_t Offset, size_t Bytes, const void *Src) {
  return guarded([&] {
    if (!B)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_write_buffer: buffer is NULL");
    if (Status S = B->Ctx->S->writeBuffer(*B->Object, Offset, Bytes, Src); !S)
      return fail(S.error());
    return ok();
  });
}

void skmd_release_buffer(skmd_buffer B) {
  if (!B)
    return;
  B->Ctx->Buffers.erase(B);
  B->Ctx->S->releaseBuffer(B->Object);
  delete B;
}

void *skmd_alloc_host(skmd_context Ctx, size_t Bytes) {
  try {
    return Ctx ? Ctx->S->allocHost(Bytes) : nullptr;
  } catch (...) {
    return nullptr;
  }
}

void skmd_free_host(skmd_context Ctx, void *Ptr) {
  if (Ctx)
    Ctx->S->freeHost(Ptr);
  else
    std::free(Ptr);
}

skmd_status skmd_set_arg_buffer(skmd_kernel K, unsigned Index, skmd_buffer B) {
  if (skmd_status S = checkIndex(K, Index, "skmd_set_arg_buffer"))
    return S;
  if (!B)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_set_arg_buffer: buffer is NULL");
  if (B->Ctx != K->Program->Ctx)
    return fail(SKMD_ERROR_INVALID_ARGUMENT,
                "skmd_set_arg_buffer: the buffer belongs to another context than the kernel");
  HostArg &A = K->Args[Index];
  A = HostArg();
  A.K = HostArg::Buffer;
  A.Data = B->Object->host();
  A.Bytes = B->Object->bytes();
  A.Object = B->Object;
  return ok();
}

skmd_status skmd_set_arg_scalar(skmd_kernel K, unsigned Index, const void *Value,
                                size_t Size) {
  return guarded([&] {
    if (skmd_status S = checkIndex(K, Index, "skmd_set_arg_scalar"))
      return S;
    if (!Value)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_set_arg_scalar: value is NULL");
    const KernelArg &Want = K->Loaded.Info->Args[Index];
    if (Want.Kind != ArgKind::Scalar)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "argument " + std::to_string(Index) + " ('" + Want.Name +
                      "') of kernel '" + K->Loaded.Info->Name + "' is a " +
                      std::string(argKindName(Want.Kind)) + ", not a value");
    if (Size != Want.Size)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "argument " + std::to_string(Index) + " ('" + Want.Name +
                      "', " + Want.TypeName + ") is " + std::to_string(Want.Size) +
                      " bytes, " + std::to_string(Size) + " given");
    HostArg &A = K->Args[Index];
    A = HostArg();
    A.K = HostArg::Scalar;
    auto *P = static_cast<const uint8_t *>(Value);
    A.Value.assign(P, P + Size);
    return ok();
  });
}

skmd_status skmd_set_arg_local(skmd_kernel K, unsigned Index, size_t Bytes) {
  if (skmd_status S = checkIndex(K, Index, "skmd_set_arg_local"))
    return S;
  HostArg &A = K->Args[Index];
  A = HostArg();
  A.K = HostArg::Local;
  A.LocalBytes = Bytes;
  return ok();
}

skmd_status skmd_launch(skmd_kernel K, uint32_t WorkDim, const size_t *Offset,
                        const size_t *Global, const size_t *Local,
                        const char *Plan, skmd_launch_report *Report) {
  return guarded([&] {
    if (!K)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_launch: kernel is NULL");
    auto Range = ndRange(WorkDim, Offset, Global, Local);
    if (!Range)
      return fail(Range.error());
    LaunchRecord R;
    Status S = K->Program->Ctx->S->launch(K->Loaded, K->Args, *Range, Plan ? Plan : "", R);
    fillReport(R, Range->totalGroups(), Report);
    return S ? ok() : fail(S.error());
  });
}

skmd_status skmd_launch_async(skmd_kernel K, uint32_t WorkDim,
                              const size_t *Offset, const size_t *Global,
                              const size_t *Local, const char *Plan,
                              skmd_event *Out) {
  return guarded([&] {
    if (!K || !Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_launch_async: NULL argument");
    auto Range = ndRange(WorkDim, Offset, Global, Local);
    if (!Range)
      return fail(Range.error());
    auto Ev = std::make_unique<skmd_event_s>();
    Ev->TotalGroups = Range->totalGroups();
    Ev->Done = K->Program->Ctx->S->launchAsync(K->Loaded, K->Args, *Range,
                                               Plan ? Plan : "", Ev->Record);
    *Out = Ev.release();
    return ok();
  });
}

skmd_status skmd_wait(skmd_event Ev, skmd_launch_report *Report) {
  return guarded([&] {
    if (!Ev)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_wait: event is NULL");
    std::unique_ptr<skmd_event_s> Own(Ev);
    Status S = Own->Done.get();
    fillReport(Own->Record, Own->TotalGroups, Report);
    return S ? ok() : fail(S.error());
  });
}

skmd_status skmd_batch_create(skmd_context Ctx, skmd_batch *Out) {
  return guarded([&] {
    if (!Ctx || !Out)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_create: NULL argument");
    auto B = std::make_unique<skmd_batch_s>();
    B->Ctx = Ctx;
    *Out = B.release();
    return ok();
  });
}

void skmd_batch_release(skmd_batch B) {
  if (!B)
    return;
  std::unique_ptr<skmd_batch_s> Own(B);
  if (Own->Done && !Own->Waited)
    Own->Done->wait();
}

namespace {

/// Operations may be added until the batch is submitted.
skmd_status addable(skmd_batch B, const char *Fn) {
  if (!B)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, std::string(Fn) + ": batch is NULL");
  if (B->Done)
    return fail(SKMD_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": the batch was submitted; make a new one");
  return ok();
}

int batchSide(size_t Index) { return Index == SKMD_HOST ? HostSide : int(Index); }

} // namespace

skmd_status skmd_batch_add_copy(skmd_batch B, skmd_buffer Buf, size_t Offset, size_t Bytes,
                                size_t From, size_t To, size_t *Op) {
  return guarded([&] {
    if (skmd_status S = addable(B, "skmd_batch_add_copy"); S != SKMD_SUCCESS)
      return S;
    if (!Buf || Buf->Ctx != B->Ctx)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_batch_add_copy: the buffer must be of the batch's context");
    size_t Devices = B->Ctx->S->devices().size();
    for (size_t Side : {From, To})
      if (Side != SKMD_HOST && Side >= Devices)
        return fail(SKMD_ERROR_INVALID_ARGUMENT,
                    "skmd_batch_add_copy: no device " + std::to_string(Side) + " (the context has " +
                        std::to_string(Devices) + "; SKMD_HOST for host memory)");
    BatchCopyOp C;
    C.Buffer = Buf->Object;
    C.Offset = Offset;
    C.Bytes = Bytes;
    C.From = batchSide(From);
    C.To = batchSide(To);
    B->Batch.Ops.push_back({C, {}});
    if (Op)
      *Op = B->Batch.Ops.size() - 1;
    return ok();
  });
}

skmd_status skmd_batch_add_kernel(skmd_batch B, skmd_kernel K, size_t Device, uint32_t WorkDim,
                                  const size_t *Offset, const size_t *Global,
                                  const size_t *Local, uint64_t First, uint64_t Count,
                                  size_t *Op) {
  return guarded([&] {
    if (skmd_status S = addable(B, "skmd_batch_add_kernel"); S != SKMD_SUCCESS)
      return S;
    if (!K || K->Program->Ctx != B->Ctx)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_batch_add_kernel: the kernel must be of the batch's context");
    if (Device >= B->Ctx->S->devices().size())
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_batch_add_kernel: no device " + std::to_string(Device));
    auto Range = ndRange(WorkDim, Offset, Global, Local);
    if (!Range)
      return fail(Range.error());
    BatchKernelOp P;
    P.Kernel = &K->Loaded;
    P.Args = K->Args;
    P.Range = *Range;
    P.Device = unsigned(Device);
    P.First = First;
    P.Count = Count;
    B->Batch.Ops.push_back({std::move(P), {}});
    if (Op)
      *Op = B->Batch.Ops.size() - 1;
    return ok();
  });
}

skmd_status skmd_batch_add_dependency(skmd_batch B, size_t Op, size_t After) {
  return guarded([&] {
    if (skmd_status S = addable(B, "skmd_batch_add_dependency"); S != SKMD_SUCCESS)
      return S;
    if (Op >= B->Batch.Ops.size() || After >= Op)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_batch_add_dependency: operation " + std::to_string(Op) +
                      " may depend only on an earlier one (" + std::to_string(After) +
                      " given, " + std::to_string(B->Batch.Ops.size()) + " operations)");
    B->Batch.Ops[Op].After.push_back(unsigned(After));
    return ok();
  });
}

skmd_status skmd_batch_predict(skmd_batch B, double *Ms) {
  return guarded([&] {
    if (!B || !Ms)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_predict: NULL argument");
    auto T = B->Ctx->S->predictBatch(B->Batch);
    if (!T)
      return fail(T.error());
    *Ms = T->Ms;
    return ok();
  });
}

skmd_status skmd_batch_submit(skmd_batch B) {
  return guarded([&] {
    if (skmd_status S = addable(B, "skmd_batch_submit"); S != SKMD_SUCCESS)
      return S;
    B->Done = B->Ctx->S->submitBatch(B->Batch);
    return ok();
  });
}

skmd_status skmd_batch_query(skmd_batch B, int *Done) {
  return guarded([&] {
    if (!B || !Done)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_query: NULL argument");
    if (!B->Done)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_query: the batch was not submitted");
    *Done = B->Waited || B->Done->wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    return ok();
  });
}

skmd_status skmd_batch_wait(skmd_batch B) {
  return guarded([&] {
    if (!B)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_wait: batch is NULL");
    if (!B->Done)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_wait: the batch was not submitted");
    if (!B->Waited) {
      B->Outcome = B->Done->get();
      B->Waited = true;
    }
    return B->Outcome ? ok() : fail(B->Outcome.error());
  });
}

skmd_status skmd_batch_times(skmd_batch B, size_t Op, double Times[4]) {
  return guarded([&] {
    if (!B || !Times)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_batch_times: NULL argument");
    if (!B->Waited || !B->Batch.Ran)
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_batch_times: the batch has not run (skmd_batch_wait first)");
    const BatchReport &R = B->Batch.Report;
    if (Op >= R.StartMs.size())
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "skmd_batch_times: no operation " + std::to_string(Op));
    Times[0] = R.Predicted.StartMs[Op];
    Times[1] = R.Predicted.EndMs[Op];
    Times[2] = R.StartMs[Op];
    Times[3] = R.EndMs[Op];
    return ok();
  });
}

skmd_status skmd_profile(skmd_kernel K, uint32_t WorkDim, const size_t *Offset,
                         const size_t *Global, const size_t *Local, const char *Devices,
                         unsigned Runs) {
  return guarded([&] {
    if (!K)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_profile: kernel is NULL");
    auto Range = ndRange(WorkDim, Offset, Global, Local);
    if (!Range)
      return fail(Range.error());
    Session &S = *K->Program->Ctx->S;
    std::vector<unsigned> Which;
    std::string List = Devices ? Devices : "";
    for (size_t Pos = 0; Devices && Pos <= List.size();) {
      size_t Comma = std::min(List.find(',', Pos), List.size());
      auto Index = S.deviceIndex(List.substr(Pos, Comma - Pos));
      if (!Index)
        return fail(SKMD_ERROR_NO_DEVICE, "skmd_profile: " + Index.error().message());
      Which.push_back(*Index);
      Pos = Comma + 1;
    }
    if (!Devices)
      for (unsigned D = 0; D < S.devices().size(); ++D)
        Which.push_back(D);
    Status St = S.profile(K->Loaded, K->Args, *Range, Which, Runs ? Runs : 2);
    return St ? ok() : fail(St.error());
  });
}

skmd_status skmd_check_model(skmd_kernel K, uint32_t WorkDim, const size_t *Offset,
                             const size_t *Global, const size_t *Local, const char *Device,
                             const uint64_t *Groups, size_t Count, unsigned Runs,
                             double *MeasuredMs, double *PredictedMs) {
  return guarded([&] {
    if (!K || !Device || !Groups || !MeasuredMs || !PredictedMs)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_check_model: NULL argument");
    auto Range = ndRange(WorkDim, Offset, Global, Local);
    if (!Range)
      return fail(Range.error());
    std::vector<uint64_t> Counts(Groups, Groups + Count);
    for (uint64_t G : Counts)
      if (G == 0 || G > Range->totalGroups())
        return fail(SKMD_ERROR_INVALID_ARGUMENT,
                    "skmd_check_model: " + std::to_string(G) + " groups of a launch of " +
                        std::to_string(Range->totalGroups()));
    Session &S = *K->Program->Ctx->S;
    auto Index = S.deviceIndex(Device);
    if (!Index)
      return fail(SKMD_ERROR_NO_DEVICE, "skmd_check_model: " + Index.error().message());
    auto C = S.checkModel(K->Loaded, K->Args, *Range, *Index, Counts, Runs ? Runs : 3);
    if (!C)
      return fail(C.error());
    for (size_t I = 0; I < Count; ++I) {
      MeasuredMs[I] = (*C)[I].MeasuredMs;
      PredictedMs[I] = (*C)[I].PredictedMs;
    }
    return ok();
  });
}

void skmd_set_explain(skmd_context Ctx, int On) {
  if (Ctx)
    Ctx->S->setExplain(On != 0);
}

void skmd_set_progress(skmd_context Ctx, skmd_progress_fn Fn, void *User) {
  if (!Ctx)
    return;
  if (!Fn)
    Ctx->S->setProgress({});
  else
    Ctx->S->setProgress([Fn, User](const std::string &Line) { Fn(Line.c_str(), User); });
}

} // extern "C"
