//===- BandTest.cpp - The band mask and its canonical form ----------------===//

#include "BruteForceMask.h"
#include "gtest/gtest.h"

#include <map>

using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

namespace {

std::vector<bool> bitmap(const Band &band, int64_t seqQ, int64_t seqKv) {
  std::vector<bool> bits;
  for (int64_t q = 0; q < seqQ; ++q)
    for (int64_t k = 0; k < seqKv; ++k)
      bits.push_back(band.isVisible(q, k, seqQ, seqKv));
  return bits;
}

TEST(Band, TableOfCommonMasks) {
  // Causal window of N = 4 keys, diagonal included: L = 3, R = 0.
  Band window{3, 0, Alignment::TopLeft};
  EXPECT_TRUE(window.isVisible(5, 5, 8, 8));
  EXPECT_TRUE(window.isVisible(5, 2, 8, 8));
  EXPECT_FALSE(window.isVisible(5, 1, 8, 8));
  EXPECT_FALSE(window.isVisible(5, 6, 8, 8));
  // Bottom-right causal with Sq < Skv: the last row sees every key.
  Band causalBR{std::nullopt, 0, Alignment::BottomRight};
  EXPECT_TRUE(causalBR.isVisible(3, 9, 4, 10));
  EXPECT_FALSE(causalBR.isVisible(0, 7, 4, 10));
  // Bottom-right with Sq > Skv: leading rows see nothing.
  EXPECT_FALSE(causalBR.isVisible(0, 0, 10, 4));
  EXPECT_TRUE(causalBR.isVisible(6, 0, 10, 4));
  // Out-of-range cells are never visible.
  Band full{};
  EXPECT_FALSE(full.isVisible(0, 4, 4, 4));
  EXPECT_FALSE(full.isVisible(-1, 0, 4, 4));
}

/// Canonicalization keeps the mask, and equal masks get one form: bands are
/// grouped by their bitmap over small shapes, and every group must share one
/// canonical band.
TEST(Band, CanonicalFormIsUniquePerMask) {
  CaseGenerator gen(/*seed=*/42);
  for (int64_t seqQ = 1; seqQ <= 12; ++seqQ) {
    for (int64_t seqKv = 1; seqKv <= 12; ++seqKv) {
      std::map<std::vector<bool>, Band> formOfMask;
      for (int i = 0; i < 400; ++i) {
        Band band = gen.band(std::max(seqQ, seqKv));
        Band canonical = canonicalizeBand(band, seqQ, seqKv);
        std::vector<bool> bits = bitmap(band, seqQ, seqKv);
        ASSERT_EQ(bitmap(canonical, seqQ, seqKv), bits)
            << "Sq=" << seqQ << " Skv=" << seqKv;
        ASSERT_EQ(canonicalizeBand(canonical, seqQ, seqKv), canonical);
        auto [it, inserted] = formOfMask.emplace(bits, canonical);
        ASSERT_TRUE(inserted || it->second == canonical)
            << "two canonical forms of one mask, Sq=" << seqQ
            << " Skv=" << seqKv;
      }
    }
  }
}

TEST(Band, CanonicalFormWithUnknownLengths) {
  Band full{std::nullopt, std::nullopt, Alignment::BottomRight};
  EXPECT_EQ(canonicalizeBand(full, std::nullopt, std::nullopt).align,
            Alignment::TopLeft);
  Band window{127, 0, Alignment::BottomRight};
  EXPECT_EQ(canonicalizeBand(window, std::nullopt, 100), window);
  // A window wider than the sequence cannot bite.
  Band wide{4096, 0, Alignment::TopLeft};
  EXPECT_EQ(canonicalizeBand(wide, 4096, 4096).left, std::nullopt);
  EXPECT_EQ(canonicalizeBand(wide, 4098, 4098).left, 4096);
}

} // namespace
