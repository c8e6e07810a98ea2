//===- AffinePolynomial.h - Polynomials over launch symbols ------*- C++ -*-===//
//
// The access-footprint analysis turns addresses into sums of monomials over
// atoms: launch values (local_size.0, num_groups.1, arg.3, ...), group ids,
// index variables (local_id.d, loop.k) and opaque index-free subterms
// (divisions, min/max) that it keeps whole. Canonical form makes symbolic
// equalities such as "the row stride equals the group's span" decidable.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_ANALYSIS_AFFINEPOLYNOMIAL_H
#define SKMD_ANALYSIS_AFFINEPOLYNOMIAL_H

#include "footprint/IndexExpr.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skmd {

/// What an atom stands for.
struct Atom {
  enum class Kind { LaunchValue, Group, LocalId, Loop, Opaque };
  Kind K = Kind::LaunchValue;
  unsigned Index = 0;  ///< Dimension or loop number.
  std::string Name;    ///< Printed name, unique per atom.
  IndexExpr Value = IndexExpr::constant(0); ///< How the runtime computes it.
  /// Known to be at least 1 (sizes and group counts); others are >= 0.
  bool AtLeastOne = false;

  bool isIndex() const { return K == Kind::LocalId || K == Kind::Loop; }
};

/// Interns atoms so that equal atoms have equal ids.
class AtomTable {
public:
  unsigned intern(Atom A);
  const Atom &operator[](unsigned Id) const { return Atoms[Id]; }

private:
  std::vector<Atom> Atoms;
  std::map<std::string, unsigned> ByName;
};

class Polynomial {
public:
  using Monomial = std::vector<unsigned>; ///< Sorted atom ids.

  Polynomial() = default;
  static Polynomial constant(int64_t C);
  static Polynomial atom(unsigned Id);

  /// Arithmetic; std::nullopt when a coefficient overflows.
  std::optional<Polynomial> plus(const Polynomial &O) const;
  std::optional<Polynomial> times(const Polynomial &O) const;
  std::optional<Polynomial> scaled(int64_t C) const;
  std::optional<Polynomial> minus(const Polynomial &O) const;

  bool isZero() const { return Terms.empty(); }
  std::optional<int64_t> asConstant() const;
  const std::map<Monomial, int64_t> &terms() const { return Terms; }
  bool operator==(const Polynomial &O) const { return Terms == O.Terms; }

  /// Whether any atom satisfies \p Pred.
  template <typename Fn> bool mentions(Fn Pred) const {
    for (const auto &[M, C] : Terms)
      for (unsigned A : M)
        if (Pred(A))
          return true;
    return false;
  }

  /// Proves the value is >= 0 for every launch: atoms marked AtLeastOne are
  /// written 1 + a' and all others are >= 0; then every coefficient must be
  /// non-negative.
  bool provablyNonNegative(const AtomTable &Atoms) const;

  /// Replaces atom \p Id with the constant \p C.
  std::optional<Polynomial> substitute(unsigned Id, int64_t C) const;

  IndexExpr toIndexExpr(const AtomTable &Atoms) const;
  void print(llvm::raw_ostream &OS, const AtomTable &Atoms) const;

  /// Adds C * M; the unchecked form is for coefficients known to fit.
  void addTerm(const Monomial &M, int64_t C);
  bool addTermChecked(const Monomial &M, int64_t C);

private:
  std::map<Monomial, int64_t> Terms; ///< No zero coefficients.
};

} // namespace skmd

#endif // SKMD_ANALYSIS_AFFINEPOLYNOMIAL_H
