//===- WarpWindowsTest.cpp - The window walk against the brute-force mask -===//
//
// For bands with both edges bounded, both alignments, tile_kv 16 and 32 and
// 2 or 4 warps of 16 rows, over every program of several sequence lengths:
// each warp's windows hold every key its rows see; an unclipped program's
// windows lie in [0, Skv) and its interior windows are seen whole by every
// row of the warp; every step reads windowSpanTiles() consecutive tiles from
// the walk's first. Nothing here uses the walk's formulas but the walk.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/WarpWindows.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mlir::sdpa;

namespace {

/// Visible as a cell of the band (rows past Sq included), keys in [0, Skv).
bool nominallyVisible(const Band &band, int64_t q, int64_t k, int64_t seqQ,
                      int64_t seqKv) {
  int64_t anchor = q + band.diagonalOffset(seqQ, seqKv);
  return k >= 0 && k < seqKv && k >= anchor - *band.left &&
         k <= anchor + *band.right;
}

void checkProgram(const Band &band, WindowShape shape, int64_t q0,
                  int64_t seqQ, int64_t seqKv) {
  SCOPED_TRACE(testing::Message()
               << "L " << *band.left << " R " << *band.right << " align "
               << (band.align == Alignment::BottomRight ? "br" : "tl")
               << " Tk " << shape.tileKv << " warps " << shape.warps
               << " Sq " << seqQ << " Skv " << seqKv << " q0 " << q0);
  WindowWalk<int64_t> walk = evaluateWindowWalk(band, shape, q0, seqQ, seqKv);
  int64_t tk = shape.tileKv;
  int64_t tile0 = std::max<int64_t>(walk.start0, 0) / tk;
  int64_t span = windowSpanTiles(shape);
  ASSERT_GE(walk.windows, 1);
  ASSERT_LE(walk.interiorBegin, walk.interiorEnd);
  ASSERT_LE(walk.interiorEnd, walk.windows);
  for (int64_t w = 0; w < shape.warps; ++w) {
    int64_t row0 = q0 + shape.rows * w;
    int64_t start = walk.start0 + shape.rows * w;
    if (walk.clipped)
      start = std::max<int64_t>(start, 0);
    ASSERT_EQ(start % 16, 0);
    int64_t end = start + tk * walk.windows;
    if (!walk.clipped) {
      EXPECT_GE(start, 0);
      EXPECT_LE(end, seqKv);
    }
    for (int64_t q = row0; q < row0 + shape.rows; ++q) {
      // Every key the row sees lies in the warp's windows.
      for (int64_t k = 0; k < seqKv; ++k) {
        if (q < seqQ && band.isVisible(q, k, seqQ, seqKv)) {
          ASSERT_TRUE(k >= start && k < end) << "row " << q << " key " << k;
        }
      }
      // An unclipped interior window is seen whole.
      if (walk.clipped)
        continue;
      for (int64_t j = walk.interiorBegin; j < walk.interiorEnd; ++j)
        for (int64_t k = start + tk * j; k < start + tk * (j + 1); ++k)
          ASSERT_TRUE(nominallyVisible(band, q, k, seqQ, seqKv))
              << "row " << q << " key " << k << " window " << j;
    }
    // Step j reads tiles [tile0 + j, tile0 + j + span).
    for (int64_t j = 0; j < walk.windows; ++j) {
      int64_t first = start + tk * j, last = first + tk - 1;
      EXPECT_GE(first / tk, tile0 + j) << "window " << j;
      EXPECT_LT(last / tk, tile0 + j + span) << "window " << j;
    }
  }
}

TEST(WarpWindows, CoverTheBandAgainstBruteForce) {
  const int64_t lefts[] = {0, 1, 5, 15, 16, 17, 31, 32, 63, 127, 128, 200};
  const int64_t rights[] = {0, 1, 7, 16, 33};
  const std::pair<int64_t, int64_t> lengths[] = {
      {1, 1}, {17, 17}, {100, 100}, {257, 257}, {100, 257}, {257, 100},
      {600, 600}, {64, 300}};
  for (Alignment align : {Alignment::TopLeft, Alignment::BottomRight})
    for (int64_t left : lefts)
      for (int64_t right : rights)
        for (int64_t tk : {16, 32})
          for (int64_t warps : {2, 4})
            for (auto [seqQ, seqKv] : lengths) {
              Band band{left, right, align};
              WindowShape shape{16, warps, tk};
              for (int64_t q0 = 0; q0 < seqQ; q0 += 16 * warps)
                checkProgram(band, shape, q0, seqQ, seqKv);
            }
}

// gpt-oss's band (window 128, causal) at 64 x 32 and 4 warps: five windows
// a warp, the middle three unmasked, three tiles a step.
TEST(WarpWindows, GptOssBand) {
  Band band{127, 0, Alignment::TopLeft};
  WindowShape shape{16, 4, 32};
  WindowWalk<int64_t> walk = evaluateWindowWalk(band, shape, 1024, 4096, 4096);
  EXPECT_EQ(walk.rho, 1);
  EXPECT_EQ(walk.start0, 1024 - 128);
  EXPECT_EQ(walk.windows, 5);
  EXPECT_EQ(walk.interiorBegin, 1);
  EXPECT_EQ(walk.interiorEnd, 4);
  EXPECT_EQ(walk.clipped, 0);
  EXPECT_EQ(windowSpanTiles(shape), 3);
  EXPECT_EQ(evaluateWindowWalk(band, shape, 64, 4096, 4096).clipped, 1);
  EXPECT_EQ(evaluateWindowWalk(band, shape, 4032, 4096, 4096).clipped, 1);
}

} // namespace
