//===- Api.cpp - SKMD's C API over the launcher ---------------------------===//
//
// Handles own C++ objects; every entry point catches what could escape
// (std::bad_alloc included) and turns it into a status and a message, so no
// exception crosses into C.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"

#include "api/Devices.h"
#include "devices/cuda/CudaDevice.h"
#include "launch/Launcher.h"
#include "partitioner/Explain.h"
#include "partitioner/ModelPlanner.h"
#include "partitioner/Plan.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <new>
#include <set>

using namespace skmd;

struct skmd_context_s {
  std::vector<std::unique_ptr<Device>> Devices;
  CpuDevice *Cpu = nullptr;
  std::unique_ptr<Launcher> Run;
  std::unique_ptr<ModelPlanner> Planner;
  /// SKMD_EXPLAIN=1: plans and outcomes to stderr.
  bool Explain = false;
  skmd_progress_fn Progress = nullptr;
  void *ProgressUser = nullptr;
  /// One launch at a time: devices (the CPU's pool first) are not shared
  /// between launches.
  std::mutex LaunchLock;
  std::set<skmd_program> Programs;
  std::set<skmd_buffer> Buffers;
  /// Pinned memory from skmd_alloc_host, freed with the driver.
  std::set<void *> Pinned;
};

struct skmd_program_s {
  skmd_context Ctx;
  std::unique_ptr<Bundle> Source;
  std::set<skmd_kernel> Kernels;
};

struct skmd_kernel_s {
  skmd_program Program;
  LoadedKernel Loaded;
  std::vector<HostArg> Args;
};

struct skmd_buffer_s {
  skmd_context Ctx;
  void *Host;
  size_t Bytes;
};

/// A launch's report, with how its plan was chosen and predicted.
struct LaunchRecord {
  LaunchReport Report;
  std::string Plan;
  std::optional<ModelPlan> Model;
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

std::vector<const DeviceInfo *> deviceInfos(skmd_context Ctx) {
  std::vector<const DeviceInfo *> Infos;
  for (auto &D : Ctx->Devices)
    Infos.push_back(&D->info());
  return Infos;
}

/// The pieces of \p Plan, and what the model expects of them.
Result<std::vector<Piece>> choosePlan(skmd_kernel K, const std::vector<HostArg> &Args,
                                      const NDRange &Range, const std::string &Plan,
                                      LaunchRecord &Record, std::string &NoModel) {
  skmd_context Ctx = K->Program->Ctx;
  std::vector<const DeviceInfo *> Infos = deviceInfos(Ctx);
  const KernelInfo &Info = *K->Loaded.Info;
  bool Default = Plan.empty();
  // Where groups may communicate, whether this split meets (the launcher
  // refuses it too; here the plans SKMD chose fall back to one device).
  auto Conflict = [&](const std::vector<Piece> &Pieces) -> Result<std::string> {
    return firstConflict(Info, Args, Range, Pieces);
  };
  if (Default || Plan == "auto" || Plan == "linear") {
    auto M = Ctx->Planner->plan(Plan == "linear" ? ModelPlanner::Method::Linear
                                                 : ModelPlanner::Method::Auto,
                                K->Loaded, Args, Range);
    if (M) {
      auto C = Conflict(M->Pieces);
      if (!C)
        return C.error();
      if (!C->empty()) {
        M = Ctx->Planner->plan(ModelPlanner::Method::Single, K->Loaded, Args, Range);
        if (!M)
          return M.error();
        M->Method += " (the split meets in this launch: " + *C + ")";
      }
    }
    if (M) {
      Record.Plan = M->Method;
      Record.Model = std::move(*M);
      return Record.Model->Pieces;
    }
    // The default falls back when the model cannot plan (no profiles, no
    // database); bad arguments are the launch's error either way.
    if (!Default || M.error().code() == ErrorCode::InvalidArgument)
      return M.error();
    NoModel = M.error().message();
    Record.Plan = "proportional (no model: " + NoModel + ")";
    auto Pieces = makePlan("proportional", Infos, Range.totalGroups(), Info.Name,
                           Info.whyNotPartitionable());
    if (!Pieces)
      return Pieces;
    auto C = Conflict(*Pieces);
    if (!C)
      return C.error();
    if (C->empty())
      return Pieces;
    Record.Plan += " on one device (the split meets in this launch: " + *C + ")";
    return makePlan("proportional", Infos, Range.totalGroups(), Info.Name, *C);
  }
  auto Pieces = makePlan(Plan, Infos, Range.totalGroups(), K->Loaded.Info->Name,
                         K->Loaded.Info->whyNotPartitionable());
  if (!Pieces)
    return Pieces;
  Record.Plan = Plan;
  if (Ctx->Explain) {
    if (auto M = Ctx->Planner->predict(*Pieces, Plan, K->Loaded, Args, Range))
      Record.Model = std::move(*M);
    else
      NoModel = M.error().message();
  }
  return Pieces;
}

/// Runs a launch with the context's devices, the lock held.
Status launchNow(skmd_kernel K, const std::vector<HostArg> &Args,
                 const NDRange &Range, const std::string &Plan,
                 LaunchRecord &Record) {
  skmd_context Ctx = K->Program->Ctx;
  std::lock_guard<std::mutex> Hold(Ctx->LaunchLock);
  auto Start = std::chrono::steady_clock::now();
  std::string NoModel;
  auto Pieces = choosePlan(K, Args, Range, Plan, Record, NoModel);
  if (!Pieces)
    return Pieces.error();
  double ChoosingMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
  std::vector<const DeviceInfo *> Infos = deviceInfos(Ctx);
  if (Ctx->Explain)
    std::fputs(explainPlan(K->Loaded.Info->Name, Record.Plan, *Pieces, Range.totalGroups(),
                           Infos, Record.Model ? &*Record.Model : nullptr, NoModel)
                   .c_str(),
               stderr);
  Status S = Ctx->Run->run(K->Loaded, Args, Range, *Pieces, Record.Report);
  Record.Report.PlanMs += ChoosingMs;
  Record.Report.TotalMs += ChoosingMs;
  if (Ctx->Explain && !Record.Report.Pieces.empty())
    std::fputs(explainOutcome(Record.Report, Infos, Record.Model ? &*Record.Model : nullptr)
                   .c_str(),
               stderr);
  return S;
}

/// Sends profiling progress where the context wants it.
void reportProgress(skmd_context Ctx, const std::string &Line) {
  if (Ctx->Progress)
    Ctx->Progress(Line.c_str(), Ctx->ProgressUser);
  else
    std::fprintf(stderr, "skmd: %s\n", Line.c_str());
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
    std::string Devices = Spec ? Spec : "";
    if (!Spec)
      if (const char *Env = std::getenv("SKMD_DEVICES"))
        Devices = Env;
    auto Found = openDevices(Devices);
    if (!Found)
      return fail(Found.error());
    auto Ctx = std::make_unique<skmd_context_s>();
    Ctx->Devices = std::move(Found->Devices);
    Ctx->Cpu = Found->Cpu;
    std::vector<Device *> Raw;
    for (auto &D : Ctx->Devices)
      Raw.push_back(D.get());
    Ctx->Run = std::make_unique<Launcher>(Raw, *Ctx->Cpu);
    unsigned CpuIndex = unsigned(std::find(Raw.begin(), Raw.end(), Ctx->Cpu) - Raw.begin());
    Ctx->Planner = std::make_unique<ModelPlanner>(Raw, CpuIndex, *Ctx->Run);
    if (const char *Profile = std::getenv("SKMD_PROFILE"); Profile && *Profile) {
      std::string P = Profile;
      if (P != "auto" && P != "off")
        return fail(SKMD_ERROR_INVALID_ARGUMENT,
                    "SKMD_PROFILE is '" + P + "'; it may be auto or off");
      Ctx->Planner->setAutoProfile(P == "auto");
    }
    if (const char *Explain = std::getenv("SKMD_EXPLAIN"))
      Ctx->Explain = std::string(Explain) != "" && std::string(Explain) != "0";
    skmd_context C = Ctx.get();
    C->Planner->setProgress([C](const std::string &Line) { reportProgress(C, Line); });
    *Out = Ctx.release();
    return ok();
  });
}

void skmd_release_context(skmd_context Ctx) {
  if (!Ctx)
    return;
  for (skmd_program P : std::set<skmd_program>(Ctx->Programs))
    skmd_release_program(P);
  for (skmd_buffer B : Ctx->Buffers)
    delete B;
  delete Ctx;
}

size_t skmd_device_count(skmd_context Ctx) { return Ctx ? Ctx->Devices.size() : 0; }

skmd_status skmd_get_device_info(skmd_context Ctx, size_t Index,
                                 skmd_device_info *Out) {
  if (!Ctx || !Out)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_get_device_info: NULL argument");
  if (Index >= Ctx->Devices.size())
    return fail(SKMD_ERROR_INVALID_ARGUMENT,
                "device " + std::to_string(Index) + " of " +
                    std::to_string(Ctx->Devices.size()));
  const DeviceInfo &I = Ctx->Devices[Index]->info();
  std::memset(Out, 0, sizeof *Out);
  copyName(Out->name, sizeof Out->name, I.Name);
  copyName(Out->description, sizeof Out->description, I.Description);
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
    if (Index >= Ctx->Devices.size())
      return fail(SKMD_ERROR_INVALID_ARGUMENT,
                  "device " + std::to_string(Index) + " of " +
                      std::to_string(Ctx->Devices.size()));
    Device &D = *Ctx->Devices[Index];
    *ToDevice = *ToHost = 0;
    if (D.info().SharesHostMemory || Bytes == 0)
      return ok();
    std::lock_guard<std::mutex> Hold(Ctx->LaunchLock);
    auto Mem = D.allocate(Bytes);
    if (!Mem)
      return fail(Mem.error());
    void *Host = skmd_alloc_host(Ctx, Bytes);
    if (!Host) {
      D.release(*Mem);
      return fail(SKMD_ERROR_OUT_OF_MEMORY, "skmd_measure_link: no host memory");
    }
    std::memset(Host, 1, Bytes);
    auto Best = [&](auto &&Copy) -> Result<double> {
      double Top = 0;
      for (int Run = 0; Run < 4; ++Run) {
        auto T = std::chrono::steady_clock::now();
        if (Status S = Copy(); !S)
          return S.error();
        double Sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - T).count();
        if (Run > 0)
          Top = std::max(Top, double(Bytes) / Sec / 1e9);
      }
      return Top;
    };
    auto In = Best([&] {
      Status S = D.copyIn(*Mem, 0, Host, Bytes);
      return S ? D.finishCopies() : S;
    });
    auto Out = In ? Best([&] { return D.copyOut(Host, *Mem, 0, Bytes); }) : In;
    D.release(*Mem);
    skmd_free_host(Ctx, Host);
    if (!In)
      return fail(In.error());
    if (!Out)
      return fail(Out.error());
    *ToDevice = *In;
    *ToHost = *Out;
    D.setLinkGBps(*In);
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
      return fail(SKMD_ERROR_NOT_FOUND, "the bundle (" + Meta.SourceFile +
                                            ") has no kernel '" + Name +
                                            "'; it has: " + Names);
    }
    auto K = std::make_unique<skmd_kernel_s>();
    K->Program = P;
    K->Loaded.Source = P->Source.get();
    K->Loaded.Info = Info;
    K->Args.resize(Info->Args.size());
    *Out = K.release();
    P->Kernels.insert(*Out);
    return ok();
  });
}

void skmd_release_kernel(skmd_kernel K) {
  if (!K)
    return;
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

skmd_status skmd_wrap_buffer(skmd_context Ctx, void *Host, size_t Bytes,
                             skmd_buffer *Out) {
  return guarded([&] {
    if (!Ctx || !Out || (!Host && Bytes))
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_wrap_buffer: NULL argument");
    *Out = new skmd_buffer_s{Ctx, Host, Bytes};
    Ctx->Buffers.insert(*Out);
    return ok();
  });
}

void skmd_release_buffer(skmd_buffer B) {
  if (!B)
    return;
  B->Ctx->Buffers.erase(B);
  delete B;
}

void *skmd_alloc_host(skmd_context Ctx, size_t Bytes) {
  if (!Ctx)
    return nullptr;
  bool Gpus = std::any_of(Ctx->Devices.begin(), Ctx->Devices.end(), [](auto &D) {
    return D->info().Kind == DeviceKind::Cuda;
  });
  if (Gpus) {
    void *P = CudaDevice::allocPinned(Bytes);
    if (P)
      Ctx->Pinned.insert(P);
    return P;
  }
  // No GPU to copy to: page-aligned memory does as well.
  size_t Rounded = (std::max<size_t>(Bytes, 1) + 4095) / 4096 * 4096;
  return std::aligned_alloc(4096, Rounded);
}

void skmd_free_host(skmd_context Ctx, void *Ptr) {
  if (!Ptr)
    return;
  if (Ctx && Ctx->Pinned.erase(Ptr)) {
    CudaDevice::freePinned(Ptr);
    return;
  }
  std::free(Ptr);
}


skmd_status skmd_set_arg_buffer(skmd_kernel K, unsigned Index, skmd_buffer B) {
  if (skmd_status S = checkIndex(K, Index, "skmd_set_arg_buffer"))
    return S;
  if (!B)
    return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_set_arg_buffer: buffer is NULL");
  HostArg &A = K->Args[Index];
  A = HostArg();
  A.K = HostArg::Buffer;
  A.Data = B->Host;
  A.Bytes = B->Bytes;
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
    Status S = launchNow(K, K->Args, *Range, Plan ? Plan : "", R);
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
    skmd_event_s *E = Ev.get();
    Ev->Done = std::async(std::launch::async,
                          [K, E, Args = K->Args, R = *Range,
                           P = std::string(Plan ? Plan : "")] {
                            return launchNow(K, Args, R, P, E->Record);
                          });
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

skmd_status skmd_profile(skmd_kernel K, uint32_t WorkDim, const size_t *Offset,
                         const size_t *Global, const size_t *Local, const char *Devices,
                         unsigned Runs) {
  return guarded([&] {
    if (!K)
      return fail(SKMD_ERROR_INVALID_ARGUMENT, "skmd_profile: kernel is NULL");
    auto Range = ndRange(WorkDim, Offset, Global, Local);
    if (!Range)
      return fail(Range.error());
    skmd_context Ctx = K->Program->Ctx;
    std::vector<unsigned> Which;
    std::string List = Devices ? Devices : "";
    for (size_t Pos = 0; Devices && Pos <= List.size();) {
      size_t Comma = std::min(List.find(',', Pos), List.size());
      std::string Name = List.substr(Pos, Comma - Pos);
      auto It = std::find_if(Ctx->Devices.begin(), Ctx->Devices.end(),
                             [&](auto &D) { return D->info().Name == Name; });
      if (It == Ctx->Devices.end()) {
        std::string Names;
        for (auto &D : Ctx->Devices)
          Names += (Names.empty() ? "" : ", ") + D->info().Name;
        return fail(SKMD_ERROR_NO_DEVICE,
                    "skmd_profile: no device '" + Name + "' (devices: " + Names + ")");
      }
      Which.push_back(unsigned(It - Ctx->Devices.begin()));
      Pos = Comma + 1;
    }
    if (!Devices)
      for (unsigned D = 0; D < Ctx->Devices.size(); ++D)
        Which.push_back(D);
    std::lock_guard<std::mutex> Hold(Ctx->LaunchLock);
    Status S = Ctx->Planner->profile(K->Loaded, K->Args, *Range, Which, Runs ? Runs : 2);
    return S ? ok() : fail(S.error());
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
    skmd_context Ctx = K->Program->Ctx;
    auto It = std::find_if(Ctx->Devices.begin(), Ctx->Devices.end(),
                           [&](auto &D) { return D->info().Name == Device; });
    if (It == Ctx->Devices.end())
      return fail(SKMD_ERROR_NO_DEVICE,
                  std::string("skmd_check_model: no device '") + Device + "'");
    std::lock_guard<std::mutex> Hold(Ctx->LaunchLock);
    auto C = Ctx->Planner->checkModel(K->Loaded, K->Args, *Range,
                                      unsigned(It - Ctx->Devices.begin()), Counts,
                                      Runs ? Runs : 3);
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
    Ctx->Explain = On != 0;
}

void skmd_set_progress(skmd_context Ctx, skmd_progress_fn Fn, void *User) {
  if (!Ctx)
    return;
  Ctx->Progress = Fn;
  Ctx->ProgressUser = User;
}

} // extern "C"
