//===- KernelHarness.cpp - Corpus kernels on the CPU device vs C++ --------===//
#include "common/KernelHarness.h"

#include "buffers/Transfers.h"
#include "bundle/Bundle.h"
#include "common/RandomSplit.h"
#include "devices/cpu/HostCpu.h"
#include "session/Devices.h"
#include "launch/Launcher.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace skmd::test {

void failHarness(const std::string &Why) {
  std::fprintf(stderr, "test harness misused: %s\n", Why.c_str());
  std::abort();
}

namespace {

/// How to compare and print one element of a buffer.
struct ElemOps {
  /// Bit for bit, but any NaN matches any NaN.
  std::function<bool(const uint8_t *, const uint8_t *)> Same;
  std::function<std::string(const uint8_t *)> Show;
};

template <typename T> std::string show(T V) {
  std::ostringstream OS;
  if constexpr (std::is_floating_point_v<T>)
    OS << std::setprecision(std::numeric_limits<T>::max_digits10) << V << " ("
       << std::hexfloat << V << ")";
  else
    OS << +V;
  return OS.str();
}

template <typename T> ElemOps typedOps() {
  auto Load = [](const uint8_t *P) {
    T V;
    std::memcpy(&V, P, sizeof(T));
    return V;
  };
  return {[Load](const uint8_t *A, const uint8_t *B) {
            if constexpr (std::is_floating_point_v<T>)
              if (std::isnan(Load(A)) && std::isnan(Load(B)))
                return true;
            return std::memcmp(A, B, sizeof(T)) == 0;
          },
          [Load](const uint8_t *P) { return show(Load(P)); }};
}

/// Structs: compared and shown as bytes.
ElemOps bytesOps(size_t Size) {
  return {[Size](const uint8_t *A, const uint8_t *B) {
            return std::memcmp(A, B, Size) == 0;
          },
          [Size](const uint8_t *P) {
            std::ostringstream OS;
            OS << "bytes";
            for (size_t I = 0; I < Size; ++I)
              OS << (I % 4 ? "" : " ") << std::hex << std::setw(2)
                 << std::setfill('0') << unsigned(P[I]);
            return OS.str();
          }};
}

ElemOps opsFor(ElemType Type, size_t Size) {
  switch (Type) {
  case ElemType::I8:
    return typedOps<int8_t>();
  case ElemType::U8:
    return typedOps<uint8_t>();
  case ElemType::I16:
    return typedOps<int16_t>();
  case ElemType::U16:
    return typedOps<uint16_t>();
  case ElemType::I32:
    return typedOps<int32_t>();
  case ElemType::U32:
    return typedOps<uint32_t>();
  case ElemType::I64:
    return typedOps<int64_t>();
  case ElemType::U64:
    return typedOps<uint64_t>();
  case ElemType::F32:
    return typedOps<float>();
  case ElemType::F64:
    return typedOps<double>();
  case ElemType::Bytes:
    break;
  }
  return bytesOps(Size);
}

/// Exact and AnyOrder: an empty string if Got matches, else what differs.
std::string compareBits(const ArgValue &Got, const ArgValue &Want) {
  ElemOps Ops = opsFor(Got.Type, Got.ElemSize);
  size_t Size = Got.ElemSize, N = Got.Bytes.size() / Size;
  auto At = [Size](const ArgValue &A, size_t I) {
    return A.Bytes.data() + I * Size;
  };
  std::vector<size_t> GotOrder(N), WantOrder(N);
  std::iota(GotOrder.begin(), GotOrder.end(), 0);
  std::iota(WantOrder.begin(), WantOrder.end(), 0);
  if (Got.Rule.K == Check::AnyOrder) {
    // Sorted by bytes, which orders elements of any type.
    auto Sort = [&](const ArgValue &A, std::vector<size_t> &Order) {
      std::sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
        return std::memcmp(At(A, X), At(A, Y), Size) < 0;
      });
    };
    Sort(Got, GotOrder);
    Sort(Want, WantOrder);
  }
  size_t Bad = 0, First = N;
  for (size_t I = 0; I < N; ++I)
    if (!Ops.Same(At(Got, GotOrder[I]), At(Want, WantOrder[I]))) {
      ++Bad;
      First = std::min(First, I);
    }
  if (!Bad)
    return "";
  std::ostringstream OS;
  OS << Bad << " of " << N << " elements differ"
     << (Got.Rule.K == Check::AnyOrder ? " once sorted by their bytes" : "")
     << "; element " << First << " is " << Ops.Show(At(Got, GotOrder[First]))
     << ", expected " << Ops.Show(At(Want, WantOrder[First]));
  return OS.str();
}

/// Floats between A and B, counting +0 and -0 as one.
template <typename T> uint64_t ulpDistance(T A, T B) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr Bits Sign = Bits(1) << (sizeof(T) * 8 - 1);
  Bits BA, BB;
  std::memcpy(&BA, &A, sizeof(T));
  std::memcpy(&BB, &B, sizeof(T));
  uint64_t MA = BA & ~Sign, MB = BB & ~Sign;
  if ((BA & Sign) == (BB & Sign))
    return MA > MB ? MA - MB : MB - MA;
  return MA + MB;
}

/// Ulp and Absolute: an empty string if Got is near enough, else the number
/// of elements that are not and the worst error seen.
template <typename T>
std::string compareNear(const ArgValue &Got, const ArgValue &Want) {
  const T *G = reinterpret_cast<const T *>(Got.Bytes.data());
  const T *W = reinterpret_cast<const T *>(Want.Bytes.data());
  size_t N = Got.Bytes.size() / sizeof(T);
  bool Ulp = Got.Rule.K == Check::Ulp;
  // Ulp distances are whole numbers: floor(Bound + 0.5), see ulps().
  double Allowed = Ulp ? std::floor(Got.Rule.Bound + 0.5) : Got.Rule.Bound;
  double Worst = -1;
  size_t WorstAt = 0, Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    double Err;
    if (std::isnan(G[I]) || std::isnan(W[I]))
      Err = std::isnan(G[I]) && std::isnan(W[I]) ? 0 : INFINITY;
    else if (G[I] == W[I])
      Err = 0;
    else
      Err = Ulp ? double(ulpDistance(G[I], W[I]))
                : std::fabs(double(G[I]) - double(W[I]));
    Bad += Err > Allowed;
    if (Err > Worst) {
      Worst = Err;
      WorstAt = I;
    }
  }
  if (!Bad)
    return "";
  const char *Unit = Ulp ? " ulp" : "";
  std::ostringstream OS;
  OS << Bad << " of " << N << " elements are off by more than " << Allowed
     << Unit << "; the worst, by " << std::setprecision(3) << Worst << Unit
     << ", is element " << WorstAt << ": " << show(G[WorstAt]) << ", expected "
     << show(W[WorstAt]);
  return OS.str();
}

std::string compare(const ArgValue &Got, const ArgValue &Want) {
  if (Got.Rule.K == Check::Exact || Got.Rule.K == Check::AnyOrder)
    return compareBits(Got, Want);
  if (Got.Type == ElemType::F32)
    return compareNear<float>(Got, Want);
  if (Got.Type == ElemType::F64)
    return compareNear<double>(Got, Want);
  failHarness("ulp and absolute bounds apply to float and double buffers");
}

bool kindMatches(const ArgValue &A, const KernelArg &K) {
  switch (A.K) {
  case ArgValue::Buffer:
    return K.Kind == ArgKind::GlobalBuffer || K.Kind == ArgKind::ConstantBuffer;
  case ArgValue::Local:
    return K.Kind == ArgKind::LocalBuffer;
  case ArgValue::Scalar:
    return K.Kind == ArgKind::Scalar && K.Size == A.Bytes.size();
  }
  return false;
}

Status runGroups(ThreadPool &Pool, skmd_wg_fn Fn, const KernelInfo &K,
                 const NDRange &Launch, Args &Memory, uint64_t First,
                 uint64_t Count) {
  size_t N = Memory.Values.size();
  std::vector<void *> ArgPtrs(N, nullptr), BufferPtrs(N, nullptr);
  std::vector<uint64_t> LocalBytes(N, 0);
  for (size_t I = 0; I < N; ++I) {
    ArgValue &A = Memory.Values[I];
    switch (A.K) {
    case ArgValue::Buffer:
      BufferPtrs[I] = A.Bytes.data();
      ArgPtrs[I] = &BufferPtrs[I];
      break;
    case ArgValue::Local:
      LocalBytes[I] = A.LocalBytes;
      break;
    case ArgValue::Scalar:
      ArgPtrs[I] = A.Bytes.data();
      break;
    }
  }
  return runWorkGroups(Pool, Fn, ArgPtrs, LocalBytes, Launch,
                       {K.Cpu.LocalMemBytes, K.Cpu.StateBytesPerItem}, First,
                       Count);
}

/// The runtime's devices for the differential runs, opened once per test
/// binary: SKMD_TEST_DEVICES (a device list as skmd_init takes, e.g.
/// cpu,cuda on a GPU host), by default the CPU and two HostDiscrete
/// devices.
struct RuntimeDevices {
  RuntimeDevices() {
    const char *Env = std::getenv("SKMD_TEST_DEVICES");
    auto Opened = openDevices(Env ? Env : "cpu,discrete,discrete");
    if (!Opened)
      failHarness("SKMD_TEST_DEVICES: " + Opened.error().message());
    Devices = std::move(Opened->Devices);
    std::vector<Device *> Raw;
    for (auto &D : Devices)
      Raw.push_back(D.get());
    Run = std::make_unique<Launcher>(Raw, *Opened->Cpu);
  }
  std::vector<std::unique_ptr<Device>> Devices;
  std::unique_ptr<Launcher> Run;
};

RuntimeDevices &runtimeDevices() {
  static RuntimeDevices Devices;
  return Devices;
}

std::vector<HostArg> hostArgs(Args &Memory) {
  std::vector<HostArg> Out(Memory.Values.size());
  for (size_t I = 0; I < Out.size(); ++I) {
    ArgValue &A = Memory.Values[I];
    switch (A.K) {
    case ArgValue::Buffer:
      Out[I].K = HostArg::Buffer;
      Out[I].Data = A.Bytes.data();
      Out[I].Bytes = A.Bytes.size();
      break;
    case ArgValue::Local:
      Out[I].K = HostArg::Local;
      Out[I].LocalBytes = A.LocalBytes;
      break;
    case ArgValue::Scalar:
      Out[I].K = HostArg::Scalar;
      Out[I].Value.assign(A.Bytes.data(), A.Bytes.data() + A.Bytes.size());
      break;
    }
  }
  return Out;
}

} // namespace

void CpuKernelTest::check(const KernelRun &R) {
  auto B =
      Bundle::fromFile(corpusDir() + "/" + R.Bundle + ".skmd");
  ASSERT_TRUE(B.ok()) << B.error().message();
  const KernelInfo *K = B->metadata().findKernel(R.Kernel);
  ASSERT_NE(K, nullptr) << R.Bundle << " has no kernel " << R.Kernel;
  ASSERT_EQ(K->Args.size(), R.Initial.Values.size())
      << R.Kernel << ": the run gives another number of arguments";
  for (size_t I = 0; I < K->Args.size(); ++I)
    ASSERT_TRUE(kindMatches(R.Initial.Values[I], K->Args[I]))
        << R.Kernel << ": argument " << I << " (" << K->Args[I].TypeName << " "
        << K->Args[I].Name << ") is given as another kind or size";
  auto Lib = loadX86Variant(*B);
  ASSERT_TRUE(Lib.ok()) << Lib.error().message();
  auto Sym = Lib->symbol(K->Symbols.at(TargetKind::X86).Kernel);
  ASSERT_TRUE(Sym.ok()) << Sym.error().message();
  auto Fn = reinterpret_cast<skmd_wg_fn>(*Sym);

  Args Want = R.Initial;
  R.Reference(Want);
  const NDRange &L = R.Launch;
  uint64_t Total = L.NumGroups[0] * L.NumGroups[1] * L.NumGroups[2];

  auto Expect = [&](const Args &Got, const std::string &How) {
    for (size_t I = 0; I < Got.Values.size(); ++I)
      if (Got.Values[I].K == ArgValue::Buffer) {
        std::string Why = compare(Got.Values[I], Want.Values[I]);
        if (!Why.empty())
          FAIL() << R.Kernel << " (" << How << "), argument " << I << " ("
                 << K->Args[I].Name << "): " << Why;
      }
  };

  Args Whole = R.Initial;
  Status S = runGroups(Pool, Fn, *K, L, Whole, 0, Total);
  ASSERT_TRUE(S.ok()) << S.error().message();
  Expect(Whole, "whole range");
  if (HasFatalFailure())
    return;

  for (int Trial = 0; Trial < 3; ++Trial) {
    auto Pieces = randomPieces(Total, 4, Rng);
    Args Split = R.Initial;
    for (auto [First, Count] : Pieces) {
      S = runGroups(Pool, Fn, *K, L, Split, First, Count);
      ASSERT_TRUE(S.ok()) << S.error().message();
    }
    Expect(Split, std::to_string(Pieces.size()) + " pieces in random order");
    if (HasFatalFailure())
      return;
  }

  // Through the launcher, as a user's launch runs: pieces on the CPU and
  // two HostDiscrete devices (copies in and out, merges), or the whole
  // range on one HostDiscrete device for kernels that cannot be split, and
  // for splits that the launch-time test refuses (atomics of two pieces on
  // one counter), as the default plan does.
  RuntimeDevices &Devices = runtimeDevices();
  LoadedKernel Loaded;
  Loaded.Source = &*B;
  Loaded.Info = K;
  // The devices whose variant the bundle has (no PTX for kernels only the
  // x86 library supports), the CPU first.
  std::vector<unsigned> Usable;
  for (unsigned D = 0; D < Devices.Devices.size(); ++D) {
    TargetKind Variant = Devices.Devices[D]->info().Variant;
    if (!B->variant(Variant).empty() &&
        (R.GpusDiffer.empty() || Variant == TargetKind::X86))
      Usable.push_back(D);
  }
  for (int Trial = 0; Trial < 3; ++Trial) {
    std::vector<Piece> Plan;
    // Pieces of devices with their own memory in 1-3 pipelined chunks
    // (queued on devices that queue their work); the conflict test sees
    // each chunk as a piece, as the launcher runs them.
    std::vector<bool> Shares;
    if (K->Partitionable) {
      for (auto [First, Count] : randomPieces(Total, 4, Rng)) {
        Piece P{Usable[std::uniform_int_distribution<size_t>(0, Usable.size() - 1)(Rng)],
                First, Count};
        Shares.push_back(Devices.Devices[P.Device]->info().SharesHostMemory);
        if (!Shares.back())
          P.Chunks = unsigned(std::min<uint64_t>(
              Count, std::uniform_int_distribution<unsigned>(1, 3)(Rng)));
        Plan.push_back(P);
      }
    }
    Args Launched = R.Initial;
    std::vector<HostArg> Host = hostArgs(Launched);
    if (!Plan.empty()) {
      std::vector<size_t> Of;
      auto Conflict = firstConflict(*K, Host, L, splitChunks(Plan, Shares, Of));
      ASSERT_TRUE(Conflict.ok()) << Conflict.error().message();
      if (!Conflict->empty())
        Plan.clear();
    }
    if (Plan.empty())
      Plan.push_back({Usable[(Trial + 1) % Usable.size()], 0, Total});
    LaunchReport Report;
    Status S = Devices.Run->run(Loaded, Host, L, Plan, Report);
    ASSERT_TRUE(S.ok()) << S.error().message();
    // A device that failed had its groups re-run on the CPU: right bytes,
    // but not the device under test.
    for (const PieceReport &P : Report.Pieces)
      ASSERT_TRUE(P.Failure.empty()) << P.Device << " failed: " << P.Failure;
    std::string How;
    for (const PieceReport &P : Report.Pieces)
      How += (How.empty() ? "" : ", ") + P.Device + " [" + std::to_string(P.First) +
             ", " + std::to_string(P.First + P.Count) + ")" +
             (P.Chunks > 1 ? " in " + std::to_string(P.Chunks) + " chunks" : "");
    Expect(Launched, "launcher: " + How);
    if (HasFatalFailure())
      return;
  }
}

NDRange launch(std::array<uint64_t, 3> Groups, std::array<uint64_t, 3> Local,
                 uint32_t Dims, std::array<uint64_t, 3> Offset) {
  NDRange L;
  L.NumGroups = Groups;
  L.LocalSize = Local;
  L.WorkDim = Dims;
  L.GlobalOffset = Offset;
  return L;
}

std::vector<float> randomFloats(size_t N, std::mt19937 &Rng, float Lo,
                                float Hi) {
  std::uniform_real_distribution<float> D(Lo, Hi);
  std::vector<float> V(N);
  for (float &X : V)
    X = D(Rng);
  return V;
}

std::vector<double> randomDoubles(size_t N, std::mt19937 &Rng, double Lo,
                                  double Hi) {
  std::uniform_real_distribution<double> D(Lo, Hi);
  std::vector<double> V(N);
  for (double &X : V)
    X = D(Rng);
  return V;
}

std::vector<float> dyadicFloats(size_t N, std::mt19937 &Rng, int Bits) {
  int Scale = 1 << Bits;
  std::uniform_int_distribution<int> D(-Scale, Scale);
  std::vector<float> V(N);
  for (float &X : V)
    X = float(D(Rng)) / float(Scale);
  return V;
}

std::string corpusDir() {
  const char *Env = std::getenv("SKMD_CORPUS_DIR");
  return Env ? Env : SKMD_CORPUS_DIR;
}

FloatsLaunch::FloatsLaunch(const std::string &BundleName, const std::string &KernelName) {
  auto Loaded = Bundle::fromFile(corpusDir() + "/" + BundleName + ".skmd");
  if (!Loaded) {
    Error = Loaded.error().message();
    return;
  }
  Source.emplace(std::move(*Loaded));
  Kernel.Source = &*Source;
  Kernel.Info = Source->metadata().findKernel(KernelName);
  if (!Kernel.Info)
    Error = BundleName + ".skmd has no kernel " + KernelName;
}

void FloatsLaunch::bind(int32_t N) {
  Args.assign(4, HostArg());
  Args[0] = {HostArg::Buffer, A.data(), A.size() * 4, nullptr, {}, 0};
  Args[1] = {HostArg::Buffer, B.data(), B.size() * 4, nullptr, {}, 0};
  Args[2] = {HostArg::Buffer, C.data(), C.size() * 4, nullptr, {}, 0};
  Args[3].K = HostArg::Scalar;
  Args[3].Value.resize(4);
  std::memcpy(Args[3].Value.data(), &N, 4);
}

VectorAddLaunch::VectorAddLaunch(uint32_t Groups) : FloatsLaunch("vector_add", "vector_add") {
  const uint32_t N = 64 * Groups;
  A.assign(N, 1.0f);
  B.assign(N, 2.0f);
  C.assign(N, 0.0f);
  bind(int32_t(N));
  Range.NumGroups = {Groups, 1, 1};
  Range.LocalSize = {64, 1, 1};
}

MatmulLaunch::MatmulLaunch(int N) : FloatsLaunch("matmul_tiled", "matmul_tiled") {
  std::mt19937 Rng(7);
  A = dyadicFloats(size_t(N) * N, Rng);
  B = dyadicFloats(size_t(N) * N, Rng);
  C.assign(size_t(N) * N, 0.0f);
  bind(N);
  Range.NumGroups = {uint32_t(N / 16), uint32_t(N / 16), 1};
  Range.LocalSize = {16, 16, 1};
}

} // namespace skmd::test
