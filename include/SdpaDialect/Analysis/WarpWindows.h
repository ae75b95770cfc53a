//===- WarpWindows.h - The forward's per-warp key windows -------*- C++ -*-===//
//
// The walk of ForwardKernelSpec::warpWindows (docs/Semantics.md §3.9),
// written once over an emitter and instantiated with integers
// (evaluateWindowWalk: the unit test checks it against the brute-force mask)
// and with IR (the forward kernel, lib/Conversion/SdpaToGPU/WarpWindows.cpp).
//
// A program of `warps` warps of `rows` query rows each, its first row q0
// (a multiple of 16), in a band with both edges bounded (L, Rt) and
// diagonal offset delta, gives warp w the rows [R, R + rows), R = q0 + rows
// w, which see keys [R + delta - L, R + rows - 1 + delta + Rt]. Each warp
// walks `windows` windows of Tk keys, window j of warp w holding keys
// [start_w + Tk j, start_w + Tk (j + 1)):
//
//   rho      = (delta - L) mod 16                      (0 <= rho < 16)
//   start_w  = q0 + delta - L - rho + rows w           (a multiple of 16)
//   windows  = ceil((rows + L + Rt + rho_max) / Tk)
//   interior = [ceil((rows - 1 + rho_max) / Tk),
//               min(max(floor((L + Rt + rho_min + 1) / Tk), first), windows))
//
// with rho_min = rho_max = rho for top-left (delta = 0) and [0, 15] for
// bottom-right (rhoRange). windows and the interior are constants, the same
// for every warp, so the warps step together.
// The windows of warp w hold every key its rows see; a window of the
// interior is seen whole by every row of the warp. A program is clipped when
// some window reaches before key 0 or past Skv:
//
//   clipped  = start_0 < 0  or  start_{warps-1} + Tk windows > Skv;
//
// it then starts each window at max(start_w, 0) (still covering every
// visible key) and tests every cell against the band and Skv.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_ANALYSIS_WARPWINDOWS_H
#define SDPADIALECT_ANALYSIS_WARPWINDOWS_H

#include "SdpaDialect/Analysis/Band.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace mlir::sdpa {

/// The program-wide quantities of the walk, of any value type.
template <typename V> struct WindowWalk {
  V rho;           // (delta - L) mod 16
  V start0;        // first key of warp 0's first window, unclamped
  V windows;       // windows a warp walks
  V interiorBegin; // the windows every row of a warp sees whole:
  V interiorEnd;   //   [interiorBegin, interiorEnd)
  V clipped;       // 1 (true) when some window leaves [0, Skv)
};

/// The shape of a walk: warps of `rows` rows, windows of `tileKv` keys.
struct WindowShape {
  int64_t rows, warps, tileKv;
};

/// Key tiles one step of the walk reads: the windows of a step lie rows
/// (warps - 1) keys apart and start a multiple of 16 keys into a tile.
inline int64_t windowSpanTiles(WindowShape shape) {
  int64_t reach = (shape.tileKv - 16) + shape.rows * (shape.warps - 1) +
                  shape.tileKv;
  return (reach + shape.tileKv - 1) / shape.tileKv;
}

/// The values rho = (delta - L) mod 16 takes: (-L) mod 16 alone for a
/// top-left band, any of [0, 15] for a bottom-right one.
inline std::pair<int64_t, int64_t> rhoRange(const Band &band) {
  if (band.align == Alignment::TopLeft) {
    int64_t rho = ((-*band.left) % 16 + 16) % 16;
    return {rho, rho};
  }
  return {0, 15};
}

/// The walk's counts, constants of the band and the shape: the windows a
/// warp walks and its interior [interiorBegin, interiorEnd). They take
/// rho's extremes: one value for top-left (delta = 0), [0, 15] for
/// bottom-right, whose delta is known at run time only (more windows and a
/// smaller interior hold every key and mask every cell the band does not
/// show whole). `band` must have both edges bounded.
struct WindowCounts {
  int64_t windows, interiorBegin, interiorEnd;
};
inline WindowCounts windowCounts(const Band &band, WindowShape shape) {
  int64_t left = *band.left, right = *band.right, tk = shape.tileKv;
  auto [rhoMin, rhoMax] = rhoRange(band);
  auto ceilDiv = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  int64_t windows = ceilDiv(shape.rows + left + right + rhoMax, tk);
  int64_t first = ceilDiv(shape.rows - 1 + rhoMax, tk);
  int64_t last = std::min(
      std::max<int64_t>((left + right + rhoMin + 1) / tk, first), windows);
  return {windows, first, last};
}

namespace window_rules {

/// The walk of the program whose first row is `q0`, over an emitter `e`
/// with idx(c), add, sub, mod16 (the non-negative remainder), slt, sgt and
/// orI. `band` must have both edges
/// bounded.
template <typename E, typename V>
WindowWalk<V> walk(E &e, const Band &band, WindowShape shape, V q0, V delta,
                   V seqKv) {
  int64_t left = *band.left;
  WindowCounts counts = windowCounts(band, shape);
  // One emitter call a statement: the order of the IR must not hang on
  // the compiler's order of evaluating arguments.
  WindowWalk<V> w;
  V leftEdge = e.idx(left);
  V offset = e.sub(delta, leftEdge);
  w.rho = e.mod16(offset);
  V diagonal = e.add(q0, delta);
  V unaligned = e.sub(diagonal, leftEdge);
  w.start0 = e.sub(unaligned, w.rho);
  w.windows = e.idx(counts.windows);
  w.interiorBegin = e.idx(counts.interiorBegin);
  w.interiorEnd = e.idx(counts.interiorEnd);
  V lastWarp = e.idx(shape.rows * (shape.warps - 1));
  V startLast = e.add(w.start0, lastWarp);
  V span = e.idx(shape.tileKv * counts.windows);
  V end = e.add(startLast, span);
  V zero = e.idx(0);
  V before = e.slt(w.start0, zero);
  V past = e.sgt(end, seqKv);
  w.clipped = e.orI(before, past);
  return w;
}

} // namespace window_rules

/// The walk over integers (the reference of the unit tests).
WindowWalk<int64_t> evaluateWindowWalk(const Band &band, WindowShape shape,
                                       int64_t q0, int64_t seqQ,
                                       int64_t seqKv);

} // namespace mlir::sdpa

#endif // SDPADIALECT_ANALYSIS_WARPWINDOWS_H
