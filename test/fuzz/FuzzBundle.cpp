//===- FuzzBundle.cpp - libFuzzer target: the bundle loader ---------------===//
//
// Any bytes as a bundle: the loader must refuse what is not a valid bundle
// with an error (a header, a section table, CRCs, the metadata's schema),
// never crash or read out of bounds. What loads is then walked as a runtime
// would: every kernel's arguments and footprints, evaluated for a launch.
//
//   build-fuzz/bin/fuzz-bundle test/fuzz/corpus/bundle -max_total_time=60
//
//===----------------------------------------------------------------------===//
#include "bundle/Bundle.h"
#include "footprint/Footprint.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto B = skmd::Bundle::fromBytes(std::vector<uint8_t>(Data, Data + Size));
  if (!B)
    return 0;
  for (const skmd::KernelInfo &K : B->metadata().Kernels) {
    skmd::LaunchValues L;
    L.LocalSize = {4, 2, 1};
    L.NumGroups = {3, 2, 1};
    L.Args.assign(K.Args.size(), int64_t(7));
    for (const skmd::ArgFootprint &F : K.Footprint.Args)
      (void)skmd::rangeFootprint(K.Footprint, F, L, 1, 4);
  }
  for (const skmd::BundleSection &S : B->sections())
    (void)B->payload(S);
  return 0;
}
