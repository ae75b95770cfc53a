//===- SharedTiles.cpp - Shared-memory tiles of the SM80 kernels ----------===//
//
// Views of dynamic shared memory and cp.async tile copies
// (nvgpu.device_async_copy with a source size: 16 bytes, or 0 to zero-fill),
// one commit group per tile (nvgpu.device_async_create_group), waited on with
// nvgpu.device_async_wait.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SharedTiles.h"
#include "SdpaDialect/Conversion/Sm80.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::sdpa;

/// The workgroup (shared) memory space.
static gpu::AddressSpaceAttr getWorkgroupSpace(MLIRContext *ctx) {
  return gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
}

Value mlir::sdpa::createDynamicSharedMemory(KernelArith &arith) {
  ImplicitLocOpBuilder &b = arith.b;
  return gpu::DynamicSharedMemoryOp::create(
      b, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                         MemRefLayoutAttrInterface{},
                         getWorkgroupSpace(b.getContext())));
}

Value mlir::sdpa::createSharedView(KernelArith &arith, Value dynShared,
                                   int64_t offset, ArrayRef<int64_t> shape,
                                   Type elem) {
  assert(offset % sm80::kSmemAlignBytes == 0 && "misaligned shared buffer");
  ImplicitLocOpBuilder &b = arith.b;
  auto workgroup = getWorkgroupSpace(b.getContext());
  auto type =
      MemRefType::get(shape, elem, MemRefLayoutAttrInterface{}, workgroup);
  Value at = arith.idx(offset);
  return memref::ViewOp::create(b, type, dynShared, at, ValueRange{});
}

Value mlir::sdpa::copyTileAsync(KernelArith &arith, const TileCopy &copy) {
  ImplicitLocOpBuilder &b = arith.b;
  int64_t chunksPerRow = copy.headDim / sm80::kAsyncCopyElems;
  int64_t chunks = copy.tileRows * chunksPerRow;
  // When the threads do not divide the chunks, the last round's surplus
  // threads copy the tile's last chunk again: the same bytes to the same
  // place, so the tile is the same and no copy needs a branch around it.
  bool ragged = chunks % copy.threads != 0;
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  UnitAttr bypassL1 =
      copy.cache == CopyCache::L2Only ? b.getUnitAttr() : UnitAttr();
  SmallVector<Value> tokens;
  for (int64_t i = 0; i < llvm::divideCeil(chunks, copy.threads); ++i) {
    // One op per statement: the emission order is the statement order.
    Value first = arith.idx(i * copy.threads);
    Value chunk = arith.add(copy.tid, first);
    if (ragged && (i + 1) * copy.threads > chunks) {
      Value last = arith.idx(chunks - 1);
      chunk = arith::MinUIOp::create(b, chunk, last);
    }
    Value perRow = arith.idx(chunksPerRow);
    Value row = arith.divu(chunk, perRow);
    Value chunkElems = arith.idx(sm80::kAsyncCopyElems);
    Value colChunk = arith.remu(chunk, perRow);
    Value col = arith.mul(colChunk, chunkElems);
    Value globalRow = arith.add(copy.row0, row);
    Value valid = arith.cmp(arith::CmpIPredicate::slt, globalRow, copy.limit);
    if (copy.enabled)
      valid = arith::AndIOp::create(b, valid, copy.enabled);
    // A zero-filled chunk still names a valid address: row 0 of the slice.
    Value zero = arith.idx(0);
    Value srcRow = arith.select(valid, globalRow, zero);
    Value srcElems = arith.select(valid, chunkElems, zero);
    Value rowStart = arith.mul(srcRow, copy.strideS);
    Value inSlice = arith.add(rowStart, col);
    Value src = arith.add(copy.base, inSlice);
    if (copy.guardEmptySlice)
      src = arith.select(valid, src, zero);
    SmallVector<Value> dst(copy.smemLead);
    dst.push_back(row);
    dst.push_back(col);
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, tokenType, copy.smem, dst, copy.global, ValueRange{src},
        b.getIndexAttr(sm80::kAsyncCopyElems), srcElems, bypassL1));
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokenType, tokens);
}

void mlir::sdpa::waitAsyncGroups(KernelArith &arith, Value group,
                                 int64_t pending) {
  ImplicitLocOpBuilder &b = arith.b;
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(pending));
}
