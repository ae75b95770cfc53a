//===- ScheduleBoundsTest.cpp - affine.max/min bounds vs. the mask --------===//
//
// Builds the bound ops of ScheduleBounds.h with constant operands, lets MLIR
// fold them, and compares the constants with the brute-force mask: the ops
// that kernels and host code use compute exactly the schedule.
//
//===----------------------------------------------------------------------===//

#include "../Analysis/BruteForceMask.h"
#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/Transforms/ScheduleBounds.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

namespace {

class ScheduleBoundsTest : public ::testing::Test {
protected:
  ScheduleBoundsTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        SdpaDialect>();
  }

  /// Folds `value` (built from constants) to an integer (an i1 true is -1).
  int64_t fold(Value value) {
    OpBuilder builder(&context);
    Operation *op = value.getDefiningOp();
    SmallVector<OpFoldResult> results;
    SmallVector<Attribute> operands;
    for (Value operand : op->getOperands()) {
      APInt constant;
      EXPECT_TRUE(matchPattern(operand, m_ConstantInt(&constant)));
      operands.push_back(
          builder.getIntegerAttr(operand.getType(), constant.getSExtValue()));
    }
    EXPECT_TRUE(succeeded(op->fold(operands, results)) && results.size() == 1);
    // A fold may forward an operand (affine.apply of a bare dimension).
    if (auto forwarded = dyn_cast<Value>(results[0])) {
      APInt constant;
      EXPECT_TRUE(matchPattern(forwarded, m_ConstantInt(&constant)));
      return constant.getSExtValue();
    }
    return cast<IntegerAttr>(cast<Attribute>(results[0])).getInt();
  }

  /// Folds each op in order, replacing it by a constant, so later ops fold.
  int64_t foldChain(OpBuilder &builder, Value value) {
    Operation *op = value.getDefiningOp();
    if (auto cst = dyn_cast<arith::ConstantOp>(op))
      return cast<IntegerAttr>(cst.getValue()).getValue().getSExtValue();
    // Operands become constants of their own type (index, or i1 for the
    // condition of a select).
    for (OpOperand &operand : op->getOpOperands())
      operand.set(arith::ConstantOp::create(
          builder, op->getLoc(),
          builder.getIntegerAttr(operand.get().getType(),
                                 foldChain(builder, operand.get()))));
    return fold(value);
  }

  MLIRContext context;
};

TEST_F(ScheduleBoundsTest, FoldedOpsMatchBruteForce) {
  CaseGenerator gen(/*seed=*/11);
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  for (int i = 0; i < 400; ++i) {
    int64_t seqQ = gen.uniform(1, 70), seqKv = gen.uniform(1, 70);
    Band band = gen.band(std::max(seqQ, seqKv));
    TileShape tiles{gen.tile(), gen.tile()};
    auto schedule = ScheduleAttr::get(
        &context, tiles, deriveScheduleMaps(band, tiles, &context));
    BruteForceMask mask(band, tiles, seqQ, seqKv);
    for (int64_t t = 0; t < mask.numQTiles; ++t) {
      ForwardBounds f = buildForwardBounds(builder, loc, schedule, index(t),
                                           index(seqQ), index(seqKv));
      int64_t b = foldChain(builder, f.kvBegin), e = foldChain(builder, f.kvEnd);
      int64_t ib = foldChain(builder, f.interiorBegin);
      int64_t ie = foldChain(builder, f.interiorEnd);
      ASSERT_TRUE(b <= ib && ib <= ie && ie <= e) << "case " << i;
      for (int64_t u = 0; u < mask.numKvTiles; ++u) {
        ASSERT_EQ(b <= u && u < e, mask.anyVisible(t, u)) << "case " << i;
        ASSERT_EQ(ib <= u && u < ie, mask.interior(t, u)) << "case " << i;
      }
      for (int64_t u = b; u < e; ++u)
        ASSERT_EQ(foldChain(builder, buildRelayTurn(builder, loc, schedule,
                                                    index(u), index(t),
                                                    index(seqQ), index(seqKv))),
                  u - b);
    }
    for (int64_t u = 0; u < mask.numKvTiles; ++u) {
      BackwardBounds bw = buildBackwardBounds(builder, loc, schedule, index(u),
                                              index(seqQ), index(seqKv));
      int64_t b = foldChain(builder, bw.qBegin), e = foldChain(builder, bw.qEnd);
      int64_t ib = foldChain(builder, bw.interiorBegin);
      int64_t ie = foldChain(builder, bw.interiorEnd);
      ASSERT_TRUE(b <= ib && ib <= ie && ie <= e) << "case " << i;
      for (int64_t t = 0; t < mask.numQTiles; ++t) {
        ASSERT_EQ(b <= t && t < e, mask.anyVisible(t, u)) << "case " << i;
        ASSERT_EQ(ib <= t && t < ie, mask.interior(t, u)) << "case " << i;
      }
    }
  }
}

} // namespace
