//===- ArgSpecs.cpp - Kernel arguments from the command line --------------===//
#include "common/ArgSpecs.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace skmd::tools {

const char *ToolName = "skmd";

[[noreturn]] void die(const std::string &Message) {
  std::fprintf(stderr, "%s: error: %s\n", ToolName, Message.c_str());
  std::exit(1);
}

const char *optionValue(int Argc, char **Argv, int &I, const char *Name) {
  std::string A = Argv[I];
  size_t N = std::strlen(Name);
  if (A.compare(0, N, Name) == 0 && A.size() > N && A[N] == '=')
    return Argv[I] + N + 1;
  if (A == Name) {
    if (I + 1 >= Argc)
      die(std::string(Name) + " needs a value");
    return Argv[++I];
  }
  return nullptr;
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  size_t Pos = 0;
  while (true) {
    size_t At = S.find(Sep, Pos);
    Out.push_back(S.substr(Pos, At == std::string::npos ? std::string::npos : At - Pos));
    if (At == std::string::npos)
      return Out;
    Pos = At + 1;
  }
}

uint64_t parseCount(const std::string &S, const std::string &What) {
  // A product of integers, e.g. 1024*1024.
  uint64_t Product = 1;
  for (const std::string &Factor : split(S, '*')) {
    char *End = nullptr;
    errno = 0;
    unsigned long long V = std::strtoull(Factor.c_str(), &End, 10);
    if (Factor.empty() || *End || errno || Factor[0] == '-' ||
        (V && Product > UINT64_MAX / V))
      die(What + ": '" + S + "' is not a non-negative integer (or a product of them)");
    Product *= V;
  }
  return Product;
}

std::vector<size_t> parseSizes(const std::string &S, const std::string &What) {
  std::vector<size_t> Out;
  for (const std::string &Part : split(S, ','))
    Out.push_back(parseCount(Part, What));
  if (Out.empty() || Out.size() > 3)
    die(What + " needs 1 to 3 comma-separated sizes");
  return Out;
}

/// The scalar element type behind an OpenCL type name ("float4*" -> float).
std::string baseType(std::string T) {
  for (const char *Strip : {"const ", "volatile ", "restrict ", "__global ",
                            "global ", "__constant ", "constant "})
    for (size_t At; (At = T.find(Strip)) != std::string::npos;)
      T.erase(At, std::strlen(Strip));
  while (!T.empty() && (T.back() == '*' || T.back() == ' '))
    T.pop_back();
  while (!T.empty() && std::isdigit(static_cast<unsigned char>(T.back())))
    T.pop_back();
  return T;
}

/// Writes \p Text as the value of a scalar argument of \p Info's type.
std::vector<uint8_t> scalarValue(const skmd_arg_info &Info, const std::string &Text) {
  std::string T = baseType(Info.type_name);
  std::vector<uint8_t> Bytes(Info.size);
  auto Put = [&](auto V) {
    if (sizeof V != Info.size)
      die(std::string("argument '") + Info.name + "' (" + Info.type_name +
          "): only scalar values can be given on the command line");
    std::memcpy(Bytes.data(), &V, sizeof V);
  };
  char *End = nullptr;
  errno = 0;
  if (T == "float" || T == "double") {
    double V = std::strtod(Text.c_str(), &End);
    if (Text.empty() || *End)
      die(std::string("argument '") + Info.name + "': '" + Text + "' is not a number");
    T == "float" ? Put(float(V)) : Put(V);
    return Bytes;
  }
  bool Unsigned = T[0] == 'u' || T == "size_t" || T == "bool";
  long long S = 0;
  unsigned long long U = 0;
  if (Unsigned && !Text.empty() && Text[0] != '-')
    U = std::strtoull(Text.c_str(), &End, 0);
  else
    S = std::strtoll(Text.c_str(), &End, 0);
  if (Text.empty() || *End || errno)
    die(std::string("argument '") + Info.name + "' (" + Info.type_name + "): '" +
        Text + "' is not an integer");
  uint64_t Raw = Unsigned && Text[0] != '-' ? U : uint64_t(S);
  switch (Info.size) {
  case 1:
    Put(uint8_t(Raw));
    break;
  case 2:
    Put(uint16_t(Raw));
    break;
  case 4:
    Put(uint32_t(Raw));
    break;
  case 8:
    Put(uint64_t(Raw));
    break;
  default:
    die(std::string("argument '") + Info.name + "' (" + Info.type_name +
        "): only scalar values can be given on the command line");
  }
  return Bytes;
}

/// COUNT elements of the buffer's type, filled as the spec says.
std::vector<uint8_t> bufferContents(const skmd_arg_info &Info, const std::string &Spec) {
  std::vector<std::string> Parts = split(Spec, ':');
  if (Parts.size() > 3)
    die(std::string("argument '") + Info.name + "': '" + Spec +
        "' is not COUNT[:FILL[:SEED]]");
  uint64_t Count = parseCount(Parts[0], std::string("argument '") + Info.name + "' count");
  std::string Fill = Parts.size() > 1 ? Parts[1] : "random";
  uint64_t Seed = Parts.size() > 2 ? parseCount(Parts[2], "seed") : 1;
  size_t Elem = Info.element_size ? Info.element_size : 1;
  std::string T = baseType(Info.type_name);
  size_t Scalar = T == "double" || T == "long" || T == "ulong" ? 8
                  : T == "float" || T == "int" || T == "uint"  ? 4
                  : T == "short" || T == "ushort" || T == "half" ? 2
                  : T == "char" || T == "uchar"                  ? 1
                                                                 : 0;
  std::vector<uint8_t> Bytes(Count * Elem, 0);
  if (Fill == "zero")
    return Bytes;
  if (Scalar == 0 || Elem % Scalar)
    die(std::string("argument '") + Info.name + "' (" + Info.type_name +
        "): only zero fill is possible for this type");
  std::mt19937_64 Rng(Seed);
  size_t Lanes = Count * (Elem / Scalar);
  double Number = 0;
  bool IsNumber = false;
  if (Fill != "random" && Fill != "iota") {
    char *End = nullptr;
    Number = std::strtod(Fill.c_str(), &End);
    if (Fill.empty() || *End)
      die(std::string("argument '") + Info.name + "': fill '" + Fill +
          "' is not random, zero, iota or a number");
    IsNumber = true;
  }
  if (T == "half")
    die(std::string("argument '") + Info.name + "': half buffers take zero fill only");
  // Decided once, not per element: buffers have hundreds of millions.
  const bool Float = T == "float", Double = T == "double", Iota = Fill == "iota";
  std::uniform_real_distribution<double> Unit(0, 1);
  for (size_t I = 0; I < Lanes; ++I) {
    double V = IsNumber ? Number
               : Iota   ? double(I)
               : Float || Double ? Unit(Rng)
                                 : double(Rng() % 100);
    uint8_t *At = Bytes.data() + I * Scalar;
    if (Float) {
      float F = float(V);
      std::memcpy(At, &F, 4);
    } else if (Double) {
      std::memcpy(At, &V, 8);
    } else {
      int64_t N = int64_t(V);
      std::memcpy(At, &N, Scalar); // Little-endian: the low bytes.
    }
  }
  return Bytes;
}

void check(skmd_status S, const std::string &What) {
  if (S != SKMD_SUCCESS)
    die(What + ": " + skmd_last_error());
}

std::vector<std::vector<uint8_t>> setArguments(skmd_kernel K, const std::string &Kernel,
                                               const std::vector<std::string> &Specs,
                                               std::vector<skmd_arg_info> &Infos) {
  size_t NumArgs = skmd_kernel_arg_count(K);
  Infos.assign(NumArgs, skmd_arg_info());
  for (unsigned I = 0; I < NumArgs; ++I)
    check(skmd_get_kernel_arg_info(K, I, &Infos[I]), "argument info");
  if (Specs.size() != NumArgs) {
    std::string Sig;
    for (unsigned I = 0; I < NumArgs; ++I)
      Sig += std::string(I ? ", " : "") + Infos[I].type_name + " " + Infos[I].name;
    die(Kernel + " takes " + std::to_string(NumArgs) + " arguments (" + Sig + "), " +
        std::to_string(Specs.size()) + " --arg given");
  }
  std::vector<std::vector<uint8_t>> Buffers(NumArgs);
  for (unsigned I = 0; I < NumArgs; ++I) {
    const skmd_arg_info &Info = Infos[I];
    std::string Name = std::string("argument '") + Info.name + "'";
    switch (Info.kind) {
    case SKMD_ARG_GLOBAL_BUFFER:
    case SKMD_ARG_CONSTANT_BUFFER:
      Buffers[I] = bufferContents(Info, Specs[I]);
      break;
    case SKMD_ARG_LOCAL:
      check(skmd_set_arg_local(K, I, parseCount(Specs[I], Name + " bytes")), Name);
      break;
    case SKMD_ARG_SCALAR: {
      std::vector<uint8_t> V = scalarValue(Info, Specs[I]);
      check(skmd_set_arg_scalar(K, I, V.data(), V.size()), Name);
      break;
    }
    case SKMD_ARG_SAMPLER:
      die(Name + ": samplers are not supported");
    }
  }
  return Buffers;
}

std::vector<skmd_buffer> setBuffers(skmd_context Ctx, skmd_kernel K,
                                    std::vector<std::vector<uint8_t>> &Buffers,
                                    const std::vector<skmd_arg_info> &Infos) {
  std::vector<std::pair<void *, size_t>> Memory;
  for (std::vector<uint8_t> &B : Buffers)
    Memory.push_back({B.data(), B.size()});
  return setBuffers(Ctx, K, Memory, Infos);
}

std::vector<skmd_buffer> setBuffers(skmd_context Ctx, skmd_kernel K,
                                    const std::vector<std::pair<void *, size_t>> &Memory,
                                    const std::vector<skmd_arg_info> &Infos) {
  std::vector<skmd_buffer> Wrapped;
  for (unsigned I = 0; I < Infos.size(); ++I) {
    if (Infos[I].kind != SKMD_ARG_GLOBAL_BUFFER && Infos[I].kind != SKMD_ARG_CONSTANT_BUFFER)
      continue;
    skmd_buffer B;
    check(skmd_wrap_buffer(Ctx, Memory[I].first, Memory[I].second, &B), "wrapping a buffer");
    check(skmd_set_arg_buffer(K, I, B), std::string("argument '") + Infos[I].name + "'");
    Wrapped.push_back(B);
  }
  return Wrapped;
}

} // namespace skmd::tools
