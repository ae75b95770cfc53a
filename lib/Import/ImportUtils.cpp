//===- ImportUtils.cpp - Shared pieces of the StableHLO importer ----------===//
//
// Operand checks, op builders and transpose absorption used by every
// importer.
//
//===----------------------------------------------------------------------===//

#include "Import.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

std::optional<std::string> import::checkOperandTypes(Layout layout,
                                                     Type query, Type key,
                                                     Type value) {
  auto q = dyn_cast<RankedTensorType>(query);
  auto k = dyn_cast<RankedTensorType>(key);
  auto v = dyn_cast<RankedTensorType>(value);
  if (!q || !k || !v)
    return std::string("query, key and value must be ranked tensors");
  unsigned rank = AttentionShape::rankOf(layout);
  if (q.getRank() != rank || k.getRank() != rank || v.getRank() != rank)
    return "query, key and value must have rank " + std::to_string(rank) +
           " for layout " + stringifyLayout(layout).str();
  Type element = q.getElementType();
  if (!isa<Float16Type, BFloat16Type>(element))
    return std::string("element type must be f16 or bf16");
  if (k.getElementType() != element || v.getElementType() != element)
    return std::string("query, key and value must have one element type");
  if (!q.hasStaticShape() || !k.hasStaticShape() || !v.hasStaticShape())
    return std::string("shapes must be static");
  if (k.getShape() != v.getShape())
    return std::string("key and value must have the same shape");
  AttentionShape qs = AttentionShape::get(layout, q, k);
  AttentionShape ks = AttentionShape::get(layout, k, k);
  if (qs.headDim != ks.headDim)
    return std::string("query and key must have the same head dimension");
  if (layout != Layout::thd && q.getDimSize(0) != k.getDimSize(0))
    return std::string("query and key must have the same batch size");
  if (qs.headsKv <= 0 || qs.headsQ % qs.headsKv != 0)
    return "query heads (" + std::to_string(qs.headsQ) +
           ") must be a multiple of key/value heads (" +
           std::to_string(qs.headsKv) + ")";
  return std::nullopt;
}

bool import::isRepresentableScale(double scale) {
  auto narrowed = static_cast<float>(scale);
  return scale > 0 && std::isfinite(narrowed) && narrowed != 0;
}

RankedTensorType import::getLseType(Layout layout, RankedTensorType query) {
  AttentionShape shape = AttentionShape::get(layout, query, query);
  Type f32 = Float32Type::get(query.getContext());
  if (layout == Layout::thd)
    return RankedTensorType::get({shape.headsQ, shape.seqQ}, f32);
  return RankedTensorType::get({shape.batch, shape.headsQ, shape.seqQ}, f32);
}

ArrayRef<int64_t> import::getSwapSeqHeadsPermutation() {
  static constexpr int64_t kPerm[] = {0, 2, 1, 3};
  return kPerm;
}

void import::replaceTransposed(RewriterBase &rewriter, Value old,
                               Value replacement, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()))) {
    rewriter.replaceAllUsesWith(old, replacement);
    return;
  }
  // user = transpose(old, p) = transpose(replacement, [perm[p[i]]]).
  auto undoes = [&](shlo::TransposeOp user) {
    ArrayRef<int64_t> p = user.getPermutation();
    for (auto [i, pi] : llvm::enumerate(p))
      if (perm[pi] != static_cast<int64_t>(i))
        return false;
    return true;
  };
  for (Operation *user : llvm::make_early_inc_range(old.getUsers())) {
    auto transpose = dyn_cast<shlo::TransposeOp>(user);
    if (transpose && undoes(transpose)) {
      rewriter.replaceAllUsesWith(transpose.getResult(), replacement);
      rewriter.eraseOp(transpose);
    }
  }
  if (old.use_empty())
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(replacement);
  Value transposed = shlo::TransposeOp::create(
      rewriter, replacement.getLoc(), old.getType(), replacement,
      rewriter.getDenseI64ArrayAttr(perm));
  rewriter.replaceAllUsesWith(old, transposed);
}

static FloatAttr scaleAttr(OpBuilder &builder,
                           const std::optional<double> &scale) {
  return scale ? builder.getF64FloatAttr(*scale) : FloatAttr();
}

static FloatAttr softcapAttr(OpBuilder &builder,
                             const std::optional<double> &softcap) {
  return softcap ? builder.getF32FloatAttr(static_cast<float>(*softcap))
                 : FloatAttr();
}

AttentionOp import::createAttention(OpBuilder &builder, Location loc,
                                    Value query, Value key, Value value,
                                    ValueRange seqlens,
                                    const AttentionSpec &spec, Value sinks) {
  auto queryType = cast<RankedTensorType>(query.getType());
  return AttentionOp::create(
      builder, loc, queryType, getLseType(spec.layout, queryType), query, key,
      value, seqlens, sinks,
      BandAttr::get(builder.getContext(), spec.band),
      scaleAttr(builder, spec.scale), softcapAttr(builder, spec.softcap),
      spec.layout, ScheduleAttr());
}

AttentionGradOp import::createAttentionGrad(
    OpBuilder &builder, Location loc, Value query, Value key, Value value,
    Value output, Value gradOutput, Value lse, ValueRange seqlens,
    const AttentionSpec &spec, Value sinks) {
  return AttentionGradOp::create(
      builder, loc, query.getType(), key.getType(), value.getType(),
      /*grad_sinks=*/sinks ? sinks.getType() : Type(), query, key, value,
      output, gradOutput, lse, seqlens, sinks,
      BandAttr::get(builder.getContext(), spec.band),
      scaleAttr(builder, spec.scale), softcapAttr(builder, spec.softcap),
      spec.layout, ScheduleAttr(), spec.deterministic);
}

std::optional<std::string> import::verifyQuietly(Operation *op) {
  std::string message;
  ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  if (succeeded(verify(op)))
    return std::nullopt;
  return message.empty() ? std::string("the sdpa op does not verify")
                         : message;
}

/// The first diagnostic `run` emits, if it fails.
template <typename Fn>
static std::optional<std::string> firstDiagnostic(MLIRContext *context,
                                                  Fn run) {
  std::string message;
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  if (succeeded(run()))
    return std::nullopt;
  return message.empty() ? std::string("the gpu lowering refuses the op")
                         : message;
}

/// What keeps kernels at `check`'s index width from addressing `op`'s
/// static shapes (only a 32-bit index can fall short).
static std::optional<std::string> indexRangeProblem(Operation *op,
                                                    const LoweringCheck &check) {
  if (check.indexBitwidth != 32)
    return std::nullopt;
  return getIndexRangeProblem(op);
}

std::optional<std::string> import::lowersQuietly(AttentionOp op,
                                                 const LoweringCheck &check) {
  if (std::optional<std::string> problem = indexRangeProblem(op, check))
    return problem;
  return firstDiagnostic(op.getContext(), [&]() -> LogicalResult {
    return success(succeeded(getForwardKernelSpec(op, check.forward)));
  });
}

std::optional<std::string> import::lowersQuietly(AttentionGradOp op,
                                                 const LoweringCheck &check) {
  if (std::optional<std::string> problem = indexRangeProblem(op, check))
    return problem;
  return firstDiagnostic(op.getContext(), [&]() -> LogicalResult {
    return success(succeeded(getBackwardKernelSpec(op, check.backward)));
  });
}

std::string import::describe(const Band &band) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto edge = [&](const std::optional<int64_t> &e) {
    if (e)
      os << *e;
    else
      os << "inf";
  };
  os << "left = ";
  edge(band.left);
  os << ", right = ";
  edge(band.right);
  os << ", align = "
     << (band.align == Alignment::TopLeft ? "top_left" : "bottom_right");
  return text;
}
