//===- MmaTiles.cpp - mma.sync products S = Q K^T and O += P V ------------===//
//
// Every product is a sequence of m16n8k16 mma.sync with f32 accumulation
// (createMmaSyncM16N8K16, shared with the backward kernels).
// B fragments are loaded once per key (or value) block and reused by every
// row tile of the warp; Q fragments, where they are not resident, once per
// k16 block and key tile and reused by every key block.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"
#include "SdpaDialect/Conversion/MmaSync.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

Value ForwardKernelBuilder::mma(Value a, Value bFrag, Value c) {
  return createMmaSyncM16N8K16(b, a, bFrag, c, spec.isBF16());
}

Scores ForwardKernelBuilder::computeScores(const KeyBlocks &keys) {
  int64_t rowTiles = spec.rowTilesPerWarp();
  int64_t colBlocks = spec.tiles.kv / sm80::kMmaN;
  int64_t kBlocks = spec.mmaHeadDim / sm80::kMmaK;
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  Value zero = arith::ConstantOp::create(
      b, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));

  // The Q A-fragments of k16 block kk: resident in registers, or loaded
  // from shared memory for this key tile (ForwardKernelSpec::
  // queryFragmentsResident).
  auto queryFragments = [&](int64_t kk) {
    SmallVector<Value> frags;
    for (int64_t mt = 0; mt < rowTiles; ++mt)
      frags.push_back(spec.queryFragmentsResident
                          ? qFrags[mt * kBlocks + kk]
                          : loadQueryFragment(mt, kk));
    return frags;
  };
  // accs[mt * colBlocks + j]: rows of row tile mt against key block j. The
  // reduction over head_dim is the outer loop, so that a loaded Q fragment
  // serves every key block and a loaded K fragment every row tile.
  SmallVector<Value> accs(rowTiles * colBlocks, zero);
  for (int64_t kk2 = 0; kk2 < kBlocks / 2; ++kk2) {
    SmallVector<Value> a0 = queryFragments(2 * kk2);
    SmallVector<Value> a1 = queryFragments(2 * kk2 + 1);
    for (int64_t j = 0; j < colBlocks; ++j) {
      auto [b0, b1] = loadKeyFragmentPair(keys, j, kk2);
      for (int64_t mt = 0; mt < rowTiles; ++mt) {
        Value &acc = accs[mt * colBlocks + j];
        acc = mma(a0[mt], b0, acc);
        acc = mma(a1[mt], b1, acc);
      }
    }
  }
  // An odd number of k16 blocks (head_dim an odd multiple of 16: 80, 112,
  // ...) ends with one block of its own.
  if (kBlocks % 2 != 0) {
    SmallVector<Value> a = queryFragments(kBlocks - 1);
    for (int64_t j = 0; j < colBlocks; ++j) {
      Value bLast = loadKeyFragment(keys, j, kBlocks - 1);
      for (int64_t mt = 0; mt < rowTiles; ++mt) {
        Value &acc = accs[mt * colBlocks + j];
        acc = mma(a[mt], bLast, acc);
      }
    }
  }

  Scores scores(rowTiles * 2 * colBlocks * 2);
  for (int64_t mt = 0; mt < rowTiles; ++mt)
    for (int64_t j = 0; j < colBlocks; ++j)
      for (int64_t half = 0; half < 2; ++half)
        for (int64_t e = 0; e < 2; ++e)
          scores[scoreIndex(mt, half, j, e)] = vector::ExtractOp::create(
              b, accs[mt * colBlocks + j], ArrayRef<int64_t>{half, e});
  return scores;
}

void ForwardKernelBuilder::accumulateValues(ArrayRef<Value> pFrags,
                                            const KeyBlocks &keys,
                                            SoftmaxState &state) {
  int64_t rowTiles = spec.rowTilesPerWarp();
  int64_t keyBlocks = spec.tiles.kv / sm80::kMmaK;
  int64_t dimBlocks = spec.mmaHeadDim / sm80::kMmaN;
  for (int64_t kc = 0; kc < keyBlocks; ++kc) {
    for (int64_t dn2 = 0; dn2 < dimBlocks / 2; ++dn2) {
      auto [b0, b1] = loadValueFragmentPair(keys, kc, dn2);
      for (int64_t mt = 0; mt < rowTiles; ++mt) {
        Value p = pFrags[mt * keyBlocks + kc];
        Value &acc0 = state.acc[mt * dimBlocks + 2 * dn2];
        Value &acc1 = state.acc[mt * dimBlocks + 2 * dn2 + 1];
        acc0 = mma(p, b0, acc0);
        acc1 = mma(p, b1, acc1);
      }
    }
  }
}
