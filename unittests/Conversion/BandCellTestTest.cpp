//===- BandCellTestTest.cpp - The cell band test against the definition ---===//
//
// Folds BandCellTest's visible() for grids of cells around thread positions
// near and far from the band (past the i32 saturation bound 2^20), for
// bands with either edge unbounded, narrow and wide, the one-compare form
// (L + R below 2^19) and its limit, in both compare widths, and compares
// each with Band::isVisible, the mask's definition. A test that drops an
// edge, a saturation that wraps, or an unsigned compare taken past its
// bound fails.
//
//===----------------------------------------------------------------------===//

#include "FoldConstants.h"
#include "SdpaDialect/Conversion/BandCellTest.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// A thread's first cell (query, key) and the lengths it sits in.
struct ThreadPlace {
  int64_t query, key, seqQ, seqKv;
};

constexpr int64_t kOffsets = 12; // cells (query + i, key + j), i, j < 12

/// The folded visible() of every cell offset (i, j) of `place`.
std::vector<bool> foldCells(MLIRContext &ctx, const Band &band,
                            const ThreadPlace &place, bool withSeqKv,
                            bool narrow) {
  SmallVector<APInt> folded =
      unittest::foldToConstants(ctx, [&](ImplicitLocOpBuilder &b) {
        KernelArith arith(b);
        Value delta = arith.idx(band.diagonalOffset(place.seqQ, place.seqKv));
        BandCellTest test(arith, band, arith.idx(place.query),
                          arith.idx(place.key), delta,
                          withSeqKv ? arith.idx(place.seqKv) : Value(),
                          narrow);
        SmallVector<Value> cells;
        for (int64_t i = 0; i < kOffsets; ++i)
          for (int64_t j = 0; j < kOffsets; ++j)
            cells.push_back(test.visible(i, j));
        return cells;
      });
  std::vector<bool> visible;
  for (const APInt &bit : folded)
    visible.push_back(!bit.isZero());
  return visible;
}

std::string describe(const Band &band, const ThreadPlace &p, bool narrow) {
  auto edge = [](std::optional<int64_t> e) {
    return e ? std::to_string(*e) : std::string("inf");
  };
  return "L " + edge(band.left) + " R " + edge(band.right) +
         (band.align == Alignment::BottomRight ? " bottom-right" : " top-left") +
         (narrow ? " i32" : " index") + " at (" + std::to_string(p.query) +
         ", " + std::to_string(p.key) + ") of " + std::to_string(p.seqQ) +
         " x " + std::to_string(p.seqKv);
}

TEST(BandCellTest, EveryCellAsTheBandDefinesIt) {
  MLIRContext ctx;
  const std::optional<int64_t> none;
  const std::pair<std::optional<int64_t>, std::optional<int64_t>> edges[] = {
      {127, 0},         {0, 0},         {31, 31},  {none, 0},
      {127, none},      {none, none},   {3, 5},    {(1 << 19) - 6, 5},
      {(1 << 19) - 5, 5}, {1 << 19, 0}, {(1 << 20) - 1, 1 << 19},
      {4, 1 << 25}, {1 << 30, 1 << 30}};
  const int64_t far = int64_t(1) << 22; // past the saturation bound 2^20
  // Thread places: on the diagonal, inside a window, just past each edge,
  // and far on either side; the key tile may reach past Skv.
  const ThreadPlace places[] = {
      {0, 0, 64, 64},          {100, 90, 300, 300},   {200, 60, 300, 300},
      {130, 2, 300, 300},      {3, 7, 40, 300},       {far, 4, far + 64, far},
      {5, far, 64, far + 64},  {600, 590, 700, 598},  {50, 0, 2 * far, 60}};
  int64_t checked = 0;
  for (auto [left, right] : edges)
    for (Alignment align : {Alignment::TopLeft, Alignment::BottomRight})
      for (const ThreadPlace &place : places)
        for (bool narrow : {false, true})
          for (bool withSeqKv : {true, false}) {
            Band band{left, right, align};
            std::vector<bool> cells =
                foldCells(ctx, band, place, withSeqKv, narrow);
            for (int64_t i = 0; i < kOffsets; ++i)
              for (int64_t j = 0; j < kOffsets; ++j) {
                int64_t q = place.query + i, k = place.key + j;
                // Rows past Sq are not the test's (their P is zero
                // elsewhere); without Skv every key is in the sequence.
                if (q >= place.seqQ || (!withSeqKv && k >= place.seqKv))
                  continue;
                ++checked;
                EXPECT_EQ(cells[i * kOffsets + j],
                          band.isVisible(q, k, place.seqQ, place.seqKv))
                    << describe(band, place, narrow) << " cell (" << q
                    << ", " << k << ")" << (withSeqKv ? "" : " no Skv");
              }
          }
  EXPECT_GT(checked, 100000);
}

} // namespace
