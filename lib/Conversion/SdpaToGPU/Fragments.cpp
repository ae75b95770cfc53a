//===- Fragments.cpp - ldmatrix loads of the mma fragments ----------------===//
//
// m16n8k16 fragments come from shared memory through nvgpu.ldmatrix x4,
// with the lane maps of SdpaDialect/Conversion/LdMatrix.h:
//
//   Q (A operand, row major):    one 16x16 block (LdMatrixShape::a);
//   K (B operand, "col" = K rows): two k16 blocks of one 8-key block
//                                (LdMatrixShape::bPair), or one (b, x2)
//                                for the last k16 block of an odd count
//                                (head_dim 80, 112, ...);
//   V (B operand, transposed):   one 16-key block of two 8-column blocks
//                                of the head dim (bTransposedPair).
//
// Each x4 result vector<4x2> splits into two vector<2x2> B fragments.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"
#include "SdpaDialect/Conversion/LdMatrix.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

Value ForwardKernelBuilder::loadQueryFragment(int64_t mt, int64_t kk) {
  LdMatrixShape shape = LdMatrixShape::a();
  LdMatrixLaneOffset offset = emitLdMatrixLaneOffset(b, shape, lane);
  Value r = add(warpRow0, idx(mt * sm80::kMmaM));
  Value c = idx(kk * sm80::kMmaK);
  return createLdMatrix(b, shape, qSmem, {}, r, c, offset);
}

SmallVector<Value> ForwardKernelBuilder::loadQueryFragments() {
  SmallVector<Value> frags;
  for (int64_t mt = 0; mt < spec.rowTilesPerWarp(); ++mt)
    for (int64_t kk = 0; kk < spec.mmaHeadDim / sm80::kMmaK; ++kk)
      frags.push_back(loadQueryFragment(mt, kk));
  return frags;
}

KeyBlocks ForwardKernelBuilder::tileBlocks(Value stage) {
  KeyBlocks keys;
  for (int64_t kc = 0; kc < spec.tiles.kv / sm80::kMmaK; ++kc) {
    keys.stage.push_back(stage);
    keys.row.push_back(idx(kc * sm80::kMmaK));
  }
  return keys;
}

/// The stage and first row of 8-key block `j` of `keys`.
std::pair<Value, Value> ForwardKernelBuilder::keyBlockRow(const KeyBlocks &keys,
                                                          int64_t j) {
  int64_t kc = j * sm80::kMmaN / sm80::kMmaK;
  int64_t inBlock = j * sm80::kMmaN % sm80::kMmaK;
  Value row = keys.row[kc];
  if (inBlock)
    row = add(row, idx(inBlock));
  return {keys.stage[kc], row};
}

std::pair<Value, Value>
ForwardKernelBuilder::loadKeyFragmentPair(const KeyBlocks &keys, int64_t j,
                                          int64_t kk2) {
  LdMatrixShape shape = LdMatrixShape::bPair();
  LdMatrixLaneOffset offset = emitLdMatrixLaneOffset(b, shape, lane);
  auto [stage, row] = keyBlockRow(keys, j);
  Value col = idx(kk2 * 2 * sm80::kMmaK);
  return splitLdMatrixPair(
      b, shape, createLdMatrix(b, shape, kSmem, stage, row, col, offset));
}

Value ForwardKernelBuilder::loadKeyFragment(const KeyBlocks &keys, int64_t j,
                                            int64_t kk) {
  LdMatrixShape shape = LdMatrixShape::b();
  LdMatrixLaneOffset offset = emitLdMatrixLaneOffset(b, shape, lane);
  auto [stage, row] = keyBlockRow(keys, j);
  Value col = idx(kk * sm80::kMmaK);
  return createLdMatrix(b, shape, kSmem, stage, row, col, offset);
}

std::pair<Value, Value>
ForwardKernelBuilder::loadValueFragmentPair(const KeyBlocks &keys, int64_t kc,
                                            int64_t dn2) {
  LdMatrixShape shape = LdMatrixShape::bTransposedPair();
  LdMatrixLaneOffset offset = emitLdMatrixLaneOffset(b, shape, lane);
  Value col = idx(dn2 * 2 * sm80::kMmaN);
  return splitLdMatrixPair(b, shape,
                           createLdMatrix(b, shape, vSmem, keys.stage[kc],
                                          keys.row[kc], col, offset));
}
