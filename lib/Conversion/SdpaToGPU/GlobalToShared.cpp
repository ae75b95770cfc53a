//===- GlobalToShared.cpp - cp.async copies of Q, K and V tiles -----------===//
//
// Tiles move from global to shared memory in 16-byte cp.async copies
// (nvgpu.device_async_copy, L1 bypassed), one commit group per tile. Rows past
// the sequence, and whole tiles past the visit range, are zero-filled through
// the copy's source size, so a partial tile never feeds garbage (or NaN) into
// an mma: the masked scores of missing keys are -inf and their values 0.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

Value ForwardKernelBuilder::copyTileAsync(Value global, Value base,
                                          Value strideS, Value row0,
                                          Value limit, Value enabled,
                                          Value smem, ValueRange smemLead,
                                          int64_t tileRows) {
  int64_t chunksPerRow = spec.headDim / sm80::kAsyncCopyElems;
  int64_t chunks = tileRows * chunksPerRow;
  assert(chunks % spec.threads() == 0 && "tile not divisible among threads");
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  for (int64_t i = 0; i < chunks / spec.threads(); ++i) {
    // Chunk c = i * threads + tid: consecutive threads fill one row.
    Value chunk = add(idx(i * spec.threads()), tid);
    Value row = arith::DivUIOp::create(b, chunk, idx(chunksPerRow));
    Value col = mul(arith::RemUIOp::create(b, chunk, idx(chunksPerRow)),
                    idx(sm80::kAsyncCopyElems));
    Value globalRow = add(row0, row);
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                        globalRow, limit);
    if (enabled)
      valid = arith::AndIOp::create(b, valid, enabled);
    // A zero-filled chunk still names a valid address: row 0 of the slice.
    Value srcRow = arith::SelectOp::create(b, valid, globalRow, idx(0));
    Value srcElems = arith::SelectOp::create(
        b, valid, idx(sm80::kAsyncCopyElems), idx(0));
    Value src = add(base, add(mul(srcRow, strideS), col));
    // A packed sequence's slice may start at the end of the tensor (an empty
    // sequence last): there a zero-filled chunk names element 0 instead.
    if (spec.packedSequences)
      src = arith::SelectOp::create(b, valid, src, idx(0));
    SmallVector<Value> dstIndices(smemLead);
    dstIndices.push_back(row);
    dstIndices.push_back(col);
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, tokenType, smem, dstIndices, global, ValueRange{src},
        b.getIndexAttr(sm80::kAsyncCopyElems), srcElems, b.getUnitAttr()));
  }
  Value group = nvgpu::DeviceAsyncCreateGroupOp::create(b, tokenType, tokens);
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

void ForwardKernelBuilder::waitGroups(int64_t pending) {
  // The wait counts groups; the token only names one of them.
  nvgpu::DeviceAsyncWaitOp::create(b, asyncGroup,
                                   b.getI32IntegerAttr(pending));
}
