//===- RowDelta.cpp - Delta = rowsum(dO * O), a row over neighbouring lanes ===//
//
// The layout both kernels that form delta use (bwd_preprocess, and bwd_dq
// where it forms delta itself): a row's 16-byte chunks spread over
// deltaLanes() neighbouring lanes (a power of two, at most a warp), chunk c
// in lane c mod lanes, so that a warp's loads cover whole rows, consecutive
// in memory where the rows are; each lane sums its chunks' products in f32
// and the lanes' sums meet in an xor butterfly (laneGroupSum). One thread
// per row, its 16-byte loads 128 bytes apart at d 64, took 58 us of the
// gpt-oss backward's 514 at 16k (H100, ncu), stalled on memory.
//
//===----------------------------------------------------------------------===//

#include "QueryTileKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

int64_t QueryTileKernelBuilder::deltaChunks() const {
  return spec.headDim / sm80::kAsyncCopyElems;
}

int64_t QueryTileKernelBuilder::deltaLanes() const {
  return std::min<int64_t>(llvm::PowerOf2Ceil(deltaChunks()),
                           sm80::kWarpSize);
}

Value QueryTileKernelBuilder::loadChunk(Value buffer, ValueRange at) {
  // 16-byte loads: the runtime admits only 16-byte aligned data pointers
  // and row strides of o and do (docs/Runtime.md), and shared rows are
  // padded to 16 bytes; without the alignment LLVM splits each into 8
  // scalar loads.
  auto halfVec = VectorType::get({sm80::kAsyncCopyElems}, spec.elementType);
  return vector::LoadOp::create(b, halfVec, buffer, at,
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(sm80::kAsyncCopyBytes));
}

Value QueryTileKernelBuilder::chunkProductSum(Value o, Value dO) {
  auto floatVec = VectorType::get({sm80::kAsyncCopyElems}, b.getF32Type());
  Value dOWide = arith::ExtFOp::create(b, floatVec, dO);
  Value oWide = arith::ExtFOp::create(b, floatVec, o);
  Value prod = arith::MulFOp::create(b, oWide, dOWide);
  return vector::ReductionOp::create(b, vector::CombiningKind::ADD, prod);
}
