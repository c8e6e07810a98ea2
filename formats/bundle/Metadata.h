//===- Metadata.h - What a bundle says about its kernels ---------*- C++ -*-===//
//
// The compiler fills these structs from its analyses; the runtime reads them
// back. Both sides use toJson/parseMetadata here, so the schema has one
// definition. docs/metadata.md documents every field.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BUNDLE_METADATA_H
#define SKMD_BUNDLE_METADATA_H

#include "footprint/Footprint.h"
#include "support/Result.h"

#include <array>
#include <iterator>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skmd {

/// The most runs an argument's layout keeps; beyond it, none.
inline constexpr size_t MaxScalarRuns = 256;

/// Bumped whenever a reader of the previous schema would misread a bundle.
inline constexpr int MetadataSchemaVersion = 5;

enum class TargetKind { X86, PTX, SPIRV };
std::string_view targetKindName(TargetKind Kind);
std::optional<TargetKind> targetKindFromName(std::string_view Name);

enum class AddressSpace { Private, Global, Constant, Local, Generic };
std::string_view addressSpaceName(AddressSpace AS);
std::optional<AddressSpace> addressSpaceFromName(std::string_view Name);

/// How the runtime must pass an argument.
enum class ArgKind {
  GlobalBuffer,   ///< __global pointer: a buffer.
  ConstantBuffer, ///< __constant pointer: a read-only buffer.
  LocalBuffer,    ///< __local pointer: only a size is given.
  Scalar,         ///< Passed by value (also vectors and structs).
  Sampler,        ///< sampler_t.
};
std::string_view argKindName(ArgKind Kind);
std::optional<ArgKind> argKindFromName(std::string_view Name);

/// Consecutive scalars of one type inside an argument's element (a
/// buffer's pointee, a value's type): a float4 is one run of 4 floats, a
/// struct a run per member (arrays and vectors of one type merged).
struct ScalarRun {
  uint64_t Offset = 0; ///< Bytes from the element's start.
  /// OpenCL scalar name: char, uchar, short, ushort, int, uint, long,
  /// ulong, half, float, double (bool as uchar).
  std::string Type;
  uint64_t Count = 1;
};

/// Bytes of one scalar of OpenCL type \p Type (a ScalarRun's), 0 if unknown.
unsigned scalarTypeBytes(std::string_view Type);

struct KernelArg {
  std::string Name;
  /// The type as written, e.g. "float4*" or "DATA_TYPE*".
  std::string TypeName;
  /// The type with typedefs resolved, in OpenCL's spelling: "float4*",
  /// "uchar*", "struct particle*". Empty in bundles that predate it.
  std::string BaseTypeName;
  /// The element's scalars in memory order; empty where not known (void*,
  /// a member that is a pointer, more than MaxScalarRuns runs).
  std::vector<ScalarRun> Layout;
  ArgKind Kind = ArgKind::Scalar;
  /// For pointers, the space pointed to; Private for values.
  AddressSpace Space = AddressSpace::Private;
  /// Bytes of the argument value itself (8 for a pointer).
  uint64_t Size = 0;
  /// For pointers, bytes of the pointee type (0 for void); else 0.
  uint64_t ElementSize = 0;
  /// OpenCL access qualifier: "none", "read_only", "write_only", "read_write".
  std::string AccessQualifier = "none";
  bool IsConst = false;
  bool IsRestrict = false;
  bool IsVolatile = false;
  /// For buffers: whether the kernel reads / writes the memory behind it
  /// (skmd-kernel-args). Conservative: an untracked pointer is both.
  bool Read = false;
  bool Written = false;
};

/// A kernel's entry points in one variant. Empty names are absent. In the
/// x86 variant every entry point is a work-group function
/// (runtime/devices/cpu/WorkGroupABI.h), which runs any group: Kernel and
/// Range name the same function.
struct KernelSymbols {
  std::string Kernel; ///< The kernel as written.
  std::string Range;  ///< Partition-ready: runs groups [first, first+count).
  std::string Guard;  ///< The paper's guard form, when built.
  std::string Merge;  ///< Merges a device's copies of the written buffers.
  /// Partition-ready, PTX: runs the box of groups it is launched as, from a
  /// base (runtime/devices/NDRange.h, RangeLaunch). Empty in bundles
  /// older than it: the runtime then launches the range form alone.
  std::string Box;
};

/// How the copies of a buffer combine after a split. A buffer that only
/// commutative integer atomics update: each device starts from the
/// identity (Add, Xor) or the buffer's own bytes (the others, which are
/// idempotent), and the host applies each device's result to the buffer
/// with the same operation. Assign: a buffer that every work-item may only
/// set to one constant, at one place for all (a "something changed" flag:
/// `*over = true`): each device starts from the buffer's bytes, and the
/// host takes the constant wherever a device's copy holds it.
enum class CombineOp { Add, Xor, And, Or, Min, Max, UMin, UMax, Assign };
inline constexpr std::string_view CombineOpNames[] = {"add", "xor", "and",  "or",    "min",
                                                      "max", "umin", "umax", "assign"};
inline std::string_view combineOpName(CombineOp Op) { return CombineOpNames[int(Op)]; }
inline std::optional<CombineOp> combineOpFromName(std::string_view Name) {
  for (size_t I = 0; I < std::size(CombineOpNames); ++I)
    if (CombineOpNames[I] == Name)
      return CombineOp(I);
  return std::nullopt;
}

struct CombinedArg {
  unsigned Arg = 0;
  CombineOp Op = CombineOp::Add;
  /// Of each updated integer: 4 or 8 (atomics); 1, 2, 4 or 8 (Assign).
  unsigned Bytes = 4;
  /// Assign: the constant every store writes, its Bytes zero-extended.
  uint64_t Value = 0;
};

struct KernelInfo {
  std::string Name;
  std::vector<KernelArg> Args;
  /// All zero when the kernel has no reqd_work_group_size attribute.
  std::array<uint32_t, 3> ReqdWorkGroupSize{0, 0, 0};
  std::array<uint32_t, 3> WorkGroupSizeHint{0, 0, 0};
  /// __attribute__((vec_type_hint(T))): T in OpenCL's spelling ("float4");
  /// empty without one.
  std::string VecTypeHint;
  /// Entry points of this kernel in each target's variant.
  std::map<TargetKind, KernelSymbols> Symbols;
  /// Whether the work-groups may be split across devices, and if not why.
  bool Partitionable = true;
  std::vector<std::string> NotPartitionableReasons;
  /// Buffers (argument numbers) where groups may read what other groups
  /// write, as far as the compiler could tell: the runtime tests each
  /// split at launch, with the arguments' values (firstConflict in
  /// buffers/Transfers.h), and refuses one where a piece reads bytes
  /// another piece writes.
  std::vector<unsigned> LaunchTested;
  /// Buffers that groups update only with commutative integer atomics
  /// (a histogram's bins, a counter): a split gives each device its own
  /// copy and combines them (buffers/Transfers.h).
  std::vector<CombinedArg> Combined;
  const CombinedArg *findCombined(unsigned Arg) const {
    for (const CombinedArg &C : Combined)
      if (C.Arg == Arg)
        return &C;
    return nullptr;
  }
  /// The reasons in one line ("a; b"), empty when partitionable.
  std::string whyNotPartitionable() const {
    std::string Why;
    for (const std::string &R : NotPartitionableReasons)
      Why += (Why.empty() ? "" : "; ") + R;
    return Partitionable ? std::string() : Why.empty() ? "no reason recorded" : Why;
  }
  /// Contiguity of the whole kernel: the weakest of its buffers'.
  Contiguity Contiguous = Contiguity::No;
  /// The bytes each work-group touches, per buffer argument.
  KernelFootprint Footprint;
  /// What the CPU device must provide to the x86 work-group functions
  /// (runtime/devices/cpu/WorkGroupABI.h); zero without an x86 variant.
  struct CpuNeeds {
    uint64_t LocalMemBytes = 0;
    uint64_t StateBytesPerItem = 0;
  } Cpu, CpuMerge;
};

struct TargetInfo {
  TargetKind Kind = TargetKind::X86;
  std::string Triple;
  /// CPU (x86) or SM architecture (PTX); empty where it does not apply.
  std::string Cpu;
  /// x86: the instruction-set extensions the code may use, among those the
  /// runtime can test on the host (HostCpu.h), so that a bundle built for a
  /// newer CPU is refused with their names instead of faulting.
  std::vector<std::string> Features;
};

struct BundleMetadata {
  std::string Producer;
  std::string SourceFile;
  /// SHA-256 of the source file, hex.
  std::string SourceHash;
  /// The options that shaped the code (-D, -cl-std, -O, ...), in order.
  std::vector<std::string> CompileOptions;
  std::vector<TargetInfo> Targets;
  std::vector<KernelInfo> Kernels;

  const KernelInfo *findKernel(std::string_view Name) const;
  const TargetInfo *findTarget(TargetKind Kind) const;
};

/// Serializes to the JSON text stored in a bundle (pretty-printed: bundles
/// are small and people read this with skmd-cc --emit=meta).
std::string toJson(const BundleMetadata &Meta);

/// Parses and validates metadata JSON. Any missing field, wrong type or
/// inconsistent value is an error naming the field, never an exception.
Result<BundleMetadata> parseMetadata(std::string_view Json);

} // namespace skmd

#endif // SKMD_BUNDLE_METADATA_H
