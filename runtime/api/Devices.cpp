//===- Devices.cpp - Opening the devices a context asks for ---------------===//
#include "api/Devices.h"
#include "devices/cuda/CudaDevice.h"
#include "devices/discrete/HostDiscreteDevice.h"
#include "devices/opencl/OpenCLDevice.h"

#include <cstdlib>

namespace skmd {

namespace {

/// Threads of each HostDiscrete device: SKMD_DISCRETE_THREADS, default 1.
unsigned discreteThreads() {
  if (const char *Env = std::getenv("SKMD_DISCRETE_THREADS")) {
    int N = std::atoi(Env);
    if (N > 0)
      return unsigned(N);
  }
  return 1;
}

std::vector<std::string> splitList(const std::string &Spec) {
  std::vector<std::string> Items;
  size_t Pos = 0;
  while (Pos <= Spec.size()) {
    size_t Comma = Spec.find(',', Pos);
    std::string Item = Spec.substr(Pos, Comma == std::string::npos ? std::string::npos
                                                                   : Comma - Pos);
    // Spaces around items are allowed ("cpu, discrete").
    size_t B = Item.find_first_not_of(' '), E = Item.find_last_not_of(' ');
    Items.push_back(B == std::string::npos ? "" : Item.substr(B, E - B + 1));
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  return Items;
}

/// N of an item "<Kind>:N" (e.g. cuda:1); an error naming \p What when N
/// is not a number.
Result<unsigned> itemIndex(const std::string &Item, const std::string &Kind, const char *What) {
  char *End = nullptr;
  const char *Digits = Item.c_str() + Kind.size() + 1;
  long N = std::strtol(Digits, &End, 10);
  if (!*Digits || *End || N < 0)
    return Failure(ErrorCode::InvalidArgument,
                   "device '" + Item + "': " + Kind + ":N takes " + What);
  return unsigned(N);
}

} // namespace

Result<OpenedDevices> openDevices(const std::string &Spec) {
  OpenedDevices Out;
  auto Cpu = CpuDevice::create();
  Out.Cpu = Cpu.get();
  Out.Devices.push_back(std::move(Cpu));
  auto AddGpus = [&](const std::vector<int> &Ordinals) -> Status {
    auto Gpus = CudaDevice::open(Ordinals);
    if (!Gpus)
      return Gpus.error();
    for (auto &G : *Gpus)
      Out.Devices.push_back(std::move(G));
    return Status::success();
  };
  unsigned OpenCLCount = 0;
  auto AddOpenCL = [&](OpenCLDevice::Selection S, unsigned Index) -> Status {
    auto Devices = OpenCLDevice::open(S, Index, OpenCLCount);
    if (!Devices)
      return Devices.error();
    OpenCLCount += unsigned(Devices->size());
    for (auto &D : *Devices)
      Out.Devices.push_back(std::move(D));
    return Status::success();
  };
  if (Spec.empty() || Spec == "all") {
    // Every GPU the CUDA driver sees and every non-CPU OpenCL device that
    // takes SPIR-V; none (and no error) without them.
    (void)AddGpus({});
    (void)AddOpenCL(OpenCLDevice::Selection::AllButCpus, 0);
    return Out;
  }
  unsigned Discrete = 0;
  std::vector<int> Ordinals;
  bool AllGpus = false;
  std::vector<std::pair<OpenCLDevice::Selection, unsigned>> OpenCL;
  for (const std::string &Item : splitList(Spec)) {
    if (Item == "cpu")
      continue;
    if (Item == "discrete") {
      Out.Devices.push_back(HostDiscreteDevice::create(Discrete++, discreteThreads()));
      continue;
    }
    if (Item == "cuda") {
      AllGpus = true;
      continue;
    }
    if (Item.rfind("cuda:", 0) == 0) {
      auto N = itemIndex(Item, "cuda", "a GPU number");
      if (!N)
        return N.error();
      Ordinals.push_back(int(*N));
      continue;
    }
    if (Item == "opencl") {
      OpenCL.push_back({OpenCLDevice::Selection::All, 0});
      continue;
    }
    if (Item.rfind("opencl:", 0) == 0) {
      auto N = itemIndex(Item, "opencl", "a device number");
      if (!N)
        return N.error();
      OpenCL.push_back({OpenCLDevice::Selection::Index, *N});
      continue;
    }
    return Failure(ErrorCode::InvalidArgument,
                   "unknown device '" + Item +
                       "' in the device list '" + Spec +
                       "' (kinds: cpu, discrete, cuda, cuda:N, opencl, opencl:N)");
  }
  if (AllGpus || !Ordinals.empty())
    if (Status S = AddGpus(AllGpus ? std::vector<int>{} : Ordinals); !S)
      return S.error();
  for (auto [Selection, Index] : OpenCL)
    if (Status S = AddOpenCL(Selection, Index); !S)
      return S.error();
  return Out;
}

} // namespace skmd
