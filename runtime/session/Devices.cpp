//===- Devices.cpp - Opening the devices a session asks for ---------------===//
#include "session/Devices.h"
#include "devices/cuda/CudaDevice.h"
#include "devices/discrete/HostDiscreteDevice.h"
#include "devices/opencl/OpenCLDevice.h"
#include "devices/remote/RemoteDevice.h"
#include "devices/remote/Secret.h"

#include <algorithm>
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

/// Adds \p Opened (a kind's devices) to \p Out.
template <typename T> Status adopt(Result<std::vector<T>> Opened, OpenedDevices &Out) {
  if (!Opened)
    return Opened.error();
  for (auto &D : *Opened)
    Out.Devices.push_back(std::move(D));
  return Status::success();
}

Status openDiscrete(const std::vector<std::string> &Items, bool Everything,
                    OpenedDevices &Out) {
  unsigned N = 0;
  for (const std::string &Item : Items) {
    if (Item != "discrete")
      return Failure(ErrorCode::InvalidArgument,
                     "device '" + Item + "': discrete takes no number");
    Out.Devices.push_back(HostDiscreteDevice::create(N++, discreteThreads()));
  }
  (void)Everything; // Never opened unasked: it is a test device.
  return Status::success();
}

Status openCuda(const std::vector<std::string> &Items, bool Everything, OpenedDevices &Out) {
  if (Everything) {
    // Every GPU the CUDA driver sees; none (and no error) without them.
    (void)adopt(CudaDevice::open({}), Out);
    return Status::success();
  }
  if (Items.empty())
    return Status::success();
  std::vector<int> Ordinals;
  bool All = false;
  for (const std::string &Item : Items) {
    if (Item == "cuda") {
      All = true;
      continue;
    }
    auto N = itemIndex(Item, "cuda", "a GPU number");
    if (!N)
      return N.error();
    Ordinals.push_back(int(*N));
  }
  return adopt(CudaDevice::open(All ? std::vector<int>{} : Ordinals), Out);
}

Status openOpenCL(const std::vector<std::string> &Items, bool Everything,
                  OpenedDevices &Out) {
  unsigned Count = 0;
  auto Add = [&](OpenCLDevice::Selection S, unsigned Index) -> Status {
    auto Devices = OpenCLDevice::open(S, Index, Count);
    if (Devices)
      Count += unsigned(Devices->size());
    return adopt(std::move(Devices), Out);
  };
  if (Everything) {
    // Every non-CPU OpenCL device that takes SPIR-V; none without them.
    (void)Add(OpenCLDevice::Selection::AllButCpus, 0);
    return Status::success();
  }
  for (const std::string &Item : Items) {
    if (Item == "opencl") {
      if (Status S = Add(OpenCLDevice::Selection::All, 0); !S)
        return S;
      continue;
    }
    auto N = itemIndex(Item, "opencl", "a device number");
    if (!N)
      return N.error();
    if (Status S = Add(OpenCLDevice::Selection::Index, *N); !S)
      return S;
  }
  return Status::success();
}

/// The servers of SKMD_SERVERS (comma-separated addresses), if set.
std::vector<std::string> environmentServers() {
  const char *Env = std::getenv("SKMD_SERVERS");
  if (!Env || !*Env)
    return {};
  return deviceListItems(Env);
}

/// Every device of the servers at \p Addresses.
Status openServers(const std::vector<std::string> &Addresses, OpenedDevices &Out) {
  if (Addresses.empty())
    return Status::success();
  auto Secret = secretFromEnvironment();
  if (!Secret)
    return Failure(ErrorCode::InvalidArgument,
                   "remote and shared devices need the server's secret: " +
                       Secret.error().message());
  LinkTimes Times = LinkTimes::fromEnvironment();
  for (const std::string &Text : Addresses) {
    auto Address = parseServerAddress(Text);
    if (!Address)
      return Address.error();
    auto C = connectTo(*Address, Times.Silence);
    if (!C)
      return C.error();
    auto Link = ServerLink::open(std::move(*C), *Secret, Times);
    if (!Link)
      return Link.error();
    for (auto &D : RemoteDevice::offered(*Link))
      Out.Devices.push_back(std::move(D));
  }
  return Status::success();
}

/// shared: the devices of this node's skmd-server (at its default
/// address); shared:<path>: of the one at that Unix socket.
Status openShared(const std::vector<std::string> &Items, bool, OpenedDevices &Out) {
  std::vector<std::string> Addresses;
  for (const std::string &Item : Items) {
    if (Item != "shared" && Item.size() <= 7)
      return Failure(ErrorCode::InvalidArgument,
                     "device '" + Item + "': expected shared or shared:<socket path>");
    Addresses.push_back(Item == "shared" ? localServerAddress() : "unix:" + Item.substr(7));
  }
  Status S = openServers(Addresses, Out);
  if (!S && S.error().code() == ErrorCode::NoDevice)
    return Failure(ErrorCode::NoDevice,
                   S.error().message() +
                       " (shared devices are this node's skmd-server's: start one, "
                       "e.g. skmd-server --devices=cuda &)");
  return S;
}

Status openRemote(const std::vector<std::string> &Items, bool Everything, OpenedDevices &Out) {
  std::vector<std::string> Addresses;
  for (const std::string &Item : Items) {
    if (Item != "remote") {
      Addresses.push_back(Item.substr(7));
      continue;
    }
    std::vector<std::string> Env = environmentServers();
    if (Env.empty())
      return Failure(ErrorCode::InvalidArgument,
                     "device 'remote': set SKMD_SERVERS to the servers' addresses "
                     "(unix:<path> or mpi:<name>, comma-separated), or name one: "
                     "remote:<address>");
    Addresses.insert(Addresses.end(), Env.begin(), Env.end());
  }
  // Servers a user configured join an unqualified list too.
  if (Everything)
    Addresses = environmentServers();
  return openServers(Addresses, Out);
}

} // namespace

std::vector<std::string> deviceListItems(const std::string &Spec) {
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

const std::vector<DeviceOpener> &deviceOpeners() {
  static const std::vector<DeviceOpener> Kinds = {
      {"discrete", "discrete", openDiscrete},
      {"cuda", "cuda, cuda:N", openCuda},
      {"opencl", "opencl, opencl:N", openOpenCL},
      {"remote", "remote, remote:<address>", openRemote},
      {"shared", "shared, shared:<socket path>", openShared},
  };
  return Kinds;
}

Result<OpenedDevices> openDevices(const std::string &Spec) {
  OpenedDevices Out;
  auto Cpu = CpuDevice::create();
  Out.Cpu = Cpu.get();
  Out.Devices.push_back(std::move(Cpu));
  const std::vector<DeviceOpener> &Kinds = deviceOpeners();
  bool Everything = Spec.empty() || Spec == "all";
  // Each kind's items, in the list's order.
  std::vector<std::vector<std::string>> Items(Kinds.size());
  // A list that does not name the CPU keeps it out of plans.
  Out.Cpu->setInPlans(Everything);
  if (!Everything)
    for (const std::string &Item : deviceListItems(Spec)) {
      if (Item == "cpu") {
        Out.Cpu->setInPlans(true);
        continue;
      }
      std::string Kind = Item.substr(0, Item.find(':'));
      auto It = std::find_if(Kinds.begin(), Kinds.end(),
                             [&](const DeviceOpener &K) { return K.Name == Kind; });
      if (It == Kinds.end()) {
        std::string Forms = "cpu";
        for (const DeviceOpener &K : Kinds)
          Forms += ", " + K.Forms;
        return Failure(ErrorCode::InvalidArgument, "unknown device '" + Item +
                                                       "' in the device list '" + Spec +
                                                       "' (kinds: " + Forms + ")");
      }
      Items[size_t(It - Kinds.begin())].push_back(Item);
    }
  for (size_t K = 0; K < Kinds.size(); ++K)
    if (Status S = Kinds[K].Open(Items[K], Everything, Out); !S)
      return S.error();
  return Out;
}

} // namespace skmd
