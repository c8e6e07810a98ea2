//===- RemoteOverhead.cpp - Copies and calls through skmd-server ----------===//
//
// remote-overhead --devices=LIST [--mb=256] [--runs=5] [--calls=2000]
//                 [--host=page-locked,ordinary] [--launch=vector_add.skmd]
//
// For each device of LIST but the CPU (e.g. cuda:0 and the same GPU
// through a server: cuda,remote:unix:/tmp/s.sock), and each kind of host
// memory:
//   in, out    GB/s of one copy of --mb MiB each way, median of --runs
//              after a warm-up
//              page-locked: the device's allocPinnedHost (a local GPU's
//              cuMemHostAlloc; for a remote device of a server on this
//              node, a segment shared with the server, which page-locks
//              it); devices without such memory are left out
//              ordinary: malloc'd memory (a local GPU's staging, a remote
//              device's staging ring or socket)
//   call       microseconds of one request that does nothing on the
//              device (finishCopies: a local device returns at once, a
//              remote one makes a round trip), median of --calls
//   launch     microseconds of one launch of the bundle's vector_add
//              (c = a + b, one group of 64 floats) on the device alone:
//              its copies in, kernel and copy out, median of --calls / 10
//              (--launch only; SKMD_REMOTE_QUEUE=0 makes a remote device
//              wait for each step, as before its pieces were queued)
// Prints a markdown table. VOCL's target: remote >= 90% of native.
//
//===----------------------------------------------------------------------===//
#include "launch/Launcher.h"
#include "session/Devices.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
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
  std::vector<std::string> Kinds = {"page-locked", "ordinary"};
  std::string LaunchBundle;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--devices=", 0) == 0)
      Spec = A.substr(10);
    else if (A.rfind("--launch=", 0) == 0)
      LaunchBundle = A.substr(9);
    else if (A.rfind("--mb=", 0) == 0)
      MiB = std::strtoull(A.c_str() + 5, nullptr, 10);
    else if (A.rfind("--runs=", 0) == 0)
      Runs = unsigned(std::atoi(A.c_str() + 7));
    else if (A.rfind("--calls=", 0) == 0)
      Calls = unsigned(std::atoi(A.c_str() + 8));
    else if (A.rfind("--host=", 0) == 0) {
      Kinds.clear();
      for (size_t At = 7; At <= A.size();) {
        size_t End = std::min(A.find(',', At), A.size());
        Kinds.push_back(A.substr(At, End - At));
        At = End + 1;
      }
      for (const std::string &K : Kinds)
        if (K != "page-locked" && K != "ordinary") {
          std::fprintf(stderr, "remote-overhead: --host takes page-locked and ordinary, not '%s'\n",
                       K.c_str());
          return 2;
        }
    } else {
      std::printf("usage: remote-overhead --devices=LIST [--mb=256] [--runs=5] [--calls=2000]\n"
                  "                       [--host=page-locked,ordinary] [--launch=BUNDLE]\n");
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
  std::optional<Bundle> Source;
  const KernelInfo *Add = nullptr;
  if (!LaunchBundle.empty()) {
    auto B = Bundle::fromFile(LaunchBundle);
    if (!B) {
      std::fprintf(stderr, "remote-overhead: %s\n", B.error().message().c_str());
      return 1;
    }
    Source.emplace(std::move(*B));
    Add = Source->metadata().findKernel("vector_add");
    if (!Add || Add->Args.size() != 4) {
      std::fprintf(stderr, "remote-overhead: %s has no vector_add(a, b, c, n)\n",
                   LaunchBundle.c_str());
      return 1;
    }
  }
  // One launch of vector_add over one group, on device \p D alone.
  auto LaunchUs = [&](Device &D) -> double {
    Launcher Run({Opened->Cpu, &D}, *Opened->Cpu);
    LoadedKernel K;
    K.Source = &*Source;
    K.Info = Add;
    std::vector<float> A(64, 1.0f), B(64, 2.0f), C(64, 0.0f);
    uint32_t N = 64;
    std::vector<HostArg> Args(4);
    Args[0] = {HostArg::Buffer, A.data(), 256, nullptr, {}, 0};
    Args[1] = {HostArg::Buffer, B.data(), 256, nullptr, {}, 0};
    Args[2] = {HostArg::Buffer, C.data(), 256, nullptr, {}, 0};
    Args[3].K = HostArg::Scalar;
    Args[3].Value.resize(4);
    std::memcpy(Args[3].Value.data(), &N, 4);
    NDRange Range;
    Range.NumGroups = {1, 1, 1};
    Range.LocalSize = {64, 1, 1};
    std::vector<double> Us;
    for (unsigned I = 0; I <= std::max(Calls / 10, 1u); ++I) {
      LaunchReport Report;
      double T = seconds([&] { return Run.run(K, Args, Range, {{1, 0, 1}}, Report); });
      if (!Report.Pieces.empty() && !Report.Pieces[0].Failure.empty()) {
        std::fprintf(stderr, "remote-overhead: %s\n", Report.Pieces[0].Failure.c_str());
        std::exit(1);
      }
      if (C[63] != 3.0f) {
        std::fprintf(stderr, "remote-overhead: vector_add on %s gave %g, not 3\n",
                     D.info().Name.c_str(), double(C[63]));
        std::exit(1);
      }
      if (I) // the first loads the kernel
        Us.push_back(T * 1e6);
    }
    return median(Us);
  };
  uint64_t Bytes = MiB << 20;
  std::printf("| device | host memory | in GB/s | out GB/s | call us |%s\n",
              Add ? " launch us |" : "");
  std::printf("| --- | --- | ---: | ---: | ---: |%s\n", Add ? " ---: |" : "");
  for (auto &D : Opened->Devices) {
    if (D.get() == Opened->Cpu)
      continue;
    auto M = D->allocate(Bytes);
    if (!M) {
      std::fprintf(stderr, "remote-overhead: %s\n", M.error().message().c_str());
      return 1;
    }
    for (const std::string &Kind : Kinds) {
      bool Pinned = Kind == "page-locked";
      std::vector<char> Plain;
      void *Host = Pinned ? D->allocPinnedHost(Bytes) : nullptr;
      if (Pinned && !Host)
        continue; // no such memory for this device
      if (!Pinned) {
        Plain.resize(Bytes);
        Host = Plain.data();
      }
      std::memset(Host, 1, Bytes);
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
      std::printf("| %s | %s | %.2f | %.2f | %.1f |", D->info().Name.c_str(), Kind.c_str(),
                  median(In), median(Out), median(Call));
      if (Add)
        std::printf(" %.1f |", LaunchUs(*D));
      std::printf("\n");
      if (Pinned)
        D->freePinnedHost(Host);
    }
    D->release(*M);
  }
  return 0;
}
