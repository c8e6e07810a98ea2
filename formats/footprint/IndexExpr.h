//===- IndexExpr.h - Index expressions the runtime evaluates ----------*- C++ -*-===//
//
// The access-footprint analysis describes addresses with small expression
// trees over launch values (local sizes, group counts, global offsets,
// integer kernel arguments) and per-group values (group ids). The runtime
// evaluates them for an actual launch without LLVM.
//
// JSON form: a number is a constant; a string names a symbol
// ("local_size.0", "num_groups.1", "global_offset.2", "group.0", "arg.3");
// an array is [op, operand...] with op one of + * udiv umax umin smax smin.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_FOOTPRINT_INDEXEXPR_H
#define SKMD_FOOTPRINT_INDEXEXPR_H

#include "support/Result.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skmd {

/// The values an expression may mention.
struct LaunchValues {
  std::array<int64_t, 3> LocalSize{1, 1, 1};
  std::array<int64_t, 3> NumGroups{1, 1, 1};
  std::array<int64_t, 3> GlobalOffset{0, 0, 0};
  std::array<int64_t, 3> Group{0, 0, 0};
  /// Integer kernel arguments by argument index; others are absent.
  std::vector<std::optional<int64_t>> Args;
};

class IndexExpr {
public:
  enum class Op { Const, Symbol, Add, Mul, UDiv, UMax, UMin, SMax, SMin };
  enum class SymbolKind { LocalSize, NumGroups, GlobalOffset, Group, Arg };

  static IndexExpr constant(int64_t V);
  static IndexExpr symbol(SymbolKind Kind, unsigned Index);
  static IndexExpr apply(Op O, std::vector<IndexExpr> Operands);

  Op op() const { return O; }
  int64_t constantValue() const { return Value; }
  SymbolKind symbolKind() const { return Kind; }
  unsigned symbolIndex() const { return Index; }
  const std::vector<IndexExpr> &operands() const { return Operands; }

  /// Whether the expression mentions a group id (it then differs per group).
  bool dependsOnGroup() const;

  Result<int64_t> evaluate(const LaunchValues &V) const;

  /// The JSON text of this expression (see the file comment).
  std::string toJson() const;
  std::string symbolName() const;

private:
  Op O = Op::Const;
  int64_t Value = 0;
  SymbolKind Kind = SymbolKind::LocalSize;
  unsigned Index = 0;
  std::vector<IndexExpr> Operands;
};

/// Parses the JSON form; the error names what is wrong.
Result<IndexExpr> parseIndexExpr(const std::string &Json);

} // namespace skmd

#endif // SKMD_FOOTPRINT_INDEXEXPR_H
