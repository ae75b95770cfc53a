//===- LdMatrix.h - The ldmatrix lane maps of the SM80 kernels --*- C++ -*-===//
//
// The one place where the kernels' ldmatrix addresses are formed. An
// ldmatrix of n = 2 or 4 matrices (8 x 8, 16-bit elements) takes one row
// address from each lane 8m + r: row r of matrix m. The kernels lay the n
// matrices out as a block of `rowGroups` (1 or 2) x n / rowGroups matrices,
// column-block-major, so that matrix m is block (m % rowGroups,
// m / rowGroups) and lane l addresses
//
//   row = l % (8 rowGroups)
//   col = 8 ((l / (8 rowGroups)) % (n / rowGroups))
//
// (the modulo dropped where it is the identity: n = 4 matrices use all 32
// lanes; col = 0 where the block is one matrix wide). Lanes past the last
// matrix (l >= 16 of an x2) repeat the first lanes' addresses, which
// ldmatrix ignores. The m16n8k16 operands in this layout:
//
//   A (16 x 16, x4, rowGroups 2):           row l % 16, col 8 (l / 16)
//   B (8 n x 16 k, x2, rowGroups 1):        row l % 8,  col 8 ((l / 8) % 2)
//   two B (8 n x 32 k, x4, rowGroups 1):    row l % 8,  col 8 (l / 8)
//   two B (16 n x 16 k, x4, rowGroups 2):   row l % 16, col 8 (l / 16)
//   B^T (16 k x 8 n, x2 .trans, rowGroups 2): row l % 16, col 0
//   two B^T (16 k x 16 n, x4 .trans, rowGroups 2): row l % 16, col 8 (l / 16)
//
// An x4 that loads two B fragments splits into them (splitLdMatrixPair):
// matrices (0, 1) and (2, 3), except two B of 16 n whose blocks of 8 n are
// matrices (0, 2) and (1, 3) (the A operand's layout, read as B).
//
// Emission order is explicit, one op per statement: a kernel that hoists
// the lane map out of its loops emits it once (emitLdMatrixLaneOffset: the
// row's ops, then the column's) and addresses each load with it; one that
// forms each load on its own emits the row's map and sum, then the column's
// (createLdMatrix with the lane).
//
// Upstream NVGPU's getLaneIdToLdMatrixMatrixCoord (MMAUtils.h) forms such a
// map as an AffineMap, from the LdMatrixParams that vector-to-gpu
// derives from a vector.contract; the kernels form no contract, and its
// affine.apply is other IR than the kernels' PTX was measured with.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_LDMATRIX_H
#define SDPADIALECT_CONVERSION_LDMATRIX_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::sdpa {

/// The matrices of one ldmatrix and their layout (see above).
struct LdMatrixShape {
  int64_t numTiles;  // 2 or 4
  int64_t rowGroups; // 1 or 2
  bool transpose;

  /// The m16n8k16 operands.
  static LdMatrixShape a() { return {4, 2, false}; }
  static LdMatrixShape b() { return {2, 1, false}; }
  static LdMatrixShape bPair() { return {4, 1, false}; }
  static LdMatrixShape bPairAlongN() { return {4, 2, false}; }
  static LdMatrixShape bTransposed() { return {2, 2, true}; }
  static LdMatrixShape bTransposedPair() { return {4, 2, true}; }
};

/// The offset of lane `lane`'s row address within the block (`index`
/// values); `col` is null where the block is one matrix wide.
struct LdMatrixLaneOffset {
  Value row, col;
};

/// Emits the lane map of `shape` for `lane`.
LdMatrixLaneOffset emitLdMatrixLaneOffset(ImplicitLocOpBuilder &b,
                                          LdMatrixShape shape, Value lane);

/// Emits the ldmatrix of `shape` from `smem` at [leading..., row0 + row,
/// col0 + col] for the lane offset `offset`: a vector<numTiles x 2 x elem>.
Value createLdMatrix(ImplicitLocOpBuilder &b, LdMatrixShape shape, Value smem,
                     ValueRange leading, Value row0, Value col0,
                     const LdMatrixLaneOffset &offset);

/// Emits the lane map of `shape` for `lane` and the ldmatrix it addresses:
/// row0 + row, then col0 + col.
Value createLdMatrix(ImplicitLocOpBuilder &b, LdMatrixShape shape, Value smem,
                     ValueRange leading, Value row0, Value col0, Value lane);

/// The two B fragments (vector<2x2> each) of an x4 of shape bPair,
/// bPairAlongN or bTransposedPair: the first k or n block's, then the
/// second's.
std::pair<Value, Value> splitLdMatrixPair(ImplicitLocOpBuilder &b,
                                          LdMatrixShape shape, Value frag);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_LDMATRIX_H
