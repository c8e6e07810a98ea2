//===- BundleTest.cpp - Bundle container round trip and corruption --------===//
#include "bundle/Bundle.h"
#include "bundle/BundleFormat.h"
#include "bundle/Crc32.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace skmd;

namespace {

BundleMetadata sampleMetadata() {
  BundleMetadata M;
  M.Producer = "unit test";
  M.SourceFile = "k.cl";
  M.SourceHash = std::string(64, 'a');
  M.CompileOptions = {"-cl-std=CL3.0", "-O3"};
  M.Targets = {{TargetKind::X86, "x86_64-unknown-linux-gnu", "x86-64-v3",
                {"avx", "avx2", "fma"}},
               {TargetKind::PTX, "nvptx64-nvidia-cuda", "sm_90", {}}};
  KernelInfo K;
  K.Name = "vadd";
  KernelArg A;
  A.Name = "a";
  A.TypeName = "float*";
  A.Kind = ArgKind::GlobalBuffer;
  A.Space = AddressSpace::Global;
  A.Size = 8;
  A.ElementSize = 4;
  A.IsConst = true;
  A.Read = true;
  KernelArg N;
  N.Name = "n";
  N.TypeName = "uint";
  N.Size = 4;
  K.Args = {A, N};
  K.ReqdWorkGroupSize = {64, 1, 1};
  KernelSymbols S{"vadd", "vadd__skmd_range", "", ""};
  K.Symbols = {{TargetKind::X86, S}, {TargetKind::PTX, S}};
  M.Kernels.push_back(K);
  return M;
}

std::vector<uint8_t> sampleBundle() {
  BundleWriter W(sampleMetadata());
  W.addVariant(TargetKind::X86, std::string("\x7f" "ELF fake shared object", 23));
  W.addVariant(TargetKind::PTX, std::string(".entry vadd\0", 12));
  auto Bytes = W.serialize();
  EXPECT_TRUE(Bytes.ok());
  return *Bytes;
}

TEST(Crc32, KnownValue) {
  // The check value of CRC-32/ISO-HDLC.
  EXPECT_EQ(crc32("123456789", 9), 0xCBF43926u);
  // Computing in pieces gives the same answer.
  EXPECT_EQ(crc32("6789", 4, crc32("12345", 5)), 0xCBF43926u);
}

TEST(Bundle, RoundTrip) {
  auto B = Bundle::fromBytes(sampleBundle());
  ASSERT_TRUE(B.ok()) << B.error().message();
  const BundleMetadata &M = B->metadata();
  EXPECT_EQ(M.Producer, "unit test");
  ASSERT_NE(M.findTarget(TargetKind::X86), nullptr);
  EXPECT_EQ(M.findTarget(TargetKind::X86)->Features,
            (std::vector<std::string>{"avx", "avx2", "fma"}));
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelInfo &K = M.Kernels[0];
  EXPECT_EQ(K.Name, "vadd");
  ASSERT_EQ(K.Args.size(), 2u);
  EXPECT_EQ(K.Args[0].Kind, ArgKind::GlobalBuffer);
  EXPECT_EQ(K.Args[0].ElementSize, 4u);
  EXPECT_TRUE(K.Args[0].IsConst);
  EXPECT_TRUE(K.Args[0].Read);
  EXPECT_FALSE(K.Args[0].Written);
  EXPECT_EQ(K.Args[1].Kind, ArgKind::Scalar);
  EXPECT_EQ(K.ReqdWorkGroupSize[0], 64u);
  EXPECT_EQ(K.Symbols.at(TargetKind::PTX).Kernel, "vadd");
  EXPECT_EQ(K.Symbols.at(TargetKind::PTX).Range, "vadd__skmd_range");
  EXPECT_EQ(B->variant(TargetKind::PTX), std::string_view(".entry vadd\0", 12));
  EXPECT_TRUE(B->variant(TargetKind::SPIRV).empty());
  for (const BundleSection &S : B->sections())
    EXPECT_EQ(S.Offset % bundle::PayloadAlignment, 0u);
}

// The source a bundle carries comes back as written; one that would name
// files outside its scratch folder, or lacks its main file, is refused; a
// bundle without one says so.
TEST(Bundle, SourceSection) {
  auto Plain = Bundle::fromBytes(sampleBundle());
  ASSERT_TRUE(Plain.ok()) << Plain.error().message();
  EXPECT_EQ(Plain->source().error().code(), ErrorCode::NotFound);

  BundleSource S;
  S.Main = "k.cl";
  S.Options = {"-cl-std=CL3.0", "-DN=4"};
  S.Files = {{"k.cl", "#include \"inc/k.h\"\n"}, {"inc/k.h", "#define M 2\n"}};
  auto Back = parseBundleSource(toJson(S));
  ASSERT_TRUE(Back.ok()) << Back.error().message();
  EXPECT_EQ(Back->Main, S.Main);
  EXPECT_EQ(Back->Options, S.Options);
  EXPECT_EQ(Back->Files, S.Files);

  for (const char *Name : {"../k.h", "/etc/passwd", ""}) {
    BundleSource Bad = S;
    Bad.Files[1].first = Name;
    EXPECT_EQ(parseBundleSource(toJson(Bad)).error().code(), ErrorCode::CorruptBundle)
        << Name;
  }
  BundleSource NoMain = S;
  NoMain.Main = "other.cl";
  EXPECT_EQ(parseBundleSource(toJson(NoMain)).error().message(),
            "the bundle's source section lacks its main file 'other.cl'");
  EXPECT_FALSE(parseBundleSource("[1, 2]").ok());
}

// Sources are bytes: a Latin-1 comment is valid OpenCL C but not UTF-8,
// which JSON strings must be (skmd-cc died on it: fuzz-compiler). Every
// byte comes back; malformed hex is an error.
TEST(Bundle, SourceThatIsNotUtf8) {
  BundleSource S;
  S.Main = "caf\xe9.cl";
  S.Options = {"-DNAME=\"\xff\"", "-DN=4"};
  static const char Text[] = "// caf\xe9\n__kernel void k() {}\n\0tail";
  S.Files = {{S.Main, std::string(Text, sizeof Text - 1)}};
  auto Back = parseBundleSource(toJson(S));
  ASSERT_TRUE(Back.ok()) << Back.error().message();
  EXPECT_EQ(Back->Main, S.Main);
  EXPECT_EQ(Back->Options, S.Options);
  EXPECT_EQ(Back->Files, S.Files);
  for (const char *Hex : {"\"6\"", "\"zz\"", "1"})
    EXPECT_EQ(parseBundleSource(std::string(R"({"main": {"hex": )") + Hex +
                                R"(}, "options": [], "files": []})")
                  .error()
                  .code(),
              ErrorCode::CorruptBundle)
        << Hex;
}

TEST(Bundle, EveryTruncationIsAnError) {
  std::vector<uint8_t> Good = sampleBundle();
  for (size_t Len = 0; Len < Good.size(); ++Len) {
    std::vector<uint8_t> Cut(Good.begin(), Good.begin() + Len);
    auto B = Bundle::fromBytes(std::move(Cut));
    ASSERT_FALSE(B.ok()) << "a bundle cut to " << Len << " bytes was accepted";
    EXPECT_EQ(B.error().code(), ErrorCode::CorruptBundle);
  }
}

TEST(Bundle, EveryFlippedByteIsAnError) {
  std::vector<uint8_t> Good = sampleBundle();
  for (size_t Off = 0; Off < Good.size(); ++Off) {
    std::vector<uint8_t> Bad = Good;
    Bad[Off] ^= 0x5A;
    auto B = Bundle::fromBytes(std::move(Bad));
    ASSERT_FALSE(B.ok()) << "a flip at byte " << Off << " went unnoticed";
  }
}

TEST(Bundle, AppendedBytesAreAnError) {
  std::vector<uint8_t> Bytes = sampleBundle();
  Bytes.push_back(0);
  auto B = Bundle::fromBytes(std::move(Bytes));
  ASSERT_FALSE(B.ok());
  EXPECT_NE(B.error().message().find("truncated or extended"), std::string::npos);
}

TEST(Bundle, NewerMajorVersionIsRefusedByName) {
  std::vector<uint8_t> Bytes = sampleBundle();
  Bytes[bundle::OffMajor] = 2;
  auto B = Bundle::fromBytes(std::move(Bytes));
  ASSERT_FALSE(B.ok());
  EXPECT_EQ(B.error().code(), ErrorCode::UnsupportedBundleVersion);
}

TEST(Bundle, NotABundle) {
  std::string Text = "__kernel void k() {}\n";
  auto B = Bundle::fromBytes(std::vector<uint8_t>(Text.begin(), Text.end()));
  ASSERT_FALSE(B.ok());
  EXPECT_NE(B.error().message().find("too short"), std::string::npos);
  std::vector<uint8_t> Junk(200, 'x');
  B = Bundle::fromBytes(Junk);
  ASSERT_FALSE(B.ok());
  EXPECT_NE(B.error().message().find("bad magic"), std::string::npos);
}

TEST(BundleWriter, RefusesVariantsThatDoNotMatchTheMetadata) {
  BundleWriter Missing(sampleMetadata());
  Missing.addVariant(TargetKind::X86, "so");
  auto R = Missing.serialize();
  ASSERT_FALSE(R.ok());
  EXPECT_NE(R.error().message().find("no variant for target ptx"),
            std::string::npos);

  BundleWriter Extra(sampleMetadata());
  Extra.addVariant(TargetKind::X86, "so");
  Extra.addVariant(TargetKind::PTX, "ptx");
  Extra.addVariant(TargetKind::SPIRV, "spv!");
  R = Extra.serialize();
  ASSERT_FALSE(R.ok());
  EXPECT_NE(R.error().message().find("spirv"), std::string::npos);
}

TEST(BundleFile, WriteReadAndMissingFile) {
  char Dir[] = "/tmp/skmd-bundle-test-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Path = std::string(Dir) + "/k.skmd";

  BundleWriter W(sampleMetadata());
  W.addVariant(TargetKind::X86, "so");
  W.addVariant(TargetKind::PTX, "ptx");
  Status S = W.writeFile(Path);
  ASSERT_TRUE(S.ok()) << S.error().message();
  auto B = Bundle::fromFile(Path);
  ASSERT_TRUE(B.ok()) << B.error().message();
  EXPECT_EQ(B->metadata().Kernels[0].Name, "vadd");

  auto Missing = Bundle::fromFile(std::string(Dir) + "/nope.skmd");
  ASSERT_FALSE(Missing.ok());
  EXPECT_EQ(Missing.error().code(), ErrorCode::IOError);

  // A failed write leaves neither the target nor a temporary behind.
  BundleWriter Bad(sampleMetadata());
  Bad.addVariant(TargetKind::X86, "so");
  std::string BadPath = std::string(Dir) + "/bad.skmd";
  EXPECT_FALSE(Bad.writeFile(BadPath).ok());
  EXPECT_NE(access(BadPath.c_str(), F_OK), 0);

  std::remove(Path.c_str());
  EXPECT_EQ(rmdir(Dir), 0) << "a temporary file was left in " << Dir;
}

} // namespace
