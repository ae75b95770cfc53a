//===- SharedTiles.cpp - Shared-memory tiles of the SM80 kernels ----------===//
//
// Views of dynamic shared memory and cp.async tile copies
// (nvgpu.device_async_copy with a source size: 16 bytes, or 0 to zero-fill
// rows past the sequence and the padding columns of a head dim),
// one commit group per tile (nvgpu.device_async_create_group), waited on with
// nvgpu.device_async_wait.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SharedTiles.h"
#include "SdpaDialect/Conversion/Sm80.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <optional>

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
  assert(copy.globalColumns <= copy.columns &&
         copy.globalColumns % sm80::kAsyncCopyElems == 0 &&
         "zero padding must be whole chunks past the global columns");
  int64_t chunksPerRow = copy.columns / sm80::kAsyncCopyElems;
  int64_t globalChunksPerRow = copy.globalColumns / sm80::kAsyncCopyElems;
  bool padded = globalChunksPerRow != chunksPerRow;
  // A padded row is walked at a power-of-two pitch of chunks, so that a
  // thread's column chunk is the same in every round (the pitch divides the
  // threads) and its tests are one predicate each: a thread whose chunk
  // lies past the row issues no copy (a repeated copy would be a
  // write-write race to compute-sanitizer). At the row's own pitch (20 at
  // d = 152) each round had a column and a test of its own, and ptxas kept
  // them all live: the backward's main kernel spilled.
  int64_t pitch = padded ? int64_t(llvm::PowerOf2Ceil(chunksPerRow))
                         : chunksPerRow;
  int64_t chunks = copy.tileRows * pitch;
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
    Value perRow = arith.idx(pitch);
    Value row = arith.divu(chunk, perRow);
    Value chunkElems = arith.idx(sm80::kAsyncCopyElems);
    Value colChunk = arith.remu(chunk, perRow);
    // Past the row: no copy (its token joins no group; the commit groups
    // every copy the thread issued).
    std::optional<OpBuilder::InsertionGuard> insideRow;
    if (pitch != chunksPerRow) {
      Value inRow = arith.cmp(arith::CmpIPredicate::ult, colChunk,
                              arith.idx(chunksPerRow));
      auto ifOp = scf::IfOp::create(b, inRow, /*withElseRegion=*/false);
      insideRow.emplace(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
    }
    Value col = arith.mul(colChunk, chunkElems);
    Value globalRow = arith.add(copy.row0, row);
    Value valid = arith.cmp(arith::CmpIPredicate::slt, globalRow, copy.limit);
    if (copy.enabled)
      valid = arith::AndIOp::create(b, valid, copy.enabled);
    // The padding columns of a head dim narrower than the mma width.
    if (padded)
      valid = arith::AndIOp::create(
          b, valid,
          arith.cmp(arith::CmpIPredicate::ult, colChunk,
                    arith.idx(globalChunksPerRow)));
    // A zero-filled chunk still names a valid address: row 0 of the slice.
    Value zero = arith.idx(0);
    Value srcRow = arith.select(valid, globalRow, zero);
    Value srcElems = arith.select(valid, chunkElems, zero);
    Value rowStart = arith.mul(srcRow, copy.strideS);
    // A padding chunk names column 0: its own columns may lie past the
    // tensor's last element.
    Value srcCol = padded ? arith.select(valid, col, zero) : col;
    Value inSlice = arith.add(rowStart, srcCol);
    Value src = arith.add(copy.base, inSlice);
    if (copy.guardEmptySlice)
      src = arith.select(valid, src, zero);
    SmallVector<Value> dst(copy.smemLead);
    dst.push_back(row);
    dst.push_back(col);
    Value token = nvgpu::DeviceAsyncCopyOp::create(
        b, tokenType, copy.smem, dst, copy.global, ValueRange{src},
        b.getIndexAttr(sm80::kAsyncCopyElems), srcElems, bypassL1);
    if (!insideRow)
      tokens.push_back(token);
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokenType, tokens);
}

void mlir::sdpa::waitAsyncGroups(KernelArith &arith, Value group,
                                 int64_t pending) {
  ImplicitLocOpBuilder &b = arith.b;
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(pending));
}
