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

/// The cp.async of one 16-byte chunk: `srcElems` (8 or 0, a zero fill)
/// elements from element `src` of copy.global into (row, col) of the
/// shared tile.
static Value issueChunkCopy(KernelArith &arith, const TileCopy &copy,
                            Value row, Value col, Value src, Value srcElems) {
  ImplicitLocOpBuilder &b = arith.b;
  SmallVector<Value> dst(copy.smemLead);
  dst.push_back(row);
  dst.push_back(col);
  UnitAttr bypassL1 =
      copy.cache == CopyCache::L2Only ? b.getUnitAttr() : UnitAttr();
  return nvgpu::DeviceAsyncCopyOp::create(
      b, nvgpu::DeviceAsyncTokenType::get(b.getContext()), copy.smem, dst,
      copy.global, ValueRange{src}, b.getIndexAttr(sm80::kAsyncCopyElems),
      srcElems, bypassL1);
}

/// The copy of chunk `colChunk` of tile row `row`: 16 bytes from global
/// memory, or a zero fill past `limit`, when disabled or (with
/// `paddingTest`) at or past `globalChunks`.
static Value copyChunkAsync(KernelArith &arith, const TileCopy &copy,
                            Value row, Value colChunk, bool paddingTest,
                            int64_t globalChunks) {
  ImplicitLocOpBuilder &b = arith.b;
  // One op per statement: the emission order is the statement order.
  Value chunkElems = arith.idx(sm80::kAsyncCopyElems);
  Value col = arith.mul(colChunk, chunkElems);
  Value globalRow = arith.add(copy.row0, row);
  Value valid = arith.cmp(arith::CmpIPredicate::slt, globalRow, copy.limit);
  if (copy.enabled)
    valid = arith::AndIOp::create(b, valid, copy.enabled);
  if (paddingTest)
    valid = arith::AndIOp::create(
        b, valid,
        arith.cmp(arith::CmpIPredicate::ult, colChunk,
                  arith.idx(globalChunks)));
  // A zero-filled chunk still names a valid address: row 0 of the slice.
  Value zero = arith.idx(0);
  Value srcRow = arith.select(valid, globalRow, zero);
  Value srcElems = arith.select(valid, chunkElems, zero);
  Value rowStart = arith.mul(srcRow, copy.strideS);
  // A padding chunk names column 0: its own columns may lie past the
  // tensor's last element.
  Value srcCol = paddingTest ? arith.select(valid, col, zero) : col;
  Value inSlice = arith.add(rowStart, srcCol);
  Value src = arith.add(copy.base, inSlice);
  if (copy.guardEmptySlice)
    src = arith.select(valid, src, zero);
  return issueChunkCopy(arith, copy, row, col, src, srcElems);
}

/// Emits `emitCopy` under `index < bound`: a thread of a copy's last, partial
/// round whose chunk or row lies past the tile issues no copy (repeating
/// another thread's chunk, the same bytes to the same place, is a
/// write-write race to compute-sanitizer). Its token joins no group: a
/// commit groups every copy its thread issued.
static void copyIfBelow(KernelArith &arith, Value index, int64_t bound,
                        function_ref<Value()> emitCopy) {
  ImplicitLocOpBuilder &b = arith.b;
  Value below = arith.cmp(arith::CmpIPredicate::ult, index, arith.idx(bound));
  auto ifOp = scf::IfOp::create(b, below, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitCopy();
}

/// The copies of a padded row (copy.globalColumns < copy.columns), in
/// segments: its chunks split into the powers of two of their count (20 =
/// 16 + 4), each segment walked at its own pitch, which divides the threads.
/// A thread's column chunk in a segment is then the same in every round and
/// no thread is idle but in a segment's last, partial round. Walked at the
/// row's own pitch, each round had a column and a padding test of its own,
/// and ptxas kept them all live (the backward's main kernel spilled 48
/// bytes at d = 152); walked at a power-of-two pitch of the whole row,
/// up to half the threads idled in every round (the forward at d = 136 was
/// 13% slower than at d = 144).
static void copyPaddedRowsAsync(KernelArith &arith, const TileCopy &copy,
                                SmallVectorImpl<Value> &tokens) {
  int64_t chunksPerRow = copy.columns / sm80::kAsyncCopyElems;
  int64_t globalChunks = copy.globalColumns / sm80::kAsyncCopyElems;
  int64_t segmentBase = 0;
  for (int64_t bit = llvm::PowerOf2Ceil(chunksPerRow + 1) / 2; bit > 0;
       bit /= 2) {
    if (!(chunksPerRow & bit))
      continue;
    int64_t pitch = bit;
    assert(copy.threads % pitch == 0 && "a segment pitch divides the threads");
    int64_t rowsPerRound = copy.threads / pitch;
    Value colChunk = arith.add(arith.idx(segmentBase),
                               arith.remu(copy.tid, arith.idx(pitch)));
    Value rowInRound = arith.divu(copy.tid, arith.idx(pitch));
    // Only a segment that reaches the padding tests for it.
    bool paddingTest = segmentBase + pitch > globalChunks;
    for (int64_t r0 = 0; r0 < copy.tileRows; r0 += rowsPerRound) {
      Value row = arith.add(rowInRound, arith.idx(r0));
      auto emitCopy = [&] {
        return copyChunkAsync(arith, copy, row, colChunk, paddingTest,
                              globalChunks);
      };
      // The segment's last round may cover fewer rows than it has threads.
      if (r0 + rowsPerRound > copy.tileRows)
        copyIfBelow(arith, row, copy.tileRows, emitCopy);
      else
        tokens.push_back(emitCopy());
    }
    segmentBase += pitch;
  }
}

/// The copies of whole rows when the threads divide into rows
/// (copy.threads a multiple of the chunks of a row): a thread's column
/// chunk is then the same in every round and its row moves by
/// rowsPerRound, so its source moves by rowsPerRound * strideS. The source
/// is formed unclamped and replaced by row 0's where the row is not copied,
/// so that it stays an affine function of the tile's first row (a loop
/// walking tiles advances it by an add); the row test is against the rows
/// left in the slice, limit - row0.
static void copyWholeRowsAsync(KernelArith &arith, const TileCopy &copy,
                               SmallVectorImpl<Value> &tokens) {
  ImplicitLocOpBuilder &b = arith.b;
  int64_t chunksPerRow = copy.columns / sm80::kAsyncCopyElems;
  int64_t rowsPerRound = copy.threads / chunksPerRow;
  // One op per statement: the emission order is the statement order.
  Value perRow = arith.idx(chunksPerRow);
  Value threadRow = arith.divu(copy.tid, perRow);
  Value colChunk = arith.remu(copy.tid, perRow);
  Value chunkElems = arith.idx(sm80::kAsyncCopyElems);
  Value col = arith.mul(colChunk, chunkElems);
  Value zero = arith.idx(0);
  // A zero-filled chunk still names a valid address: row 0 of the slice
  // (element 0 of `global` where the slice may be empty).
  Value fallback =
      copy.guardEmptySlice ? zero : arith.add(copy.base, col);
  Value rowsLeft = arith.sub(copy.limit, copy.row0);
  for (int64_t r0 = 0; r0 < copy.tileRows; r0 += rowsPerRound) {
    Value row = arith.add(threadRow, arith.idx(r0));
    auto emitCopy = [&] {
      Value valid = arith.cmp(arith::CmpIPredicate::slt, row, rowsLeft);
      if (copy.enabled)
        valid = arith::AndIOp::create(b, valid, copy.enabled);
      Value srcElems = arith.select(valid, chunkElems, zero);
      Value globalRow = arith.add(copy.row0, row);
      Value src = arith.add(
          arith.add(copy.base, arith.mul(globalRow, copy.strideS)), col);
      Value at = arith.select(valid, src, fallback);
      return issueChunkCopy(arith, copy, row, col, at, srcElems);
    };
    // The last round may cover fewer rows than it has threads.
    if (r0 + rowsPerRound > copy.tileRows)
      copyIfBelow(arith, row, copy.tileRows, emitCopy);
    else
      tokens.push_back(emitCopy());
  }
}

Value mlir::sdpa::copyTileAsync(KernelArith &arith, const TileCopy &copy) {
  ImplicitLocOpBuilder &b = arith.b;
  assert(copy.globalColumns <= copy.columns &&
         copy.globalColumns % sm80::kAsyncCopyElems == 0 &&
         "zero padding must be whole chunks past the global columns");
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  if (copy.globalColumns != copy.columns) {
    copyPaddedRowsAsync(arith, copy, tokens);
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokenType, tokens);
  }
  int64_t chunksPerRow = copy.columns / sm80::kAsyncCopyElems;
  if (copy.affineSource && copy.threads % chunksPerRow == 0) {
    copyWholeRowsAsync(arith, copy, tokens);
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokenType, tokens);
  }
  int64_t chunks = copy.tileRows * chunksPerRow;
  int64_t rounds = llvm::divideCeil(chunks, copy.threads);
  for (int64_t i = 0; i < rounds; ++i) {
    // One op per statement: the emission order is the statement order.
    Value first = arith.idx(i * copy.threads);
    Value chunk = arith.add(copy.tid, first);
    auto emitCopy = [&] {
      Value perRow = arith.idx(chunksPerRow);
      Value row = arith.divu(chunk, perRow);
      Value colChunk = arith.remu(chunk, perRow);
      return copyChunkAsync(arith, copy, row, colChunk,
                            /*paddingTest=*/false, chunksPerRow);
    };
    // When the threads do not divide the chunks (the forward at d 224 x
    // tile-kv 16), the last round's surplus threads issue no copy.
    if ((i + 1) * copy.threads > chunks)
      copyIfBelow(arith, chunk, chunks, emitCopy);
    else
      tokens.push_back(emitCopy());
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, tokenType, tokens);
}

void mlir::sdpa::waitAsyncGroups(KernelArith &arith, Value group,
                                 int64_t pending) {
  ImplicitLocOpBuilder &b = arith.b;
  nvgpu::DeviceAsyncWaitOp::create(b, group, b.getI32IntegerAttr(pending));
}
