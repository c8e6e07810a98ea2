//===- FuzzMetadata.cpp - libFuzzer target: the metadata parser -----------===//
//
// Any text as bundle metadata: parseMetadata must refuse malformed JSON and
// schema violations with an error naming the field, never crash; what it
// accepts must write back (toJson) and parse again to the same JSON.
//
//   build-fuzz/bin/fuzz-metadata test/fuzz/corpus/metadata -max_total_time=60
//
//===----------------------------------------------------------------------===//
#include "bundle/Metadata.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto M = skmd::parseMetadata(std::string(reinterpret_cast<const char *>(Data), Size));
  if (!M)
    return 0;
  std::string Json = skmd::toJson(*M);
  auto Again = skmd::parseMetadata(Json);
  if (!Again || skmd::toJson(*Again) != Json)
    std::abort(); // What was accepted must round-trip.
  return 0;
}
