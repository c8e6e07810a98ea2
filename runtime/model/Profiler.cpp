//===- Profiler.cpp - Dry runs that feed the performance model ------------===//
#include "model/Profiler.h"

#include <algorithm>
#include <sstream>

namespace skmd {

std::string kernelKey(const BundleMetadata &Meta, const KernelInfo &Kernel) {
  std::string Options;
  for (const std::string &O : Meta.CompileOptions)
    Options += " " + O;
  return Meta.SourceHash + ":" + Kernel.Name + ":" + Options;
}

std::string deviceKey(const DeviceInfo &Device) {
  return Device.Name + ":" + Device.Description;
}

LaunchShape launchShape(const KernelInfo &K, const std::vector<HostArg> &Args,
                        const NDRange &Range) {
  LaunchShape Shape;
  std::ostringstream Text;
  uint64_t Bytes = 0;
  Text << "buffers=";
  bool First = true;
  for (const HostArg &A : Args)
    if (A.K == HostArg::Buffer) {
      Text << (First ? "" : ",") << A.Bytes;
      Bytes += A.Bytes;
      First = false;
    }
  Shape.Vars.push_back(double(Bytes) / 1e6);
  Text << ";scalars=";
  LaunchValues LV = launchValues(K, Args, Range);
  First = true;
  for (const std::optional<int64_t> &V : LV.Args)
    if (V) {
      Text << (First ? "" : ",") << *V;
      Shape.Vars.push_back(double(*V));
      First = false;
    }
  uint64_t Items = Range.totalGroups() * Range.LocalSize[0] * Range.LocalSize[1] *
                   Range.LocalSize[2];
  Shape.Vars.push_back(double(Items));
  Text << ";groups=" << Range.NumGroups[0] << "x" << Range.NumGroups[1] << "x"
       << Range.NumGroups[2] << ";local=" << Range.LocalSize[0] << "x" << Range.LocalSize[1]
       << "x" << Range.LocalSize[2];
  Shape.Text = Text.str();
  return Shape;
}

std::vector<uint64_t> profileCounts(uint64_t Total) {
  std::vector<uint64_t> Counts;
  for (uint64_t C = 4; C <= 16 && C < Total; C += 4)
    Counts.push_back(C);
  for (uint64_t C = 32; C < Total; C *= 2)
    Counts.push_back(C);
  if (Total)
    Counts.push_back(Total);
  return Counts;
}

Status profileDevice(Launcher &Run, LoadedKernel &Kernel, const std::vector<HostArg> &Args,
                     const NDRange &Range, unsigned Device, const DeviceInfo &Info,
                     ProfileDatabase &Db, const ProfileOptions &Options) {
  LaunchShape Shape = launchShape(*Kernel.Info, Args, Range);
  std::string KernelId = kernelKey(Kernel.Source->metadata(), *Kernel.Info);
  std::string DeviceId = deviceKey(Info);
  // One untimed run first: loading the kernel, first touches of memory.
  PieceReport Warm;
  if (Status S = Run.profile(Kernel, Args, Range, Device, 1, Warm); !S)
    return S;
  for (uint64_t Count : profileCounts(Range.totalGroups())) {
    PieceReport Best;
    for (unsigned R = 0; R < std::max(1u, Options.Runs); ++R) {
      PieceReport P;
      if (Status S = Run.profile(Kernel, Args, Range, Device, Count, P); !S)
        return S;
      if (R == 0 || P.KernelMs < Best.KernelMs)
        Best = P;
    }
    ProfileRow Row;
    Row.Kernel = KernelId;
    Row.Device = DeviceId;
    Row.Shape = Shape.Text;
    Row.Vars = Shape.Vars;
    Row.Groups = Count;
    Row.TotalGroups = Range.totalGroups();
    Row.KernelMs = Best.KernelMs;
    Row.InputMs = Best.InputMs;
    Row.OutputMs = Best.OutputMs;
    Row.BytesIn = Best.BytesIn;
    Row.BytesOut = Best.BytesOut;
    if (Status S = Db.add(Row); !S)
      return S;
    if (Options.Progress) {
      std::ostringstream Line;
      Line << Info.Name << ": " << Count << " of " << Range.totalGroups() << " groups, kernel "
           << Best.KernelMs << " ms, copies " << Best.InputMs + Best.OutputMs << " ms";
      Options.Progress(Line.str());
    }
  }
  return Status::success();
}

Result<RegressionModel> fitKernelModel(const std::vector<ProfileRow> &Rows) {
  std::vector<ProfileSample> Samples;
  for (const ProfileRow &R : Rows)
    Samples.push_back({double(R.Groups), R.Vars, R.KernelMs});
  return RegressionModel::fit(Samples);
}

} // namespace skmd
