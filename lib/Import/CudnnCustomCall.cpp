//===- CudnnCustomCall.cpp - Import JAX's cuDNN attention custom calls ----===//
//
// `stablehlo.custom_call @__cudnn$fmhaSoftmax` / `@__cudnn$fmhaSoftmaxBackward`
// as JAX emits them -> sdpa.attention / sdpa.attention_grad. The backend
// config is read completely; any variant we do not implement is an error.
//
// Facts used (JAX's cuDNN lowering): forward operands
// {Q, K, V, q_seqlen*, kv_seqlen*}, results {O, softmax stats (training
// only), workspace}; backward operands {Q, K, V, stats, dO, O, q_seqlen*,
// kv_seqlen*}, results {dQ, dK, dV, workspace}; (*) only for padding masks.
// Results are [B, H, S, D] whatever the layout (the result layouts only
// change memory order), which JAX transposes back for BTNH.
//
//===----------------------------------------------------------------------===//

#include "CudnnBackendConfig.h"
#include "Import.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

static constexpr StringLiteral kForwardTarget = "__cudnn$fmhaSoftmax";
static constexpr StringLiteral kBackwardTarget = "__cudnn$fmhaSoftmaxBackward";

bool import::isCudnnAttentionTarget(StringRef target) {
  return target.starts_with("__cudnn$fmha");
}

/// Checks that `value` has type `expected`, naming it otherwise.
static LogicalResult expectType(shlo::CustomCallOp op, StringRef what,
                                Type actual, Type expected) {
  if (actual == expected)
    return success();
  return op.emitOpError("expected ")
         << what << " of type " << expected << ", got " << actual;
}

/// The intermediate tensor JAX names must be S = Q K^T of these operands:
/// [B, Hq, Sq, Skv] of the query's element type.
static LogicalResult
checkIntermediateShape(shlo::CustomCallOp op,
                       const std::optional<CudnnIntermediateShape> &shape,
                       Layout layout, RankedTensorType query,
                       RankedTensorType key) {
  if (!shape)
    return success();
  AttentionShape sizes = AttentionShape::get(layout, query, key);
  int64_t expected[] = {sizes.batch, sizes.headsQ, sizes.seqQ, sizes.seqKv};
  StringRef type = query.getElementType().isBF16() ? "BF16" : "F16";
  if (shape->elementType == type && ArrayRef<int64_t>(shape->dims) == ArrayRef<int64_t>(expected))
    return success();
  InFlightDiagnostic diag =
      op.emitOpError("expected intermediate_tensor_shape to be ")
      << type << " [";
  llvm::interleaveComma(expected, diag);
  diag << "] (S = Q K^T of the operands), got " << shape->elementType << " [";
  llvm::interleaveComma(shape->dims, diag);
  return diag << "]";
}

/// `[B, S, H, D]` -> `[B, H, S, D]` for bshd; unchanged for bhsd.
static RankedTensorType toBhsd(Layout layout, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  if (layout == Layout::bhsd)
    return tensor;
  ArrayRef<int64_t> s = tensor.getShape();
  return RankedTensorType::get({s[0], s[2], s[1], s[3]},
                               tensor.getElementType());
}

FailureOr<CudnnCall> import::analyzeCudnnCall(shlo::CustomCallOp op) {
  StringRef target = op.getCallTargetName();
  CudnnCall call;
  call.op = op;
  if (target == kBackwardTarget) {
    call.backward = true;
  } else if (target != kForwardTarget) {
    if (target.contains("F8"))
      return op.emitOpError("unsupported fp8 cuDNN attention @") << target;
    if (target.contains("Bias"))
      return op.emitOpError("unsupported cuDNN attention with a bias @")
             << target;
    if (target.contains("Dropout"))
      return op.emitOpError("unsupported cuDNN attention with dropout @")
             << target;
    return op.emitOpError("unsupported cuDNN custom call target @") << target;
  }

  // The backend config.
  FailureOr<CudnnConfig> config = readCudnnBackendConfig(op, call.backward);
  if (failed(config))
    return failure();
  call.spec = config->spec;
  call.padding = config->padding;
  bool padding = config->padding;
  StringRef maskType = config->maskType;
  Layout layout = call.spec.layout;

  // Operands and results.
  unsigned tensors = call.backward ? 6 : 3;
  unsigned expectedOperands = tensors + (padding ? 2 : 0);
  if (op.getNumOperands() != expectedOperands)
    return op.emitOpError("expected ")
           << expectedOperands << " operands for mask_type " << maskType
           << ", got " << op.getNumOperands();
  Value query = op.getOperand(0), key = op.getOperand(1),
        value = op.getOperand(2);
  if (std::optional<std::string> problem = checkOperandTypes(
          layout, query.getType(), key.getType(), value.getType()))
    return op.emitOpError("unsupported operands: ") << *problem;
  auto queryType = cast<RankedTensorType>(query.getType());
  RankedTensorType lseType = getLseType(layout, queryType);
  if (failed(checkIntermediateShape(op, config->intermediate, layout,
                                    queryType,
                                    cast<RankedTensorType>(key.getType()))))
    return failure();
  if (padding) {
    auto lengths = RankedTensorType::get(
        {queryType.getDimSize(0)}, IntegerType::get(op.getContext(), 32));
    if (failed(expectType(op, "query lengths", op.getOperand(tensors).getType(),
                          lengths)) ||
        failed(expectType(op, "key lengths",
                          op.getOperand(tensors + 1).getType(), lengths)))
      return failure();
  }

  unsigned numResults = op.getNumResults();
  if (call.backward) {
    if (numResults != 4)
      return op.emitOpError("expected 4 results (dQ, dK, dV, workspace), got ")
             << numResults;
    if (failed(expectType(op, "softmax stats operand",
                          op.getOperand(3).getType(), lseType)) ||
        failed(expectType(op, "output gradient operand",
                          op.getOperand(4).getType(), queryType)) ||
        failed(expectType(op, "forward output operand",
                          op.getOperand(5).getType(), queryType)) ||
        failed(expectType(op, "dQ result", op.getResult(0).getType(),
                          toBhsd(layout, queryType))) ||
        failed(expectType(op, "dK result", op.getResult(1).getType(),
                          toBhsd(layout, key.getType()))) ||
        failed(expectType(op, "dV result", op.getResult(2).getType(),
                          toBhsd(layout, value.getType()))))
      return failure();
  } else {
    if (numResults != 2 && numResults != 3)
      return op.emitOpError("expected 2 or 3 results (output, softmax stats "
                            "when training, workspace), got ")
             << numResults;
    if (failed(expectType(op, "output result", op.getResult(0).getType(),
                          toBhsd(layout, queryType))) ||
        (numResults == 3 &&
         failed(expectType(op, "softmax stats result",
                           op.getResult(1).getType(), lseType))))
      return failure();
  }
  if (!op.getResult(numResults - 1).use_empty())
    return op.emitOpError("unsupported use of the workspace result");

  // Whatever else the sdpa verifier requires: build the op unlinked, check,
  // drop it.
  OpBuilder detached(op.getContext());
  SmallVector<Value, 2> seqlens;
  if (padding)
    seqlens = {op.getOperand(tensors), op.getOperand(tensors + 1)};
  Operation *probe =
      call.backward
          ? createAttentionGrad(detached, op.getLoc(), query, key, value,
                                op.getOperand(5), op.getOperand(4),
                                op.getOperand(3), seqlens, call.spec)
                .getOperation()
          : createAttention(detached, op.getLoc(), query, key, value, seqlens,
                            call.spec)
                .getOperation();
  std::optional<std::string> problem = verifyQuietly(probe);
  probe->erase();
  if (problem)
    return op.emitOpError("unsupported operands: ") << *problem;
  return call;
}

void import::importCudnnCall(RewriterBase &rewriter, const CudnnCall &call) {
  shlo::CustomCallOp op = call.op;
  rewriter.setInsertionPoint(op);
  unsigned tensors = call.backward ? 6 : 3;
  SmallVector<Value, 2> seqlens;
  if (call.padding)
    seqlens = {op.getOperand(tensors), op.getOperand(tensors + 1)};
  static constexpr int64_t kIdentity[] = {0, 1, 2, 3};
  ArrayRef<int64_t> perm = call.spec.layout == Layout::bshd
                               ? getSwapSeqHeadsPermutation()
                               : ArrayRef<int64_t>(kIdentity);
  Value query = op.getOperand(0), key = op.getOperand(1),
        value = op.getOperand(2);
  if (call.backward) {
    AttentionGradOp grad = createAttentionGrad(
        rewriter, op.getLoc(), query, key, value, /*output=*/op.getOperand(5),
        /*gradOutput=*/op.getOperand(4), /*lse=*/op.getOperand(3), seqlens,
        call.spec);
    replaceTransposed(rewriter, op.getResult(0), grad.getGradQuery(), perm);
    replaceTransposed(rewriter, op.getResult(1), grad.getGradKey(), perm);
    replaceTransposed(rewriter, op.getResult(2), grad.getGradValue(), perm);
  } else {
    AttentionOp attention = createAttention(rewriter, op.getLoc(), query, key,
                                            value, seqlens, call.spec);
    replaceTransposed(rewriter, op.getResult(0), attention.getOutput(), perm);
    if (op.getNumResults() == 3)
      rewriter.replaceAllUsesWith(op.getResult(1), attention.getLse());
  }
  rewriter.eraseOp(op);
}
