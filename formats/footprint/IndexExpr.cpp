//===- IndexExpr.cpp - Index expressions the runtime evaluates -----------------===//
#include "footprint/IndexExpr.h"
#include "footprint/IndexExprJson.h"

#include <array>
#include <string_view>

namespace skmd {

namespace {

constexpr std::array<std::pair<IndexExpr::Op, std::string_view>, 7> OpNames{{
    {IndexExpr::Op::Add, "+"},
    {IndexExpr::Op::Mul, "*"},
    {IndexExpr::Op::UDiv, "udiv"},
    {IndexExpr::Op::UMax, "umax"},
    {IndexExpr::Op::UMin, "umin"},
    {IndexExpr::Op::SMax, "smax"},
    {IndexExpr::Op::SMin, "smin"},
}};

constexpr std::array<std::pair<IndexExpr::SymbolKind, std::string_view>, 5>
    SymbolNames{{
        {IndexExpr::SymbolKind::LocalSize, "local_size"},
        {IndexExpr::SymbolKind::NumGroups, "num_groups"},
        {IndexExpr::SymbolKind::GlobalOffset, "global_offset"},
        {IndexExpr::SymbolKind::Group, "group"},
        {IndexExpr::SymbolKind::Arg, "arg"},
    }};

Failure overflow() {
  return Failure(ErrorCode::InvalidArgument,
                 "footprint arithmetic overflows 64 bits for this launch");
}

} // namespace

IndexExpr IndexExpr::constant(int64_t V) {
  IndexExpr E;
  E.O = Op::Const;
  E.Value = V;
  return E;
}

IndexExpr IndexExpr::symbol(SymbolKind Kind, unsigned Index) {
  IndexExpr E;
  E.O = Op::Symbol;
  E.Kind = Kind;
  E.Index = Index;
  return E;
}

IndexExpr IndexExpr::apply(Op O, std::vector<IndexExpr> Operands) {
  IndexExpr E;
  E.O = O;
  E.Operands = std::move(Operands);
  return E;
}

bool IndexExpr::dependsOnGroup() const {
  if (O == Op::Symbol)
    return Kind == SymbolKind::Group;
  for (const IndexExpr &Sub : Operands)
    if (Sub.dependsOnGroup())
      return true;
  return false;
}

std::string IndexExpr::symbolName() const {
  for (const auto &[K, Name] : SymbolNames)
    if (K == Kind)
      return std::string(Name) + "." + std::to_string(Index);
  return "?";
}

Result<int64_t> IndexExpr::evaluate(const LaunchValues &V) const {
  switch (O) {
  case Op::Const:
    return Value;
  case Op::Symbol: {
    if (Kind != SymbolKind::Arg && Index > 2)
      return Failure(ErrorCode::InvalidArgument,
                     "footprint names dimension " + std::to_string(Index));
    switch (Kind) {
    case SymbolKind::LocalSize:
      return V.LocalSize[Index];
    case SymbolKind::NumGroups:
      return V.NumGroups[Index];
    case SymbolKind::GlobalOffset:
      return V.GlobalOffset[Index];
    case SymbolKind::Group:
      return V.Group[Index];
    case SymbolKind::Arg:
      if (Index < V.Args.size() && V.Args[Index])
        return *V.Args[Index];
      return Failure(ErrorCode::InvalidArgument,
                     "footprint needs the value of integer argument " +
                         std::to_string(Index));
    }
    return Failure(ErrorCode::InvalidArgument, "unknown footprint symbol");
  }
  default:
    break;
  }

  std::vector<int64_t> Vals;
  for (const IndexExpr &Sub : Operands) {
    auto R = Sub.evaluate(V);
    if (!R)
      return R;
    Vals.push_back(*R);
  }
  if (Vals.empty())
    return Failure(ErrorCode::InvalidArgument, "footprint operation without operands");
  int64_t Acc = Vals[0];
  for (size_t I = 1; I < Vals.size(); ++I) {
    int64_t X = Vals[I];
    switch (O) {
    case Op::Add:
      if (__builtin_add_overflow(Acc, X, &Acc))
        return overflow();
      break;
    case Op::Mul:
      if (__builtin_mul_overflow(Acc, X, &Acc))
        return overflow();
      break;
    case Op::UDiv:
      if (X == 0)
        return Failure(ErrorCode::InvalidArgument,
                       "footprint divides by zero for this launch");
      Acc = static_cast<int64_t>(static_cast<uint64_t>(Acc) /
                                 static_cast<uint64_t>(X));
      break;
    case Op::UMax:
      Acc = static_cast<uint64_t>(Acc) > static_cast<uint64_t>(X) ? Acc : X;
      break;
    case Op::UMin:
      Acc = static_cast<uint64_t>(Acc) < static_cast<uint64_t>(X) ? Acc : X;
      break;
    case Op::SMax:
      Acc = Acc > X ? Acc : X;
      break;
    case Op::SMin:
      Acc = Acc < X ? Acc : X;
      break;
    default:
      return Failure(ErrorCode::InvalidArgument, "bad footprint operation");
    }
  }
  return Acc;
}

nlohmann::ordered_json exprToJson(const IndexExpr &E) {
  switch (E.op()) {
  case IndexExpr::Op::Const:
    return E.constantValue();
  case IndexExpr::Op::Symbol:
    return E.symbolName();
  default:
    break;
  }
  nlohmann::ordered_json A = nlohmann::ordered_json::array();
  for (const auto &[O, Name] : OpNames)
    if (O == E.op())
      A.push_back(std::string(Name));
  for (const IndexExpr &Sub : E.operands())
    A.push_back(exprToJson(Sub));
  return A;
}

Result<IndexExpr> exprFromJson(const nlohmann::json &J, const std::string &Path) {
  if (J.is_number_integer())
    return IndexExpr::constant(J.get<int64_t>());
  if (J.is_string()) {
    std::string S = J.get<std::string>();
    size_t Dot = S.find('.');
    if (Dot != std::string::npos) {
      std::string_view Kind(S.data(), Dot);
      std::string Num = S.substr(Dot + 1);
      bool Digits = !Num.empty() && Num.size() < 6 &&
                    Num.find_first_not_of("0123456789") == std::string::npos;
      for (const auto &[K, Name] : SymbolNames)
        if (Name == Kind && Digits) {
          unsigned Index = std::stoul(Num);
          if (K != IndexExpr::SymbolKind::Arg && Index > 2)
            break;
          return IndexExpr::symbol(K, Index);
        }
    }
    return Failure(ErrorCode::CorruptBundle,
                   Path + " names unknown symbol '" + S + "'");
  }
  if (J.is_array() && J.size() >= 2 && J[0].is_string()) {
    std::string Name = J[0].get<std::string>();
    for (const auto &[O, OpName] : OpNames)
      if (OpName == Name) {
        std::vector<IndexExpr> Operands;
        for (size_t I = 1; I < J.size(); ++I) {
          auto Sub = exprFromJson(J[I], Path + "[" + std::to_string(I) + "]");
          if (!Sub)
            return Sub;
          Operands.push_back(std::move(*Sub));
        }
        return IndexExpr::apply(O, std::move(Operands));
      }
    return Failure(ErrorCode::CorruptBundle,
                   Path + " has unknown operation '" + Name + "'");
  }
  return Failure(ErrorCode::CorruptBundle, Path + " is not an expression");
}

std::string IndexExpr::toJson() const { return exprToJson(*this).dump(); }

Result<IndexExpr> parseIndexExpr(const std::string &Json) {
  nlohmann::json J = nlohmann::json::parse(Json, nullptr, false);
  if (J.is_discarded())
    return Failure(ErrorCode::InvalidArgument, "expression is not JSON");
  return exprFromJson(J, "expression");
}

} // namespace skmd
