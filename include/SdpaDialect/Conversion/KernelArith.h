//===- KernelArith.h - Scalar arithmetic for the kernel builders -*- C++ -*-===//
//
// The index and f32 arithmetic the forward and backward kernel builders
// write their bodies with: one op per call, at the builder's location.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELARITH_H
#define SDPADIALECT_CONVERSION_KERNELARITH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::sdpa {

/// Base of the kernel builders: `b` and short names for arith ops.
class KernelArith {
public:
  explicit KernelArith(ImplicitLocOpBuilder &b) : b(b) {}

  /// Constants: an `index`, an `f32`.
  Value idx(int64_t v);
  Value f32(double v);
  /// Index arithmetic (unsigned division and remainder).
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value divu(Value x, Value y);
  Value remu(Value x, Value y);
  Value cmp(arith::CmpIPredicate pred, Value x, Value y);
  Value select(Value cond, Value x, Value y);
  /// f32 arithmetic.
  Value fadd(Value x, Value y);
  Value fsub(Value x, Value y);
  Value fmul(Value x, Value y);
  /// exp2(x) (f32), marked `afn` when `flush`: sdpa-lower-exp2 makes it
  /// one `ex2.approx.ftz.f32` (flushesExponentials, Analysis/KernelDefaults.h).
  Value exp2(Value x, bool flush);
  /// How laneGroupReduce combines two lanes' values (f32).
  enum class LaneCombine { Add, Max };
  /// `value` combined over each aligned group of `lanes` lanes of the warp
  /// (a power of two up to 32), in every lane of the group: an xor
  /// butterfly, offsets 1 up to lanes / 2 (a fixed order: the same bits in
  /// every run). Every lane of the warp must reach it.
  Value laneGroupReduce(Value value, int64_t lanes, LaneCombine combine);
  /// laneGroupReduce's f32 sum.
  Value laneGroupSum(Value value, int64_t lanes) {
    return laneGroupReduce(value, lanes, LaneCombine::Add);
  }

  /// One scf.if on `cond` (i1) that yields what `then` returns, built in its
  /// then-region, and else `otherwise` (values of the same types, defined
  /// before it); the insertion point ends after it.
  scf::IfOp ifElse(Value cond, ValueRange otherwise,
                   function_ref<SmallVector<Value>()> then);

  ImplicitLocOpBuilder &b;
};

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELARITH_H
