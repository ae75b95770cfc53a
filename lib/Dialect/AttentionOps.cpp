//===- AttentionOps.cpp - Verifiers and canonicalization of sdpa ops ------===//
//
// The invariants of sdpa.attention and sdpa.attention_grad: ranks per layout,
// element types, matching sizes, GQA divisibility, sequence operands, scale,
// the score modifiers (sinks, softcap), result types and the schedule.
// Passes rely on these and do not re-check.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/SdpaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdpa;

//===----------------------------------------------------------------------===//
// Shared verification
//===----------------------------------------------------------------------===//

namespace {

/// Checks the operands that both attention ops have.
class OperandVerifier {
public:
  explicit OperandVerifier(AttentionOpInterface op) : op(op) {}

  LogicalResult verify() {
    if (failed(verifyRanks()) || failed(verifyTypes()) ||
        failed(verifyExtents()) || failed(verifySizes()) ||
        failed(verifySeqlens()) || failed(verifyScale()) ||
        failed(verifySinks()) || failed(verifySoftcap()))
      return failure();
    return success();
  }

  /// The f32 type the lse must have.
  RankedTensorType expectedLseType() {
    AttentionShape shape = op.getAttentionShape();
    MLIRContext *ctx = op->getContext();
    if (op.getLayout() == Layout::thd)
      return RankedTensorType::get({shape.headsQ, shape.seqQ},
                                   Float32Type::get(ctx));
    return RankedTensorType::get({shape.batch, shape.headsQ, shape.seqQ},
                                 Float32Type::get(ctx));
  }

private:
  RankedTensorType typeOf(Value value) {
    return cast<RankedTensorType>(value.getType());
  }

  LogicalResult verifyRanks() {
    unsigned rank = AttentionShape::rankOf(op.getLayout());
    StringRef layout = stringifyLayout(op.getLayout());
    for (auto [name, value] :
         {std::pair<StringRef, Value>{"query", op.getQuery()},
          {"key", op.getKey()},
          {"value", op.getValue()}}) {
      if (typeOf(value).getRank() != rank)
        return op->emitOpError("expected ")
               << name << " to have rank " << rank << " for layout " << layout
               << ", got " << typeOf(value).getRank();
    }
    return success();
  }

  LogicalResult verifyTypes() {
    Type element = typeOf(op.getQuery()).getElementType();
    if (typeOf(op.getKey()).getElementType() != element ||
        typeOf(op.getValue()).getElementType() != element)
      return op->emitOpError(
          "expected query, key and value to have the same element type");
    return success();
  }

  /// Every static size must fit 32-bit index arithmetic (kMaxExtent,
  /// docs/Robustness.md): a key length near 2^63 overflowed int64_t while
  /// the schedule was evaluated (sdpa-print-schedule) and wrapped silently in
  /// the affine maps sdpa-derive-bounds folds.
  LogicalResult verifyExtents() {
    for (auto [name, value] :
         {std::pair<StringRef, Value>{"query", op.getQuery()},
          {"key", op.getKey()},
          {"value", op.getValue()}}) {
      for (auto [dim, size] : llvm::enumerate(typeOf(value).getShape()))
        if (!ShapedType::isDynamic(size) && size > kMaxExtent)
          return op->emitOpError("expected ")
                 << name << " dimension " << dim << " to be at most "
                 << kMaxExtent << " (32-bit index arithmetic), got " << size;
    }
    return success();
  }

  /// Static sizes must agree; a dynamic size is checked at run time.
  static bool conflict(int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
  }

  LogicalResult verifySizes() {
    if (failed(verifyCompatibleShape(typeOf(op.getKey()),
                                     typeOf(op.getValue()))))
      return op->emitOpError("expected key and value to have the same shape");
    AttentionShape shape = op.getAttentionShape();
    if (conflict(shape.headDim,
                 AttentionShape::get(op.getLayout(), typeOf(op.getKey()),
                                     typeOf(op.getKey()))
                     .headDim))
      return op->emitOpError(
          "expected query and key to have the same head dimension");
    int64_t keyBatch = op.getLayout() == Layout::thd
                           ? 1
                           : typeOf(op.getKey()).getDimSize(0);
    if (conflict(shape.batch, keyBatch))
      return op->emitOpError(
          "expected query and key to have the same batch size");
    for (auto [name, size] : {std::pair<StringRef, int64_t>{
                                  "head dimension", shape.headDim},
                              {"number of query heads", shape.headsQ},
                              {"number of key/value heads", shape.headsKv}}) {
      if (size == 0)
        return op->emitOpError("expected a positive ") << name;
    }
    if (!ShapedType::isDynamic(shape.headsQ) &&
        !ShapedType::isDynamic(shape.headsKv) &&
        shape.headsQ % shape.headsKv != 0)
      return op->emitOpError("expected the number of query heads (")
             << shape.headsQ
             << ") to be a multiple of the number of key/value heads ("
             << shape.headsKv << ")";
    return success();
  }

  LogicalResult verifySeqlens() {
    auto seqlens = op.getSeqlens();
    bool thd = op.getLayout() == Layout::thd;
    if (thd && seqlens.size() != 2)
      return op->emitOpError("expected layout thd to have the cumulative "
                             "sequence offsets of queries and keys as 2 "
                             "seqlens operands, got ")
             << seqlens.size();
    if (!thd && !seqlens.empty() && seqlens.size() != 2)
      return op->emitOpError("expected 0 or 2 seqlens operands (per-batch "
                             "lengths of queries and keys), got ")
             << seqlens.size();
    if (seqlens.empty())
      return success();
    int64_t qEntries = typeOf(seqlens[0]).getDimSize(0);
    int64_t kvEntries = typeOf(seqlens[1]).getDimSize(0);
    if (conflict(qEntries, kvEntries))
      return op->emitOpError("expected the query and key seqlens to have the "
                             "same number of entries");
    if (thd) {
      if (!ShapedType::isDynamic(qEntries) && qEntries < 2)
        return op->emitOpError("expected cumulative sequence offsets with at "
                               "least 2 entries (one sequence), got ")
               << qEntries;
      return success();
    }
    if (conflict(qEntries, op.getAttentionShape().batch))
      return op->emitOpError("expected per-batch lengths with one entry per "
                             "batch entry (")
             << op.getAttentionShape().batch << "), got " << qEntries;
    return success();
  }

  LogicalResult verifyScale() {
    FloatAttr scale = op.getScaleAttr();
    if (scale && !(std::isfinite(scale.getValueAsDouble()) &&
                   scale.getValueAsDouble() > 0))
      return op->emitOpError("expected scale to be positive and finite");
    return success();
  }

  /// One sink logit per query head (the type constraint makes it 1-D f32).
  LogicalResult verifySinks() {
    Value sinks = op.getSinks();
    if (!sinks)
      return success();
    int64_t entries = typeOf(sinks).getDimSize(0);
    int64_t headsQ = op.getAttentionShape().headsQ;
    if (conflict(entries, headsQ))
      return op->emitOpError("expected sinks to have one entry per query "
                             "head (")
             << headsQ << "), got " << entries;
    return success();
  }

  /// A cap c > 0; +inf is no cap (canonicalized away), 0 would divide by
  /// zero and a negative or NaN cap has no meaning.
  LogicalResult verifySoftcap() {
    FloatAttr softcap = op.getSoftcapAttr();
    if (!softcap)
      return success();
    double cap = softcap.getValueAsDouble();
    if (!(cap > 0))
      return op->emitOpError("expected softcap to be positive (inf for no "
                             "cap), got ")
             << cap;
    return success();
  }

  AttentionOpInterface op;
};

LogicalResult verifyResultType(Operation *op, StringRef name, Type actual,
                               Type expected) {
  if (actual != expected)
    return op->emitOpError("expected ")
           << name << " to have type " << expected << ", got " << actual;
  return success();
}

LogicalResult verifySchedule(AttentionOpInterface op) {
  ScheduleAttr schedule = op.getScheduleAttr();
  if (!schedule)
    return success();
  if (schedule.getTileQ() < 1 || schedule.getTileKv() < 1)
    return op->emitOpError("expected schedule tile sizes to be positive");
  // Larger tiles overflow int64_t in the maps (docs/Robustness.md).
  if (schedule.getTileQ() > kMaxTileSize || schedule.getTileKv() > kMaxTileSize)
    return op->emitOpError("expected schedule tile sizes to be at most ")
           << kMaxTileSize;
  if (schedule != deriveSchedule(op, schedule.getTileShape()))
    return op->emitOpError("expected schedule to be the one derived from the "
                           "mask for tile sizes ")
           << schedule.getTileQ() << "x" << schedule.getTileKv()
           << " (run sdpa-derive-bounds)";
  return success();
}

/// Puts the band into its canonical form for the lengths the op knows, and
/// keeps an attached schedule consistent with it.
template <typename OpTy>
LogicalResult canonicalizeMask(OpTy op, PatternRewriter &rewriter) {
  auto [seqQ, seqKv] = getUniformSeqLengths(op);
  Band band = op.getMaskAttr().getBand();
  Band canonical = canonicalizeBand(band, seqQ, seqKv);
  if (canonical == band)
    return failure();
  rewriter.modifyOpInPlace(op, [&] {
    op.setMaskAttr(BandAttr::get(op.getContext(), canonical));
    if (ScheduleAttr schedule = op.getScheduleAttr())
      op.setScheduleAttr(deriveSchedule(op, schedule.getTileShape()));
  });
  return success();
}

/// grad_sinks is returned exactly when sinks are given, with their type.
LogicalResult verifyGradSinks(AttentionGradOp op) {
  Value sinks = op.getSinks(), gradSinks = op.getGradSinks();
  if (!sinks && !gradSinks)
    return success();
  if (!sinks)
    return op.emitOpError("expected no grad_sinks result without sinks");
  if (!gradSinks)
    return op.emitOpError("expected a grad_sinks result (the gradient of "
                          "the sinks), got none");
  return verifyResultType(op, "grad_sinks", gradSinks.getType(),
                          sinks.getType());
}

/// Drops a softcap of +inf: c * tanh(s / c) tends to s as c grows, so an
/// infinite cap is no cap and has one form, none.
LogicalResult canonicalizeSoftcap(AttentionOpInterface op,
                                  PatternRewriter &rewriter) {
  FloatAttr softcap = op.getSoftcapAttr();
  if (!softcap || !std::isinf(softcap.getValueAsDouble()))
    return failure();
  rewriter.modifyOpInPlace(op, [&] { op.removeSoftcapAttr(); });
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

std::pair<std::optional<int64_t>, std::optional<int64_t>>
mlir::sdpa::getUniformSeqLengths(AttentionOpInterface op) {
  if (op.hasPerSequenceLengths())
    return {std::nullopt, std::nullopt};
  AttentionShape shape = op.getAttentionShape();
  return {AttentionShape::known(shape.seqQ),
          AttentionShape::known(shape.seqKv)};
}

ScheduleAttr mlir::sdpa::deriveSchedule(AttentionOpInterface op,
                                        TileShape tiles) {
  auto [seqQ, seqKv] = getUniformSeqLengths(op);
  ScheduleMaps maps = specializeScheduleMaps(
      deriveScheduleMaps(op.getMaskAttr().getBand(), tiles, op->getContext()),
      seqQ, seqKv);
  return ScheduleAttr::get(op->getContext(), tiles, maps);
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  OperandVerifier operands(*this);
  if (failed(operands.verify()) ||
      failed(verifyResultType(*this, "output", getOutput().getType(),
                              getQuery().getType())) ||
      failed(verifyResultType(*this, "lse", getLse().getType(),
                              operands.expectedLseType())))
    return failure();
  return verifySchedule(*this);
}

LogicalResult AttentionOp::canonicalize(AttentionOp op,
                                        PatternRewriter &rewriter) {
  bool mask = succeeded(canonicalizeMask(op, rewriter));
  bool softcap = succeeded(canonicalizeSoftcap(op, rewriter));
  return success(mask || softcap);
}

//===----------------------------------------------------------------------===//
// AttentionGradOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionGradOp::verify() {
  OperandVerifier operands(*this);
  Type queryType = getQuery().getType();
  if (failed(operands.verify()) ||
      failed(verifyResultType(*this, "output", getOutput().getType(),
                              queryType)) ||
      failed(verifyResultType(*this, "grad_output", getGradOutput().getType(),
                              queryType)) ||
      failed(verifyResultType(*this, "lse", getLse().getType(),
                              operands.expectedLseType())) ||
      failed(verifyResultType(*this, "grad_query", getGradQuery().getType(),
                              queryType)) ||
      failed(verifyResultType(*this, "grad_key", getGradKey().getType(),
                              getKey().getType())) ||
      failed(verifyResultType(*this, "grad_value", getGradValue().getType(),
                              getValue().getType())) ||
      failed(verifyGradSinks(*this)))
    return failure();
  return verifySchedule(*this);
}

LogicalResult AttentionGradOp::canonicalize(AttentionGradOp op,
                                            PatternRewriter &rewriter) {
  bool mask = succeeded(canonicalizeMask(op, rewriter));
  bool softcap = succeeded(canonicalizeSoftcap(op, rewriter));
  return success(mask || softcap);
}
