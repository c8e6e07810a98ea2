//===- skmd-info.cpp - What a bundle holds --------------------------------===//
//
//   skmd-info kernel.skmd          # variants, kernels, arguments
//   skmd-info --json kernel.skmd   # the metadata as stored
//   skmd-info --extract=ptx -o k.ptx kernel.skmd   # one variant's bytes
//   skmd-info --devices[=LIST]     # the devices found, links measured
//   skmd-info --topology[=LIST]    # where they sit: packages, PCIe, peers
//
// Uses only the runtime (no LLVM), so it runs on GPU hosts.
//
//===----------------------------------------------------------------------===//
#include "batch/Topology.h"
#include "bundle/Bundle.h"
#include "session/Devices.h"
#include "skmd/skmd.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace skmd;

namespace {

void usage(FILE *To) {
  std::fprintf(To,
               "usage: skmd-info [--json | --extract=<target> -o <file>] "
               "<bundle.skmd>\n"
               "       skmd-info --devices[=LIST]\n"
               "       skmd-info --topology[=LIST]\n\n"
               "Prints the variants, kernels and kernel arguments that a "
               "bundle made by skmd-cc holds,\nor the devices SKMD finds.\n"
               "  --json              print the stored metadata instead\n"
               "  --extract=<target>  write one variant (x86, ptx, spirv) "
               "to the file given by -o\n"
               "  --devices[=LIST]    list the devices (every one found, or "
               "LIST as skmd_init\n"
               "                      takes: cpu,discrete,cuda,cuda:N,opencl,opencl:N,\n"
               "                      remote:<address>,shared) with memory, compute units\n"
               "                      and the host link's bandwidth, measured "
               "with 64 MiB copies\n"
               "  --topology[=LIST]   where the devices sit: packages and their "
               "memory, PCIe host\n"
               "                      bridges, bridges and switches with their links, "
               "peer links\n"
               "                      (hwloc; SKMD_TOPOLOGY_XML reads an "
               "lstopo XML file instead)\n"
               "  --help              this text\n");
}

std::string dims(const std::array<uint32_t, 3> &D) {
  return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" +
         std::to_string(D[2]);
}

std::string accessOf(const KernelArg &A) {
  if (A.Kind == ArgKind::Scalar || A.Kind == ArgKind::Sampler)
    return "value";
  if (A.Read && A.Written)
    return "read-write";
  return A.Read ? "read" : A.Written ? "write" : "unused";
}

void printBundle(const std::string &Path, const Bundle &B) {
  const BundleMetadata &M = B.metadata();
  std::printf("bundle:   %s (format %u.%u)\n", Path.c_str(),
              bundle::FormatMajor, B.formatMinor());
  std::printf("producer: %s\n", M.Producer.c_str());
  std::printf("source:   %s (sha256 %.16s...)\n", M.SourceFile.c_str(),
              M.SourceHash.c_str());
  std::string Options;
  for (const std::string &O : M.CompileOptions)
    Options += (Options.empty() ? "" : " ") + O;
  std::printf("options:  %s\n", Options.c_str());

  std::printf("variants:\n");
  for (const TargetInfo &T : M.Targets) {
    std::string_view V = B.variant(T.Kind);
    std::printf("  %-6s %-28s %-10s %8zu bytes\n",
                std::string(targetKindName(T.Kind)).c_str(), T.Triple.c_str(),
                T.Cpu.empty() ? "-" : T.Cpu.c_str(), V.size());
    if (!T.Features.empty()) {
      std::string Needs;
      for (const std::string &F : T.Features)
        Needs += " " + F;
      std::printf("         needs:%s\n", Needs.c_str());
    }
  }

  std::printf("kernels:\n");
  for (const KernelInfo &K : M.Kernels) {
    std::printf("  %s\n", K.Name.c_str());
    if (K.ReqdWorkGroupSize[0])
      std::printf("    reqd_work_group_size %s\n",
                  dims(K.ReqdWorkGroupSize).c_str());
    if (K.WorkGroupSizeHint[0])
      std::printf("    work_group_size_hint %s\n",
                  dims(K.WorkGroupSizeHint).c_str());
    for (const auto &[Target, S] : K.Symbols) {
      std::printf("    %-5s entry points: %s",
                  std::string(targetKindName(Target)).c_str(), S.Kernel.c_str());
      for (const std::string *E : {&S.Range, &S.Box, &S.Guard, &S.Merge})
        if (!E->empty() && *E != S.Kernel)
          std::printf(", %s", E->c_str());
      std::printf("\n");
    }
    if (K.Symbols.count(TargetKind::X86))
      std::printf("    cpu: %llu B __local, %llu B per work-item across "
                  "barriers\n",
                  static_cast<unsigned long long>(K.Cpu.LocalMemBytes),
                  static_cast<unsigned long long>(K.Cpu.StateBytesPerItem));
    if (K.Partitionable) {
      std::printf("    partitionable, contiguous %s\n",
                  std::string(contiguityName(K.Contiguous)).c_str());
      for (const CombinedArg &C : K.Combined)
        std::printf("      '%s': atomic %s only; each device's copy is combined\n",
                    K.Args[C.Arg].Name.c_str(), std::string(combineOpName(C.Op)).c_str());
      for (unsigned Arg : K.LaunchTested)
        std::printf("      '%s': groups may read what others write; each split is tested "
                    "at launch\n",
                    K.Args[Arg].Name.c_str());
    } else {
      std::printf("    not partitionable:\n");
      for (const std::string &R : K.NotPartitionableReasons)
        std::printf("      %s\n", R.c_str());
    }
    for (size_t I = 0; I < K.Args.size(); ++I) {
      const KernelArg &A = K.Args[I];
      std::string Quals = std::string(A.IsConst ? " const" : "") +
                          (A.IsRestrict ? " restrict" : "") +
                          (A.IsVolatile ? " volatile" : "");
      std::printf("    arg %zu %-12s %-16s %-15s size %-3llu elem %-3llu %s%s\n",
                  I, A.Name.c_str(), A.TypeName.c_str(),
                  std::string(argKindName(A.Kind)).c_str(),
                  static_cast<unsigned long long>(A.Size),
                  static_cast<unsigned long long>(A.ElementSize),
                  accessOf(A).c_str(), Quals.c_str());
      if (const ArgFootprint *F = K.Footprint.find(I)) {
        if (F->Kind == FootprintKind::Whole)
          std::printf("      footprint: whole buffer (%s)\n", F->WholeReason.c_str());
        else {
          size_t Guarded = 0, Bounded = 0;
          for (const Access &X : F->Accesses) {
            Guarded += X.Guarded;
            Bounded += X.Below.has_value();
          }
          std::string Guards;
          if (Guarded)
            Guards = " (" + std::to_string(Guarded) + " guarded" +
                     (Bounded ? ", " + std::to_string(Bounded) + " below a bound" : "") + ")";
          std::printf("      footprint: %zu affine access%s%s, contiguous %s\n",
                      F->Accesses.size(), F->Accesses.size() == 1 ? "" : "es", Guards.c_str(),
                      std::string(contiguityName(F->Contiguous)).c_str());
        }
      }
    }
  }
}

/// The devices of a context opened with \p Spec, their links measured.
int listDevices(const char *Spec) {
  skmd_context Ctx;
  if (skmd_init(Spec, &Ctx) != SKMD_SUCCESS) {
    std::fprintf(stderr, "skmd-info: error: %s\n", skmd_last_error());
    return 1;
  }
  std::printf("%-10s %-14s %10s %6s  %-22s %s\n", "device", "kind", "memory", "units",
              "link GB/s (in / out)", "description");
  static const char *Kinds[] = {"cpu", "host-discrete", "cuda", "opencl", "remote"};
  int Exit = 0;
  for (size_t I = 0; I < skmd_device_count(Ctx); ++I) {
    skmd_device_info D;
    skmd_get_device_info(Ctx, I, &D);
    double In = 0, Out = 0;
    std::string Link = "host memory";
    if (D.kind != SKMD_DEVICE_CPU) {
      if (skmd_measure_link(Ctx, I, 64u << 20, &In, &Out) == SKMD_SUCCESS) {
        char Text[64];
        std::snprintf(Text, sizeof Text, "%.1f / %.1f", In, Out);
        Link = Text;
      } else {
        Link = "measurement failed";
        std::fprintf(stderr, "skmd-info: %s: %s\n", D.name, skmd_last_error());
        Exit = 1;
      }
    }
    std::printf("%-10s %-14s %7.1f GB %6u  %-22s %s\n", D.name, Kinds[D.kind],
                double(D.memory_bytes) / 1e9, D.compute_units, Link.c_str(),
                D.description);
  }
  skmd_release_context(Ctx);
  return Exit;
}

/// The topology of the devices \p Spec opens.
int printTopology(const std::string &Spec) {
  auto Opened = openDevices(Spec);
  if (!Opened) {
    std::fprintf(stderr, "skmd-info: error: %s\n", Opened.error().message().c_str());
    return 1;
  }
  std::vector<Device *> Devices;
  for (auto &D : Opened->Devices)
    Devices.push_back(D.get());
  auto T = discoverTopology(Devices);
  if (!T) {
    std::fprintf(stderr, "skmd-info: error: %s\n", T.error().message().c_str());
    return 1;
  }
  std::fputs(T->describe().c_str(), stdout);
  std::vector<int> All;
  for (size_t I = 0; I < Devices.size(); ++I)
    if (!Devices[I]->info().SharesHostMemory)
      All.push_back(int(I));
  for (const std::vector<int> &Set : T->sharedUplinks(All)) {
    std::string Names;
    for (int D : Set)
      Names += (Names.empty() ? "" : ", ") + Devices[D]->info().Name;
    std::printf("shared on the way to host memory: %s\n", Names.c_str());
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  bool Json = false;
  std::string Path, Extract, Output;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--json")) {
      Json = true;
    } else if (!std::strncmp(argv[I], "--extract=", 10)) {
      Extract = argv[I] + 10;
    } else if (!std::strcmp(argv[I], "-o") && I + 1 < argc) {
      Output = argv[++I];
    } else if (!std::strcmp(argv[I], "--devices")) {
      return listDevices(nullptr);
    } else if (!std::strncmp(argv[I], "--devices=", 10)) {
      return listDevices(argv[I] + 10);
    } else if (!std::strcmp(argv[I], "--topology")) {
      return printTopology("");
    } else if (!std::strncmp(argv[I], "--topology=", 11)) {
      return printTopology(argv[I] + 11);
    } else if (!std::strcmp(argv[I], "--help") || !std::strcmp(argv[I], "-h")) {
      usage(stdout);
      return 0;
    } else if (argv[I][0] == '-' && argv[I][1]) {
      std::fprintf(stderr, "skmd-info: error: unknown option '%s'\n", argv[I]);
      usage(stderr);
      return 2;
    } else if (Path.empty()) {
      Path = argv[I];
    } else {
      std::fprintf(stderr, "skmd-info: error: more than one bundle given\n");
      return 2;
    }
  }
  if (Path.empty()) {
    usage(stderr);
    return 2;
  }

  auto B = Bundle::fromFile(Path);
  if (!B) {
    std::fprintf(stderr, "skmd-info: error: %s\n", B.error().message().c_str());
    return 1;
  }
  if (!Extract.empty()) {
    auto Target = targetKindFromName(Extract);
    if (!Target) {
      std::fprintf(stderr, "skmd-info: error: unknown target '%s' (use x86, "
                           "ptx or spirv)\n", Extract.c_str());
      return 2;
    }
    if (Output.empty()) {
      std::fprintf(stderr, "skmd-info: error: --extract needs -o <file>\n");
      return 2;
    }
    std::string_view Bytes = B->variant(*Target);
    if (Bytes.empty()) {
      std::fprintf(stderr, "skmd-info: error: %s has no %s variant\n",
                   Path.c_str(), Extract.c_str());
      return 1;
    }
    Status S = writeFileAtomically(Output, Bytes);
    if (!S) {
      std::fprintf(stderr, "skmd-info: error: %s\n", S.error().message().c_str());
      return 1;
    }
    return 0;
  }
  if (Json)
    std::fputs(toJson(B->metadata()).c_str(), stdout);
  else
    printBundle(Path, *B);
  return 0;
}
