//===- SharedTiles.h - Shared-memory tiles of the SM80 kernels --*- C++ -*-===//
//
// What both kernels do with shared memory, written once: views of the
// dynamic shared memory, and cp.async copies of [rows][head_dim] tiles from
// global memory with zero fill, in commit groups.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_SHAREDTILES_H
#define SDPADIALECT_CONVERSION_SHAREDTILES_H

#include "SdpaDialect/Conversion/KernelArith.h"

namespace mlir::sdpa {

/// The kernel's dynamic shared memory as bytes (gpu.dynamic_shared_memory).
Value createDynamicSharedMemory(KernelArith &arith);

/// A `shape` view of elements of type `elem` at byte `offset` (a multiple of
/// 16) of `dynShared`, the kernel's dynamic shared memory.
Value createSharedView(KernelArith &arith, Value dynShared, int64_t offset,
                       ArrayRef<int64_t> shape, Type elem);

/// Which caches a cp.async copy fills, chosen by the caller as measured on
/// an H100 (bench/RESULTS.md, 2026-12-07 15:29 and 15:53):
///   L2Only  cp.async.cg: bypasses L1 (every backward copy: gpt-oss's
///           backward 0.94-0.96x the time of .ca, the wide ones
///           0.99-1.01x);
///   L1AndL2 cp.async.ca: also allocates in L1 (the forward's copies where
///           ForwardKernelSpec::copiesThroughL1, whose doc has the numbers).
enum class CopyCache { L2Only, L1AndL2 };

/// One [tileRows][columns] tile copy, global -> shared, by `threads` threads
/// with thread index `tid`, in 16-byte chunks: chunk c = i * threads + tid
/// (consecutive threads fill one row) goes to row c / (columns / 8), column
/// 8 * (c % (columns / 8)) of `smem` (indexed by `smemLead`, then row and
/// column). Its source is row row0 + row of the slice at element `base` of
/// the flat `global` (row stride `strideS`); the columns from
/// `globalColumns` on are zero-filled (a head dim padded to the kernel's mma
/// width), by the copy itself, like rows past `limit`. Where `threads` does
/// not divide the chunks, the surplus threads of the last round issue no
/// copy. A padded row is copied in power-of-two segments (SharedTiles.cpp).
struct TileCopy {
  Value global, base, strideS, row0;
  /// Rows at or past `limit` are zero-filled. The compare is signed, so a
  /// negative limit (a bad length) zero-fills every row instead of reading.
  Value limit;
  /// Optional i1: when false every row is zero-filled.
  Value enabled;
  Value smem;
  SmallVector<Value> smemLead;
  int64_t tileRows = 0;
  /// Columns of a row in shared memory, and the first that is zero-filled
  /// (both multiples of 8, globalColumns <= columns).
  int64_t columns = 0;
  int64_t globalColumns = 0;
  int64_t threads = 0;
  Value tid;
  CopyCache cache = CopyCache::L2Only;
  /// A zero-filled chunk names row 0 of the slice; with this set it names
  /// element 0 of `global` instead, for a slice that may start at the end of
  /// the tensor (an empty packed sequence last). A caller whose copies all
  /// come from non-empty slices leaves it unset.
  bool guardEmptySlice = false;
  /// Where the threads divide into whole rows: each source is formed from
  /// the unclamped row and replaced by row 0's where the row is not copied,
  /// so that it is affine in row0 and a loop over tiles advances it with an
  /// add (LLVM's loop strength reduction), and rows are tested against
  /// limit - row0. Unset: the row is clamped before the multiply by the
  /// stride. The lean forward (ForwardKernelSpec::leanSteps) sets it.
  bool affineSource = false;
};

/// Issues the copies of `copy` and returns their commit group.
Value copyTileAsync(KernelArith &arith, const TileCopy &copy);

/// Waits until at most `pending` of the committed groups are in flight
/// (`group` names one of them: the wait counts groups).
void waitAsyncGroups(KernelArith &arith, Value group, int64_t pending);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_SHAREDTILES_H
