//===- WindowWalkIR.h - The warp windows' walk as IR ------------*- C++ -*-===//
//
// window_rules::walk (Analysis/WarpWindows.h, checked there against the
// brute-force mask) instantiated with `index` IR, and the positions of a
// window's blocks in the walk's ring: the forward's key windows
// (ForwardKernelSpec::warpWindows) take their per-program values from here.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_WINDOWWALKIR_H
#define SDPADIALECT_CONVERSION_WINDOWWALKIR_H

#include "SdpaDialect/Analysis/WarpWindows.h"
#include "SdpaDialect/Conversion/KernelArith.h"

namespace mlir::sdpa {

/// The walk of the program whose first row is `q0` (a warp's rows see the
/// "keys" [row + delta - L, row + delta + R] of `band`), emitted at `a`'s
/// insertion point; `clipped` is an i1.
WindowWalk<Value> emitWindowWalkValues(KernelArith &a, const Band &band,
                                       WindowShape shape, Value q0,
                                       Value delta, Value seqKv);

/// Where the blocks of a window lie in the walk's ring of tiles of
/// `tileRows` rows: block b (rows [offset + blockRows b, + blockRows) past
/// the walk's first tile) starts at row row[b] of the ring tile
/// firstTile[b] past the step's first. `blockRows` must divide the tile and
/// the window's offset (a multiple of 16), so no block straddles two tiles.
struct WindowBlocks {
  SmallVector<Value> firstTile, row;
};
WindowBlocks emitWindowBlocks(KernelArith &a, Value offset, int64_t tileRows,
                              int64_t blockRows);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_WINDOWWALKIR_H
