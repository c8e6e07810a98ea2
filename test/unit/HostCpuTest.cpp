//===- HostCpuTest.cpp - Refusing x86 variants this CPU cannot run ---------===//
#include "devices/cpu/HostCpu.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

/// A bundle whose x86 variant needs \p Features; its code is not an ELF
/// file, so only a refusal before loading gives a feature error.
Result<Bundle> bundleNeeding(std::vector<std::string> Features) {
  BundleMetadata M;
  M.Producer = "unit test";
  M.SourceFile = "k.cl";
  M.SourceHash = std::string(64, 'a');
  M.Targets = {{TargetKind::X86, "x86_64-unknown-linux-gnu", "future-cpu",
                std::move(Features)}};
  BundleWriter W(std::move(M));
  W.addVariant(TargetKind::X86, "not a shared object");
  auto Bytes = W.serialize();
  if (!Bytes)
    return Bytes.error();
  return Bundle::fromBytes(std::move(*Bytes));
}

TEST(HostCpu, MissingFeaturesInOrder) {
  auto Host = [](std::string_view F) { return F == "avx" || F == "avx2"; };
  EXPECT_EQ(missingX86Features({"avx", "avx512f", "avx2", "avx512bw"}, Host),
            (std::vector<std::string>{"avx512f", "avx512bw"}));
  EXPECT_TRUE(missingX86Features({}, Host).empty());
}

TEST(HostCpu, KnownAndUnknownNames) {
  // Every machine that runs SKMD's x86-64-v3 code has popcnt; a name the
  // check does not know is never taken as present.
  EXPECT_TRUE(hostHasX86Feature("popcnt"));
  EXPECT_FALSE(hostHasX86Feature("not-an-extension"));
}

TEST(HostCpu, AVariantNeedingWhatTheHostLacksIsRefusedByName) {
  auto B = bundleNeeding({"popcnt", "not-an-extension"});
  ASSERT_TRUE(B.ok()) << B.error().message();
  auto Lib = loadX86Variant(*B);
  ASSERT_FALSE(Lib.ok());
  EXPECT_EQ(Lib.error().code(), ErrorCode::UnsupportedHost);
  EXPECT_NE(Lib.error().message().find("future-cpu"), std::string::npos);
  EXPECT_NE(Lib.error().message().find("not-an-extension"), std::string::npos);
  EXPECT_EQ(Lib.error().message().find("popcnt"), std::string::npos);
}

TEST(HostCpu, AVariantTheHostRunsIsLoaded) {
  // Passes the check, then fails as the ELF loader does: not a feature error.
  auto B = bundleNeeding({"popcnt"});
  ASSERT_TRUE(B.ok()) << B.error().message();
  auto Lib = loadX86Variant(*B);
  ASSERT_FALSE(Lib.ok());
  EXPECT_NE(Lib.error().code(), ErrorCode::UnsupportedHost);
}

} // namespace
