//===- Fragments.cpp - ldmatrix loads of the mma fragments ----------------===//
//
// m16n8k16 fragments come from shared memory through nvgpu.ldmatrix x4:
//
//   Q (A operand, row major):    lane l addresses row l % 16, column block
//                                l / 16 of a 16x16 block;
//   K (B operand, "col" = K rows): lane l addresses key l % 8, column block
//                                l / 8: two k16 blocks of one 8-key block;
//   V (B operand, transposed):   lane l addresses key l % 16, column block
//                                l / 16 of the head dim: one 16-key block
//                                of two 8-column blocks.
//
// Each x4 result vector<4x2> splits into two vector<2x2> B fragments.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

/// Splits an x4 fragment into its two halves vector<2x2>, row by row (the
/// GPU lowering handles n-D vectors only as arrays of rows).
static std::pair<Value, Value> splitPair(ImplicitLocOpBuilder &b,
                                         Value frag) {
  auto fragType = cast<VectorType>(frag.getType());
  auto halfType = VectorType::get({2, 2}, fragType.getElementType());
  auto half = [&](int64_t offset) -> Value {
    Value result = arith::ConstantOp::create(
        b, halfType,
        DenseElementsAttr::get(halfType,
                               b.getZeroAttr(fragType.getElementType())));
    for (int64_t i = 0; i < 2; ++i) {
      Value row = vector::ExtractOp::create(b, frag,
                                            ArrayRef<int64_t>{offset + i});
      result = vector::InsertOp::create(b, row, result, ArrayRef<int64_t>{i});
    }
    return result;
  };
  return {half(0), half(2)};
}

SmallVector<Value> ForwardKernelBuilder::loadQueryFragments() {
  auto type = VectorType::get({4, 2}, spec.elementType);
  Value row = arith::RemUIOp::create(b, lane, idx(16));
  Value cols = idx(sm80::kLdMatrixCols);
  Value block = arith::DivUIOp::create(b, lane, idx(16));
  Value colBlock = mul(block, cols);
  SmallVector<Value> frags;
  for (int64_t mt = 0; mt < spec.rowTilesPerWarp(); ++mt) {
    Value r = add(warpRow0, add(idx(mt * sm80::kMmaM), row));
    for (int64_t kk = 0; kk < spec.headDim / sm80::kMmaK; ++kk) {
      Value c = add(idx(kk * sm80::kMmaK), colBlock);
      frags.push_back(nvgpu::LdMatrixOp::create(
          b, type, qSmem, ValueRange{r, c}, b.getBoolAttr(false),
          b.getI32IntegerAttr(4)));
    }
  }
  return frags;
}

std::pair<Value, Value>
ForwardKernelBuilder::loadKeyFragmentPair(Value stage, int64_t j,
                                          int64_t kk2) {
  auto type = VectorType::get({4, 2}, spec.elementType);
  Value key = arith::RemUIOp::create(b, lane, idx(sm80::kLdMatrixRows));
  Value row = add(idx(j * sm80::kMmaN), key);
  Value cols = idx(sm80::kLdMatrixCols);
  Value block = arith::DivUIOp::create(b, lane, idx(8));
  Value blockCol = mul(block, cols);
  Value col = add(idx(kk2 * 2 * sm80::kMmaK), blockCol);
  Value frag = nvgpu::LdMatrixOp::create(b, type, kSmem,
                                         ValueRange{stage, row, col},
                                         b.getBoolAttr(false),
                                         b.getI32IntegerAttr(4));
  return splitPair(b, frag);
}

std::pair<Value, Value>
ForwardKernelBuilder::loadValueFragmentPair(Value stage, int64_t kc,
                                            int64_t dn2) {
  auto type = VectorType::get({4, 2}, spec.elementType);
  Value key = arith::RemUIOp::create(b, lane, idx(16));
  Value row = add(idx(kc * sm80::kMmaK), key);
  Value cols = idx(sm80::kLdMatrixCols);
  Value block = arith::DivUIOp::create(b, lane, idx(16));
  Value blockCol = mul(block, cols);
  Value col = add(idx(dn2 * 2 * sm80::kMmaN), blockCol);
  Value frag = nvgpu::LdMatrixOp::create(b, type, vSmem,
                                         ValueRange{stage, row, col},
                                         b.getBoolAttr(true),
                                         b.getI32IntegerAttr(4));
  return splitPair(b, frag);
}
