//===- Text.h - Files, the host's name, markdown cells -----------*- C++ -*-===//
#ifndef SKMD_BENCH_SUITE_TEXT_H
#define SKMD_BENCH_SUITE_TEXT_H

#include <string>
#include <vector>

namespace skmd::bench {

/// The items of a comma-separated list, empty ones dropped.
std::vector<std::string> splitList(const std::string &S);
/// Reads \p Path whole into \p Out; returns an error or "".
std::string readFile(const std::string &Path, std::string &Out);
/// /proc/cpuinfo's model name.
std::string cpuModel();
/// \p S as one markdown table cell: on one line, without pipes.
std::string markdownCell(std::string S);

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_TEXT_H
