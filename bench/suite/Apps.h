//===- Apps.h - The benchmark applications, by name -------------*- C++ -*-===//
//
// Each application in bench/apps/ registers itself with a file-scope
// AppRegistration; the drivers find them here. An application is one
// OpenCL C source in bench/kernels/ (its bundle has the same stem) and a
// function that builds its Problem at a scale: 1 is the SKMD paper's size
// (Table II), larger values divide the work (the element count) by that
// much, for quick runs and for CI.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_BENCH_SUITE_APPS_H
#define SKMD_BENCH_SUITE_APPS_H

#include "Problem.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace skmd::bench {

struct App {
  const char *Name;   ///< As --only names it, e.g. "aes-encrypt".
  const char *Source; ///< The .cl / .skmd stem in bench/kernels.
  /// The problem at \p Scale, its inputs drawn from \p Rng.
  Problem (*Make)(double Scale, std::mt19937 &Rng);
};

struct AppRegistration {
  explicit AppRegistration(App A);
};

/// Every registered application, by name.
const std::vector<App> &allApps();
/// The application named \p Name, or null.
const App *findApp(const std::string &Name);
/// The small size, for CI: 1/256 of the paper's work.
constexpr double SmallScale = 256;
/// The scale a --size value names: "paper" (1), "small" (SmallScale) or a
/// number of at least 1 by which the work is divided; none when it is
/// none of these.
std::optional<double> scaleOfSize(const std::string &Size);

/// The seed of an application's inputs: the same in every run and driver,
/// whichever other applications run.
unsigned appSeed(const App &A);

} // namespace skmd::bench

#endif // SKMD_BENCH_SUITE_APPS_H
