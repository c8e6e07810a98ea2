//===- MetadataTest.cpp - Metadata schema checks ---------------------------===//
#include "bundle/Metadata.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace skmd;

namespace {

std::string validJson() {
  BundleMetadata M;
  M.Producer = "p";
  M.SourceFile = "k.cl";
  M.SourceHash = "00";
  M.Targets = {{TargetKind::SPIRV, "spirv64v1.2-unknown-unknown", "", {}}};
  KernelInfo K;
  K.Name = "k";
  KernelArg A;
  A.Name = "out";
  A.TypeName = "int*";
  A.Kind = ArgKind::GlobalBuffer;
  A.Space = AddressSpace::Global;
  A.Size = 8;
  A.ElementSize = 4;
  A.Written = true;
  K.Args = {A};
  K.Symbols = {{TargetKind::SPIRV, {"k", "k__skmd_range", "", "k__skmd_merge"}}};
  ArgFootprint F;
  F.ArgIndex = 0;
  Access A1;
  A1.Writes = true;
  A1.Bytes = 4;
  A1.Base = IndexExpr::apply(IndexExpr::Op::Mul,
                        {IndexExpr::constant(4), IndexExpr::symbol(IndexExpr::SymbolKind::GlobalOffset, 0)});
  A1.Terms = {{IndexVar::LocalId, 0, IndexExpr::constant(4)},
              {IndexVar::Group, 0,
               IndexExpr::apply(IndexExpr::Op::Mul, {IndexExpr::constant(4),
                                           IndexExpr::symbol(IndexExpr::SymbolKind::LocalSize, 0)})}};
  F.Accesses = {A1};
  F.Contiguous = Contiguity::Always;
  K.Footprint.Args = {F};
  K.Contiguous = Contiguity::Always;
  M.Kernels = {K};
  return toJson(M);
}

/// Parses validJson() after \p Edit and returns the error message ("" if
/// the edited metadata was accepted).
template <typename Fn> std::string errorAfter(Fn Edit) {
  nlohmann::json J = nlohmann::json::parse(validJson());
  Edit(J);
  auto R = parseMetadata(J.dump());
  return R.ok() ? "" : R.error().message();
}

TEST(Metadata, RoundTrip) {
  auto R = parseMetadata(validJson());
  ASSERT_TRUE(R.ok()) << R.error().message();
  EXPECT_EQ(toJson(*R), validJson());
}

TEST(Metadata, NotJson) {
  auto R = parseMetadata("{\"schema\": 1,");
  ASSERT_FALSE(R.ok());
  EXPECT_EQ(R.error().code(), ErrorCode::CorruptBundle);
}

TEST(Metadata, ErrorsNameTheField) {
  EXPECT_EQ(errorAfter([](auto &J) { J.erase("kernels"); }),
            "metadata.kernels is missing");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"][0]["args"][0]["kind"] = "image"; }),
            "metadata.kernels[0].args[0].kind has unknown value 'image'");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"][0]["args"][0]["size"] = -8; }),
            "metadata.kernels[0].args[0].size is not a non-negative integer");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"][0]["reqd_work_group_size"] = {1, 2}; }),
            "metadata.kernels[0].reqd_work_group_size must have 3 entries");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"][0]["symbols"].erase("spirv"); }),
            "metadata.kernels[0].symbols.spirv is missing");
  EXPECT_EQ(errorAfter([](auto &J) {
              J["kernels"][0]["footprint"]["args"][0]["accesses"][0]["terms"][0]["var"] = "loop.0";
            }),
            "metadata.kernels[0].footprint.args[0].accesses[0].terms[0] names "
            "'loop.0', which does not exist");
  EXPECT_EQ(errorAfter([](auto &J) {
              J["kernels"][0]["footprint"]["args"][0]["accesses"][0]["base"] = {"%", 1, 2};
            }),
            "metadata.kernels[0].footprint.args[0].accesses[0].base has unknown "
            "operation '%'");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"][0]["footprint"]["args"][0]["arg"] = 7; }),
            "metadata.kernels[0].footprint.args[0] names argument 7 of 1");
  EXPECT_EQ(errorAfter([](auto &J) {
              J["kernels"][0]["partition"]["partitionable"] = false;
            }),
            "metadata.kernels[0].partition says not partitionable but gives no reason");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"][0]["args"][0]["address_space"] = "local"; }),
            "metadata.kernels[0].args[0] has kind global_buffer but address "
            "space local");
  EXPECT_EQ(errorAfter([](auto &J) { J["kernels"].push_back(J["kernels"][0]); }),
            "metadata.kernels[1] repeats kernel 'k'");
  EXPECT_EQ(errorAfter([](auto &J) { J = nlohmann::json::array(); }),
            "metadata is not an object");
}

// A guarded store's bound round-trips; metadata without one (older
// bundles) still reads; a bound on an unguarded access is refused.
TEST(Metadata, AStoresBoundIsKept) {
  nlohmann::json J = nlohmann::json::parse(validJson());
  auto &Access = J["kernels"][0]["footprint"]["args"][0]["accesses"][0];
  Access["guarded"] = true;
  Access["below"] = {"*", 4, "arg.0"};
  auto R = parseMetadata(J.dump());
  ASSERT_TRUE(R.ok()) << R.error().message();
  const auto &Parsed = R->Kernels[0].Footprint.Args[0].Accesses[0];
  ASSERT_TRUE(Parsed.Below.has_value());
  EXPECT_EQ(nlohmann::json::parse(toJson(*R))["kernels"][0]["footprint"]["args"][0]
                ["accesses"][0]["below"],
            Access["below"]);
  EXPECT_FALSE(parseMetadata(validJson())->Kernels[0].Footprint.Args[0].Accesses[0].Below);
  EXPECT_EQ(errorAfter([](auto &J) {
              J["kernels"][0]["footprint"]["args"][0]["accesses"][0]["below"] = 64;
            }),
            "metadata.kernels[0].footprint.args[0].accesses[0] has a bound but is not guarded");
}

// Guards, the launch-tested buffers and the arguments' layouts round-trip;
// each is checked against the rest.
TEST(Metadata, GuardsLaunchTestsAndLayoutsAreKept) {
  nlohmann::json J = nlohmann::json::parse(validJson());
  auto &Kernel = J["kernels"][0];
  auto &Access = Kernel["footprint"]["args"][0]["accesses"][0];
  Access["guarded"] = true;
  Access["guards"] = {{{"value", {"+", -10, "arg.0"}},
                       {"terms", {{{"var", "local_id.0"}, {"coeff", 1}}}},
                       {"in_range", {{{"value", 0},
                                      {"terms", {{{"var", "local_id.0"}, {"coeff", 1}}}},
                                      {"bits", 32},
                                      {"signed", false}}}}}};
  Kernel["partition"]["launch_tested"] = {0};
  Kernel["partition"]["combined"] = {{{"arg", 0}, {"op", "umax"}, {"bytes", 8}}};
  Kernel["args"][0]["layout"] = {{0, "int", 1}};
  Kernel["args"][0]["base_type"] = "int*";
  auto R = parseMetadata(J.dump());
  ASSERT_TRUE(R.ok()) << R.error().message();
  const KernelInfo &K = R->Kernels[0];
  ASSERT_EQ(K.Footprint.Args[0].Accesses[0].Guards.size(), 1u);
  EXPECT_EQ(K.LaunchTested, std::vector<unsigned>{0});
  ASSERT_EQ(K.Combined.size(), 1u);
  EXPECT_EQ(K.Combined[0].Op, CombineOp::UMax);
  EXPECT_EQ(K.Combined[0].Bytes, 8u);
  ASSERT_EQ(K.Args[0].Layout.size(), 1u);
  EXPECT_EQ(K.Args[0].Layout[0].Type, "int");
  EXPECT_EQ(nlohmann::json::parse(toJson(*R)), J);
  // A flag's constant, with its width.
  nlohmann::json Flag = J;
  Flag["kernels"][0]["partition"]["combined"] = {
      {{"arg", 0}, {"op", "assign"}, {"bytes", 2}, {"value", 65535}}};
  auto F = parseMetadata(Flag.dump());
  ASSERT_TRUE(F.ok()) << F.error().message();
  EXPECT_EQ(F->Kernels[0].Combined[0].Op, CombineOp::Assign);
  EXPECT_EQ(F->Kernels[0].Combined[0].Value, 65535u);
  EXPECT_EQ(nlohmann::json::parse(toJson(*F)), Flag);

  auto Error = [&](auto Edit) {
    nlohmann::json Bad = J;
    Edit(Bad["kernels"][0]);
    auto R = parseMetadata(Bad.dump());
    return R.ok() ? std::string() : R.error().message();
  };
  EXPECT_EQ(Error([](auto &K) {
              K["footprint"]["args"][0]["accesses"][0]["guarded"] = false;
              K["footprint"]["args"][0]["accesses"][0].erase("below");
            }),
            "metadata.kernels[0].footprint.args[0].accesses[0] has guards but is not guarded");
  EXPECT_EQ(Error([](auto &K) {
              K["footprint"]["args"][0]["accesses"][0]["guards"][0]["terms"][0]["var"] = "loop.0";
            }),
            "metadata.kernels[0].footprint.args[0].accesses[0].guards[0].terms[0] names "
            "'loop.0', which does not exist");
  EXPECT_EQ(Error([](auto &K) {
              K["footprint"]["args"][0]["accesses"][0]["guards"][0]["in_range"][0]["bits"] = 65;
            }),
            "metadata.kernels[0].footprint.args[0].accesses[0].guards[0].in_range[0] has 65 "
            "bits; 1 to 64 are possible");
  EXPECT_EQ(Error([](auto &K) { K["partition"]["combined"][0]["op"] = "mul"; }),
            "metadata.kernels[0].partition.combined[0] has unknown op 'mul'");
  EXPECT_EQ(Error([](auto &K) { K["partition"]["combined"][0]["bytes"] = 2; }),
            "metadata.kernels[0].partition.combined[0] updates 2-byte integers; 4 or 8 are "
            "possible");
  EXPECT_EQ(Error([](auto &K) {
              K["partition"]["combined"][0] = {{"arg", 0}, {"op", "assign"}, {"bytes", 1},
                                               {"value", 256}};
            }),
            "metadata.kernels[0].partition.combined[0] assigns 256, which does not fit 1 "
            "bytes");
  EXPECT_EQ(Error([](auto &K) {
              K["partition"]["combined"][0] = {{"arg", 0}, {"op", "assign"}, {"bytes", 1}};
            }),
            "metadata.kernels[0].partition.combined[0].value is missing");
  EXPECT_EQ(Error([](auto &K) { K["partition"]["launch_tested"] = {1}; }),
            "metadata.kernels[0].partition launch_tested[0] is not a buffer argument's number");
  EXPECT_EQ(Error([](auto &K) { K["args"][0]["layout"] = {{2, "int", 1}}; }),
            "metadata.kernels[0].args[0] has a layout run past its element's 4 bytes");
  EXPECT_EQ(Error([](auto &K) { K["args"][0]["layout"] = {{0, "quad", 1}}; }),
            "metadata.kernels[0].args[0] layout[0] has unknown scalar type 'quad'");
}

TEST(Metadata, OtherSchemaVersionIsRefused) {
  nlohmann::json J = nlohmann::json::parse(validJson());
  J["schema"] = MetadataSchemaVersion + 1;
  auto R = parseMetadata(J.dump());
  ASSERT_FALSE(R.ok());
  EXPECT_EQ(R.error().code(), ErrorCode::UnsupportedBundleVersion);
}

} // namespace
