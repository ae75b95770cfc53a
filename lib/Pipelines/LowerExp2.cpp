//===- LowerExp2.cpp - sdpa-lower-exp2 ------------------------------------===//
//
// The kernels' f32 exponentials marked `afn` as one `ex2.approx.ftz.f32`
// each, not libdevice's subnormal-preserving `ex2.approx.f32` (four SASS
// instructions).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPALOWEREXP2
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;

namespace {
/// The NVVM intrinsic of PTX's `ex2.approx.ftz.f32`.
constexpr llvm::StringLiteral kEx2ApproxFtz = "llvm.nvvm.ex2.approx.ftz.f";

/// f32 `math.exp2(x) fastmath<afn>` ->
/// `llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"`.
struct Exp2ToEx2ApproxFtz : public OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32");
    if (!arith::bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "not marked afn");
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), op.getType(),
        rewriter.getStringAttr(kEx2ApproxFtz), ValueRange{op.getOperand()});
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

struct LowerExp2Pass : public sdpa::impl::SdpaLowerExp2Base<LowerExp2Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<Exp2ToEx2ApproxFtz>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
