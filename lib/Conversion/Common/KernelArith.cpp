//===- KernelArith.cpp - Scalar arithmetic for the kernel builders --------===//

#include "SdpaDialect/Conversion/KernelArith.h"
#include "SdpaDialect/Conversion/Sm80.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sdpa;

Value KernelArith::idx(int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}
Value KernelArith::f32(double v) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(v));
}
Value KernelArith::add(Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value KernelArith::sub(Value x, Value y) {
  return arith::SubIOp::create(b, x, y);
}
Value KernelArith::mul(Value x, Value y) {
  return arith::MulIOp::create(b, x, y);
}
Value KernelArith::divu(Value x, Value y) {
  return arith::DivUIOp::create(b, x, y);
}
Value KernelArith::remu(Value x, Value y) {
  return arith::RemUIOp::create(b, x, y);
}
Value KernelArith::cmp(arith::CmpIPredicate pred, Value x, Value y) {
  return arith::CmpIOp::create(b, pred, x, y);
}
Value KernelArith::select(Value cond, Value x, Value y) {
  return arith::SelectOp::create(b, cond, x, y);
}
Value KernelArith::fadd(Value x, Value y) {
  return arith::AddFOp::create(b, x, y);
}
Value KernelArith::fsub(Value x, Value y) {
  return arith::SubFOp::create(b, x, y);
}
Value KernelArith::laneGroupReduce(Value value, int64_t lanes,
                                   LaneCombine combine) {
  assert(lanes >= 1 && lanes <= sm80::kWarpSize &&
         llvm::isPowerOf2_64(lanes) && "a power of two of a warp's lanes");
  for (int32_t offset = 1; offset < int32_t(lanes); offset *= 2) {
    Value other = gpu::ShuffleOp::create(b, value, offset,
                                         int32_t(sm80::kWarpSize),
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = combine == LaneCombine::Max
                ? Value(arith::MaxNumFOp::create(b, value, other))
                : fadd(value, other);
  }
  return value;
}
Value KernelArith::fmul(Value x, Value y) {
  return arith::MulFOp::create(b, x, y);
}
Value KernelArith::exp2(Value x, bool flush) {
  return math::Exp2Op::create(
      b, x, flush ? arith::FastMathFlags::afn : arith::FastMathFlags::none);
}

scf::IfOp KernelArith::ifElse(Value cond, ValueRange otherwise,
                              function_ref<SmallVector<Value>()> then) {
  auto ifOp = scf::IfOp::create(b, otherwise.getTypes(), cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, then());
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, otherwise);
  return ifOp;
}
