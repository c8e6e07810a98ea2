//===- ArgSpecs.cpp - Kernel arguments from the command line --------------===//
#include "common/ArgSpecs.h"
#include "bundle/Metadata.h"

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

namespace {

std::string argName(const skmd_arg_info &Info) {
  return std::string("argument '") + Info.name + "' (" + Info.type_name + ")";
}

/// IEEE binary16 bits of \p F, rounded to nearest even.
uint16_t halfBits(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000, Exp = (X >> 23) & 0xff, Man = X & 0x7fffff;
  if (Exp == 0xff)
    return uint16_t(Sign | 0x7c00 | (Man ? 0x200 : 0));
  int E = int(Exp) - 127 + 15;
  if (E >= 31)
    return uint16_t(Sign | 0x7c00);
  if (E <= 0) {
    if (E < -10)
      return uint16_t(Sign);
    Man |= 0x800000;
    unsigned Shift = unsigned(14 - E);
    uint32_t H = Man >> Shift, Rest = Man & ((1u << Shift) - 1), Mid = 1u << (Shift - 1);
    if (Rest > Mid || (Rest == Mid && (H & 1)))
      ++H;
    return uint16_t(Sign | H);
  }
  uint32_t H = (uint32_t(E) << 10) | (Man >> 13), Rest = Man & 0x1fff;
  if (Rest > 0x1000 || (Rest == 0x1000 && (H & 1)))
    ++H; // May carry into the exponent: still the right rounding.
  return uint16_t(Sign | H);
}

/// Stores \p V as one scalar of type \p T at \p At; integers truncate to
/// the type's width (little-endian: the low bytes).
void storeScalar(uint8_t *At, const std::string &T, double V, int64_t N,
                 bool IsInteger) {
  if (T == "float") {
    float F = IsInteger ? float(N) : float(V);
    std::memcpy(At, &F, 4);
  } else if (T == "double") {
    double D = IsInteger ? double(N) : V;
    std::memcpy(At, &D, 8);
  } else if (T == "half") {
    uint16_t H = halfBits(IsInteger ? float(N) : float(V));
    std::memcpy(At, &H, 2);
  } else {
    std::memcpy(At, &N, scalarTypeBytes(T));
  }
}


/// One number as a scalar of type \p T; dies naming the argument.
void parseScalar(const skmd_arg_info &Info, const std::string &T,
                 const std::string &Text, uint8_t *At) {
  char *End = nullptr;
  errno = 0;
  if (isFloatType(T)) {
    double V = std::strtod(Text.c_str(), &End);
    if (Text.empty() || *End)
      die(argName(Info) + ": '" + Text + "' is not a number");
    storeScalar(At, T, V, 0, false);
    return;
  }
  bool Unsigned = T[0] == 'u';
  int64_t N;
  if (Unsigned && !Text.empty() && Text[0] != '-')
    N = int64_t(std::strtoull(Text.c_str(), &End, 0));
  else
    N = std::strtoll(Text.c_str(), &End, 0);
  if (Text.empty() || *End || errno)
    die(argName(Info) + ": '" + Text + "' is not an integer");
  storeScalar(At, T, 0, N, true);
}

std::string describeLayout(const std::vector<skmd_scalar_run> &Layout) {
  std::string Out;
  for (const skmd_scalar_run &R : Layout)
    Out += std::string(Out.empty() ? "" : ", ") + R.type +
           (R.count > 1 ? " x" + std::to_string(R.count) : "");
  return Out;
}

} // namespace

bool isFloatType(const std::string &T) {
  return T == "float" || T == "double" || T == "half";
}

std::vector<skmd_scalar_run> argLayout(skmd_kernel K, unsigned Index,
                                       const skmd_arg_info &Info) {
  size_t Count = 0;
  check(skmd_get_kernel_arg_layout(K, Index, nullptr, 0, &Count), "argument layout");
  std::vector<skmd_scalar_run> Layout(Count);
  if (Count)
    check(skmd_get_kernel_arg_layout(K, Index, Layout.data(), Count, &Count),
          "argument layout");
  if (!Layout.empty())
    return Layout;
  // Bundles without layouts: a scalar or vector type by its name.
  std::string T = baseType(Info.base_type_name[0] ? Info.base_type_name : Info.type_name);
  size_t Bytes = Info.kind == SKMD_ARG_SCALAR ? Info.size : Info.element_size;
  unsigned Scalar = scalarTypeBytes(T);
  if (Scalar && Bytes && Bytes % Scalar == 0) {
    skmd_scalar_run R{};
    std::snprintf(R.type, sizeof R.type, "%s", T.c_str());
    R.count = Bytes / Scalar;
    Layout.push_back(R);
  }
  return Layout;
}

std::vector<uint8_t> scalarValue(const skmd_arg_info &Info,
                                 const std::vector<skmd_scalar_run> &Layout,
                                 const std::string &Text) {
  std::vector<uint8_t> Bytes(Info.size, 0);
  size_t Scalars = 0;
  for (const skmd_scalar_run &R : Layout)
    Scalars += R.count;
  if (Scalars == 0)
    die(argName(Info) + ": its layout is not known, so no value can be given "
                        "on the command line");
  std::vector<std::string> Values = split(Text, ',');
  // One value for every scalar (a vector's broadcast), or one each.
  if (Values.size() != 1 && Values.size() != Scalars)
    die(argName(Info) + ": " + std::to_string(Values.size()) + " values given; give 1 "
        "or " + std::to_string(Scalars) + " (" + describeLayout(Layout) + "), comma-separated");
  size_t Next = 0;
  for (const skmd_scalar_run &R : Layout)
    for (size_t I = 0; I < R.count; ++I) {
      const std::string &V = Values[Values.size() == 1 ? 0 : Next++];
      parseScalar(Info, R.type, V, Bytes.data() + R.offset + I * scalarTypeBytes(R.type));
    }
  return Bytes;
}

std::vector<uint8_t> bufferContents(const skmd_arg_info &Info,
                                    const std::vector<skmd_scalar_run> &Layout,
                                    const std::string &Spec) {
  std::vector<std::string> Parts = split(Spec, ':');
  if (Parts.size() > 3)
    die(argName(Info) + ": '" + Spec + "' is not COUNT[:FILL[:SEED]]");
  uint64_t Count = parseCount(Parts[0], std::string("argument '") + Info.name + "' count");
  std::string Fill = Parts.size() > 1 ? Parts[1] : "random";
  uint64_t Seed = Parts.size() > 2 ? parseCount(Parts[2], "seed") : 1;
  size_t Elem = Info.element_size ? Info.element_size : 1;
  if (Count && Elem > SIZE_MAX / Count)
    die(argName(Info) + ": " + Parts[0] + " elements do not fit in memory");
  std::vector<uint8_t> Bytes(Count * Elem, 0);
  if (Fill == "zero")
    return Bytes;
  if (Layout.empty())
    die(argName(Info) + ": only zero fill is possible for this type (its layout "
                        "is not known)");
  // The fill: random, iota, a number, or LO..HI (uniform in [LO, HI]).
  enum { Random, Iota, Number, Range } Kind = Random;
  double Lo = 0, Hi = 0;
  if (Fill == "iota") {
    Kind = Iota;
  } else if (Fill != "random") {
    size_t Dots = Fill.find("..");
    auto Num = [&](const std::string &T) {
      char *End = nullptr;
      double V = std::strtod(T.c_str(), &End);
      if (T.empty() || *End)
        die(argName(Info) + ": fill '" + Fill +
            "' is not random, zero, iota, a number or LO..HI");
      return V;
    };
    if (Dots == std::string::npos) {
      Kind = Number;
      Lo = Num(Fill);
    } else {
      Kind = Range;
      Lo = Num(Fill.substr(0, Dots));
      Hi = Num(Fill.substr(Dots + 2));
      if (!(Lo <= Hi))
        die(argName(Info) + ": fill '" + Fill + "' has LO above HI");
    }
  }
  // A layout of one type that fills the element is one run over the whole
  // buffer: decided once, not per element (buffers have hundreds of
  // millions).
  std::vector<skmd_scalar_run> Runs = Layout;
  uint64_t Elements = Count;
  if (Runs.size() == 1 && Runs[0].offset == 0 &&
      Runs[0].count * scalarTypeBytes(Runs[0].type) == Elem) {
    Runs[0].count *= Count;
    Elements = 1;
  }
  std::mt19937_64 Rng(Seed);
  std::uniform_real_distribution<double> Unit(0, 1);
  uint64_t Lane = 0;
  for (uint64_t E = 0; E < Elements; ++E)
    for (const skmd_scalar_run &R : Runs) {
      std::string T = R.type;
      const bool Float = isFloatType(T);
      const unsigned Size = scalarTypeBytes(T);
      int64_t IntLo = int64_t(std::ceil(Lo)), IntHi = int64_t(std::floor(Hi));
      if (Kind == Range && !Float && IntLo > IntHi)
        die(argName(Info) + ": fill '" + Fill + "' holds no integer");
      uint8_t *At = Bytes.data() + E * Elem + R.offset;
      for (uint64_t I = 0; I < R.count; ++I, ++Lane, At += Size) {
        double V = 0;
        int64_t N = 0;
        switch (Kind) {
        case Random:
          if (Float)
            V = Unit(Rng);
          else
            N = int64_t(Rng() % 100);
          break;
        case Iota:
          V = double(Lane);
          N = int64_t(Lane);
          break;
        case Number:
          V = Lo;
          N = int64_t(Lo);
          break;
        case Range:
          if (Float)
            V = Lo + (Hi - Lo) * Unit(Rng);
          else
            N = IntLo + int64_t(Rng() % uint64_t(IntHi - IntLo + 1));
          break;
        }
        storeScalar(At, T, V, N, !Float);
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
      Buffers[I] = bufferContents(Info, argLayout(K, I, Info), Specs[I]);
      break;
    case SKMD_ARG_LOCAL:
      check(skmd_set_arg_local(K, I, parseCount(Specs[I], Name + " bytes")), Name);
      break;
    case SKMD_ARG_SCALAR: {
      std::vector<uint8_t> V = scalarValue(Info, argLayout(K, I, Info), Specs[I]);
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
