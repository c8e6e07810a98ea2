//===- FuzzWire.cpp - libFuzzer target: the wire format -------------------===//
//
// Any bytes as a message between an SKMD client and skmd-server: parse and
// the decoders must refuse what is malformed with an error, never crash or
// allocate what a length claims; what they accept must encode back to the
// same bytes.
//
//   build-fuzz/bin/fuzz-wire test/fuzz/corpus/wire -max_total_time=60
//
//===----------------------------------------------------------------------===//
#include "wire/Requests.h"
#include "wire/Wire.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace skmd::wire;

namespace {

void roundTrip(const Message &M, const Writer &Payload, const uint8_t *Data, size_t Size) {
  std::vector<uint8_t> Again = frame(M.H.What, M.H.Request, Payload);
  if (Again != std::vector<uint8_t>(Data, Data + Size))
    std::abort(); // What was accepted must encode to the same bytes.
}

template <typename T> void roundTrip(const Message &M, const T &Decoded, const uint8_t *Data,
                                     size_t Size) {
  std::vector<uint8_t> Again = frame(M.H.What, M.H.Request, encode(Decoded));
  if (Again != std::vector<uint8_t>(Data, Data + Size))
    std::abort(); // What was accepted must encode to the same bytes.
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto M = parse(Data, Size);
  if (!M)
    return 0;
  switch (M->H.What) {
  case Kind::Hello:
    if (auto H = decodeHello(*M))
      roundTrip(*M, *H, Data, Size);
    break;
  case Kind::Welcome:
    if (auto W = decodeWelcome(*M))
      roundTrip(*M, *W, Data, Size);
    break;
  case Kind::Error:
    if (auto E = decodeError(*M))
      roundTrip(*M, *E, Data, Size);
    break;
  case Kind::Challenge:
    if (auto C = decodeChallenge(*M))
      roundTrip(*M, *C, Data, Size);
    break;
  case Kind::Done:
    if (auto D = decodeDone(*M))
      roundTrip(*M, *D, Data, Size);
    break;
  case Kind::LoadModule:
    if (auto L = decodeLoadModule(*M))
      roundTrip(*M, *L, Data, Size);
    break;
  case Kind::LoadKernel:
    if (auto L = decodeLoadKernel(*M))
      roundTrip(*M, *L, Data, Size);
    break;
  case Kind::Allocate:
    if (auto A = decodeAllocate(*M))
      roundTrip(*M, *A, Data, Size);
    break;
  case Kind::Release:
    if (auto R = decodeRelease(*M))
      roundTrip(*M, *R, Data, Size);
    break;
  case Kind::Write:
  case Kind::Read:
    if (auto T = decodeTransfer(*M))
      roundTrip(*M, *T, Data, Size);
    break;
  case Kind::ReadData:
    if (auto R = decodeReadData(*M))
      roundTrip(*M, *R, Data, Size);
    break;
  case Kind::Run:
    if (auto R = decodeRun(*M))
      roundTrip(*M, *R, Data, Size);
    break;
  case Kind::Share:
    if (auto S = decodeShare(*M))
      roundTrip(*M, *S, Data, Size);
    break;
  case Kind::Unshare:
    if (auto U = decodeUnshare(*M))
      roundTrip(*M, *U, Data, Size);
    break;
  case Kind::WriteShared:
  case Kind::ReadShared:
    if (auto T = decodeSharedTransfer(*M))
      roundTrip(*M, *T, Data, Size);
    break;
  case Kind::Sync:
  case Kind::Load:
    if (auto S = decodeSync(*M))
      roundTrip(*M, *S, Data, Size);
    break;
  case Kind::Mark:
  case Kind::ReleaseMark:
    if (auto Q = decodeQueueMark(*M))
      roundTrip(*M, *Q, Data, Size);
    break;
  case Kind::Step:
    if (auto S = decodeStep(*M))
      roundTrip(*M, *S, Data, Size);
    break;
  case Kind::Heartbeat:
  case Kind::Goodbye:
    if (decodeEmpty(*M))
      roundTrip(*M, empty(), Data, Size);
    break;
  }
  return 0;
}
