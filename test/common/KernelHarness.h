//===- KernelHarness.h - Corpus kernels on the CPU vs C++ -------*- C++ -*-===//
//
// A KernelRun names a kernel of a corpus bundle (compiled by skmd-cc at
// build time), a launch, and the kernel's arguments in order: typed buffers,
// each with the rule its contents must meet after the run, __local sizes and
// scalars. CpuKernelTest::check runs the kernel's x86 work-group function
// over the whole range and over random splits run in random order, and
// compares every buffer with what a C++ reference made of the same inputs.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TEST_COMMON_KERNELHARNESS_H
#define SKMD_TEST_COMMON_KERNELHARNESS_H

#include "devices/cpu/ThreadPool.h"
#include "devices/cpu/WorkGroupRunner.h"
#include "launch/Launcher.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace skmd::test {

/// What a buffer holds. Bytes is anything else (structs): compared bytewise.
enum class ElemType { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, Bytes };

template <typename T> constexpr ElemType elemTypeOf() {
  static_assert(std::is_trivially_copyable_v<T>, "buffers hold plain data");
  if constexpr (std::is_same_v<T, float>)
    return ElemType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return ElemType::F64;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return sizeof(T) == 1   ? ElemType::I8
           : sizeof(T) == 2 ? ElemType::I16
           : sizeof(T) == 4 ? ElemType::I32
                            : ElemType::I64;
  else if constexpr (std::is_integral_v<T>)
    return sizeof(T) == 1   ? ElemType::U8
           : sizeof(T) == 2 ? ElemType::U16
           : sizeof(T) == 4 ? ElemType::U32
                            : ElemType::U64;
  else
    return ElemType::Bytes;
}

/// How a buffer's contents after a run must match the reference's. For
/// floats, a NaN matches any NaN under every rule.
struct Check {
  enum Kind {
    Exact,    ///< Bit for bit.
    Ulp,      ///< Floats: within Bound ulp of the reference (see ulps()).
    Absolute, ///< Floats: |got - reference| <= Bound.
    AnyOrder, ///< The same elements bit for bit, in any order.
  } K = Exact;
  double Bound = 0;
};

inline Check exact() { return {Check::Exact, 0}; }
/// \p SpecUlp is the bound of OpenCL's ULP table, which is measured against
/// the exact result. The reference is computed in double and rounded to
/// the buffer's type, itself up to 0.5 ulp from the exact result, so the
/// distance allowed between the two is floor(SpecUlp + 0.5) ulp.
inline Check ulps(double SpecUlp) { return {Check::Ulp, SpecUlp}; }
/// For the table's absolute tolerances and bounds from an error analysis.
inline Check absolute(double Bound) { return {Check::Absolute, Bound}; }
/// For results that atomics place in an order that depends on timing.
inline Check anyOrder() { return {Check::AnyOrder, 0}; }

/// Bytes aligned as OpenCL buffers are (CL_DEVICE_MEM_BASE_ADDR_ALIGN is
/// commonly 1024 bits), so the compiler's aligned vector accesses are valid,
/// and exactly as long as asked, so AddressSanitizer sees any overrun.
class AlignedBytes {
public:
  explicit AlignedBytes(size_t Size = 0)
      : Data(static_cast<uint8_t *>(::operator new(Size, Align))), Size(Size) {
    std::memset(Data.get(), 0, Size);
  }
  AlignedBytes(const AlignedBytes &O) : AlignedBytes(O.Size) {
    std::memcpy(data(), O.data(), Size);
  }
  AlignedBytes &operator=(const AlignedBytes &O) {
    if (this != &O)
      *this = AlignedBytes(O);
    return *this;
  }
  AlignedBytes(AlignedBytes &&O) noexcept
      : Data(std::move(O.Data)), Size(std::exchange(O.Size, 0)) {}
  AlignedBytes &operator=(AlignedBytes &&O) noexcept {
    Data = std::move(O.Data);
    Size = std::exchange(O.Size, 0);
    return *this;
  }

  uint8_t *data() const { return Data.get(); }
  size_t size() const { return Size; }

private:
  static constexpr std::align_val_t Align{128};
  struct Free {
    void operator()(uint8_t *P) const { ::operator delete(P, Align); }
  };
  std::unique_ptr<uint8_t, Free> Data;
  size_t Size;
};

[[noreturn]] void failHarness(const std::string &Why);

/// Where the corpus bundles are: SKMD_CORPUS_DIR from the environment (to
/// run the tests on a GPU host), else where the build put them.
std::string corpusDir();

/// A typed, bounds-checked window on a buffer.
template <typename T> class View {
public:
  View(T *Data, size_t Size) : Data(Data), Size(Size) {}
  T &operator[](size_t I) const {
    if (I >= Size)
      failHarness("index " + std::to_string(I) + " is past the " +
                  std::to_string(Size) + " elements of a buffer");
    return Data[I];
  }
  size_t size() const { return Size; }
  T *begin() const { return Data; }
  T *end() const { return Data + Size; }

private:
  T *Data;
  size_t Size;
};

/// One kernel argument's value.
struct ArgValue {
  enum Kind { Buffer, Local, Scalar } K = Buffer;
  ElemType Type = ElemType::Bytes;
  size_t ElemSize = 1;
  AlignedBytes Bytes; ///< A buffer's contents or a scalar's value.
  uint64_t LocalBytes = 0;
  Check Rule;
};

/// A kernel's arguments by index. The reference gets a copy holding the
/// inputs and writes what every buffer must hold after the run.
class Args {
public:
  template <typename T> View<T> buffer(size_t Index) {
    if (Index >= Values.size() || Values[Index].K != ArgValue::Buffer)
      failHarness("argument " + std::to_string(Index) + " is not a buffer");
    ArgValue &A = Values[Index];
    if (A.Type != elemTypeOf<T>() || A.ElemSize != sizeof(T))
      failHarness("argument " + std::to_string(Index) +
                  " is read with another element type than it holds");
    return View<T>(reinterpret_cast<T *>(A.Bytes.data()),
                   A.Bytes.size() / sizeof(T));
  }

  std::vector<ArgValue> Values;
};

/// A kernel, a launch, its arguments in order and the C++ reference.
struct KernelRun {
  KernelRun(std::string Bundle, std::string Kernel, NDRange Launch)
      : Bundle(std::move(Bundle)), Kernel(std::move(Kernel)), Launch(Launch) {}

  template <typename T>
  KernelRun &buffer(const std::vector<T> &Init, Check Rule = exact()) {
    ArgValue A;
    A.Type = elemTypeOf<T>();
    A.ElemSize = sizeof(T);
    A.Bytes = AlignedBytes(Init.size() * sizeof(T));
    std::memcpy(A.Bytes.data(), Init.data(), A.Bytes.size());
    A.Rule = Rule;
    Initial.Values.push_back(std::move(A));
    return *this;
  }
  /// A __local pointer argument: only its size is given.
  KernelRun &local(uint64_t Bytes) {
    ArgValue A;
    A.K = ArgValue::Local;
    A.LocalBytes = Bytes;
    Initial.Values.push_back(std::move(A));
    return *this;
  }
  template <typename T> KernelRun &scalar(const T &V) {
    static_assert(std::is_trivially_copyable_v<T>);
    ArgValue A;
    A.K = ArgValue::Scalar;
    A.Bytes = AlignedBytes(sizeof(T));
    std::memcpy(A.Bytes.data(), &V, sizeof(T));
    Initial.Values.push_back(std::move(A));
    return *this;
  }

  /// Why devices running another variant (PTX on a GPU, SPIR-V through a
  /// vendor's OpenCL driver) may give other results than the reference (an
  /// implementation-defined case the test covers on the CPU); the
  /// differential runs then use the x86 devices only.
  KernelRun &gpusDiffer(std::string Why) {
    GpusDiffer = std::move(Why);
    return *this;
  }

  std::string Bundle, Kernel;
  NDRange Launch;
  Args Initial;
  std::function<void(Args &)> Reference;
  std::string GpusDiffer;
};

class CpuKernelTest : public ::testing::Test {
protected:
  /// Runs R over the whole range and over random splits in random order;
  /// every buffer must meet its rule against the reference each time.
  void check(const KernelRun &R);

  ThreadPool Pool{4};
  std::mt19937 Rng{7};
};

NDRange launch(std::array<uint64_t, 3> Groups, std::array<uint64_t, 3> Local,
                 uint32_t Dims, std::array<uint64_t, 3> Offset = {0, 0, 0});

std::vector<float> randomFloats(size_t N, std::mt19937 &Rng, float Lo = -1.0f,
                                float Hi = 1.0f);
std::vector<double> randomDoubles(size_t N, std::mt19937 &Rng, double Lo = -1.0,
                                  double Hi = 1.0);
/// Multiples of 2^-Bits in [-1, 1]. Sums and products of a few of these are
/// exact in float whatever the order of the additions and whether they are
/// fused, so kernels that add them up can be compared bit for bit.
std::vector<float> dyadicFloats(size_t N, std::mt19937 &Rng, int Bits = 8);

template <typename T>
std::vector<T> randomInts(size_t N, std::mt19937 &Rng,
                          T Lo = std::numeric_limits<T>::min(),
                          T Hi = std::numeric_limits<T>::max()) {
  // Through 64 bits: the distribution is not defined for char types.
  using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  std::uniform_int_distribution<Wide> D(Lo, Hi);
  std::vector<T> V(N);
  for (T &X : V)
    X = static_cast<T>(D(Rng));
  return V;
}

/// A corpus kernel of signature (float *a, float *b, float *c, int n),
/// ready for a Launcher: the bundle, the kernel (loaded on no device yet),
/// the buffers, the arguments and the range.
struct FloatsLaunch {
  /// Loads kernel \p KernelName of the corpus's bundle \p BundleName.
  FloatsLaunch(const std::string &BundleName, const std::string &KernelName);
  /// The arguments: A, B and C as they are now, then \p N.
  void bind(int32_t N);
  /// Empty when the bundle loaded, else why not.
  std::string Error;
  std::optional<Bundle> Source;
  LoadedKernel Kernel;
  std::vector<float> A, B, C;
  std::vector<HostArg> Args;
  NDRange Range;
};

/// The corpus's vector_add, c = a + b over \p Groups groups of 64 with
/// a = 1 and b = 2.
struct VectorAddLaunch : FloatsLaunch {
  explicit VectorAddLaunch(uint32_t Groups);
};

/// examples/matmul_tiled.cl, C = A * B of N x N dyadic floats (exact in
/// any order of the sums), in 16 x 16 groups.
struct MatmulLaunch : FloatsLaunch {
  explicit MatmulLaunch(int N);
};

} // namespace skmd::test

#endif // SKMD_TEST_COMMON_KERNELHARNESS_H
