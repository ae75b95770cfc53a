//===- BandCellTest.h - The band test of one thread's cells -----*- C++ -*-===//
//
// Both kernels mask the cells of the mma fragments a thread holds: cell
// (query, key) = (threadQuery + queryOff, threadKey + keyOff), the offsets
// compile-time constants below 2^17. With diff = threadKey - threadQuery -
// delta, the cell is visible (docs/Semantics.md §1) iff
//
//   keyOff < Skv - threadKey                      (a key of the sequence,
//                                                 if Skv is given)
//   (diff + L) >= queryOff - keyOff               (left edge, if bounded)
//   (R - diff) >= keyOff - queryOff               (right edge, if bounded)
//
// The per-thread values are formed once; every cell then costs one compare
// with an immediate per test. With both edges bounded (L + R below 2^19)
// the two edge tests are one unsigned compare,
//
//   (diff + L) + (keyOff - queryOff)  <=u  L + R,
//
// an add and a compare per distinct offset instead of two compares, and one
// select a cell instead of two. The forward leaves the key test out of
// every tile but the one holding Skv, bwd_main where bwd_dq forms dQ. With
// `narrow`, the values are saturated to [-2^20, 2^20] and compared in i32
// (the saturation cannot change a comparison with a constant that small),
// which the backward prefers; the forward keeps index compares (measured on
// an H200: i32 cost it 6 registers and 2-3% of its time, the backward
// gained), except with `wrap`: the values are truncated to i32, not
// saturated, which costs no clamps and is exact where every tested value
// lies within a tile of [0, L + R]: the one-compare band test (both edges,
// L + R < 2^19) of a tile the band crosses, without the key test. The lean
// forward (ForwardKernelSpec::leanSteps) tests its band-masked tiles so.
// Query rows past Sq are not tested: the forward never stores them and the
// backward gives them P = 0 through their row statistics.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_BANDCELLTEST_H
#define SDPADIALECT_CONVERSION_BANDCELLTEST_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Conversion/KernelArith.h"

namespace mlir::sdpa {

class BandCellTest {
public:
  /// `threadQuery`, `threadKey`, `delta` and `seqKv` are `index` values;
  /// without `seqKv` (null) the key-length test is left out (a tile whose
  /// keys are all inside the sequence).
  BandCellTest(KernelArith &arith, const Band &band, Value threadQuery,
               Value threadKey, Value delta, Value seqKv, bool narrow,
               bool wrap = false);

  /// An i1: whether cell (threadQuery + queryOff, threadKey + keyOff) is
  /// visible.
  Value visible(int64_t queryOff, int64_t keyOff);

private:
  /// `x` clamped to [-2^20, 2^20] (narrow) or truncated (wrap) as i32, else
  /// `x`.
  Value saturate(Value x);
  Value atLeast(Value x, int64_t bound);
  /// `value` as an i32 (narrow) or index constant.
  Value constant(int64_t value);

  KernelArith &arith;
  bool narrow; // i32 compares (saturated unless `wrap`)
  bool wrap;   // i32 by truncation
  Value keyRoom;             // Skv - threadKey
  Value leftRoom, rightRoom; // diff + L, R - diff (null when unbounded)
  /// L + R when the edge tests are one compare (rightRoom is then null).
  std::optional<int64_t> width;
};

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_BANDCELLTEST_H
