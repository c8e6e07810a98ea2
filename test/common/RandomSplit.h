//===- RandomSplit.h - Random partitions of a group range -------*- C++ -*-===//
//
// The tests split a launch's flattened groups at random cut points and run
// the pieces in random order, as a partitioner and several devices would.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TEST_COMMON_RANDOMSPLIT_H
#define SKMD_TEST_COMMON_RANDOMSPLIT_H

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace skmd::test {

/// [first, count) pieces covering [0, Total) once, cut at up to \p Cuts
/// random points, shuffled.
inline std::vector<std::pair<uint64_t, uint64_t>>
randomPieces(uint64_t Total, unsigned Cuts, std::mt19937 &Rng) {
  std::vector<uint64_t> Points = {0, Total};
  for (unsigned I = 0; I < Cuts && Total > 1; ++I)
    Points.push_back(std::uniform_int_distribution<uint64_t>(1, Total - 1)(Rng));
  std::sort(Points.begin(), Points.end());
  Points.erase(std::unique(Points.begin(), Points.end()), Points.end());
  std::vector<std::pair<uint64_t, uint64_t>> Pieces;
  for (size_t I = 0; I + 1 < Points.size(); ++I)
    Pieces.push_back({Points[I], Points[I + 1] - Points[I]});
  std::shuffle(Pieces.begin(), Pieces.end(), Rng);
  return Pieces;
}

} // namespace skmd::test

#endif // SKMD_TEST_COMMON_RANDOMSPLIT_H
