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

#include "Import.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

static constexpr StringLiteral kForwardTarget = "__cudnn$fmhaSoftmax";
static constexpr StringLiteral kBackwardTarget = "__cudnn$fmhaSoftmaxBackward";

bool import::isCudnnAttentionTarget(StringRef target) {
  return target.starts_with("__cudnn$fmha");
}

namespace {

/// One `*_dot_dimension_numbers` entry: ((lhs contracting, rhs contracting),
/// (lhs batch, rhs batch)).
struct DotDims {
  int64_t lhsContract, rhsContract;
  std::array<int64_t, 2> lhsBatch, rhsBatch;
};

/// The dot dimension numbers JAX writes for each layout.
struct LayoutDims {
  Layout layout;
  DotDims bmm1, bmm2, grad11, grad12, grad21, grad22;
};

constexpr LayoutDims kLayoutDims[] = {
    // BNTH: [B, H, S, D].
    {Layout::bhsd,
     {3, 3, {0, 1}, {0, 1}},
     {3, 2, {0, 1}, {0, 1}},
     {2, 2, {0, 1}, {0, 1}},
     {3, 2, {0, 1}, {0, 1}},
     {2, 2, {0, 1}, {0, 1}},
     {3, 3, {0, 1}, {0, 1}}},
    // BTNH: [B, S, H, D].
    {Layout::bshd,
     {3, 3, {0, 2}, {0, 2}},
     {3, 1, {0, 1}, {0, 2}},
     {2, 1, {0, 1}, {0, 2}},
     {3, 1, {0, 1}, {0, 2}},
     {2, 1, {0, 1}, {0, 2}},
     {3, 3, {0, 2}, {0, 2}}},
};

/// Reads the backend config of one call; every failure is an error on it.
class ConfigReader {
public:
  explicit ConfigReader(shlo::CustomCallOp op) : op(op) {}

  InFlightDiagnostic malformed() {
    return op.emitOpError("malformed backend_config: ");
  }

  /// An integer written as a JSON number or a string of digits.
  static std::optional<int64_t> asInt(const llvm::json::Value &value) {
    if (std::optional<int64_t> i = value.getAsInteger())
      return i;
    if (std::optional<StringRef> s = value.getAsString()) {
      int64_t i;
      if (!s->getAsInteger(10, i))
        return i;
    }
    return std::nullopt;
  }

  std::optional<SmallVector<int64_t>>
  intList(const llvm::json::Object &object, StringRef key) {
    const llvm::json::Array *array = object.getArray(key);
    if (!array)
      return std::nullopt;
    SmallVector<int64_t> values;
    for (const llvm::json::Value &v : *array) {
      std::optional<int64_t> i = asInt(v);
      if (!i)
        return std::nullopt;
      values.push_back(*i);
    }
    return values;
  }

  /// Reads `<key>` and compares it with `expected`.
  LogicalResult checkDims(const llvm::json::Object &config, StringRef key,
                          const DotDims &expected) {
    const llvm::json::Object *dims = config.getObject(key);
    if (!dims) {
      malformed() << "missing " << key;
      return failure();
    }
    auto lc = intList(*dims, "lhs_contracting_dimensions");
    auto rc = intList(*dims, "rhs_contracting_dimensions");
    auto lb = intList(*dims, "lhs_batch_dimensions");
    auto rb = intList(*dims, "rhs_batch_dimensions");
    if (!lc || !rc || !lb || !rb) {
      malformed() << "expected integer dimension lists in " << key;
      return failure();
    }
    if (*lc != ArrayRef<int64_t>{expected.lhsContract} ||
        *rc != ArrayRef<int64_t>{expected.rhsContract} ||
        *lb != ArrayRef<int64_t>(expected.lhsBatch) ||
        *rb != ArrayRef<int64_t>(expected.rhsBatch)) {
      op.emitOpError("unsupported ")
          << key << " (not a BTNH or BNTH attention layout)";
      return failure();
    }
    return success();
  }

  /// Picks the layout from the first product's batch dimensions, then
  /// checks every product against it.
  FailureOr<Layout> readLayout(const llvm::json::Object &config,
                               bool backward) {
    StringRef first = backward ? "bmm2_grad_gemm2_dot_dimension_numbers"
                               : "bmm1_dot_dimension_numbers";
    const llvm::json::Object *dims = config.getObject(first);
    std::optional<SmallVector<int64_t>> lb =
        dims ? intList(*dims, "lhs_batch_dimensions") : std::nullopt;
    if (!lb) {
      malformed() << "missing " << first;
      return failure();
    }
    for (const LayoutDims &candidate : kLayoutDims) {
      const DotDims &probe = backward ? candidate.grad22 : candidate.bmm1;
      if (*lb != ArrayRef<int64_t>(probe.lhsBatch))
        continue;
      if (backward) {
        if (failed(checkDims(config, "bmm1_grad_gemm1_dot_dimension_numbers",
                             candidate.grad11)) ||
            failed(checkDims(config, "bmm1_grad_gemm2_dot_dimension_numbers",
                             candidate.grad12)) ||
            failed(checkDims(config, "bmm2_grad_gemm1_dot_dimension_numbers",
                             candidate.grad21)) ||
            failed(checkDims(config, first, candidate.grad22)))
          return failure();
      } else if (failed(checkDims(config, first, candidate.bmm1)) ||
                 failed(checkDims(config, "bmm2_dot_dimension_numbers",
                                  candidate.bmm2))) {
        return failure();
      }
      return candidate.layout;
    }
    op.emitOpError("unsupported ")
        << first << " (not a BTNH or BNTH attention layout)";
    return failure();
  }

  shlo::CustomCallOp op;
};

} // namespace

/// Checks that `value` has type `expected`, naming it otherwise.
static LogicalResult expectType(shlo::CustomCallOp op, StringRef what,
                                Type actual, Type expected) {
  if (actual == expected)
    return success();
  return op.emitOpError("expected ")
         << what << " of type " << expected << ", got " << actual;
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
  ConfigReader reader(op);
  auto text = dyn_cast_or_null<StringAttr>(op.getBackendConfigAttr());
  if (!text)
    return op.emitOpError("expected backend_config to be a JSON string");
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text.getValue());
  if (!json)
    return reader.malformed() << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *config =
      root ? root->getObject("cudnn_fmha_backend_config") : nullptr;
  if (!config)
    return reader.malformed() << "missing cudnn_fmha_backend_config";

  std::optional<double> scale = config->getNumber("fmha_scale");
  if (!scale || !std::isfinite(*scale) || *scale <= 0)
    return reader.malformed() << "expected a positive fmha_scale";
  if (const llvm::json::Value *dropout = config->get("dropout_rate")) {
    std::optional<double> rate = dropout->getAsNumber();
    if (!rate)
      return reader.malformed() << "expected a number as dropout_rate";
    if (*rate != 0)
      return op.emitOpError("unsupported dropout (dropout_rate = ")
             << *rate << ")";
  }
  if (std::optional<bool> paged = config->getBoolean("is_paged_attention"))
    if (*paged)
      return op.emitOpError("unsupported paged attention");
  if (const llvm::json::Value *segments = config->get("max_seg_per_batch")) {
    std::optional<int64_t> n = ConfigReader::asInt(*segments);
    if (!n)
      return reader.malformed() << "expected an integer max_seg_per_batch";
    if (*n != 1)
      return op.emitOpError(
                 "unsupported packed segments (max_seg_per_batch = ")
             << *n << ")";
  }
  std::optional<StringRef> maskType = config->getString("mask_type");
  if (!maskType)
    return reader.malformed() << "missing mask_type";
  std::optional<std::pair<bool, bool>> mask =
      llvm::StringSwitch<std::optional<std::pair<bool, bool>>>(*maskType)
          .Case("NO_MASK", std::pair{false, false})
          .Case("CAUSAL", std::pair{true, false})
          .Case("PADDING", std::pair{false, true})
          .Case("PADDING_CAUSAL", std::pair{true, true})
          .Default(std::nullopt);
  if (!mask)
    return op.emitOpError("unsupported mask_type ") << *maskType;
  auto [causal, padding] = *mask;
  call.padding = padding;
  int64_t window = 0;
  if (const llvm::json::Value *length = config->get("sliding_window_length")) {
    std::optional<int64_t> n = ConfigReader::asInt(*length);
    if (!n || *n < 0)
      return reader.malformed()
             << "expected a non-negative sliding_window_length";
    window = *n;
  }
  FailureOr<Layout> layout = reader.readLayout(*config, call.backward);
  if (failed(layout))
    return failure();

  // cuDNN counts the window in keys, the diagonal included; JAX's causal
  // mask is top-left; without causal the right edge is unbounded.
  call.spec.layout = *layout;
  call.spec.scale = *scale;
  call.spec.band.align = Alignment::TopLeft;
  if (window > 0)
    call.spec.band.left = window - 1;
  if (causal)
    call.spec.band.right = 0;

  // Operands and results.
  unsigned tensors = call.backward ? 6 : 3;
  unsigned expectedOperands = tensors + (padding ? 2 : 0);
  if (op.getNumOperands() != expectedOperands)
    return op.emitOpError("expected ")
           << expectedOperands << " operands for mask_type " << *maskType
           << ", got " << op.getNumOperands();
  Value query = op.getOperand(0), key = op.getOperand(1),
        value = op.getOperand(2);
  if (std::optional<std::string> problem = checkOperandTypes(
          *layout, query.getType(), key.getType(), value.getType()))
    return op.emitOpError("unsupported operands: ") << *problem;
  auto queryType = cast<RankedTensorType>(query.getType());
  RankedTensorType lseType = getLseType(*layout, queryType);
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
                          toBhsd(*layout, queryType))) ||
        failed(expectType(op, "dK result", op.getResult(1).getType(),
                          toBhsd(*layout, key.getType()))) ||
        failed(expectType(op, "dV result", op.getResult(2).getType(),
                          toBhsd(*layout, value.getType()))))
      return failure();
  } else {
    if (numResults != 2 && numResults != 3)
      return op.emitOpError("expected 2 or 3 results (output, softmax stats "
                            "when training, workspace), got ")
             << numResults;
    if (failed(expectType(op, "output result", op.getResult(0).getType(),
                          toBhsd(*layout, queryType))) ||
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
