//===- Metadata.cpp - Bundle metadata <-> JSON ----------------------------===//
#include "bundle/Metadata.h"
#include "bundle/CompiledObject.h"
#include "footprint/IndexExprJson.h"

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

constexpr NameTable<FootprintKind, 2> FootprintKindNames{{
    {FootprintKind::Affine, "affine"},
    {FootprintKind::Whole, "whole_buffer"},
}};

constexpr NameTable<IndexVar, 3> IndexVarNames{{
    {IndexVar::LocalId, "local_id"},
    {IndexVar::Loop, "loop"},
    {IndexVar::Group, "group"},
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

  Contiguity contiguity(const char *Key) const {
    std::string Name = string(Key);
    if (auto C = contiguityFromName(Name))
      return *C;
    throw SchemaError(Path + "." + Key + " has unknown value '" + Name + "'");
  }

  bool has(const char *Key) const { return Obj.contains(Key); }

  IndexExpr expr(const char *Key) const {
    auto E = exprFromJson(field(Key), Path + "." + Key);
    if (!E)
      throw SchemaError(E.error().message());
    return std::move(*E);
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
  ordered_json Layout = ordered_json::array();
  for (const ScalarRun &Run : A.Layout)
    Layout.push_back({Run.Offset, Run.Type, Run.Count});
  return ordered_json{{"name", A.Name},
              {"type", A.TypeName},
              {"base_type", A.BaseTypeName},
              {"layout", Layout},
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
  // Optional: bundles written before the fields existed have neither.
  if (R.has("base_type"))
    A.BaseTypeName = R.string("base_type");
  if (R.has("layout")) {
    const json &Layout = R.array("layout");
    for (size_t I = 0; I < Layout.size(); ++I) {
      const json &Run = Layout[I];
      std::string At = ".layout[" + std::to_string(I) + "]";
      if (!Run.is_array() || Run.size() != 3 || !Run[0].is_number_unsigned() ||
          !Run[1].is_string() || !Run[2].is_number_unsigned())
        R.fail(At.substr(1) + " is not [offset, type, count]");
      ScalarRun S{Run[0].get<uint64_t>(), Run[1].get<std::string>(),
                  Run[2].get<uint64_t>()};
      if (!scalarTypeBytes(S.Type))
        R.fail(At.substr(1) + " has unknown scalar type '" + S.Type + "'");
      if (S.Count == 0 || S.Count > (UINT64_MAX - S.Offset) / scalarTypeBytes(S.Type))
        R.fail(At.substr(1) + " has a bad count");
      A.Layout.push_back(std::move(S));
    }
    if (A.Layout.size() > MaxScalarRuns)
      R.fail("has more than " + std::to_string(MaxScalarRuns) + " layout runs");
  }
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
  uint64_t Element = IsPointer ? A.ElementSize : A.Size;
  for (const ScalarRun &Run : A.Layout)
    if (Run.Offset + Run.Count * scalarTypeBytes(Run.Type) > Element)
      R.fail("has a layout run past its element's " + std::to_string(Element) + " bytes");
  return A;
}

ordered_json symbolsToJson(const KernelSymbols &S) {
  ordered_json J = {{"kernel", S.Kernel}, {"range", S.Range}};
  if (!S.Box.empty())
    J["box"] = S.Box;
  if (!S.Guard.empty())
    J["guard"] = S.Guard;
  if (!S.Merge.empty())
    J["merge"] = S.Merge;
  return J;
}

KernelSymbols symbolsFromJson(const ObjectReader &R, const json &Obj) {
  KernelSymbols S;
  S.Kernel = R.string("kernel");
  S.Range = R.string("range");
  if (Obj.contains("box"))
    S.Box = R.string("box");
  if (Obj.contains("guard"))
    S.Guard = R.string("guard");
  if (Obj.contains("merge"))
    S.Merge = R.string("merge");
  if (S.Kernel.empty())
    R.fail("has an empty kernel symbol");
  return S;
}

std::string indexVarName(const AccessTerm &T) {
  return std::string(nameOf(IndexVarNames, T.Var)) + "." +
         std::to_string(T.Index);
}

ordered_json footprintToJson(const KernelFootprint &F) {
  ordered_json Loops = ordered_json::array();
  for (const IndexExpr &Trip : F.LoopTrips)
    Loops.push_back(exprToJson(Trip));
  ordered_json Args = ordered_json::array();
  for (const ArgFootprint &A : F.Args) {
    ordered_json J = {{"arg", A.ArgIndex},
                      {"kind", nameOf(FootprintKindNames, A.Kind)}};
    if (A.Kind == FootprintKind::Whole)
      J["reason"] = A.WholeReason;
    J["contiguous"] = contiguityName(A.Contiguous);
    ordered_json Accesses = ordered_json::array();
    auto TermsJson = [](const std::vector<AccessTerm> &Ts) {
      ordered_json Terms = ordered_json::array();
      for (const AccessTerm &T : Ts)
        Terms.push_back({{"var", indexVarName(T)}, {"coeff", exprToJson(T.Coeff)}});
      return Terms;
    };
    for (const Access &X : A.Accesses) {
      ordered_json Terms = TermsJson(X.Terms);
      ordered_json Acc = {{"mode", X.Reads && X.Writes ? "read_write"
                                   : X.Writes          ? "write"
                                                       : "read"},
                          {"bytes", X.Bytes},
                          {"guarded", X.Guarded},
                          {"base", exprToJson(X.Base)},
                          {"terms", Terms}};
      if (X.Below)
        Acc["below"] = exprToJson(*X.Below);
      if (!X.Guards.empty()) {
        ordered_json Guards = ordered_json::array();
        for (const Guard &G : X.Guards)
        {
          ordered_json InRange = ordered_json::array();
          for (const GuardRange &R : G.InRange)
            InRange.push_back({{"value", exprToJson(R.Value)},
                               {"terms", TermsJson(R.Terms)},
                               {"bits", R.Bits},
                               {"signed", R.Signed}});
          Guards.push_back({{"value", exprToJson(G.Value)},
                            {"terms", TermsJson(G.Terms)},
                            {"in_range", InRange}});
        }
        Acc["guards"] = Guards;
      }
      Accesses.push_back(std::move(Acc));
    }
    J["accesses"] = Accesses;
    Args.push_back(J);
  }
  return {{"loops", Loops}, {"args", Args}};
}

/// An access's or a guard's "terms", checked against the kernel's loops.
std::vector<AccessTerm> termsFromJson(const ObjectReader &X, size_t Loops) {
  std::vector<AccessTerm> Out;
  const json &Terms = X.array("terms");
  for (size_t T = 0; T < Terms.size(); ++T) {
    ObjectReader TR(Terms[T], X.path() + ".terms[" + std::to_string(T) + "]");
    std::string Var = TR.string("var");
    AccessTerm Term;
    size_t Dot = Var.find('.');
    auto Kind = valueOf(IndexVarNames, std::string_view(Var).substr(0, Dot));
    std::string Num = Dot == std::string::npos ? "" : Var.substr(Dot + 1);
    if (!Kind || Num.empty() || Num.size() > 5 ||
        Num.find_first_not_of("0123456789") != std::string::npos)
      TR.fail("has unknown variable '" + Var + "'");
    Term.Var = *Kind;
    Term.Index = std::stoul(Num);
    if ((Term.Var != IndexVar::Loop && Term.Index > 2) ||
        (Term.Var == IndexVar::Loop && Term.Index >= Loops))
      TR.fail("names '" + Var + "', which does not exist");
    Term.Coeff = TR.expr("coeff");
    Out.push_back(std::move(Term));
  }
  return Out;
}

KernelFootprint footprintFromJson(const ObjectReader &R, size_t NumArgs) {
  KernelFootprint F;
  const json &Loops = R.array("loops");
  for (size_t I = 0; I < Loops.size(); ++I) {
    auto E = exprFromJson(Loops[I], R.path() + ".loops[" + std::to_string(I) + "]");
    if (!E)
      throw SchemaError(E.error().message());
    F.LoopTrips.push_back(std::move(*E));
  }
  const json &Args = R.array("args");
  for (size_t I = 0; I < Args.size(); ++I) {
    ObjectReader A(Args[I], R.path() + ".args[" + std::to_string(I) + "]");
    ArgFootprint AF;
    uint64_t Index = A.unsignedInt("arg");
    if (Index >= NumArgs)
      A.fail("names argument " + std::to_string(Index) + " of " +
             std::to_string(NumArgs));
    AF.ArgIndex = static_cast<unsigned>(Index);
    AF.Kind = A.enumeration("kind", FootprintKindNames);
    if (AF.Kind == FootprintKind::Whole)
      AF.WholeReason = A.string("reason");
    AF.Contiguous = A.contiguity("contiguous");
    const json &Accesses = A.array("accesses");
    for (size_t J = 0; J < Accesses.size(); ++J) {
      ObjectReader X(Accesses[J], A.path() + ".accesses[" + std::to_string(J) + "]");
      Access Acc;
      std::string Mode = X.string("mode");
      Acc.Reads = Mode == "read" || Mode == "read_write";
      Acc.Writes = Mode == "write" || Mode == "read_write";
      if (!Acc.Reads && !Acc.Writes)
        X.fail("has unknown mode '" + Mode + "'");
      Acc.Bytes = X.unsignedInt("bytes");
      if (Acc.Bytes == 0)
        X.fail("touches 0 bytes");
      Acc.Guarded = X.boolean("guarded");
      // Optional: bundles written before bounds were recorded have none.
      if (X.has("below")) {
        if (!Acc.Guarded)
          X.fail("has a bound but is not guarded");
        Acc.Below = X.expr("below");
      }
      Acc.Base = X.expr("base");
      Acc.Terms = termsFromJson(X, F.LoopTrips.size());
      // Optional: bundles written before guards were recorded have none.
      if (X.has("guards")) {
        if (!Acc.Guarded)
          X.fail("has guards but is not guarded");
        const json &Guards = X.array("guards");
        for (size_t G = 0; G < Guards.size(); ++G) {
          ObjectReader GR(Guards[G], X.path() + ".guards[" + std::to_string(G) + "]");
          Guard One;
          One.Value = GR.expr("value");
          One.Terms = termsFromJson(GR, F.LoopTrips.size());
          const json &InRange = GR.array("in_range");
          for (size_t C = 0; C < InRange.size(); ++C) {
            ObjectReader CR(InRange[C], GR.path() + ".in_range[" + std::to_string(C) + "]");
            GuardRange R;
            R.Value = CR.expr("value");
            R.Terms = termsFromJson(CR, F.LoopTrips.size());
            uint64_t Bits = CR.unsignedInt("bits");
            if (Bits == 0 || Bits > 64)
              CR.fail("has " + std::to_string(Bits) + " bits; 1 to 64 are possible");
            R.Bits = unsigned(Bits);
            R.Signed = CR.boolean("signed");
            One.InRange.push_back(std::move(R));
          }
          Acc.Guards.push_back(std::move(One));
        }
      }
      AF.Accesses.push_back(std::move(Acc));
    }
    F.Args.push_back(std::move(AF));
  }
  return F;
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
unsigned scalarTypeBytes(std::string_view Type) {
  if (Type == "char" || Type == "uchar")
    return 1;
  if (Type == "short" || Type == "ushort" || Type == "half")
    return 2;
  if (Type == "int" || Type == "uint" || Type == "float")
    return 4;
  if (Type == "long" || Type == "ulong" || Type == "double")
    return 8;
  return 0;
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
    Targets.push_back({{"kind", targetKindName(T.Kind)},
                       {"triple", T.Triple},
                       {"cpu", T.Cpu},
                       {"features", T.Features}});

  ordered_json Kernels = ordered_json::array();
  for (const KernelInfo &K : Meta.Kernels) {
    ordered_json Args = ordered_json::array();
    for (const KernelArg &A : K.Args)
      Args.push_back(argToJson(A));
    ordered_json Symbols = ordered_json::object();
    for (const auto &[Target, Symbol] : K.Symbols)
      Symbols[std::string(targetKindName(Target))] = symbolsToJson(Symbol);
    ordered_json CombinedJson = ordered_json::array();
    for (const CombinedArg &C : K.Combined) {
      CombinedJson.push_back({{"arg", C.Arg}, {"op", combineOpName(C.Op)}, {"bytes", C.Bytes}});
      if (C.Op == CombineOp::Assign)
        CombinedJson.back()["value"] = C.Value;
    }
    ordered_json Partition = {{"partitionable", K.Partitionable},
                              {"reasons", K.NotPartitionableReasons},
                              {"launch_tested", K.LaunchTested},
                              {"combined", CombinedJson},
                              {"contiguous", contiguityName(K.Contiguous)}};
    Kernels.push_back({{"name", K.Name},
                       {"args", Args},
                       {"reqd_work_group_size", K.ReqdWorkGroupSize},
                       {"work_group_size_hint", K.WorkGroupSizeHint},
                       {"vec_type_hint", K.VecTypeHint},
                       {"symbols", Symbols},
                       {"partition", Partition},
                       {"footprint", footprintToJson(K.Footprint)},
                       {"cpu", {{"local_mem_bytes", K.Cpu.LocalMemBytes},
                                {"state_bytes_per_item", K.Cpu.StateBytesPerItem},
                                {"merge_local_mem_bytes", K.CpuMerge.LocalMemBytes},
                                {"merge_state_bytes_per_item",
                                 K.CpuMerge.StateBytesPerItem}}}});
  }

  ordered_json Root = {{"schema", MetadataSchemaVersion},
               {"producer", Meta.Producer},
               {"source", {{"file", Meta.SourceFile}, {"sha256", Meta.SourceHash}}},
               {"options", Meta.CompileOptions},
               {"targets", Targets},
               {"kernels", Kernels}};
  // The source's file name and the -D values are the user's bytes, which
  // need not be UTF-8; they are for people here, so such bytes become
  // U+FFFD (the source section keeps them exactly).
  return Root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
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
      const json &Features = T.array("features");
      for (size_t F = 0; F < Features.size(); ++F) {
        if (!Features[F].is_string())
          T.fail("features[" + std::to_string(F) + "] is not a string");
        Info.Features.push_back(Features[F].get<std::string>());
      }
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
      // Absent from bundles that predate it.
      if (K.has("vec_type_hint"))
        Info.VecTypeHint = K.string("vec_type_hint");

      ObjectReader Symbols(K.field("symbols"), K.path() + ".symbols");
      for (const TargetInfo &T : Meta.Targets) {
        std::string Name(targetKindName(T.Kind));
        const json &Obj = Symbols.field(Name.c_str());
        Info.Symbols[T.Kind] =
            symbolsFromJson(ObjectReader(Obj, Symbols.path() + "." + Name), Obj);
      }
      ObjectReader Partition(K.field("partition"), K.path() + ".partition");
      Info.Partitionable = Partition.boolean("partitionable");
      const json &Reasons = Partition.array("reasons");
      for (size_t J = 0; J < Reasons.size(); ++J) {
        if (!Reasons[J].is_string())
          Partition.fail("reasons[" + std::to_string(J) + "] is not a string");
        Info.NotPartitionableReasons.push_back(Reasons[J].get<std::string>());
      }
      if (!Info.Partitionable && Info.NotPartitionableReasons.empty())
        Partition.fail("says not partitionable but gives no reason");
      const json &Tested = Partition.array("launch_tested");
      for (size_t J = 0; J < Tested.size(); ++J) {
        if (!Tested[J].is_number_unsigned() || Tested[J].get<uint64_t>() >= Info.Args.size() ||
            (Info.Args[Tested[J].get<size_t>()].Kind != ArgKind::GlobalBuffer &&
             Info.Args[Tested[J].get<size_t>()].Kind != ArgKind::ConstantBuffer))
          Partition.fail("launch_tested[" + std::to_string(J) +
                         "] is not a buffer argument's number");
        Info.LaunchTested.push_back(Tested[J].get<unsigned>());
      }
      const json &Combined = Partition.array("combined");
      for (size_t J = 0; J < Combined.size(); ++J) {
        ObjectReader C(Combined[J], Partition.path() + ".combined[" + std::to_string(J) + "]");
        CombinedArg Arg;
        uint64_t Index = C.unsignedInt("arg");
        if (Index >= Info.Args.size() || Info.Args[Index].Kind != ArgKind::GlobalBuffer)
          C.fail("is not a __global buffer argument's number");
        Arg.Arg = unsigned(Index);
        std::string Op = C.string("op");
        auto Known = combineOpFromName(Op);
        if (!Known)
          C.fail("has unknown op '" + Op + "'");
        Arg.Op = *Known;
        uint64_t Bytes = C.unsignedInt("bytes");
        if (Arg.Op == CombineOp::Assign) {
          if (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8)
            C.fail("assigns " + std::to_string(Bytes) +
                   "-byte integers; 1, 2, 4 or 8 are possible");
          Arg.Value = C.unsignedInt("value");
          if (Bytes < 8 && Arg.Value >> (8 * Bytes))
            C.fail("assigns " + std::to_string(Arg.Value) + ", which does not fit " +
                   std::to_string(Bytes) + " bytes");
        } else if (Bytes != 4 && Bytes != 8) {
          C.fail("updates " + std::to_string(Bytes) + "-byte integers; 4 or 8 are possible");
        }
        Arg.Bytes = unsigned(Bytes);
        Info.Combined.push_back(Arg);
      }
      for (const auto &[Target, Sym] : Info.Symbols)
        if (Info.Partitionable && Sym.Range.empty())
          Symbols.fail("has no range entry point for " +
                       std::string(targetKindName(Target)) +
                       " though the kernel is partitionable");
      Info.Contiguous = Partition.contiguity("contiguous");
      Info.Footprint = footprintFromJson(
          ObjectReader(K.field("footprint"), K.path() + ".footprint"),
          Info.Args.size());
      ObjectReader Cpu(K.field("cpu"), K.path() + ".cpu");
      Info.Cpu.LocalMemBytes = Cpu.unsignedInt("local_mem_bytes");
      Info.Cpu.StateBytesPerItem = Cpu.unsignedInt("state_bytes_per_item");
      Info.CpuMerge.LocalMemBytes = Cpu.unsignedInt("merge_local_mem_bytes");
      Info.CpuMerge.StateBytesPerItem = Cpu.unsignedInt("merge_state_bytes_per_item");
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

std::string kernelSignaturesToJson(const std::vector<KernelInfo> &Kernels) {
  ordered_json Out = ordered_json::array();
  for (const KernelInfo &K : Kernels) {
    ordered_json Args = ordered_json::array();
    for (const KernelArg &A : K.Args)
      Args.push_back(argToJson(A));
    Out.push_back({{"name", K.Name},
                   {"args", Args},
                   {"reqd_work_group_size", K.ReqdWorkGroupSize},
                   {"work_group_size_hint", K.WorkGroupSizeHint},
                   {"vec_type_hint", K.VecTypeHint}});
  }
  return Out.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

Result<std::vector<KernelInfo>> parseKernelSignatures(std::string_view Text) {
  json Root = json::parse(Text, /*cb=*/nullptr, /*allow_exceptions=*/false);
  if (Root.is_discarded() || !Root.is_array())
    return Failure(ErrorCode::CorruptBundle, "kernel signatures are not a JSON array");
  try {
    std::vector<KernelInfo> Out;
    for (size_t I = 0; I < Root.size(); ++I) {
      ObjectReader K(Root[I], "kernels[" + std::to_string(I) + "]");
      KernelInfo Info;
      Info.Name = K.string("name");
      const json &Args = K.array("args");
      for (size_t J = 0; J < Args.size(); ++J)
        Info.Args.push_back(argFromJson(
            ObjectReader(Args[J], K.path() + ".args[" + std::to_string(J) + "]")));
      Info.ReqdWorkGroupSize = K.dims3("reqd_work_group_size");
      Info.WorkGroupSizeHint = K.dims3("work_group_size_hint");
      Info.VecTypeHint = K.string("vec_type_hint");
      Out.push_back(std::move(Info));
    }
    return Out;
  } catch (const SchemaError &E) {
    return Failure(ErrorCode::CorruptBundle, E.what());
  } catch (const json::exception &E) {
    return Failure(ErrorCode::CorruptBundle,
                   std::string("kernel signatures do not fit the schema: ") + E.what());
  }
}

} // namespace skmd
