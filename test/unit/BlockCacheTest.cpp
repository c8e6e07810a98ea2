//===- BlockCacheTest.cpp - Freed device memory kept for reuse ------------===//
#include "devices/BlockCache.h"

#include <gtest/gtest.h>

using namespace skmd;

namespace {

TEST(BlockCache, ReusesBlocksUpToTwiceTheRequestAndFreesTheLargestOverTheLimit) {
  BlockCache C(1024, 4096);
  EXPECT_EQ(C.blockFor(0), 1024u);
  EXPECT_EQ(C.blockFor(1025), 2048u);
  EXPECT_FALSE(C.take(1024));
  C.adopt(0x1000, 2048);
  C.adopt(0x9000, 3072);
  EXPECT_TRUE(C.give(0x1000).empty());
  EXPECT_TRUE(C.give(0x7777).empty()); // not a block of this cache
  // A cached block serves a request of at least half its size.
  EXPECT_EQ(C.take(1024), std::optional<uint64_t>(0x1000));
  EXPECT_FALSE(C.take(1024));
  EXPECT_TRUE(C.give(0x1000).empty());
  EXPECT_FALSE(C.take(512)); // 2048 is more than twice 512
  // 2048 + 3072 cached is over 4096: the largest goes back.
  auto Free = C.give(0x9000);
  ASSERT_EQ(Free.size(), 1u);
  EXPECT_EQ(Free[0], std::make_pair(uint64_t(0x9000), uint64_t(3072)));
  EXPECT_TRUE(C.anyCached());
  C.adopt(0x5000, 1024);
  auto All = C.drainAll();
  EXPECT_EQ(All.size(), 2u);
  EXPECT_FALSE(C.anyCached());
}

} // namespace
