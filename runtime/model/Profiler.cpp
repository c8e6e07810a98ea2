//===- Profiler.cpp - Dry runs that feed the performance model ------------===//
#include "model/Profiler.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace skmd {

std::string kernelKey(const BundleMetadata &Meta, const KernelInfo &Kernel) {
  std::string Options;
  for (const std::string &O : Meta.CompileOptions)
    Options += " " + O;
  return Meta.SourceHash + ":" + Kernel.Name + ":" + Options;
}

const std::string &hostName() {
  static const std::string Host = [] {
    char Name[256] = {};
    if (gethostname(Name, sizeof Name - 1) != 0 || !Name[0])
      return std::string("localhost");
    return std::string(Name);
  }();
  return Host;
}

std::string deviceKey(const DeviceInfo &Device) {
  // Nodes that share a profile database (a home folder on NFS) each have
  // a gpu0 and a cpu; the host's name keeps their profiles apart.
  return Device.Name + ":" + Device.Description + "@" + hostName();
}

LaunchShape launchShape(const KernelInfo &K, const std::vector<HostArg> &Args,
                        const NDRange &Range) {
  LaunchShape Shape;
  // Built at every launch the planner sees: appends, not a stream.
  std::string Text = "buffers=";
  uint64_t Bytes = 0;
  bool First = true;
  for (const HostArg &A : Args)
    if (A.K == HostArg::Buffer) {
      Text += (First ? "" : ",") + std::to_string(A.Bytes);
      Bytes += A.Bytes;
      First = false;
    }
  Shape.Vars.push_back(double(Bytes) / 1e6);
  Text += ";scalars=";
  LaunchValues LV = launchValues(K, Args, Range);
  First = true;
  for (const std::optional<int64_t> &V : LV.Args)
    if (V) {
      Text += (First ? "" : ",") + std::to_string(*V);
      Shape.Vars.push_back(double(*V));
      First = false;
    }
  uint64_t Items = Range.totalGroups() * Range.LocalSize[0] * Range.LocalSize[1] *
                   Range.LocalSize[2];
  Shape.Vars.push_back(double(Items));
  auto Dims = [](const std::array<uint64_t, 3> &D) {
    return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" + std::to_string(D[2]);
  };
  Text += ";groups=" + Dims(Range.NumGroups) + ";local=" + Dims(Range.LocalSize);
  Shape.Text = std::move(Text);
  Shape.TotalGroups = Range.totalGroups();
  return Shape;
}

void evictCaches() {
  static std::mutex Lock;
  static std::vector<char> Buffer;
  std::lock_guard<std::mutex> Hold(Lock);
  if (Buffer.empty()) {
    long L3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    uint64_t Bytes = L3 > 0 ? 2 * uint64_t(L3) : 128ull << 20;
    Buffer.resize(std::clamp<uint64_t>(Bytes, 64ull << 20, 512ull << 20));
  }
  static char Fill = 0;
  std::memset(Buffer.data(), ++Fill, Buffer.size());
  asm volatile("" : : "r"(Buffer.data()) : "memory");
}

std::vector<uint64_t> profileCounts(uint64_t Total) {
  std::vector<uint64_t> Counts;
  // A launch of at most 16 groups: a quarter, a half, three quarters and
  // all of them (fewer when the launch has fewer than 4 groups).
  if (Total <= 16) {
    for (uint64_t K = 1; K <= 4; ++K)
      if (uint64_t C = (Total * K + 2) / 4; C > 0 && (Counts.empty() || C > Counts.back()))
        Counts.push_back(C);
    return Counts;
  }
  for (uint64_t C = 4; C <= 16 && C < Total; C += 4)
    Counts.push_back(C);
  for (uint64_t C = 32; C < Total; C *= 2)
    Counts.push_back(C);
  if (Total)
    Counts.push_back(Total);
  return Counts;
}

Status profileDevice(GroupProfiler &Run, LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                     const NDRange &Range, unsigned Device, const DeviceInfo &Info,
                     ProfileDatabase &Db, const ProfileOptions &Options) {
  LaunchShape Shape = launchShape(*Kernel.Info, Args, Range);
  std::string KernelId = kernelKey(Kernel.Source->metadata(), *Kernel.Info);
  std::string DeviceId = deviceKey(Info);
  // One untimed run first: loading the kernel, first touches of memory.
  PieceReport Warm;
  if (Status S = Run.profile(Kernel, Args, Range, Device, 1, Warm); !S)
    return S;
  // Passes over every count, best of the passes per count: repeats spread
  // in time, so that a moment of interference (a shared host) spoils one
  // run of a count, not all of them.
  std::vector<uint64_t> Counts = profileCounts(Range.totalGroups());
  std::vector<PieceReport> Best(Counts.size());
  const unsigned Passes = std::max(1u, Options.Runs);
  for (unsigned Pass = 0; Pass < Passes; ++Pass)
    for (size_t I = 0; I < Counts.size(); ++I) {
      PieceReport P;
      evictCaches();
      if (Status S = Run.profile(Kernel, Args, Range, Device, Counts[I], P); !S)
        return S;
      if (Pass == 0 || P.KernelMs < Best[I].KernelMs)
        Best[I] = P;
      if (Options.Progress && Pass + 1 == Passes) {
        std::ostringstream Line;
        Line << Info.Name << ": " << Counts[I] << " of " << Range.totalGroups()
             << " groups, kernel " << Best[I].KernelMs << " ms, copies "
             << Best[I].InputMs + Best[I].OutputMs << " ms";
        Options.Progress(Line.str());
      }
    }
  for (size_t I = 0; I < Counts.size(); ++I) {
    ProfileRow Row;
    Row.Kernel = KernelId;
    Row.Device = DeviceId;
    Row.Shape = Shape.Text;
    Row.Vars = Shape.Vars;
    Row.Groups = Counts[I];
    Row.TotalGroups = Range.totalGroups();
    Row.KernelMs = Best[I].KernelMs;
    Row.InputMs = Best[I].InputMs;
    Row.OutputMs = Best[I].OutputMs;
    Row.BytesIn = Best[I].BytesIn;
    Row.BytesOut = Best[I].BytesOut;
    if (Status S = Db.add(Row); !S)
      return S;
  }
  return Status::success();
}

Result<RegressionModel> fitKernelModel(const std::vector<ProfileRow> &Rows) {
  std::vector<ProfileSample> Samples;
  for (const ProfileRow &R : Rows)
    Samples.push_back({double(R.Groups), R.Vars, R.KernelMs});
  // A launch of fewer than 4 groups has fewer profiles than any fit needs.
  if (Samples.size() < RegressionModel::MinFitSamples)
    return RegressionModel::interpolating(Samples);
  return RegressionModel::fit(Samples);
}

} // namespace skmd
