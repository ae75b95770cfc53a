//===- LdMatrixLaneMapTest.cpp - The ldmatrix lane maps, lane by lane -----===//
//
// Folds the lane map of every shape the kernels use (LdMatrix.h) for each of
// the 32 lanes and compares it with the addressing ldmatrix defines (PTX
// ISA: lane 8m + r gives row r of matrix m; the lanes past the last matrix
// are ignored, here they must repeat a valid address) and the block layout
// the m16n8k16 operands need (matrix m at block (m % rowGroups,
// m / rowGroups)). A map that swaps blocks, drops the modulo of an x2 or
// addresses past the block fails.
//
//===----------------------------------------------------------------------===//

#include "FoldConstants.h"
#include "SdpaDialect/Conversion/LdMatrix.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// The folded (row, col) of `lane`'s address under `shape` (col 0 where
/// the map has none).
std::pair<int64_t, int64_t> foldLaneOffset(MLIRContext &ctx,
                                           LdMatrixShape shape, int64_t lane) {
  SmallVector<APInt> folded =
      unittest::foldToConstants(ctx, [&](ImplicitLocOpBuilder &b) {
        Value laneValue = arith::ConstantIndexOp::create(b, lane);
        LdMatrixLaneOffset offset = emitLdMatrixLaneOffset(b, shape, laneValue);
        Value col =
            offset.col ? offset.col : arith::ConstantIndexOp::create(b, 0);
        return SmallVector<Value>{offset.row, col};
      });
  return {folded[0].getSExtValue(), folded[1].getSExtValue()};
}

/// What ldmatrix and the operand layout ask of `lane`: row r of matrix m,
/// matrix m at block (m % rowGroups, m / rowGroups); an ignored lane takes
/// the address of the lane 8 numTiles below it.
std::pair<int64_t, int64_t> expectedLaneOffset(LdMatrixShape shape,
                                               int64_t lane) {
  int64_t used = 8 * shape.numTiles;
  int64_t l = lane % used;
  int64_t m = l / 8, r = l % 8;
  return {8 * (m % shape.rowGroups) + r, 8 * (m / shape.rowGroups)};
}

TEST(LdMatrixLaneMap, EveryShapeAddressesItsBlocksLaneByLane) {
  MLIRContext ctx;
  const LdMatrixShape shapes[] = {
      LdMatrixShape::a(),           LdMatrixShape::b(),
      LdMatrixShape::bPair(),       LdMatrixShape::bPairAlongN(),
      LdMatrixShape::bTransposed(), LdMatrixShape::bTransposedPair()};
  for (LdMatrixShape shape : shapes) {
    // The block is 8 rowGroups x 8 numTiles / rowGroups elements.
    int64_t rows = 8 * shape.rowGroups;
    int64_t cols = 8 * shape.numTiles / shape.rowGroups;
    for (int64_t lane = 0; lane < 32; ++lane) {
      auto [row, col] = foldLaneOffset(ctx, shape, lane);
      EXPECT_EQ(std::make_pair(row, col), expectedLaneOffset(shape, lane))
          << "x" << shape.numTiles << " rowGroups " << shape.rowGroups
          << " lane " << lane;
      EXPECT_LT(row, rows);
      EXPECT_LT(col, cols);
    }
  }
}

/// The m16n8k16 A fragment, spelled out: lanes 0-15 rows 0-15 of the left
/// 8 columns, lanes 16-31 the right ones.
TEST(LdMatrixLaneMap, AFragmentIsRowsThenColumnBlocks) {
  MLIRContext ctx;
  EXPECT_EQ(foldLaneOffset(ctx, LdMatrixShape::a(), 9),
            std::make_pair(int64_t(9), int64_t(0)));
  EXPECT_EQ(foldLaneOffset(ctx, LdMatrixShape::a(), 17),
            std::make_pair(int64_t(1), int64_t(8)));
  // Two B fragments of one 8-row block: four 8-column blocks side by side.
  EXPECT_EQ(foldLaneOffset(ctx, LdMatrixShape::bPair(), 27),
            std::make_pair(int64_t(3), int64_t(24)));
}

} // namespace
