//===- PinnedRangesAtExit.cpp - Page-locked blocks forgotten at exit ------===//
//
// The OpenCL platform's session is a function-local static made before
// the first page-locked block is noted, so at exit it is destroyed after
// the statics made later, and its destructor (and its worker, finishing
// the releases the program queued) forget the blocks still held. This
// program does the same with a static of its own and must exit cleanly
// (the registry of page-locked ranges used to be such a later static: the
// blocks were forgotten in a destroyed map, which glibc reported as heap
// corruption).
//
//===----------------------------------------------------------------------===//
#include "devices/cuda/StagingPool.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Holder {
  std::vector<void *> Blocks;
  ~Holder() {
    for (void *P : Blocks) {
      skmd::forgetPinned(P);
      if (skmd::isPinned(P, 1)) {
        std::fprintf(stderr, "a forgotten block is still page-locked\n");
        std::abort();
      }
      std::free(P);
    }
  }
};

Holder &holder() {
  static Holder H;
  return H;
}

} // namespace

int main() {
  Holder &H = holder();
  for (int I = 0; I < 32; ++I) {
    void *P = std::malloc(4096);
    skmd::notePinned(P, 4096);
    H.Blocks.push_back(P);
  }
  return skmd::isPinned(H.Blocks.back(), 4096) ? 0 : 1;
}
