//===- FoldConstants.h - Fold emitted index arithmetic to constants -*- C++ -*-===//
//
// The unit tests' one way to evaluate what a kernel builder emits: the ops
// go into a function that returns their results, the greedy driver folds it,
// and every result must be a constant.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_UNITTESTS_CONVERSION_FOLDCONSTANTS_H
#define SDPADIALECT_UNITTESTS_CONVERSION_FOLDCONSTANTS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "gtest/gtest.h"

namespace mlir::sdpa::unittest {

/// The constants that the values `emit` returns fold to (a value that does
/// not fold fails the test and reads as 0). `emit` builds at the start of a
/// function body.
inline SmallVector<APInt>
foldToConstants(MLIRContext &ctx,
                function_ref<SmallVector<Value>(ImplicitLocOpBuilder &)> emit) {
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect>();
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  ImplicitLocOpBuilder b(loc, &ctx);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, "folded", b.getFunctionType({}, {}));
  b.setInsertionPointToStart(func.addEntryBlock());
  auto ret = func::ReturnOp::create(b, emit(b));
  func.setType(b.getFunctionType({}, ret.getOperandTypes()));
  EXPECT_TRUE(succeeded(applyPatternsGreedily(func, RewritePatternSet(&ctx))));
  SmallVector<APInt> constants;
  for (Value v : ret.getOperands()) {
    APInt c(64, 0);
    EXPECT_TRUE(matchPattern(v, m_ConstantInt(&c))) << "a result did not fold";
    constants.push_back(c);
  }
  return constants;
}

} // namespace mlir::sdpa::unittest

#endif // SDPADIALECT_UNITTESTS_CONVERSION_FOLDCONSTANTS_H
