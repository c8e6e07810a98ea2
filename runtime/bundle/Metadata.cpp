//===- Metadata.cpp - Bundle metadata <-> JSON ----------------------------===//
#include "bundle/Metadata.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

using nlohmann::json;

namespace skmd {

namespace {

template <typename Enum, size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<TargetKind, 3> TargetNames{{
    {TargetKind::X86, "x86"},
    {TargetKind::PTX, "ptx"},
    {TargetKind::SPIRV, "spirv"},
}};

constexpr NameTable<AddressSpace, 5> AddressSpaceNames{{
    {AddressSpace::Private, "private"},
    {AddressSpace::Global, "global"},
    {AddressSpace::Constant, "constant"},
    {AddressSpace::Local, "local"},
    {AddressSpace::Generic, "generic"},
}};

constexpr NameTable<ArgKind, 5> ArgKindNames{{
    {ArgKind::GlobalBuffer, "global_buffer"},
    {ArgKind::ConstantBuffer, "constant_buffer"},
    {ArgKind::LocalBuffer, "local_buffer"},
    {ArgKind::Scalar, "scalar"},
    {ArgKind::Sampler, "sampler"},
}};

template <typename Enum, size_t N>
std::string_view nameOf(const NameTable<Enum, N> &Table, Enum Value) {
  for (const auto &[E, Name] : Table)
    if (E == Value)
      return Name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> valueOf(const NameTable<Enum, N> &Table,
                            std::string_view Name) {
  for (const auto &[E, N2] : Table)
    if (N2 == Name)
      return E;
  return std::nullopt;
}

/// Thrown inside the parser only; parseMetadata turns it into a Failure.
struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads fields of one JSON object, naming the object's path in errors.
class ObjectReader {
public:
  ObjectReader(const json &Obj, std::string Path)
      : Obj(Obj), Path(std::move(Path)) {
    if (!Obj.is_object())
      fail("is not an object");
  }

  [[noreturn]] void fail(const std::string &What) const {
    throw SchemaError(Path + " " + What);
  }

  const json &field(const char *Key) const {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      throw SchemaError(Path + "." + Key + " is missing");
    return *It;
  }

  std::string string(const char *Key) const {
    const json &V = field(Key);
    if (!V.is_string())
      throw SchemaError(Path + "." + Key + " is not a string");
    return V.get<std::string>();
  }

  uint64_t unsignedInt(const char *Key) const {
    const json &V = field(Key);
    if (!V.is_number_unsigned())
      throw SchemaError(Path + "." + Key + " is not a non-negative integer");
    return V.get<uint64_t>();
  }

  bool boolean(const char *Key) const {
    const json &V = field(Key);
    if (!V.is_boolean())
      throw SchemaError(Path + "." + Key + " is not a boolean");
    return V.get<bool>();
  }

  const json &array(const char *Key) const {
    const json &V = field(Key);
    if (!V.is_array())
      throw SchemaError(Path + "." + Key + " is not an array");
    return V;
  }

  std::array<uint32_t, 3> dims3(const char *Key) const {
    const json &V = array(Key);
    if (V.size() != 3)
      throw SchemaError(Path + "." + Key + " must have 3 entries");
    std::array<uint32_t, 3> Out{};
    for (size_t I = 0; I < 3; ++I) {
      if (!V[I].is_number_unsigned() || V[I].get<uint64_t>() > UINT32_MAX)
        throw SchemaError(Path + "." + Key + "[" + std::to_string(I) +
                          "] is not a 32-bit unsigned integer");
      Out[I] = V[I].get<uint32_t>();
    }
    return Out;
  }

  template <typename Enum, size_t N>
  Enum enumeration(const char *Key, const NameTable<Enum, N> &Table) const {
    std::string Name = string(Key);
    if (auto E = valueOf(Table, Name))
      return *E;
    throw SchemaError(Path + "." + Key + " has unknown value '" + Name + "'");
  }

  std::string path() const { return Path; }

private:
  const json &Obj;
  std::string Path;
};

/// Written in insertion order, so the JSON reads the way the schema is
/// documented: name first, details after.
using ordered_json = nlohmann::ordered_json;

ordered_json argToJson(const KernelArg &A) {
  return ordered_json{{"name", A.Name},
              {"type", A.TypeName},
              {"kind", argKindName(A.Kind)},
              {"address_space", addressSpaceName(A.Space)},
              {"size", A.Size},
              {"element_size", A.ElementSize},
              {"access", A.AccessQualifier},
              {"const", A.IsConst},
              {"restrict", A.IsRestrict},
              {"volatile", A.IsVolatile},
              {"read", A.Read},
              {"written", A.Written}};
}

KernelArg argFromJson(const ObjectReader &R) {
  KernelArg A;
  A.Name = R.string("name");
  A.TypeName = R.string("type");
  A.Kind = R.enumeration("kind", ArgKindNames);
  A.Space = R.enumeration("address_space", AddressSpaceNames);
  A.Size = R.unsignedInt("size");
  A.ElementSize = R.unsignedInt("element_size");
  A.AccessQualifier = R.string("access");
  A.IsConst = R.boolean("const");
  A.IsRestrict = R.boolean("restrict");
  A.IsVolatile = R.boolean("volatile");
  A.Read = R.boolean("read");
  A.Written = R.boolean("written");
  if (A.Size == 0)
    R.fail("has size 0");
  bool IsPointer = A.Kind == ArgKind::GlobalBuffer ||
                   A.Kind == ArgKind::ConstantBuffer ||
                   A.Kind == ArgKind::LocalBuffer;
  AddressSpace Expected = A.Kind == ArgKind::GlobalBuffer ? AddressSpace::Global
                          : A.Kind == ArgKind::ConstantBuffer
                              ? AddressSpace::Constant
                          : A.Kind == ArgKind::LocalBuffer ? AddressSpace::Local
                                                           : AddressSpace::Private;
  if (A.Space != Expected)
    R.fail("has kind " + std::string(argKindName(A.Kind)) +
           " but address space " + std::string(addressSpaceName(A.Space)));
  if (!IsPointer && (A.ElementSize != 0 || A.Read || A.Written))
    R.fail("is not a pointer but has an element size or memory access");
  return A;
}

} // namespace

std::string_view targetKindName(TargetKind Kind) {
  return nameOf(TargetNames, Kind);
}
std::optional<TargetKind> targetKindFromName(std::string_view Name) {
  return valueOf(TargetNames, Name);
}
std::string_view addressSpaceName(AddressSpace AS) {
  return nameOf(AddressSpaceNames, AS);
}
std::optional<AddressSpace> addressSpaceFromName(std::string_view Name) {
  return valueOf(AddressSpaceNames, Name);
}
std::string_view argKindName(ArgKind Kind) { return nameOf(ArgKindNames, Kind); }
std::optional<ArgKind> argKindFromName(std::string_view Name) {
  return valueOf(ArgKindNames, Name);
}

const KernelInfo *BundleMetadata::findKernel(std::string_view Name) const {
  for (const KernelInfo &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

const TargetInfo *BundleMetadata::findTarget(TargetKind Kind) const {
  for (const TargetInfo &T : Targets)
    if (T.Kind == Kind)
      return &T;
  return nullptr;
}

std::string toJson(const BundleMetadata &Meta) {
  ordered_json Targets = ordered_json::array();
  for (const TargetInfo &T : Meta.Targets)
    Targets.push_back(
        {{"kind", targetKindName(T.Kind)}, {"triple", T.Triple}, {"cpu", T.Cpu}});

  ordered_json Kernels = ordered_json::array();
  for (const KernelInfo &K : Meta.Kernels) {
    ordered_json Args = ordered_json::array();
    for (const KernelArg &A : K.Args)
      Args.push_back(argToJson(A));
    ordered_json Symbols = ordered_json::object();
    for (const auto &[Target, Symbol] : K.Symbols)
      Symbols[std::string(targetKindName(Target))] = Symbol;
    Kernels.push_back({{"name", K.Name},
                       {"args", Args},
                       {"reqd_work_group_size", K.ReqdWorkGroupSize},
                       {"work_group_size_hint", K.WorkGroupSizeHint},
                       {"symbols", Symbols}});
  }

  ordered_json Root = {{"schema", MetadataSchemaVersion},
               {"producer", Meta.Producer},
               {"source", {{"file", Meta.SourceFile}, {"sha256", Meta.SourceHash}}},
               {"options", Meta.CompileOptions},
               {"targets", Targets},
               {"kernels", Kernels}};
  return Root.dump(2) + "\n";
}

Result<BundleMetadata> parseMetadata(std::string_view Text) {
  json Root = json::parse(Text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (Root.is_discarded())
    return Failure(ErrorCode::CorruptBundle, "metadata is not valid JSON");

  try {
    ObjectReader R(Root, "metadata");
    uint64_t Schema = R.unsignedInt("schema");
    if (Schema != static_cast<uint64_t>(MetadataSchemaVersion))
      return Failure(ErrorCode::UnsupportedBundleVersion,
                   "metadata schema " + std::to_string(Schema) +
                       " is not supported (this runtime reads schema " +
                       std::to_string(MetadataSchemaVersion) +
                       "); recompile the kernel with this skmd-cc");

    BundleMetadata Meta;
    Meta.Producer = R.string("producer");
    ObjectReader Source(R.field("source"), "metadata.source");
    Meta.SourceFile = Source.string("file");
    Meta.SourceHash = Source.string("sha256");

    const json &Options = R.array("options");
    for (size_t I = 0; I < Options.size(); ++I) {
      if (!Options[I].is_string())
        R.fail("options[" + std::to_string(I) + "] is not a string");
      Meta.CompileOptions.push_back(Options[I].get<std::string>());
    }

    const json &Targets = R.array("targets");
    for (size_t I = 0; I < Targets.size(); ++I) {
      ObjectReader T(Targets[I], "metadata.targets[" + std::to_string(I) + "]");
      TargetInfo Info;
      Info.Kind = T.enumeration("kind", TargetNames);
      Info.Triple = T.string("triple");
      Info.Cpu = T.string("cpu");
      if (Meta.findTarget(Info.Kind))
        T.fail("repeats target " + std::string(targetKindName(Info.Kind)));
      Meta.Targets.push_back(std::move(Info));
    }

    const json &Kernels = R.array("kernels");
    for (size_t I = 0; I < Kernels.size(); ++I) {
      ObjectReader K(Kernels[I], "metadata.kernels[" + std::to_string(I) + "]");
      KernelInfo Info;
      Info.Name = K.string("name");
      if (Info.Name.empty())
        K.fail("has an empty name");
      if (Meta.findKernel(Info.Name))
        K.fail("repeats kernel '" + Info.Name + "'");
      const json &Args = K.array("args");
      for (size_t J = 0; J < Args.size(); ++J)
        Info.Args.push_back(argFromJson(
            ObjectReader(Args[J], K.path() + ".args[" + std::to_string(J) + "]")));
      Info.ReqdWorkGroupSize = K.dims3("reqd_work_group_size");
      Info.WorkGroupSizeHint = K.dims3("work_group_size_hint");

      ObjectReader Symbols(K.field("symbols"), K.path() + ".symbols");
      for (const TargetInfo &T : Meta.Targets) {
        std::string Symbol = Symbols.string(std::string(targetKindName(T.Kind)).c_str());
        if (Symbol.empty())
          Symbols.fail("has an empty symbol for " +
                       std::string(targetKindName(T.Kind)));
        Info.Symbols[T.Kind] = std::move(Symbol);
      }
      Meta.Kernels.push_back(std::move(Info));
    }
    return Meta;
  } catch (const SchemaError &E) {
    return Failure(ErrorCode::CorruptBundle, E.what());
  } catch (const json::exception &E) {
    return Failure(ErrorCode::CorruptBundle,
                 std::string("metadata does not fit the schema: ") + E.what());
  }
}

} // namespace skmd
