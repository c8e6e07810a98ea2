//===- AffinePolynomial.cpp - Polynomials over launch symbols -------------===//
#include "Analysis/AffinePolynomial.h"

#include <algorithm>

namespace skmd {

unsigned AtomTable::intern(Atom A) {
  auto It = ByName.find(A.Name);
  if (It != ByName.end())
    return It->second;
  unsigned Id = Atoms.size();
  ByName[A.Name] = Id;
  Atoms.push_back(std::move(A));
  return Id;
}

Polynomial Polynomial::constant(int64_t C) {
  Polynomial P;
  P.addTerm({}, C);
  return P;
}

Polynomial Polynomial::atom(unsigned Id) {
  Polynomial P;
  P.addTerm({Id}, 1);
  return P;
}

void Polynomial::addTerm(const Monomial &M, int64_t C) {
  if (C == 0)
    return;
  int64_t &Slot = Terms[M];
  Slot += C;
  if (Slot == 0)
    Terms.erase(M);
}

bool Polynomial::addTermChecked(const Monomial &M, int64_t C) {
  auto It = Terms.find(M);
  int64_t Sum;
  if (__builtin_add_overflow(It == Terms.end() ? 0 : It->second, C, &Sum))
    return false;
  if (It != Terms.end())
    Terms.erase(It);
  addTerm(M, Sum);
  return true;
}

std::optional<Polynomial> Polynomial::plus(const Polynomial &O) const {
  Polynomial R = *this;
  for (const auto &[M, C] : O.Terms)
    if (!R.addTermChecked(M, C))
      return std::nullopt;
  return R;
}

std::optional<Polynomial> Polynomial::scaled(int64_t K) const {
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    int64_t P;
    if (__builtin_mul_overflow(C, K, &P))
      return std::nullopt;
    R.addTerm(M, P);
  }
  return R;
}

std::optional<Polynomial> Polynomial::minus(const Polynomial &O) const {
  auto Neg = O.scaled(-1);
  if (!Neg)
    return std::nullopt;
  return plus(*Neg);
}

std::optional<Polynomial> Polynomial::times(const Polynomial &O) const {
  Polynomial R;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      int64_t C;
      if (__builtin_mul_overflow(C1, C2, &C))
        return std::nullopt;
      Monomial M = M1;
      M.insert(M.end(), M2.begin(), M2.end());
      std::sort(M.begin(), M.end());
      if (!R.addTermChecked(M, C))
        return std::nullopt;
    }
  return R;
}

std::optional<int64_t> Polynomial::asConstant() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

bool Polynomial::provablyNonNegative(const AtomTable &Atoms) const {
  // Expand each atom a >= 1 as (1 + a'), where a' >= 0, and require every
  // coefficient of the result to be non-negative.
  Polynomial Expanded;
  for (const auto &[M, C] : Terms) {
    Polynomial Term = Polynomial::constant(C);
    for (unsigned A : M) {
      Polynomial Factor = Polynomial::atom(A);
      if (Atoms[A].AtLeastOne)
        Factor.addTerm({}, 1); // a = 1 + a', with a' printed as a.
      auto P = Term.times(Factor);
      if (!P)
        return false;
      Term = std::move(*P);
    }
    for (const auto &[TM, TC] : Term.Terms)
      if (!Expanded.addTermChecked(TM, TC))
        return false;
  }
  for (const auto &[M, C] : Expanded.Terms)
    if (C < 0)
      return false;
  return true;
}

std::optional<Polynomial> Polynomial::substitute(unsigned Id, int64_t Value) const {
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    Monomial Rest;
    int64_t Coeff = C;
    for (unsigned A : M) {
      if (A != Id) {
        Rest.push_back(A);
        continue;
      }
      if (__builtin_mul_overflow(Coeff, Value, &Coeff))
        return std::nullopt;
    }
    if (!R.addTermChecked(Rest, Coeff))
      return std::nullopt;
  }
  return R;
}

IndexExpr Polynomial::toIndexExpr(const AtomTable &Atoms) const {
  std::vector<IndexExpr> Sum;
  for (const auto &[M, C] : Terms) {
    std::vector<IndexExpr> Product;
    if (C != 1 || M.empty())
      Product.push_back(IndexExpr::constant(C));
    for (unsigned A : M)
      Product.push_back(Atoms[A].Value);
    Sum.push_back(Product.size() == 1
                      ? Product[0]
                      : IndexExpr::apply(IndexExpr::Op::Mul, std::move(Product)));
  }
  if (Sum.empty())
    return IndexExpr::constant(0);
  return Sum.size() == 1 ? Sum[0]
                         : IndexExpr::apply(IndexExpr::Op::Add, std::move(Sum));
}

void Polynomial::print(llvm::raw_ostream &OS, const AtomTable &Atoms) const {
  if (Terms.empty()) {
    OS << '0';
    return;
  }
  bool First = true;
  for (const auto &[M, C] : Terms) {
    int64_t Abs = C < 0 ? -C : C;
    OS << (First ? (C < 0 ? "-" : "") : (C < 0 ? " - " : " + "));
    First = false;
    bool NeedStar = false;
    if (Abs != 1 || M.empty()) {
      OS << Abs;
      NeedStar = true;
    }
    for (unsigned A : M) {
      OS << (NeedStar ? "*" : "") << Atoms[A].Name;
      NeedStar = true;
    }
  }
}

} // namespace skmd
