//===- MaterializeBounds.cpp - sdpa-materialize-bounds --------------------===//
//
// Outlines each attention op's schedule into host functions built from
// affine.max / affine.min with the host functions' clamps
// (SdpaDialect/Utils/ScheduleBounds.h).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/SdpaPasses.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPAMATERIALIZEBOUNDS
#include "SdpaDialect/SdpaPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// Creates `name(index x numArgs) -> (index x numResults)` at the end of the
/// module and returns it with the builder inside its body.
func::FuncOp createIndexFunc(OpBuilder &builder, ModuleOp module,
                             Location loc, StringRef name, unsigned numArgs,
                             unsigned numResults) {
  builder.setInsertionPointToEnd(module.getBody());
  Type index = builder.getIndexType();
  auto type = builder.getFunctionType(SmallVector<Type>(numArgs, index),
                                      SmallVector<Type>(numResults, index));
  auto func = func::FuncOp::create(builder, loc, name, type);
  builder.setInsertionPointToStart(func.addEntryBlock());
  return func;
}

struct MaterializeBoundsPass
    : public sdpa::impl::SdpaMaterializeBoundsBase<MaterializeBoundsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<AttentionOpInterface> ops;
    module.walk([&](AttentionOpInterface op) { ops.push_back(op); });
    OpBuilder builder(module.getContext());
    llvm::StringMap<unsigned> countPerFunc;
    for (AttentionOpInterface op : ops) {
      ScheduleAttr schedule = op.getScheduleAttr();
      if (!schedule) {
        op->emitError("expected a schedule (run sdpa-derive-bounds first)");
        return signalPassFailure();
      }
      auto parent = op->getParentOfType<func::FuncOp>();
      std::string owner = parent ? parent.getSymName().str() : "module";
      std::string prefix =
          owner + "_sdpa" + std::to_string(countPerFunc[owner]++);
      Location loc = op.getLoc();

      auto fwd = createIndexFunc(builder, module, loc,
                                 prefix + "_forward_bounds", 3, 4);
      const BoundsPolicy policy = BoundsPolicy::HostFunctions;
      ForwardBounds f = emitForwardBounds(builder, loc, schedule, policy,
                                          fwd.getArgument(0),
                                          fwd.getArgument(1),
                                          fwd.getArgument(2));
      func::ReturnOp::create(builder, loc,
                             ValueRange{f.kvBegin, f.kvEnd, f.interiorBegin,
                                        f.interiorEnd});

      auto bwd = createIndexFunc(builder, module, loc,
                                 prefix + "_backward_bounds", 3, 4);
      BackwardBounds b =
          emitBackwardBounds(builder, loc, schedule, policy,
                             bwd.getArgument(0), bwd.getArgument(1),
                             bwd.getArgument(2));
      func::ReturnOp::create(builder, loc,
                             ValueRange{b.qBegin, b.qEnd, b.interiorBegin,
                                        b.interiorEnd});

      auto relay =
          createIndexFunc(builder, module, loc, prefix + "_relay_turn", 4, 1);
      Value turn = emitRelayTurn(builder, loc, schedule, relay.getArgument(0),
                                 relay.getArgument(1), relay.getArgument(2),
                                 relay.getArgument(3));
      func::ReturnOp::create(builder, loc, turn);
    }
  }
};

} // namespace
