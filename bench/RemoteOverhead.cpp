//===- RemoteOverhead.cpp - Copies and calls through skmd-server ----------===//
//
// remote-overhead --devices=LIST [--mb=256] [--runs=5] [--calls=2000]
//
// For each device of LIST but the CPU (e.g. cuda:0 and the same GPU
// through a server: cuda,remote:unix:/tmp/s.sock):
//   in, out    GB/s of one copy of --mb MiB each way, median of --runs
//              after a warm-up, from page-locked memory where the device
//              has it (a local GPU's ceiling; a remote device's data
//              lands in the server's page-locked staging), else from
//              ordinary memory
//   call       microseconds of one request that does nothing on the
//              device (finishCopies: a local device returns at once, a
//              remote one makes a round trip), median of --calls
// Prints a markdown table. VOCL's target: remote >= 90% of native.
//
//===----------------------------------------------------------------------===//
#include "session/Devices.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace skmd;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(const std::function<Status()> &Do) {
  auto T = Clock::now();
  if (Status S = Do(); !S) {
    std::fprintf(stderr, "remote-overhead: %s\n", S.error().message().c_str());
    std::exit(1);
  }
  return std::chrono::duration<double>(Clock::now() - T).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Spec;
  uint64_t MiB = 256;
  unsigned Runs = 5, Calls = 2000;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--devices=", 0) == 0)
      Spec = A.substr(10);
    else if (A.rfind("--mb=", 0) == 0)
      MiB = std::strtoull(A.c_str() + 5, nullptr, 10);
    else if (A.rfind("--runs=", 0) == 0)
      Runs = unsigned(std::atoi(A.c_str() + 7));
    else if (A.rfind("--calls=", 0) == 0)
      Calls = unsigned(std::atoi(A.c_str() + 8));
    else {
      std::printf("usage: remote-overhead --devices=LIST [--mb=256] [--runs=5] [--calls=2000]\n");
      return A == "--help" ? 0 : 2;
    }
  }
  if (Spec.empty() || MiB == 0 || Runs == 0 || Calls == 0) {
    std::fprintf(stderr, "remote-overhead: give --devices (e.g. cuda,remote:unix:/tmp/s.sock)\n");
    return 2;
  }
  auto Opened = openDevices(Spec);
  if (!Opened) {
    std::fprintf(stderr, "remote-overhead: %s\n", Opened.error().message().c_str());
    return 1;
  }
  uint64_t Bytes = MiB << 20;
  std::printf("| device | host memory | in GB/s | out GB/s | call us |\n");
  std::printf("| --- | --- | ---: | ---: | ---: |\n");
  for (auto &D : Opened->Devices) {
    if (D.get() == Opened->Cpu)
      continue;
    void *Host = D->allocPinnedHost(Bytes);
    bool Pinned = Host != nullptr;
    std::vector<char> Plain;
    if (!Pinned) {
      Plain.resize(Bytes);
      Host = Plain.data();
    }
    std::memset(Host, 1, Bytes);
    auto M = D->allocate(Bytes);
    if (!M) {
      std::fprintf(stderr, "remote-overhead: %s\n", M.error().message().c_str());
      return 1;
    }
    std::vector<double> In, Out, Call;
    for (unsigned R = 0; R <= Runs; ++R) {
      double I = seconds([&] {
        if (Status S = D->copyIn(*M, 0, Host, Bytes); !S)
          return S;
        return D->finishCopies();
      });
      double O = seconds([&] { return D->copyOut(Host, *M, 0, Bytes); });
      if (R) { // the first is a warm-up
        In.push_back(double(Bytes) / I / 1e9);
        Out.push_back(double(Bytes) / O / 1e9);
      }
    }
    for (unsigned C = 0; C < Calls; ++C)
      Call.push_back(seconds([&] { return D->finishCopies(); }) * 1e6);
    std::printf("| %s | %s | %.2f | %.2f | %.1f |\n", D->info().Name.c_str(),
                Pinned ? "page-locked" : "ordinary", median(In), median(Out), median(Call));
    D->release(*M);
    if (Pinned)
      D->freePinnedHost(Host);
  }
  return 0;
}
