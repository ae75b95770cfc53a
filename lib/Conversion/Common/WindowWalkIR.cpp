//===- WindowWalkIR.cpp - The warp windows' walk as IR --------------------===//
//
// window_rules' emitter over `index` IR: constants, index arithmetic, the
// non-negative remainder mod 16 as an affine map, and i1 tests.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/WindowWalkIR.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// window_rules' emitter over `index` IR (i1 for the tests).
struct WindowEmitter {
  KernelArith &a;
  Value idx(int64_t c) { return a.idx(c); }
  Value add(Value x, Value y) { return a.add(x, y); }
  Value sub(Value x, Value y) { return a.sub(x, y); }
  Value mod16(Value x) {
    MLIRContext *ctx = a.b.getContext();
    AffineMap map = AffineMap::get(1, 0, getAffineDimExpr(0, ctx) % 16);
    return affine::AffineApplyOp::create(a.b, map, ValueRange{x});
  }
  Value slt(Value x, Value y) {
    return a.cmp(arith::CmpIPredicate::slt, x, y);
  }
  Value sgt(Value x, Value y) {
    return a.cmp(arith::CmpIPredicate::sgt, x, y);
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(a.b, x, y); }
};

} // namespace

WindowWalk<Value> mlir::sdpa::emitWindowWalkValues(KernelArith &a,
                                                   const Band &band,
                                                   WindowShape shape, Value q0,
                                                   Value delta, Value seqKv) {
  WindowEmitter e{a};
  return window_rules::walk<WindowEmitter, Value>(e, band, shape, q0, delta,
                                                  seqKv);
}

WindowBlocks mlir::sdpa::emitWindowBlocks(KernelArith &a, Value offset,
                                          int64_t tileRows,
                                          int64_t blockRows) {
  WindowBlocks blocks;
  for (int64_t r = 0; r < tileRows; r += blockRows) {
    Value local = a.add(offset, a.idx(r));
    blocks.firstTile.push_back(a.divu(local, a.idx(tileRows)));
    blocks.row.push_back(a.remu(local, a.idx(tileRows)));
  }
  return blocks;
}
