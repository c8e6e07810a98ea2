//===- BatchLatency.cpp - The batch predictor against measured batches ----===//
//
//   batch-latency [--devices=LIST] [--batches=N] [--seed=N] [--max-ops=N]
//                 [--max-mib=N] [--db=FILE] [--bundles-dir=DIR] [--json=FILE]
//                 [--trace=FILE] [--compare]
//
// Random batches of 2 to --max-ops operations over the devices opened: copies
// of 1 to --max-mib MiB between host memory (page-locked where the device
// has it, or pageable) and a device, either way, and between two devices
// (a fifth of the copies, where there are two); kernel pieces on the
// devices (the spin kernel, set to run 0.2-10 ms alone) and on the CPU
// (vector add over host arrays of 16-48 M floats, beyond the last-level
// cache, which shares host memory and cores with the copies);
// some operations depend on an earlier one of their device. Each kernel
// piece's time alone is measured first (the batch method takes kernel
// times as given). Each batch is predicted (batch/Prediction.h) and run by
// the engine in the order chosen (executor/BatchEngine.h), twice, the faster
// kept; the error is (predicted - measured) / measured of the batch's time.
//
// --compare also runs every batch with the paper's two baselines: time
// division (one copy at a time, in the issue order) and bandwidth
// allocation (every copy paced to an equal share of its route's rate alone,
// the share fixed by the number of copies in the batch), and reports their
// times over the engine's. --trace writes the batch predicted worst as a
// Chrome trace: its operations on their engines, as run and as predicted.
//
//===----------------------------------------------------------------------===//
#include "executor/BatchEngine.h"
#include "common/ArgSpecs.h"
#include "common/Trace.h"
#include "batch/Machine.h"
#include "batch/Topology.h"
#include "bundle/Bundle.h"
#include "devices/cpu/CpuDevice.h"
#include "launch/Launcher.h"
#include "executor/Schedule.h"
#include "model/ProfileDatabase.h"
#include "session/Devices.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#ifndef SKMD_BENCH_BUNDLES_DIR
#define SKMD_BENCH_BUNDLES_DIR "."
#endif

using namespace skmd;
using tools::die;

namespace {

template <typename T> T check(Result<T> R, const std::string &What) {
  if (!R)
    die(What + ": " + R.error().message());
  return std::move(*R);
}

void check(Status S, const std::string &What) {
  if (!S)
    die(What + ": " + S.error().message());
}

struct Options {
  std::string Devices, Db, BundlesDir = SKMD_BENCH_BUNDLES_DIR, Json, Trace;
  unsigned Batches = 200, MaxOps = 16, MaxMiB = 32;
  uint64_t Seed = 1;
  bool Compare = false;
};

const char *Usage =
    "usage: batch-latency [options]\n"
    "Random batches of copies and kernel pieces over the devices, each predicted\n"
    "by the batch model and run by the batch engine; prints the prediction's\n"
    "error per batch and its median and 90th percentile.\n"
    "  --devices=LIST   devices to open, as skmd_init takes them (default: all)\n"
    "  --batches=N      batches to run (default 200)\n"
    "  --seed=N         the random batches' seed (default 1)\n"
    "  --max-ops=N      operations per batch, 2 to N (default 16)\n"
    "  --max-mib=N      largest copy, MiB (default 32)\n"
    "  --db=FILE        the profile database with the measured routes\n"
    "                   (default: $SKMD_PROFILE_DB, else ~/.cache/skmd/profiles.sqlite)\n"
    "  --bundles-dir=DIR  where spin.skmd and vector_add.skmd are\n"
    "  --json=FILE      every batch's operations and times\n"
    "  --trace=FILE     the batch predicted worst as a Chrome trace (Perfetto):\n"
    "                   its operations on their engines, run and predicted\n"
    "  --compare        also run each batch by time division and bandwidth\n"
    "                   allocation (the paper's baselines)\n";

unsigned count(const char *V, const char *Name, unsigned Least) {
  uint64_t N = tools::parseCount(V, Name);
  if (N < Least || N > 1000000)
    die(std::string(Name) + " needs a whole number of at least " + std::to_string(Least));
  return unsigned(N);
}

Options parse(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Name) { return tools::optionValue(Argc, Argv, I, Name); };
    if (A == "--help" || A == "-h") {
      std::fputs(Usage, stdout);
      std::exit(0);
    } else if (const char *V = Value("--devices")) {
      O.Devices = V;
    } else if (const char *V = Value("--batches")) {
      O.Batches = count(V, "--batches", 1);
    } else if (const char *V = Value("--seed")) {
      O.Seed = count(V, "--seed", 0);
    } else if (const char *V = Value("--max-ops")) {
      O.MaxOps = count(V, "--max-ops", 2);
    } else if (const char *V = Value("--max-mib")) {
      O.MaxMiB = count(V, "--max-mib", 1);
    } else if (const char *V = Value("--db")) {
      O.Db = V;
    } else if (const char *V = Value("--bundles-dir")) {
      O.BundlesDir = V;
    } else if (const char *V = Value("--json")) {
      O.Json = V;
    } else if (const char *V = Value("--trace")) {
      O.Trace = V;
    } else if (A == "--compare") {
      O.Compare = true;
    } else {
      die("unknown argument '" + A + "' (see --help)");
    }
  }
  return O;
}

double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0)
      .count();
}

/// Memory a batch's copies use: per device, slots of --max-mib MiB on the
/// device and in host memory of both kinds, one per operation.
struct Slots {
  Device *On = nullptr;
  std::vector<DeviceMemory> Mem;
  std::vector<void *> Pinned, Pageable;
  bool HasPinned = false;
  ~Slots() {
    for (DeviceMemory M : Mem)
      On->release(M);
    for (void *P : Pinned)
      On->freePinnedHost(P);
    for (void *P : Pageable)
      std::free(P);
  }
};

/// A kernel loaded on one device.
struct Loaded {
  std::shared_ptr<DeviceModule> Module;
  std::unique_ptr<DeviceKernel> Kernel;
};

Loaded load(Device &D, const Bundle &B, const char *Name) {
  const KernelInfo *K = B.metadata().findKernel(Name);
  if (!K)
    die(std::string("the bundle has no kernel ") + Name);
  Loaded L;
  L.Module = check(D.loadModule(B), "loading " + std::string(Name) + " on " + D.info().Name);
  L.Kernel = check(D.loadKernel(L.Module, *K), "loading " + std::string(Name) + " on " +
                                                   D.info().Name);
  return L;
}

/// Where a copy between host memory and a device moves its bytes.
struct HostCopy {
  Device *D = nullptr;
  DeviceMemory Mem;
  void *Host = nullptr;
  bool In = true;
};

/// The work of copying \p Bytes at \p C: one copy, or, given \p PacedTo
/// (bytes per ms), 1-MiB chunks each started no sooner than that rate
/// allows (bandwidth allocation's fixed share).
std::function<Status()> hostCopyWork(const HostCopy &C, uint64_t Bytes, double PacedTo = 0) {
  return [C, Bytes, PacedTo] {
    const uint64_t Chunk = PacedTo > 0 ? uint64_t(1) << 20 : std::max<uint64_t>(Bytes, 1);
    auto T0 = std::chrono::steady_clock::now();
    for (uint64_t At = 0; At < Bytes; At += Chunk) {
      uint64_t N = std::min(Chunk, Bytes - At);
      char *Host = static_cast<char *>(C.Host) + At;
      Status St = C.In ? C.D->copyIn(C.Mem, At, Host, N) : C.D->copyOut(Host, C.Mem, At, N);
      if (St && C.In)
        St = C.D->finishCopies();
      if (!St)
        return St;
      if (PacedTo > 0) {
        double Due = double(At + N) / PacedTo, Now = msSince(T0);
        if (Due > Now)
          std::this_thread::sleep_for(std::chrono::microseconds(int64_t((Due - Now) * 1e3)));
      }
    }
    return Status::success();
  };
}

DeviceArg bufferArg(uint64_t Address) {
  DeviceArg A;
  A.K = DeviceArg::Buffer;
  A.Address = Address;
  return A;
}

DeviceArg uintArg(uint32_t V) {
  DeviceArg A;
  A.K = DeviceArg::Scalar;
  A.Bytes.resize(4);
  std::memcpy(A.Bytes.data(), &V, 4);
  return A;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N ? (N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2) : 0;
}

double percentile(std::vector<double> V, double P) {
  std::sort(V.begin(), V.end());
  if (V.empty())
    return 0;
  size_t I = size_t(std::ceil(P * double(V.size()))) - 1;
  return V[std::min(I, V.size() - 1)];
}

} // namespace

int main(int Argc, char **Argv) {
  tools::ToolName = "batch-latency";
  Options O = parse(Argc, Argv);
  auto Opened = check(openDevices(O.Devices), "opening devices");
  std::vector<Device *> Devices;
  for (auto &D : Opened.Devices)
    Devices.push_back(D.get());
  auto Db = check(ProfileDatabase::open(O.Db), "the profile database");
  auto Where = check(discoverTopology(Devices), "the topology");
  auto M = check(measuredMachine(Devices, Opened.Cpu, *Db,
                                 [](const std::string &Line) {
                                   std::fprintf(stderr, "batch-latency: %s\n", Line.c_str());
                                 },
                                 &Where),
                 "measuring the routes");
  DeviceWorkers Workers(std::max<size_t>(2, Devices.size()) * Schedule::StreamsPerDevice);
  EngineCost Engine = measureEngineCost(Workers);
  M.SetupMs = Engine.SetupMs;
  M.HandoffMs = Engine.HandoffMs;
  std::printf("batch-latency: %u batches of 2-%u operations, copies up to %u MiB, seed %llu\n",
              O.Batches, O.MaxOps, O.MaxMiB, (unsigned long long)O.Seed);
  std::printf("devices:");
  for (Device *D : Devices)
    std::printf(" %s (%s)", D->info().Name.c_str(), D->info().Description.c_str());
  std::printf("\n%s", describeRoutes(M).c_str());
  std::printf("the engine: %.4f ms to start a batch, %.4f ms from an operation to one on "
              "another engine that waits for it\n",
              M.SetupMs, M.HandoffMs);

  const uint64_t SlotBytes = uint64_t(O.MaxMiB) << 20;
  auto Spin = check(Bundle::fromFile(O.BundlesDir + "/spin.skmd"), "spin.skmd");
  auto Add = check(Bundle::fromFile(O.BundlesDir + "/vector_add.skmd"), "vector_add.skmd");

  // Per device: copy slots, its kernel, and the kernel's grid.
  std::vector<std::unique_ptr<Slots>> Memory(Devices.size());
  std::vector<Loaded> Kernels(Devices.size());
  std::vector<NDRange> Grids(Devices.size());
  std::vector<DeviceMemory> SpinOut(Devices.size());
  std::vector<int> CopyDevices;
  // The CPU's vector add: three host arrays of up to 48 M floats.
  const uint64_t CpuFloats = 48u << 20;
  std::vector<float> A(CpuFloats, 1.0f), B(CpuFloats, 2.0f), C(CpuFloats, 0.0f);
  for (size_t I = 0; I < Devices.size(); ++I) {
    Device &D = *Devices[I];
    if (D.info().SharesHostMemory) {
      Kernels[I] = load(D, Add, "vector_add");
      continue;
    }
    CopyDevices.push_back(int(I));
    auto S = std::make_unique<Slots>();
    S->On = &D;
    for (unsigned K = 0; K < O.MaxOps; ++K) {
      S->Mem.push_back(check(D.allocate(SlotBytes), "device memory on " + D.info().Name));
      void *P = D.allocPinnedHost(SlotBytes);
      S->HasPinned = P != nullptr;
      if (P) {
        std::memset(P, 1, SlotBytes);
        S->Pinned.push_back(P);
      }
      void *Q = std::malloc(SlotBytes);
      if (!Q)
        die("no host memory for the copies");
      std::memset(Q, 1, SlotBytes);
      S->Pageable.push_back(Q);
    }
    Memory[I] = std::move(S);
    Kernels[I] = load(D, Spin, "spin");
    NDRange &R = Grids[I];
    R.LocalSize = {256, 1, 1};
    R.NumGroups = {uint64_t(std::max(1u, D.info().ComputeUnits)) * 8, 1, 1};
    SpinOut[I] = check(D.allocate(R.totalGroups() * 256 * sizeof(float)), "spin's output");
  }
  if (CopyDevices.empty())
    die("no device to copy to: open one besides the CPU (--devices=cpu,discrete or cuda)");

  // A kernel piece: what it runs, set up by its parameter (iterations, or
  // the CPU's floats).
  auto kernelWork = [&](int Dev, uint32_t Param) -> std::function<Status()> {
    Device &D = *Devices[Dev];
    if (D.info().SharesHostMemory) {
      NDRange R;
      R.LocalSize = {256, 1, 1};
      R.NumGroups = {Param / 256, 1, 1};
      std::vector<DeviceArg> Args = {bufferArg(uint64_t(A.data())), bufferArg(uint64_t(B.data())),
                                     bufferArg(uint64_t(C.data())), uintArg(Param)};
      return [&D, &K = *Kernels[Dev].Kernel, Args, R] {
        return D.run(K, Args, R, 0, R.totalGroups());
      };
    }
    std::vector<DeviceArg> Args = {bufferArg(SpinOut[Dev].Address), uintArg(Param)};
    return [&D, &K = *Kernels[Dev].Kernel, Args, R = Grids[Dev]] {
      return D.run(K, Args, R, 0, R.totalGroups());
    };
  };
  auto aloneMs = [&](const std::function<Status()> &Work) {
    double Best = 1e300;
    for (int Run = 0; Run < 3; ++Run) {
      auto T0 = std::chrono::steady_clock::now();
      check(Work(), "a kernel piece alone");
      double Ms = msSince(T0);
      if (Run > 0)
        Best = std::min(Best, Ms);
    }
    return Best;
  };
  // Iterations of spin per ms alone, per device.
  std::map<int, double> ItersPerMs;
  for (int Dev : CopyDevices) {
    uint32_t Iters = 4096;
    double Ms = aloneMs(kernelWork(Dev, Iters));
    while (Ms < 2 && Iters < (1u << 28)) {
      Iters *= 4;
      Ms = aloneMs(kernelWork(Dev, Iters));
    }
    ItersPerMs[Dev] = double(Iters) / Ms;
  }

  std::mt19937_64 Rng(O.Seed);
  auto uniform = [&](double Lo, double Hi) {
    return std::uniform_real_distribution<double>(Lo, Hi)(Rng);
  };
  auto pick = [&](size_t N) { return size_t(std::uniform_int_distribution<size_t>(0, N - 1)(Rng)); };

  std::vector<double> Errors, TimeDivision, BandwidthAllocation;
  // The batch predicted worst so far, for --trace.
  std::vector<tools::TracedOperation> Worst;
  std::string WorstName;
  double WorstError = -1;
  std::ofstream Json;
  if (!O.Json.empty()) {
    Json.open(O.Json);
    if (!Json)
      die("cannot write " + O.Json);
    Json << "[\n";
  }
  std::printf("\n%6s %4s %12s %12s %8s%s\n", "batch", "ops", "predicted ms", "measured ms",
              "error", O.Compare ? "   time div.   bw alloc." : "");
  for (unsigned Batch = 0; Batch < O.Batches; ++Batch) {
    unsigned N = 2 + unsigned(pick(O.MaxOps - 1));
    std::vector<BatchOp> Ops;
    std::vector<std::function<Status()>> Work;
    std::vector<int> OpDevice;
    std::vector<std::optional<HostCopy>> Places;
    std::map<int, unsigned> SlotsUsed;
    auto copyBytes = [&] {
      return std::min<uint64_t>(SlotBytes,
                                uint64_t(std::exp2(uniform(20, std::log2(double(SlotBytes))))));
    };
    for (unsigned I = 0; I < N; ++I) {
      BatchOp Op;
      Places.emplace_back();
      bool Kernel = uniform(0, 1) < 0.4;
      int Dev;
      if (Kernel) {
        Dev = int(pick(Devices.size()));
        Op.What = BatchOp::Kernel;
        Op.Device = Dev;
        uint32_t Param;
        if (Devices[Dev]->info().SharesHostMemory) {
          // 16-48 M floats (192-576 MB): beyond the last-level cache, as
          // a launch's buffers are.
          Param = uint32_t(uniform(16, 48) * (1 << 20)) & ~255u;
          Op.HostBytes = 12ull * Param;
          Op.HostWrittenBytes = 4ull * Param;
          Op.Label = "vector add on " + Devices[Dev]->info().Name + ", " +
                     std::to_string(Param) + " floats";
        } else {
          double Target = std::exp(uniform(std::log(0.2), std::log(10.0)));
          Param = uint32_t(std::max(1.0, Target * ItersPerMs[Dev]));
          Op.Label = "spin on " + Devices[Dev]->info().Name;
        }
        Work.push_back(kernelWork(Dev, Param));
        Op.KernelMs = aloneMs(Work.back());
      } else if (CopyDevices.size() >= 2 && uniform(0, 1) < 0.2) {
        // Device to device: from one device's slot to another's.
        size_t A = pick(CopyDevices.size()), B = pick(CopyDevices.size() - 1);
        B += B >= A;
        int From = CopyDevices[A];
        Dev = CopyDevices[B];
        DeviceMemory Src = Memory[From]->Mem[SlotsUsed[From]++];
        DeviceMemory Dst = Memory[Dev]->Mem[SlotsUsed[Dev]++];
        uint64_t Bytes = copyBytes();
        Op.Path = Route{From, Dev, false};
        Op.Bytes = Bytes;
        Op.Label = routeName(Op.Path, M.deviceNames()) + ", " + std::to_string(Bytes) + " bytes";
        Device &To = *Devices[Dev], &Source = *Devices[From];
        Work.push_back([&To, &Source, Dst, Src, Bytes] {
          return To.copyPeer(Dst, 0, Source, Src, 0, Bytes);
        });
      } else {
        Dev = CopyDevices[pick(CopyDevices.size())];
        Slots &S = *Memory[Dev];
        unsigned Slot = SlotsUsed[Dev]++;
        bool In = uniform(0, 1) < 0.5;
        bool Pinned = S.HasPinned && uniform(0, 1) < 0.5;
        uint64_t Bytes = copyBytes();
        Op.Path = In ? Route{HostSide, Dev, !Pinned} : Route{Dev, HostSide, !Pinned};
        Op.Bytes = Bytes;
        Op.Label = routeName(Op.Path, M.deviceNames()) + ", " + std::to_string(Bytes) + " bytes";
        Places.back() = HostCopy{Devices[Dev], S.Mem[Slot], Pinned ? S.Pinned[Slot] : S.Pageable[Slot],
                             In};
        Work.push_back(hostCopyWork(*Places.back(), Bytes));
      }
      // Half the operations wait for an earlier one of their device.
      std::vector<unsigned> Same;
      for (unsigned E = 0; E < I; ++E)
        if (OpDevice[E] == Dev)
          Same.push_back(E);
      if (!Same.empty() && uniform(0, 1) < 0.5)
        Op.After.push_back(Same[pick(Same.size())]);
      OpDevice.push_back(Dev);
      Ops.push_back(std::move(Op));
    }
    auto Predicted = check(predictBatch(M, Ops), "predicting batch " + std::to_string(Batch));
    double Measured = 1e300;
    BatchReport Kept;
    for (int Run = 0; Run < 2; ++Run) {
      auto R = check(runBatch(M, Ops, Work, Workers, {&Predicted.Issued}),
                     "running batch " + std::to_string(Batch));
      check(R.Error, "batch " + std::to_string(Batch));
      if (R.Ms < Measured) {
        Measured = R.Ms;
        Kept = std::move(R);
      }
    }
    double Err = (Predicted.Ms - Measured) / Measured;
    if (!O.Trace.empty() && std::fabs(Err) > WorstError) {
      WorstError = std::fabs(Err);
      Worst.clear();
      for (size_t I = 0; I < Ops.size(); ++I)
        Worst.push_back({Ops[I].Label, engineName(M, Kept.Engines[I]), Kept.StartMs[I],
                         Kept.EndMs[I], true, Predicted.StartMs[I], Predicted.EndMs[I]});
      WorstName = "batch " + std::to_string(Batch);
    }
    Errors.push_back(std::fabs(Err));
    std::printf("%6u %4u %12.3f %12.3f %+7.1f%%", Batch, N, Predicted.Ms, Measured, 100 * Err);

    double Divided = 0, Allocated = 0;
    if (O.Compare) {
      // Time division: every copy behind the one issued before it.
      IssueOrder Division = Predicted.Issued;
      Division.Name = "time division";
      Division.Behind.clear();
      int Previous = -1;
      for (unsigned Op : Division.Order)
        if (Ops[Op].What == BatchOp::Copy) {
          if (Previous >= 0)
            Division.Behind.push_back({Op, unsigned(Previous)});
          Previous = int(Op);
        }
      double Best = 1e300;
      for (int Run = 0; Run < 2; ++Run) {
        auto R = check(runBatch(M, Ops, Work, Workers, {&Division}), "time division");
        Best = std::min(Best, R.Ms);
      }
      Divided = Best / Measured;
      // Bandwidth allocation: each copy paced, chunk by chunk, to its
      // route's rate alone over the number of copies in the batch.
      unsigned Copies = 0;
      for (const BatchOp &Op : Ops)
        Copies += Op.What == BatchOp::Copy;
      std::vector<std::function<Status()>> Paced = Work;
      // Host copies are paced; device-to-device ones keep their own link.
      for (size_t I = 0; I < Ops.size(); ++I)
        if (Places[I])
          Paced[I] = hostCopyWork(*Places[I], Ops[I].Bytes,
                                  bytesPerMs(M.Routes.alone(Ops[I].Path)->GBps) / Copies);
      Best = 1e300;
      for (int Run = 0; Run < 2; ++Run) {
        auto R = check(runBatch(M, Ops, Paced, Workers, {&Predicted.Issued}),
                       "bandwidth allocation");
        Best = std::min(Best, R.Ms);
      }
      Allocated = Best / Measured;
      TimeDivision.push_back(Divided);
      BandwidthAllocation.push_back(Allocated);
      std::printf("   %8.2fx   %8.2fx", Divided, Allocated);
    }
    std::printf("   %s\n", Predicted.Issued.Name.c_str());
    std::fflush(stdout);
    if (Json) {
      Json << (Batch ? ",\n" : "") << "  {\"batch\": " << Batch << ", \"order\": \""
           << Predicted.Issued.Name << "\", \"predicted_ms\": " << Predicted.Ms
           << ", \"measured_ms\": " << Measured;
      if (O.Compare)
        Json << ", \"time_division\": " << Divided << ", \"bandwidth_allocation\": " << Allocated;
      Json << ", \"ops\": [";
      for (size_t I = 0; I < Ops.size(); ++I) {
        Json << (I ? ", " : "") << "{\"label\": \"" << Ops[I].Label << "\"";
        if (Ops[I].What == BatchOp::Kernel)
          Json << ", \"kernel_ms\": " << Ops[I].KernelMs;
        Json << ", \"after\": [";
        for (size_t E = 0; E < Ops[I].After.size(); ++E)
          Json << (E ? ", " : "") << Ops[I].After[E];
        Json << "], \"predicted\": [" << Predicted.StartMs[I] << ", " << Predicted.EndMs[I]
             << "], \"measured\": [" << Kept.StartMs[I] << ", " << Kept.EndMs[I] << "]}";
      }
      Json << "]}";
    }
  }
  if (Json)
    Json << "\n]\n";
  if (!O.Trace.empty())
    tools::writeTrace(O.Trace, WorstName, Worst);
  std::printf("\nprediction error |predicted - measured| / measured over %zu batches: "
              "median %.1f%%, 90th percentile %.1f%%, largest %.1f%%\n",
              Errors.size(), 100 * median(Errors), 100 * percentile(Errors, 0.9),
              100 * percentile(Errors, 1.0));
  if (O.Compare) {
    auto Geo = [](const std::vector<double> &V) {
      double S = 0;
      for (double X : V)
        S += std::log(X);
      return V.empty() ? 0 : std::exp(S / double(V.size()));
    };
    std::printf("the paper's baselines over the batch engine (geometric mean): time division "
                "%.2fx, bandwidth allocation %.2fx\n",
                Geo(TimeDivision), Geo(BandwidthAllocation));
  }
  for (size_t I = 0; I < Devices.size(); ++I)
    if (SpinOut[I].Bytes)
      Devices[I]->release(SpinOut[I]);
  return 0;
}
