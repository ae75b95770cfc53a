//===- WarpWindows.cpp - The window walk over integers --------------------===//
//
// Instantiates window_rules::walk (WarpWindows.h) with int64_t: what the
// unit tests check against the brute-force mask.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/WarpWindows.h"


namespace mlir::sdpa {
namespace {

/// The rules' emitter over int64_t (comparisons give 0 or 1).
struct IntegerEmitter {
  int64_t idx(int64_t c) { return c; }
  int64_t add(int64_t x, int64_t y) { return x + y; }
  int64_t sub(int64_t x, int64_t y) { return x - y; }
  int64_t mod16(int64_t x) { return ((x % 16) + 16) % 16; }
  int64_t slt(int64_t x, int64_t y) { return x < y; }
  int64_t sgt(int64_t x, int64_t y) { return x > y; }
  int64_t orI(int64_t x, int64_t y) { return x || y; }
};

} // namespace

WindowWalk<int64_t> evaluateWindowWalk(const Band &band, WindowShape shape,
                                       int64_t q0, int64_t seqQ,
                                       int64_t seqKv) {
  IntegerEmitter e;
  return window_rules::walk<IntegerEmitter, int64_t>(
      e, band, shape, q0, band.diagonalOffset(seqQ, seqKv), seqKv);
}

} // namespace mlir::sdpa
