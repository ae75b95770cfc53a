//===- LdMatrix.cpp - The ldmatrix lane maps of the SM80 kernels ----------===//
//
// The lane map of LdMatrix.h and the nvgpu.ldmatrix it addresses.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/LdMatrix.h"
#include "SdpaDialect/Conversion/Sm80.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;

/// The row of the lane map: lane % (8 rowGroups).
static Value emitLaneRow(ImplicitLocOpBuilder &b, LdMatrixShape shape,
                         Value lane) {
  assert((shape.numTiles == 2 || shape.numTiles == 4) &&
         (shape.rowGroups == 1 || shape.rowGroups == 2) &&
         "an ldmatrix of 2 or 4 matrices in 1 or 2 row groups");
  Value rows =
      arith::ConstantIndexOp::create(b, sm80::kLdMatrixRows * shape.rowGroups);
  return arith::RemUIOp::create(b, lane, rows);
}

/// The column of the lane map, 8 ((lane / (8 rowGroups)) % colBlocks), or
/// null where the block is one matrix wide.
static Value emitLaneCol(ImplicitLocOpBuilder &b, LdMatrixShape shape,
                         Value lane) {
  int64_t colBlocks = shape.numTiles / shape.rowGroups;
  if (colBlocks == 1)
    return Value();
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, v);
  };
  Value cols = idx(sm80::kLdMatrixCols);
  Value rows = idx(sm80::kLdMatrixRows * shape.rowGroups);
  Value block = arith::DivUIOp::create(b, lane, rows);
  // All 32 lanes address a matrix when numTiles * 8 = 32.
  if (shape.numTiles * sm80::kLdMatrixRows < sm80::kWarpSize) {
    Value blockCount = idx(colBlocks);
    block = arith::RemUIOp::create(b, block, blockCount);
  }
  return arith::MulIOp::create(b, block, cols);
}

/// The ldmatrix of `shape` at [leading..., row, col].
static Value emitLdMatrixAt(ImplicitLocOpBuilder &b, LdMatrixShape shape,
                            Value smem, ValueRange leading, Value row,
                            Value col) {
  SmallVector<Value> indices(leading);
  indices.push_back(row);
  indices.push_back(col);
  auto elementType = cast<MemRefType>(smem.getType()).getElementType();
  auto type = VectorType::get({shape.numTiles, 2}, elementType);
  return nvgpu::LdMatrixOp::create(b, type, smem, indices, shape.transpose,
                                   shape.numTiles);
}

LdMatrixLaneOffset mlir::sdpa::emitLdMatrixLaneOffset(ImplicitLocOpBuilder &b,
                                                      LdMatrixShape shape,
                                                      Value lane) {
  LdMatrixLaneOffset offset;
  offset.row = emitLaneRow(b, shape, lane);
  offset.col = emitLaneCol(b, shape, lane);
  return offset;
}

Value mlir::sdpa::createLdMatrix(ImplicitLocOpBuilder &b, LdMatrixShape shape,
                                 Value smem, ValueRange leading, Value row0,
                                 Value col0, const LdMatrixLaneOffset &offset) {
  Value row = arith::AddIOp::create(b, row0, offset.row);
  Value col = col0;
  if (offset.col)
    col = arith::AddIOp::create(b, col0, offset.col);
  return emitLdMatrixAt(b, shape, smem, leading, row, col);
}

Value mlir::sdpa::createLdMatrix(ImplicitLocOpBuilder &b, LdMatrixShape shape,
                                 Value smem, ValueRange leading, Value row0,
                                 Value col0, Value lane) {
  Value laneRow = emitLaneRow(b, shape, lane);
  Value row = arith::AddIOp::create(b, row0, laneRow);
  Value col = col0;
  if (Value laneCol = emitLaneCol(b, shape, lane))
    col = arith::AddIOp::create(b, col0, laneCol);
  return emitLdMatrixAt(b, shape, smem, leading, row, col);
}

std::pair<Value, Value> mlir::sdpa::splitLdMatrixPair(ImplicitLocOpBuilder &b,
                                                      LdMatrixShape shape,
                                                      Value frag) {
  assert(shape.numTiles == 4 && "two fragments come from an x4");
  // Blocks of 8 n in two row groups of an untransposed load: (0, 2), (1, 3).
  bool alongN = shape.rowGroups == 2 && !shape.transpose;
  int64_t second = alongN ? 1 : 2, stride = alongN ? 2 : 1;
  auto fragType = cast<VectorType>(frag.getType());
  auto halfType = VectorType::get({2, 2}, fragType.getElementType());
  // Row by row: the GPU lowering handles n-D vectors only as arrays of rows.
  auto half = [&](int64_t first) -> Value {
    Value result = arith::ConstantOp::create(
        b, halfType,
        DenseElementsAttr::get(halfType,
                               b.getZeroAttr(fragType.getElementType())));
    for (int64_t i = 0; i < 2; ++i) {
      Value row = vector::ExtractOp::create(
          b, frag, ArrayRef<int64_t>{first + i * stride});
      result = vector::InsertOp::create(b, row, result, ArrayRef<int64_t>{i});
    }
    return result;
  };
  return {half(0), half(second)};
}
