//===- Devices.cpp - Opening the devices a context asks for ---------------===//
#include "api/Devices.h"
#include "devices/discrete/HostDiscreteDevice.h"

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

} // namespace

Result<OpenedDevices> openDevices(const std::string &Spec) {
  OpenedDevices Out;
  auto Cpu = CpuDevice::create();
  Out.Cpu = Cpu.get();
  Out.Devices.push_back(std::move(Cpu));
  if (Spec.empty() || Spec == "all")
    return Out;
  unsigned Discrete = 0;
  for (const std::string &Item : splitList(Spec)) {
    if (Item == "cpu")
      continue;
    if (Item == "discrete") {
      Out.Devices.push_back(HostDiscreteDevice::create(Discrete++, discreteThreads()));
      continue;
    }
    if (Item == "cuda" || Item.rfind("cuda:", 0) == 0)
      return Failure(ErrorCode::NoDevice,
                     "device '" + Item + "': this build of SKMD has no CUDA "
                     "device support yet");
    return Failure(ErrorCode::InvalidArgument,
                   "unknown device '" + Item +
                       "' in the device list '" + Spec +
                       "' (kinds: cpu, discrete, cuda, cuda:N)");
  }
  return Out;
}

} // namespace skmd
