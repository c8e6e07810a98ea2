//===- Wire.cpp - Messages between SKMD clients and skmd-server -----------===//
#include "wire/Wire.h"
#include "bundle/Crc32.h"

#include <algorithm>
#include <cstring>

namespace skmd::wire {

namespace {

uint64_t readLe(const uint8_t *P, unsigned N) {
  uint64_t V = 0;
  for (unsigned I = 0; I < N; ++I)
    V |= uint64_t(P[I]) << (8 * I);
  return V;
}

void writeLe(uint8_t *P, uint64_t V, unsigned N) {
  for (unsigned I = 0; I < N; ++I)
    P[I] = uint8_t(V >> (8 * I));
}

} // namespace

Failure malformed(const std::string &Text) {
  return Failure(ErrorCode::InvalidArgument, "malformed message: " + Text);
}

/// \p M's payload, if \p M is of kind \p K.
Result<Reader> payloadOf(const Message &M, Kind K) {
  if (M.H.What != K)
    return malformed(std::string("expected ") + kindName(K) + ", got " +
                     (kindName(M.H.What) ? kindName(M.H.What) : "an unknown kind"));
  return Reader(M.Payload.data(), M.Payload.size(), kindName(K));
}

const char *kindName(Kind K) {
  switch (K) {
  case Kind::Hello:
    return "Hello";
  case Kind::Welcome:
    return "Welcome";
  case Kind::Error:
    return "Error";
  case Kind::Challenge:
    return "Challenge";
  case Kind::Done:
    return "Done";
  case Kind::LoadModule:
    return "LoadModule";
  case Kind::LoadKernel:
    return "LoadKernel";
  case Kind::Allocate:
    return "Allocate";
  case Kind::Release:
    return "Release";
  case Kind::Write:
    return "Write";
  case Kind::Read:
    return "Read";
  case Kind::ReadData:
    return "ReadData";
  case Kind::Run:
    return "Run";
  case Kind::Sync:
    return "Sync";
  case Kind::Heartbeat:
    return "Heartbeat";
  case Kind::Goodbye:
    return "Goodbye";
  case Kind::Share:
    return "Share";
  case Kind::Unshare:
    return "Unshare";
  case Kind::WriteShared:
    return "WriteShared";
  case Kind::ReadShared:
    return "ReadShared";
  case Kind::Mark:
    return "Mark";
  case Kind::ReleaseMark:
    return "ReleaseMark";
  case Kind::Load:
    return "Load";
  case Kind::Step:
    return "Step";
  }
  return nullptr;
}

void encodeHeader(const Header &H, uint8_t (&Out)[HeaderBytes]) {
  std::memset(Out, 0, HeaderBytes);
  writeLe(Out, Magic, 4);
  writeLe(Out + 4, H.ProtocolVersion, 2);
  writeLe(Out + 6, uint16_t(H.What), 2);
  writeLe(Out + 8, H.Request, 8);
  writeLe(Out + 16, H.PayloadBytes, 8);
  writeLe(Out + 24, H.PayloadCrc, 4);
}

Result<Header> decodeHeader(const uint8_t *Data, size_t Size) {
  if (Size < HeaderBytes)
    return malformed("a header of " + std::to_string(Size) + " bytes (it has " +
                     std::to_string(HeaderBytes) + ")");
  if (readLe(Data, 4) != Magic)
    return malformed("no SKMW magic: not an SKMD message");
  Header H;
  H.ProtocolVersion = uint16_t(readLe(Data + 4, 2));
  if (H.ProtocolVersion != Version)
    return Failure(ErrorCode::InvalidArgument,
                   "protocol version " + std::to_string(H.ProtocolVersion) +
                       " where this side speaks " + std::to_string(Version) +
                       ": client and server must be built from the same SKMD release");
  H.What = Kind(readLe(Data + 6, 2));
  if (!kindName(H.What))
    return malformed("unknown kind " + std::to_string(unsigned(H.What)));
  H.Request = readLe(Data + 8, 8);
  H.PayloadBytes = readLe(Data + 16, 8);
  if (H.PayloadBytes > MaxPayloadBytes)
    return malformed(std::string(kindName(H.What)) + " announces " +
                     std::to_string(H.PayloadBytes) + " payload bytes (at most " +
                     std::to_string(MaxPayloadBytes) + ")");
  H.PayloadCrc = uint32_t(readLe(Data + 24, 4));
  if (readLe(Data + 28, 4) != 0)
    return malformed("reserved header bytes are not zero");
  return H;
}

void Writer::put(uint64_t V, unsigned N) {
  size_t At = Bytes.size();
  Bytes.resize(At + N);
  writeLe(Bytes.data() + At, V, N);
}

void Writer::f64(double V) {
  uint64_t Bits;
  std::memcpy(&Bits, &V, 8);
  u64(Bits);
}

void Writer::str(const std::string &S) {
  // Longer strings are cut: they are names and messages, and a reader
  // refuses more.
  uint32_t N = uint32_t(std::min<size_t>(S.size(), MaxStringBytes));
  u32(N);
  Bytes.insert(Bytes.end(), S.begin(), S.begin() + N);
}

bool Reader::take(const char *Field, size_t N) {
  if (!Error.empty())
    return false;
  if (N > Left) {
    Error = What + "'s " + Field + " needs " + std::to_string(N) + " bytes, " +
            std::to_string(Left) + " are left";
    return false;
  }
  return true;
}

uint64_t Reader::get(const char *Field, unsigned N) {
  if (!take(Field, N))
    return 0;
  uint64_t V = readLe(At, N);
  At += N;
  Left -= N;
  return V;
}

uint8_t Reader::u8(const char *Field) { return uint8_t(get(Field, 1)); }

double Reader::f64(const char *Field) {
  uint64_t Bits = get(Field, 8);
  double V;
  std::memcpy(&V, &Bits, 8);
  return V;
}

std::string Reader::str(const char *Field) {
  uint32_t N = u32(Field);
  if (!Error.empty())
    return {};
  if (N > MaxStringBytes) {
    Error = What + "'s " + Field + " is " + std::to_string(N) + " bytes long (at most " +
            std::to_string(MaxStringBytes) + ")";
    return {};
  }
  if (!take(Field, N))
    return {};
  std::string S(reinterpret_cast<const char *>(At), N);
  At += N;
  Left -= N;
  return S;
}

void Reader::raw(const char *Field, uint8_t *Out, size_t N) {
  if (!take(Field, N)) {
    if (N)
      std::memset(Out, 0, N);
    return;
  }
  if (N) // Out may be an empty vector's null data()
    std::memcpy(Out, At, N);
  At += N;
  Left -= N;
}

uint32_t Reader::count(const char *Field, size_t MinBytes, uint32_t Max) {
  uint32_t N = u32(Field);
  if (!Error.empty())
    return 0;
  if (N > Max || (MinBytes && uint64_t(N) * MinBytes > Left)) {
    Error = What + "'s " + Field + " is " + std::to_string(N) + " (at most " +
            std::to_string(std::min<uint64_t>(Max, MinBytes ? Left / MinBytes : Max)) +
            " fit)";
    return 0;
  }
  return N;
}

Status Reader::finish() {
  if (!Error.empty())
    return malformed(Error);
  if (Left)
    return malformed(What + " has " + std::to_string(Left) + " bytes after its last field");
  return Status::success();
}

std::vector<uint8_t> frame(Kind K, uint64_t Request, const Writer &Payload) {
  Header H;
  H.What = K;
  H.Request = Request;
  H.PayloadBytes = Payload.bytes().size();
  H.PayloadCrc = crc32(Payload.bytes().data(), Payload.bytes().size());
  std::vector<uint8_t> Bytes(HeaderBytes);
  uint8_t Head[HeaderBytes];
  encodeHeader(H, Head);
  std::memcpy(Bytes.data(), Head, HeaderBytes);
  Bytes.insert(Bytes.end(), Payload.bytes().begin(), Payload.bytes().end());
  return Bytes;
}

Result<Message> parse(const uint8_t *Data, size_t Size) {
  auto H = decodeHeader(Data, Size);
  if (!H)
    return H.error();
  if (Size - HeaderBytes != H->PayloadBytes)
    return malformed(std::string(kindName(H->What)) + " announces " +
                     std::to_string(H->PayloadBytes) + " payload bytes and carries " +
                     std::to_string(Size - HeaderBytes));
  const uint8_t *Payload = Data + HeaderBytes;
  if (crc32(Payload, H->PayloadBytes) != H->PayloadCrc)
    return malformed(std::string(kindName(H->What)) +
                     "'s payload does not match its CRC (damaged on the way)");
  Message M;
  M.H = *H;
  M.Payload.assign(Payload, Payload + H->PayloadBytes);
  return M;
}

Writer encode(const Challenge &M) {
  Writer W;
  W.raw(M.Nonce.data(), TokenBytes);
  return W;
}

Writer encode(const Hello &M) {
  Writer W;
  W.str(M.Client);
  W.raw(M.Proof.data(), TokenBytes);
  return W;
}

Writer encode(const Welcome &M) {
  Writer W;
  W.str(M.Server);
  W.u32(uint32_t(M.Devices.size()));
  for (const DeviceOffer &D : M.Devices) {
    W.str(D.Name);
    W.str(D.Description);
    W.u8(D.Variant);
    W.u32(D.ComputeUnits);
    W.u32(D.LanesPerUnit);
    W.u64(D.MemoryBytes);
    W.u8(D.BuffersAreHandles);
    W.f64(D.LinkGBps);
  }
  return W;
}

Writer encode(const ErrorReply &M) {
  Writer W;
  W.u32(uint32_t(M.Code));
  W.str(M.Text);
  return W;
}

Result<Challenge> decodeChallenge(const Message &M) {
  auto R = payloadOf(M, Kind::Challenge);
  if (!R)
    return R.error();
  Challenge C;
  R->raw("nonce", C.Nonce.data(), TokenBytes);
  if (Status S = R->finish(); !S)
    return S.error();
  return C;
}

Result<Hello> decodeHello(const Message &M) {
  auto R = payloadOf(M, Kind::Hello);
  if (!R)
    return R.error();
  Hello H;
  H.Client = R->str("client");
  R->raw("proof", H.Proof.data(), TokenBytes);
  if (Status S = R->finish(); !S)
    return S.error();
  return H;
}

Result<Welcome> decodeWelcome(const Message &M) {
  auto R = payloadOf(M, Kind::Welcome);
  if (!R)
    return R.error();
  Welcome W;
  W.Server = R->str("server");
  // Each device: a name and a description (4 bytes at least each), the
  // variant, compute units, lanes, memory, handles, link.
  uint32_t N = R->count("device count", 4 + 4 + 1 + 4 + 4 + 8 + 1 + 8, MaxDevices);
  for (uint32_t I = 0; I < N && R->ok(); ++I) {
    DeviceOffer D;
    D.Name = R->str("device name");
    D.Description = R->str("device description");
    D.Variant = R->u8("variant");
    D.ComputeUnits = R->u32("compute units");
    D.LanesPerUnit = R->u32("lanes per unit");
    D.MemoryBytes = R->u64("memory bytes");
    uint8_t Handles = R->u8("buffers are handles");
    D.LinkGBps = R->f64("link GB/s");
    if (R->ok() && Handles > 1)
      return malformed("Welcome's buffers-are-handles flag is " + std::to_string(Handles));
    D.BuffersAreHandles = Handles;
    W.Devices.push_back(std::move(D));
  }
  if (Status S = R->finish(); !S)
    return S.error();
  return W;
}

Result<ErrorReply> decodeError(const Message &M) {
  auto R = payloadOf(M, Kind::Error);
  if (!R)
    return R.error();
  ErrorReply E;
  uint32_t Code = R->u32("error code");
  E.Text = R->str("text");
  if (Status S = R->finish(); !S)
    return S.error();
  if (Code == 0 || Code > uint32_t(ErrorCode::NoDevice))
    return malformed("Error carries unknown code " + std::to_string(Code));
  E.Code = ErrorCode(Code);
  return E;
}

} // namespace skmd::wire
