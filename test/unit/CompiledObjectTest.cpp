//===- CompiledObjectTest.cpp - clCompileProgram's objects, read back ------===//
#include "bundle/CompiledObject.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

CompiledObject library() {
  CompiledObject O;
  O.Library = true;
  O.OptLevel = 0;
  O.Options = {"-cl-std=CL1.2", "-O0", "-DN=4"};
  KernelInfo K;
  K.Name = "scale";
  KernelArg A;
  A.Name = "x";
  A.TypeName = "float*";
  A.Kind = ArgKind::GlobalBuffer;
  A.Space = AddressSpace::Global;
  A.Size = 8;
  A.ElementSize = 4;
  K.Args.push_back(A);
  K.ReqdWorkGroupSize = {8, 1, 1};
  K.VecTypeHint = "float4";
  O.Kernels.push_back(K);
  O.Bitcode[TargetKind::X86] = std::string("BC\xc0\xde\0x86", 7);
  O.Bitcode[TargetKind::SPIRV] = "spirv bitcode";
  return O;
}

TEST(CompiledObject, RoundTrips) {
  std::vector<uint8_t> Bytes = serialize(library());
  ASSERT_TRUE(isCompiledObject(Bytes));
  auto O = parseCompiledObject(Bytes);
  ASSERT_TRUE(O) << O.error().message();
  EXPECT_TRUE(O->Library);
  EXPECT_EQ(O->OptLevel, 0u);
  EXPECT_EQ(O->Options, library().Options);
  ASSERT_EQ(O->Kernels.size(), 1u);
  EXPECT_EQ(O->Kernels[0].Name, "scale");
  EXPECT_EQ(O->Kernels[0].Args[0].TypeName, "float*");
  EXPECT_EQ(O->Kernels[0].ReqdWorkGroupSize[0], 8u);
  EXPECT_EQ(O->Kernels[0].VecTypeHint, "float4");
  EXPECT_EQ(O->Bitcode, library().Bitcode);
}

// Any cut of an object, and bytes after it, is refused with a reason.
TEST(CompiledObject, RefusesWhatIsCutOrExtended) {
  std::vector<uint8_t> Bytes = serialize(library());
  for (size_t N = 0; N < Bytes.size(); ++N) {
    std::vector<uint8_t> Cut(Bytes.begin(), Bytes.begin() + N);
    auto O = parseCompiledObject(Cut);
    EXPECT_FALSE(O) << N;
    if (!O)
      EXPECT_NE(O.error().message().find("compiled object"), std::string::npos);
  }
  Bytes.push_back(0);
  EXPECT_FALSE(parseCompiledObject(Bytes));
  EXPECT_FALSE(isCompiledObject({'S', 'K', 'M', 'D', 'B', 'N', 'D', 'L'}));
}

} // namespace
