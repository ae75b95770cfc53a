//===- GlobalToShared.cpp - cp.async copies of Q, K and V tiles -----------===//
//
// Tiles move from global to shared memory in 16-byte cp.async copies
// (SharedTiles.h; through L1 where ForwardKernelSpec::copiesThroughL1), one
// commit group per tile. Rows past the sequence, and whole tiles past the
// visit range, are zero-filled through the copy's source size, so a partial
// tile never feeds garbage (or NaN) into an mma: the masked scores of
// missing keys are -inf and their values 0.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"
#include "SdpaDialect/Conversion/SharedTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

Value ForwardKernelBuilder::copyTileAsync(Value global, Value base,
                                          Value strideS, Value row0,
                                          Value limit, Value enabled,
                                          Value smem, ValueRange smemLead,
                                          int64_t tileRows) {
  // A packed sequence's slice may start at the end of the tensor (an empty
  // sequence last).
  TileCopy copy{global,
                base,
                strideS,
                row0,
                limit,
                enabled,
                smem,
                SmallVector<Value>(smemLead.begin(), smemLead.end()),
                tileRows,
                spec.mmaHeadDim,
                spec.headDim,
                spec.threads(),
                tid,
                spec.copiesThroughL1 ? CopyCache::L1AndL2 : CopyCache::L2Only,
                /*guardEmptySlice=*/spec.packedSequences,
                /*affineSource=*/spec.leanSteps};
  Value group = sdpa::copyTileAsync(*this, copy);
  if (!asyncGroup)
    asyncGroup = group;
  return group;
}

Value ForwardKernelBuilder::copyKvTileAsync(Value global, Value base,
                                            Value strideS, Value u, Value smem,
                                            Value stage) {
  Value enabled =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, u, kvEnd);
  return copyTileAsync(global, base, strideS, mul(u, idx(spec.tiles.kv)),
                       seqKv, enabled, smem, ValueRange{stage},
                       spec.tiles.kv);
}

void ForwardKernelBuilder::copyKeyValueTileAsync(Value u, Value stage) {
  copyKvTileAsync(k, kBase, kStrideS, u, kSmem, stage);
  copyKvTileAsync(v, vBase, vStrideS, u, vSmem, stage);
}

void ForwardKernelBuilder::waitGroups(int64_t pending) {
  waitAsyncGroups(*this, asyncGroup, pending);
}
