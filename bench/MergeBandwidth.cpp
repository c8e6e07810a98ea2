//===- MergeBandwidth.cpp - The host's merge against memcpy ---------------===//
//
// merge-bandwidth [--mb=N] [--runs=N] [--bundle=FILE] [--devices=LIST]
//
// Launches of scatter.cl's kernels (written addresses unknown before the
// run) split evenly between the CPU and a device with its own memory
// (default: a HostDiscrete device; cuda:0 on a GPU host): the device's
// results come back to a host copy of `out`, and the host's merge kernel
// writes the bytes its groups wrote into the user's buffer. Reported: the
// merge's bandwidth (the bytes merged, 4 per element of the device's half,
// over the piece's merge time, median of --runs) against memcpy of as many
// bytes on one thread and on as many threads as the CPU device uses (the
// threads started before the copy is timed), and against a copy with the
// merge's 4-byte stores on as many threads. 256 MiB of floats by default:
// larger than this VM's last-level cache, not than the 300 MB of the H200
// hosts'. Three cases:
//   - scatter_modulo, out[(i * 1) % n]: addresses computed, in order (the
//     merge reads the copy and writes the buffer, as memcpy does);
//   - scatter with perm the identity: the merge also reads perm;
//   - scatter with perm shuffled within each work-group of 256.
// The target (docs/results/paper-apps.md): the merge at 70% of memcpy or more.
//
//===----------------------------------------------------------------------===//
#include "skmd/skmd.h"
#include "support/StartedThreads.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

using CopyFn = void (*)(char *To, const char *From, size_t Bytes);

void copyWithMemcpy(char *To, const char *From, size_t Bytes) { std::memcpy(To, From, Bytes); }

/// A copy with the merge kernel's stores: one ordinary 4-byte store per
/// element. glibc's memcpy moves a large copy in wide stores that write
/// whole cache lines; against this copy the merge's ratio says what the
/// merge loses beyond the width of its stores.
void copyWithElementStores(char *To, const char *From, size_t Bytes) {
  for (size_t I = 0; I + 4 <= Bytes; I += 4) {
    uint32_t V;
    std::memcpy(&V, From + I, 4);
    // Keeps the compiler from widening the loop or calling memcpy.
    asm volatile("" : "+r"(V));
    std::memcpy(To + I, &V, 4);
  }
}

/// ms of \p Copy of \p Bytes from \p From to \p To on \p Threads threads:
/// from the moment the threads, already started, are let go until the last
/// one's part is copied (support/StartedThreads.h; the merge runs on SKMD's
/// pool of started threads too).
double timedCopy(CopyFn Copy, char *To, const char *From, size_t Bytes, unsigned Threads) {
  size_t Part = (Bytes / Threads + 63) / 64 * 64;
  return skmd::msFromRelease(Threads, [=](size_t T) {
    size_t Lo = std::min(Bytes, T * Part), Hi = std::min(Bytes, Lo + Part);
    Copy(To + Lo, From + Lo, Hi - Lo);
  });
}

int fail(const char *What) {
  std::fprintf(stderr, "merge-bandwidth: %s: %s\n", What, skmd_last_error());
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  size_t MiB = 256;
  unsigned Runs = 5;
  std::string Bundle = SKMD_BENCH_BUNDLES_DIR "/scatter.skmd", Devices = "cpu,discrete";
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--mb=", 0) == 0)
      MiB = std::strtoull(A.c_str() + 5, nullptr, 10);
    else if (A.rfind("--runs=", 0) == 0)
      Runs = unsigned(std::atoi(A.c_str() + 7));
    else if (A.rfind("--bundle=", 0) == 0)
      Bundle = A.substr(9);
    else if (A.rfind("--devices=", 0) == 0)
      Devices = A.substr(10);
    else {
      std::printf("usage: merge-bandwidth [--mb=N] [--runs=N] [--bundle=FILE] "
                  "[--devices=cpu,DEVICE]\n"
                  "The host's merge of a device's scattered writes against memcpy.\n");
      return A == "--help" ? 0 : 2;
    }
  }
  if (MiB < 8 || Runs < 1) {
    std::fprintf(stderr, "merge-bandwidth: --mb must be at least 8, --runs at least 1\n");
    return 2;
  }
  const uint32_t Local = 256;
  const size_t N = MiB * (1 << 20) / sizeof(float) / Local * Local;

  skmd_context Ctx;
  if (skmd_init(Devices.c_str(), &Ctx))
    return fail("skmd_init");
  if (skmd_device_count(Ctx) != 2) {
    std::fprintf(stderr, "merge-bandwidth: --devices must name the CPU and one device\n");
    return 2;
  }
  skmd_device_info Cpu, Other;
  skmd_get_device_info(Ctx, 0, &Cpu);
  skmd_get_device_info(Ctx, 1, &Other);
  skmd_program Prog;
  skmd_kernel Scatter, Modulo;
  if (skmd_load_bundle(Ctx, Bundle.c_str(), &Prog))
    return fail("loading the bundle");
  if (skmd_get_kernel(Prog, "scatter", &Scatter) ||
      skmd_get_kernel(Prog, "scatter_modulo", &Modulo))
    return fail("skmd_get_kernel");

  std::vector<uint32_t> Perm(N);
  std::vector<float> In(N), Out(N), Scratch(N);
  std::mt19937 Rng(5);
  for (size_t I = 0; I < N; ++I)
    In[I] = float(I % 1000);
  skmd_buffer BP, BI, BO;
  if (skmd_wrap_buffer(Ctx, Perm.data(), N * 4, &BP) ||
      skmd_wrap_buffer(Ctx, In.data(), N * 4, &BI) || skmd_wrap_buffer(Ctx, Out.data(), N * 4, &BO))
    return fail("skmd_wrap_buffer");
  skmd_set_arg_buffer(Scatter, 0, BP);
  skmd_set_arg_buffer(Scatter, 1, BI);
  skmd_set_arg_buffer(Scatter, 2, BO);
  const uint32_t One = 1, Count = uint32_t(N);
  skmd_set_arg_buffer(Modulo, 0, BI);
  skmd_set_arg_buffer(Modulo, 1, BO);
  skmd_set_arg_scalar(Modulo, 2, &One, sizeof One);
  skmd_set_arg_scalar(Modulo, 3, &Count, sizeof Count);
  const std::string Plan = std::string("manual:") + Cpu.name + "=0.5," + Other.name + "=0.5";

  std::printf("merge-bandwidth: %zu MiB of floats, half of them on %s (%s); CPU device: %s; "
              "median of %u\n",
              N * 4 >> 20, Other.name, Other.description, Cpu.description, Runs);
  const unsigned T = Cpu.compute_units;
  std::printf("| kernel | merged MB | merge ms | merge GB/s | memcpy 1 thread GB/s | memcpy %u "
              "threads GB/s | 4-byte-store copy %u threads GB/s | merge / memcpy | merge / "
              "4-byte-store copy | check |\n",
              T, T);
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
  bool AllOk = true;
  const char *Cases[] = {"out[(i * 1) % n] = in[i]", "out[perm[i]] = in[i], perm identity",
                         "out[perm[i]] = in[i], perm shuffled within groups"};
  for (int Case = 0; Case < 3; ++Case) {
    std::iota(Perm.begin(), Perm.end(), 0u);
    if (Case == 2)
      for (size_t G = 0; G < N; G += Local)
        std::shuffle(Perm.begin() + G, Perm.begin() + G + Local, Rng);
    skmd_kernel K = Case == 0 ? Modulo : Scatter;
    std::vector<double> MergeMs, OneThread, AllThreads, ElementStores;
    uint64_t Merged = 0;
    bool Ok = true;
    for (unsigned R = 0; R <= Runs; ++R) {
      std::fill(Out.begin(), Out.end(), -1.0f);
      skmd_launch_report Report;
      size_t Global = N, L = Local;
      if (skmd_launch(K, 1, nullptr, &Global, &L, Plan.c_str(), &Report))
        return fail("skmd_launch");
      for (size_t I = 0; I < N && Ok; ++I)
        Ok = Out[Perm[I]] == In[I];
      for (size_t P = 0; P < Report.piece_count; ++P)
        if (std::string(Report.pieces[P].device) == Other.name) {
          if (R > 0) // The first launch loads the kernel and warms up.
            MergeMs.push_back(Report.pieces[P].merge_ms);
          Merged = Report.pieces[P].group_count * Local * sizeof(float);
        }
      if (R > 0) {
        auto *To = reinterpret_cast<char *>(Scratch.data());
        auto *From = reinterpret_cast<const char *>(In.data());
        OneThread.push_back(timedCopy(copyWithMemcpy, To, From, Merged, 1));
        AllThreads.push_back(timedCopy(copyWithMemcpy, To, From, Merged, Cpu.compute_units));
        ElementStores.push_back(
            timedCopy(copyWithElementStores, To, From, Merged, Cpu.compute_units));
      }
    }
    double Ms = median(MergeMs), GBs = Merged / Ms / 1e6;
    double OneGBs = Merged / median(OneThread) / 1e6, AllGBs = Merged / median(AllThreads) / 1e6;
    double ElementGBs = Merged / median(ElementStores) / 1e6;
    std::printf("| %s | %.1f | %.3f | %.2f | %.2f | %.2f | %.2f | %.0f%% | %.0f%% | %s |\n",
                Cases[Case], Merged / 1e6, Ms, GBs, OneGBs, AllGBs, ElementGBs, 100 * GBs / AllGBs,
                100 * GBs / ElementGBs, Ok ? "ok" : "WRONG");
    AllOk = AllOk && Ok && MergeMs.size() == Runs && Ms > 0;
  }
  skmd_release_context(Ctx);
  return AllOk ? 0 : 1;
}
