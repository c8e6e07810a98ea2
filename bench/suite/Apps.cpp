//===- Apps.cpp - The benchmark applications, by name ---------------------===//
#include "Apps.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>

namespace skmd::bench {

namespace {
// A function-local static: registrations run during static initialization,
// in no particular order across files.
std::vector<App> &registry() {
  static std::vector<App> Apps;
  return Apps;
}
} // namespace

AppRegistration::AppRegistration(App A) {
  std::vector<App> &Apps = registry();
  auto At = std::lower_bound(Apps.begin(), Apps.end(), A, [](const App &X, const App &Y) {
    return std::strcmp(X.Name, Y.Name) < 0;
  });
  Apps.insert(At, A);
}

const std::vector<App> &allApps() { return registry(); }

const App *findApp(const std::string &Name) {
  for (const App &A : registry())
    if (Name == A.Name)
      return &A;
  return nullptr;
}

std::optional<double> scaleOfSize(const std::string &Size) {
  if (Size == "paper")
    return 1.0;
  if (Size == "small")
    return SmallScale;
  char *End = nullptr;
  double Scale = std::strtod(Size.c_str(), &End);
  if (Size.empty() || *End || !(Scale >= 1) || !std::isfinite(Scale))
    return std::nullopt;
  return Scale;
}

unsigned appSeed(const App &A) {
  // FNV-1a of the name.
  uint32_t H = 2166136261u;
  for (const char *C = A.Name; *C; ++C)
    H = (H ^ uint8_t(*C)) * 16777619u;
  return H;
}

} // namespace skmd::bench
