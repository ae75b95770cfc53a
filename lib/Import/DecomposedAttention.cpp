//===- DecomposedAttention.cpp - Recover attention from XLA graphs --------===//
//
// jax.nn.dot_product_attention with the XLA implementation prints
//
//   S = dot_general(Q', K) * scale          Q' = Q with heads split (GQA)
//   X = select(mask, S, fill)               (absent without a mask)
//   P = exp(X - max(X)) / sum(exp(X - max(X)))    (row-wise over keys)
//   O = dot_general(P, V), transposed and reshaped back to Q's layout
//
// with helpers outlined into private functions. The matcher interprets the
// graph abstractly: each value gets a kind (scores, logits, row max, ...)
// and a label per dimension (batch, kv head, group, query row, key, head
// dim), so every product, reduction and broadcast is checked to act on the
// right dimensions. The mask is then read symbolically (MaskAnalysis) and
// verified cell by cell. A softmax whose probabilities feed dV = P^T dO has
// its backward matched too (DecomposedBackward.cpp). Anything that does
// not match exactly is declined with a remark and left unchanged.
//
//===----------------------------------------------------------------------===//

#include "Decomposed.h"
#include "MaskAnalysis.h"

#include "SdpaDialect/Export/FfiCall.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

namespace {

/// Whether `a` and `b` (of one shape) index the same cells; a Star in `b`
/// may stand for the key dimension of `a` (a row statistic broadcast).
bool compatible(const Labels &a, const Labels &b, ArrayRef<int64_t> shape) {
  if (a.size() != b.size())
    return false;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (size == 1)
      continue;
    if (a[i] != b[i] && !(b[i] == Dim::Star && a[i] == Dim::Skv))
      return false;
  }
  return true;
}

std::optional<double> splatValue(shlo::ConstantOp constant) {
  auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  APFloat value = dense.getSplatValue<APFloat>();
  bool lost;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

bool isScoreKind(Kind kind) {
  return kind == Kind::Scores || kind == Kind::Scaled;
}

/// The sinks of `concat(logits, column)` along the logits' key dimension,
/// where `column` is an [Hq] f32 vector broadcast (by broadcast_in_dim ops)
/// over every dimension but the query head, with the key dimension of size 1:
/// that vector, or null with `why` set.
Value sinkColumn(shlo::ConcatenateOp concat, const Labels &labels,
                 std::string &why) {
  ArrayRef<int64_t> shape = shapeOf(concat->getOperand(0));
  int64_t dim = static_cast<int64_t>(concat.getDimension());
  if (labels.size() != shape.size() || labels[dim] != Dim::Skv) {
    why = "a concatenation to the logits along another dimension than the keys";
    return {};
  }
  // The query head's dimension: H, or G with a single kv head.
  auto head = llvm::find_if(labels, [](Dim d) { return d == Dim::H; });
  if (head == labels.end())
    head = llvm::find(labels, Dim::G);
  if (head == labels.end() || llvm::is_contained(labels, Dim::Hkv)) {
    why = "a sink column over query heads split into (kv heads, groups)";
    return {};
  }
  int64_t headDim = head - labels.begin();
  // Walk the broadcasts back, composing where each operand dimension lands.
  Value column = concat->getOperand(1);
  SmallVector<int64_t> lands = llvm::to_vector(llvm::seq<int64_t>(
      0, static_cast<int64_t>(shape.size())));
  while (auto broadcast = column.getDefiningOp<shlo::BroadcastInDimOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t d : broadcast.getBroadcastDimensions())
      composed.push_back(lands[d]);
    lands = composed;
    column = broadcast.getOperand();
  }
  auto type = dyn_cast<RankedTensorType>(column.getType());
  ArrayRef<int64_t> columnShape = shapeOf(concat->getOperand(1));
  for (auto [d, size] : llvm::enumerate(columnShape))
    if (size != (int64_t(d) == dim ? 1 : shape[d])) {
      why = "a sink column not shaped like one key of the logits";
      return {};
    }
  if (!type || type.getRank() != 1 || !type.getElementType().isF32() ||
      lands.size() != 1 || lands[0] != headDim ||
      type.getDimSize(0) != shape[headDim]) {
    why = "a sink column that is not an [Hq] f32 vector broadcast over the "
          "query heads";
    return {};
  }
  return column;
}

/// `in` carried on by the op at `site` as a new chain of `kind`: the origin
/// is that op and the division by a constant, if any, is behind it.
Node restarted(Node in, Kind kind, const Site &site) {
  in.kind = kind;
  in.origin = site;
  in.divided.reset();
  return in;
}

/// A copy of `node` whose info records the unsupported `feature`.
Node withUnsupported(Node node, StringRef feature) {
  auto info = std::make_shared<Info>(*node.info);
  if (info->unsupported.empty())
    info->unsupported = feature.str();
  node.info = info;
  return node;
}

} // namespace

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

Node Matcher::analyze(const Site &site) {
  auto key = site.key();
  auto it = memo.find(key);
  if (it != memo.end())
    return it->second;
  if (depth >= kMaxGraphDepth) {
    tooDeep = true;
    return {};
  }
  ++depth;
  Node node = analyzeOp(site);
  --depth;
  memo[key] = node;
  return node;
}

Node Matcher::analyzeOp(const Site &site) {
  Operation *op = site.getDefiningOp();
  if (!op || site.truncated)
    return {};
  auto type = dyn_cast<RankedTensorType>(site.value.getType());
  if (!type)
    return {};
  ArrayRef<int64_t> shape = type.getShape();
  StringRef name = op->getName().getStringRef();

  if (auto constant = dyn_cast<shlo::ConstantOp>(op)) {
    if (std::optional<double> v = splatValue(constant))
      return Node{Kind::Splat, {}, *v, nullptr, std::nullopt, std::nullopt};
    return {};
  }
  if (auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(op)) {
    Node in = analyze(site.operand(0));
    if (in.kind == Kind::Splat || in.kind == Kind::Unknown)
      return in;
    in.labels = broadcastLabels(in.labels, broadcast, shape);
    return in;
  }
  if (auto transpose = dyn_cast<shlo::TransposeOp>(op)) {
    Node in = analyze(site.operand(0));
    if (in.kind == Kind::Splat || in.kind == Kind::Unknown)
      return in;
    in.labels = permuteLabels(in.labels, transpose.getPermutation());
    return in;
  }
  if (auto reshape = dyn_cast<shlo::ReshapeOp>(op)) {
    Node in = analyze(site.operand(0));
    if (in.kind == Kind::Splat || in.kind == Kind::Unknown)
      return in;
    std::optional<Labels> labels =
        reshapeLabels(in.labels, shapeOf(reshape.getOperand()), shape);
    if (!labels)
      return {};
    in.labels = *labels;
    return in;
  }
  if (auto convert = dyn_cast<shlo::ConvertOp>(op)) {
    Node in = analyze(site.operand(0));
    // A float constant converted: the same constant, rounded to the type.
    if (in.kind == Kind::Splat) {
      auto to = dyn_cast<FloatType>(type.getElementType());
      if (!to)
        return {};
      APFloat value(in.splat);
      bool lost;
      value.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
      value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                    &lost);
      in.splat = value.convertToDouble();
      return in;
    }
    // Rounding the probabilities or the output to the operand type is
    // what the sdpa op does too; other conversions change the chain.
    if ((in.kind == Kind::Probs || in.kind == Kind::Out) &&
        isa<FloatType>(type.getElementType()))
      return in;
    return {};
  }
  if (auto dot = dyn_cast<shlo::DotGeneralOp>(op)) {
    Node pv = matchProbsTimesValue(site, dot);
    if (pv.kind != Kind::Unknown)
      return pv;
    return matchScores(site, dot);
  }
  if (isa<shlo::MultiplyOp>(op)) {
    Node lhs = analyze(site.operand(0));
    Node rhs = analyze(site.operand(1));
    if (lhs.kind == Kind::Splat)
      std::swap(lhs, rhs);
    if (rhs.kind != Kind::Splat)
      return {};
    // c * tanh(S / c): the softcap c, with S's scale. Any other factor is
    // another function (c' * tanh(S / c) would be a cap c' with the scale
    // rescaled: declined rather than read as a cap the source never wrote).
    if (lhs.kind == Kind::Tanh) {
      auto [divisor, scale] = *lhs.divided;
      if (rhs.splat != divisor)
        return withUnsupported(
            Node{Kind::Scaled, lhs.labels, 0, lhs.info, site, std::nullopt},
            "c * tanh(S / d) with c = " + std::to_string(rhs.splat) +
                " and d = " + std::to_string(divisor) +
                " is no logit softcap (c and d differ)");
      if (!std::isfinite(divisor) ||
          static_cast<double>(static_cast<float>(divisor)) != divisor)
        return withUnsupported(
            Node{Kind::Scaled, lhs.labels, 0, lhs.info, site, std::nullopt},
            "the softcap " + std::to_string(divisor) +
                " is not a finite f32, as sdpa.attention's softcap is");
      auto info = std::make_shared<Info>(*lhs.info);
      info->scale = scale;
      info->softcap = divisor;
      info->tanh = lhs.origin;
      return Node{Kind::Scaled, lhs.labels, 0, info, site, std::nullopt};
    }
    if (!isScoreKind(lhs.kind))
      return {};
    if (lhs.info->softcap)
      return withUnsupported(
          Node{Kind::Scaled, lhs.labels, 0, lhs.info, site, std::nullopt},
          "the softcapped scores are scaled again");
    auto info = std::make_shared<Info>(*lhs.info);
    info->scale *= rhs.splat;
    return Node{Kind::Scaled, lhs.labels, 0, info, site, std::nullopt};
  }
  // The logit softcap c * tanh(S / c) (Gemma 2): tanh of the scores just
  // divided by a constant; its factor c follows (the multiply above).
  if (isa<shlo::TanhOp>(op)) {
    Node in = analyze(site.operand(0));
    if (!isScoreKind(in.kind))
      return {};
    Node capped = in;
    capped.origin = site;
    // Declined chains go on as scores, so the remark names why.
    capped.kind = Kind::Scaled;
    if (in.info->softcap)
      return withUnsupported(capped, "the softcapped scores are capped again");
    if (!in.divided)
      return withUnsupported(capped, "a tanh of scores not divided by a "
                                     "constant is no logit softcap "
                                     "c * tanh(S / c)");
    capped.kind = Kind::Tanh;
    return capped;
  }
  // Attention sinks (gpt-oss) written out: a sink logit per head joins the
  // logits as one more key column, and is sliced off the probabilities.
  if (auto concat = dyn_cast<shlo::ConcatenateOp>(op);
      concat && op->getNumOperands() == 2) {
    Node logits = analyze(site.operand(0));
    if (!isScoreKind(logits.kind) && logits.kind != Kind::Masked)
      return {};
    // The sinks join the logits as they stand: no scale, cap or mask after.
    Node sunk = restarted(logits, Kind::Masked, site);
    std::string why;
    Value sinks = sinkColumn(concat, logits.labels, why);
    auto info = std::make_shared<Info>(*logits.info);
    info->sinkColumn = true; // declined or not, the slice follows
    sunk.info = info;
    if (!sinks || logits.info->sinks)
      return withUnsupported(sunk, why.empty() ? "the logits gain a second "
                                                 "sink column"
                                               : why);
    info->sinks = sinks;
    return sunk;
  }
  // The sink column sliced off the probabilities: keys [0, Skv) exactly.
  if (auto slice = dyn_cast<shlo::SliceOp>(op)) {
    Node in = analyze(site.operand(0));
    if (in.kind != Kind::Probs || !in.info->sinkColumn)
      return {};
    auto info = std::make_shared<Info>(*in.info);
    info->sinkColumn = false;
    in.info = info;
    in.origin = site;
    ArrayRef<int64_t> from = shapeOf(slice.getOperand());
    for (auto [d, label] : llvm::enumerate(in.labels)) {
      int64_t keep = label == Dim::Skv ? from[d] - 1 : from[d];
      if (slice.getStartIndices()[d] != 0 || slice.getLimitIndices()[d] != keep ||
          slice.getStrides()[d] != 1)
        return withUnsupported(in, "the probabilities are not sliced to the "
                                   "keys without the sink column");
    }
    return in;
  }
  if (isa<shlo::SelectOp>(op)) {
    Node x = analyze(site.operand(1));
    Node fill = analyze(site.operand(2));
    if (!isScoreKind(x.kind) || fill.kind != Kind::Splat || x.info->mask)
      return {};
    if (shapeOf(op->getOperand(0)) != shape)
      return {};
    auto info = std::make_shared<Info>(*x.info);
    info->mask = site.operand(0);
    info->maskLabels = x.labels;
    info->fill = fill.splat;
    return Node{Kind::Masked, x.labels, 0, info, site, std::nullopt};
  }
  if (auto reduce = dyn_cast<shlo::ReduceOp>(op)) {
    // One input and its init (the variadic form reduces several).
    if (reduce->getNumOperands() != 2)
      return {};
    Node in = analyze(site.operand(0));
    Node init = analyze(site.operand(1));
    ArrayRef<int64_t> dims = reduce.getDimensions();
    ArrayRef<int64_t> inShape = shapeOf(reduce->getOperand(0));
    // The reduced dimensions: the key, and any size-1 ones.
    bool overKeys = false;
    // A splat has no labels; only a labelled input reduces over keys.
    if (in.labels.size() != inShape.size())
      return {};
    for (int64_t d : dims) {
      if (in.labels[d] == Dim::Skv)
        overKeys = true;
      else if (inShape[d] != 1)
        return {};
    }
    if (!overKeys || init.kind != Kind::Splat)
      return {};
    Labels labels;
    for (auto [d, label] : llvm::enumerate(in.labels))
      if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
        labels.push_back(label);
    bool isLogits = isScoreKind(in.kind) || in.kind == Kind::Masked;
    if (reduce.getApplies() == "stablehlo.maximum" && isLogits &&
        std::isinf(init.splat) && init.splat < 0)
      return Node{Kind::RowMax, labels, 0, in.info, site, in.origin};
    if (reduce.getApplies() == "stablehlo.add" && in.kind == Kind::Exp &&
        init.splat == 0)
      return Node{Kind::RowSum, labels, 0, in.info, site, in.origin};
    return {};
  }
  if (isa<shlo::MaximumOp>(op)) {
    // max(-inf, row max) is the row max.
    Node lhs = analyze(site.operand(0));
    Node rhs = analyze(site.operand(1));
    if (lhs.kind == Kind::Splat)
      std::swap(lhs, rhs);
    if (lhs.kind == Kind::RowMax && rhs.kind == Kind::Splat &&
        std::isinf(rhs.splat) && rhs.splat < 0)
      return lhs;
    return {};
  }
  if (isa<shlo::SubtractOp>(op)) {
    Node x = analyze(site.operand(0));
    Node max = analyze(site.operand(1));
    if (max.kind != Kind::RowMax || !x.origin || !max.of ||
        !(*x.origin == *max.of) || !compatible(x.labels, max.labels, shape))
      return {};
    return Node{Kind::Shifted, x.labels, 0, x.info, site, x.origin};
  }
  if (isa<shlo::ExpOp>(op)) {
    Node in = analyze(site.operand(0));
    if (in.kind != Kind::Shifted)
      return {};
    return Node{Kind::Exp, in.labels, 0, in.info, site, in.of};
  }
  if (isa<shlo::DivideOp>(op)) {
    Node lhs = analyze(site.operand(0));
    Node rhs = analyze(site.operand(1));
    // Scores divided by a constant: the scale after the product (and the
    // softcap's S / c).
    if (isScoreKind(lhs.kind) && rhs.kind == Kind::Splat && rhs.splat != 0) {
      Node scaled{Kind::Scaled, lhs.labels, 0, lhs.info, site, std::nullopt};
      if (lhs.info->softcap)
        return withUnsupported(scaled, "the softcapped scores are scaled "
                                       "again");
      auto info = std::make_shared<Info>(*lhs.info);
      info->scale /= rhs.splat;
      scaled.info = info;
      scaled.divided = std::make_pair(rhs.splat, lhs.info->scale);
      return scaled;
    }
    if (lhs.kind != Kind::Exp || rhs.kind != Kind::RowSum || !rhs.of ||
        !(*lhs.origin == *rhs.of) || !compatible(lhs.labels, rhs.labels, shape))
      return {};
    auto info = std::make_shared<Info>(*lhs.info);
    info->exp = lhs.origin;
    return Node{Kind::Probs, lhs.labels, 0, info, site, std::nullopt};
  }
  // Another elementwise function of the scores (a softcap with another
  // function than tanh, say): no score modifier of the dialect.
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumOperands() == 1) {
    Node in = analyze(site.operand(0));
    if (!isScoreKind(in.kind) && in.kind != Kind::Tanh)
      return {};
    Node modified = restarted(in, Kind::Scaled, site);
    return withUnsupported(modified, "the scores go through " + name.str() +
                                         ", which sdpa.attention has no "
                                         "modifier for");
  }
  return {};
}

Node Matcher::matchScores(const Site &site, shlo::DotGeneralOp dot) {
  Site lhs = site.operand(0), rhs = site.operand(1);
  if (!lhs.calls.empty() || !rhs.calls.empty())
    return {};
  // f16/bf16 operands widened to f32 before the product are the same
  // product; the sdpa op reads the narrow ones.
  Value key = peelUpcast(rhs.value);
  Value lhsValue = peelUpcast(lhs.value);
  auto keyType = dyn_cast<RankedTensorType>(key.getType());
  if (!keyType || keyType.getRank() != 4 ||
      dot.getRhsContractingDimensions() != ArrayRef<int64_t>{3} ||
      dot.getLhsContractingDimensions().size() != 1)
    return {};
  auto info = std::make_shared<Info>();
  ArrayRef<int64_t> rb = dot.getRhsBatchingDimensions();
  if (rb == ArrayRef<int64_t>{0, 2})
    info->layout = Layout::bshd;
  else if (rb == ArrayRef<int64_t>{0, 1})
    info->layout = Layout::bhsd;
  else
    return {};
  bool bshd = info->layout == Layout::bshd;
  int64_t headsKv = keyType.getDimSize(bshd ? 2 : 1);
  Labels lhsLabels;
  Value query = lhsValue;
  auto lhsType = cast<RankedTensorType>(lhsValue.getType());
  if (auto reshape = lhsValue.getDefiningOp<shlo::ReshapeOp>();
      reshape && lhsType.getRank() == 5) {
    query = reshape.getOperand();
    auto queryType = cast<RankedTensorType>(query.getType());
    if (queryType.getRank() != 4)
      return {};
    ArrayRef<int64_t> q = queryType.getShape();
    int64_t heads = q[bshd ? 2 : 1];
    if (headsKv <= 0 || heads % headsKv != 0)
      return {};
    info->groups = heads / headsKv;
    SmallVector<int64_t> split =
        bshd ? SmallVector<int64_t>{q[0], q[1], headsKv, info->groups, q[3]}
             : SmallVector<int64_t>{q[0], headsKv, info->groups, q[2], q[3]};
    if (lhsType.getShape() != ArrayRef<int64_t>(split))
      return {};
    lhsLabels = bshd ? Labels{Dim::B, Dim::Sq, Dim::Hkv, Dim::G, Dim::D}
                     : Labels{Dim::B, Dim::Hkv, Dim::G, Dim::Sq, Dim::D};
    // JAX's split of a query over K repeated by the user (jnp.repeat), so
    // one query head per (repeated) kv head: the sdpa op reads K itself,
    // and the split's head dimension is the query head.
    std::optional<std::pair<Value, int64_t>> repeated;
    if (info->groups == 1)
      repeated = unrepeatHeads(key, info->layout);
    if (repeated) {
      key = peelUpcast(repeated->first);
      info->groups = repeated->second;
      info->repeated = true;
      lhsLabels = bshd ? Labels{Dim::B, Dim::Sq, Dim::H, Dim::Unit, Dim::D}
                       : Labels{Dim::B, Dim::H, Dim::Unit, Dim::Sq, Dim::D};
    }
  } else if (lhsType.getRank() == 4) {
    if (lhsType.getDimSize(bshd ? 2 : 1) != headsKv)
      return {};
    lhsLabels = queryLabels(info->layout, 1);
    // K repeated over the groups: the sdpa op reads K itself.
    if (auto repeated = unrepeatHeads(key, info->layout)) {
      key = peelUpcast(repeated->first);
      info->groups = repeated->second;
      info->repeated = true;
      lhsLabels = queryLabels(info->layout, 2);
    }
  } else {
    return {};
  }
  Labels rhsLabels = info->repeated ? queryLabels(info->layout, 2)
                                    : keyLabels(info->layout);
  if (info->repeated)
    std::replace(rhsLabels.begin(), rhsLabels.end(), Dim::Sq, Dim::Skv);
  FailureOr<Labels> labels = productLabels(
      dot, lhsLabels, rhsLabels, {Dim::D}, {Dim::Sq, Dim::G}, {Dim::Skv});
  if (failed(labels))
    return {};
  info->query = query;
  info->queryOperand = lhsValue;
  info->key = key;
  return Node{Kind::Scores, *labels, 0, info, Site(site), std::nullopt};
}

Node Matcher::matchProbsTimesValue(const Site &site, shlo::DotGeneralOp dot) {
  for (unsigned probsSide : {0u, 1u}) {
    Node probs = analyze(site.operand(probsSide));
    if (probs.kind != Kind::Probs || probs.info->sinkColumn)
      continue;
    Site value = site.operand(1 - probsSide);
    Value v = peelUpcast(value.value);
    Labels valueLabels = keyLabels(probs.info->layout);
    if (probs.info->repeated) {
      auto repeated = unrepeatHeads(v, probs.info->layout);
      if (repeated && repeated->second == probs.info->groups) {
        v = peelUpcast(repeated->first);
        valueLabels = queryLabels(probs.info->layout, 2);
        std::replace(valueLabels.begin(), valueLabels.end(), Dim::Sq,
                     Dim::Skv);
      }
    }
    auto declined = [&](const Twine &reason) {
      declines[dot] = reason.str();
      return Node{};
    };
    if (!value.calls.empty() || !site.calls.empty())
      return declined("the product with the probabilities is inside a "
                      "called function");
    if (v.getType() != probs.info->key.getType())
      return declined("the probabilities are multiplied with a tensor "
                      "that is not shaped like the key");
    FailureOr<Labels> labels =
        probsSide == 0
            ? productLabels(dot, probs.labels, valueLabels, {Dim::Skv},
                            {Dim::G, Dim::Sq}, {Dim::D})
            : productLabels(dot, valueLabels, probs.labels, {Dim::Skv},
                            {Dim::D}, {Dim::G, Dim::Sq});
    if (failed(labels))
      return declined("the probabilities are not contracted with the "
                      "value over the keys");
    auto info = std::make_shared<Info>(*probs.info);
    info->value = v;
    return Node{Kind::Out, *labels, 0, info, site, std::nullopt};
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

namespace {

/// Whether `call` can go once its results are unused: its callee is a
/// private function of pure ops.
bool isPureCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || !callee.isPrivate() || callee.isExternal())
    return false;
  return llvm::all_of(callee.getBody().front().without_terminator(),
                      [](Operation &inner) { return isPure(&inner); });
}

/// Erases what became dead of `slice` after the imports, and private
/// helpers left without callers.
void eraseDead(RewriterBase &rewriter, llvm::SetVector<Operation *> live) {
  llvm::SetVector<func::FuncOp> callees;
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::reverse(live.getArrayRef())) {
      if (!op || !op->use_empty() || !(isPure(op) || isPureCall(op)))
        continue;
      if (auto call = dyn_cast<func::CallOp>(op))
        callees.insert(SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr()));
      live.remove(op);
      rewriter.eraseOp(op);
      changed = true;
      break;
    }
  }
  for (func::FuncOp callee : callees) {
    if (!callee)
      continue;
    Operation *table = SymbolTable::getNearestSymbolTable(callee);
    if (SymbolTable::symbolKnownUseEmpty(callee, table))
      rewriter.eraseOp(callee);
  }
}

/// The band of `info`'s mask, recovered symbolically and checked on every
/// cell (`cells` counts them); the full band without a mask.
FailureOr<Band> maskBand(const Info &info, int64_t &cells, std::string &why) {
  Band band{std::nullopt, std::nullopt, Alignment::TopLeft};
  cells = 0;
  if (!info.mask)
    return band;
  const Labels &labels = info.maskLabels;
  auto qIt = llvm::find(labels, Dim::Sq), kIt = llvm::find(labels, Dim::Skv);
  if (qIt == labels.end() || kIt == labels.end()) {
    why = "the mask has no query or key dimension";
    return failure();
  }
  unsigned qDim = qIt - labels.begin(), kDim = kIt - labels.begin();
  std::string reason;
  FailureOr<Band> recovered = recoverBand(*info.mask, qDim, kDim, reason);
  if (failed(recovered)) {
    why = "the mask is not a band: " + reason;
    return failure();
  }
  // Edges the dialect cannot hold (wider than 2^31 - 1) decline with the
  // dialect's own message.
  std::string invalid;
  auto emitError = [&]() {
    return mlir::emitError(UnknownLoc::get(info.query.getContext()));
  };
  {
    ScopedDiagnosticHandler capture(info.query.getContext(),
                                    [&](Diagnostic &diag) {
                                      if (invalid.empty())
                                        invalid = diag.str();
                                      return success();
                                    });
    if (failed(BandAttr::verify(emitError, recovered->left, recovered->right,
                                recovered->align))) {
      why = "the mask's band cannot be represented: " + invalid;
      return failure();
    }
  }
  FailureOr<IntTensor> mask = evaluateMask(*info.mask, reason);
  if (failed(mask)) {
    why = "the mask could not be verified: " + reason;
    return failure();
  }
  FailureOr<int64_t> checked = verifyBand(*mask, *recovered, qDim, kDim, reason);
  if (failed(checked)) {
    why = "the recovered band (" + describe(*recovered) +
          ") does not match: " + reason;
    return failure();
  }
  band = *recovered;
  cells = *checked;
  // A masked cell contributes exp(fill - max) = 0 only if the row sees a
  // key; with a finite fill a row without keys would average V. A NaN fill
  // is no masked value at all.
  if (std::isinf(info.fill) && info.fill < 0)
    return band;
  if (std::isnan(info.fill) || info.fill > -1e30) {
    why = "the masked value " + std::to_string(info.fill) +
          " is not a large negative number";
    return failure();
  }
  int64_t seqQ = mask->shape[qDim], seqKv = mask->shape[kDim];
  for (int64_t q = 0; q < seqQ; ++q) {
    int64_t lo = band.left ? std::max<int64_t>(0, q - *band.left) : 0;
    int64_t hi = band.right ? std::min(seqKv - 1, q + *band.right) : seqKv - 1;
    if (lo > hi || lo >= seqKv) {
      why = "a query row sees no key, where the graph's finite masked value "
            "would average the values";
      return failure();
    }
  }
  return band;
}

/// One attention of the function: its softmax, the P V product (forward)
/// and the dV product (backward), as found.
struct Group {
  std::shared_ptr<Info> info;
  shlo::DotGeneralOp pv, dv;
  Labels outLabels;
  bool ambiguous = false;
};

/// What one group imports as, decided before anything is rewritten.
struct Plan {
  Group group;
  Band band;
  int64_t cells = 0;
  Value output;                    ///< the forward's O, if imported
  std::optional<Backward> backward; ///< the backward, if imported
};

/// The op before which an op reading `operands` and defining values for
/// `users` goes: the first of `users` in their block, if every operand is
/// defined before it; null otherwise.
Operation *placement(ArrayRef<Value> operands, ArrayRef<Operation *> users) {
  Operation *first = nullptr;
  for (Operation *user : users) {
    if (first && user->getBlock() != first->getBlock())
      return nullptr;
    if (!first || user->isBeforeInBlock(first))
      first = user;
  }
  if (!first)
    return nullptr;
  for (Value operand : operands) {
    if (auto arg = dyn_cast<BlockArgument>(operand)) {
      if (!arg.getOwner()->findAncestorOpInBlock(*first) &&
          arg.getOwner() != first->getBlock())
        return nullptr;
      continue;
    }
    Operation *def = operand.getDefiningOp();
    if (def->getBlock() != first->getBlock() || !def->isBeforeInBlock(first))
      return nullptr;
  }
  return first;
}

/// Looks `value` up in the replacements made so far.
Value current(const DenseMap<Value, Value> &replaced, Value value) {
  auto it = replaced.find(value);
  return it == replaced.end() ? value : it->second;
}

} // namespace

void import::importDecomposedAttention(RewriterBase &rewriter,
                                       func::FuncOp func,
                                       const LoweringCheck *check) {
  // Analyze everything first: the matcher's memo holds values that the
  // rewrites erase.
  Matcher matcher;
  SmallVector<shlo::DotGeneralOp> dots;
  func.walk([&](shlo::DotGeneralOp dot) { dots.push_back(dot); });

  std::vector<Group> groups;
  std::map<SmallVector<const void *, 4>, size_t> byExp;
  auto groupOf = [&](const std::shared_ptr<Info> &info) -> Group & {
    auto [it, inserted] = byExp.try_emplace(info->exp->key(), groups.size());
    if (inserted)
      groups.push_back(Group{info, {}, {}, {}, false});
    return groups[it->second];
  };
  for (shlo::DotGeneralOp dot : dots) {
    Node node = matcher.analyze(Site{dot.getResult(), {}});
    if (node.kind == Kind::Out && node.info->exp) {
      Group &group = groupOf(node.info);
      group.ambiguous |= bool(group.pv);
      group.pv = dot;
      group.info = node.info;
      group.outLabels = node.labels;
      continue;
    }
    // dV = P^T dO: a product with the probabilities that is not P V.
    for (Value operand : dot->getOperands()) {
      Node probs = matcher.analyze(Site{operand, {}}.resolve());
      if (probs.kind != Kind::Probs || !probs.info->exp || probs.info->sinkColumn)
        continue;
      Group &group = groupOf(probs.info);
      group.ambiguous |= bool(group.dv);
      group.dv = dot;
      break;
    }
  }
  if (matcher.tooDeep && groups.empty())
    func.emitRemark("decomposed attention not searched fully: the graph is "
                    "deeper than ")
        << kMaxGraphDepth << " ops";

  std::vector<Plan> plans;
  for (Group &group : groups) {
    const Info &info = *group.info;
    Operation *anchor = group.pv ? group.pv : group.dv;
    auto decline = [&](const Twine &why) {
      anchor->emitRemark("decomposed attention not imported: ") << why;
    };
    if (!info.unsupported.empty()) {
      decline(info.unsupported);
      continue;
    }
    if (group.ambiguous) {
      decline("the probabilities feed more than one product of each kind");
      continue;
    }
    Plan plan{group, Band{}, 0, Value(), std::nullopt};
    std::string why;
    FailureOr<Band> band = maskBand(info, plan.cells, why);
    if (failed(band)) {
      decline(why);
      continue;
    }
    plan.band = *band;
    if (group.pv) {
      FailureOr<Value> root =
          followToLayout(group.pv.getResult(), group.outLabels,
                         info.query.getType(),
                         queryLabels(info.layout, info.groups),
                         shapeOf(info.key)[info.layout == Layout::bshd ? 2
                                                                        : 1]);
      if (failed(root)) {
        decline("the output is not brought back to the query's layout");
        continue;
      }
      plan.output = *root;
    }
    if (group.dv) {
      FailureOr<Backward> backward =
          matchBackward(matcher, info, group.dv, dots, why);
      if (failed(backward)) {
        group.dv->emitRemark("decomposed attention backward not imported: ")
            << why;
      } else if (group.pv && backward->value != info.value) {
        group.dv->emitRemark("decomposed attention backward not imported: "
                             "dP = dO V^T reads another value than the "
                             "forward's P V");
      } else {
        plan.backward = *backward;
      }
    }
    if (!plan.output && !plan.backward)
      continue;
    Value value = plan.output ? info.value : plan.backward->value;
    if (std::optional<std::string> problem =
            checkOperandTypes(info.layout, info.query.getType(),
                              info.key.getType(), value.getType())) {
      decline(*problem);
      continue;
    }
    plans.push_back(std::move(plan));
  }
  if (plans.empty())
    return;

  // The ops that fed what is replaced: what becomes dead of them goes.
  llvm::SetVector<Operation *> slice;
  auto addSlice = [&](Value root) {
    Operation *op = root.getDefiningOp();
    if (!op)
      return;
    BackwardSliceOptions options;
    options.omitBlockArguments = true;
    (void)getBackwardSlice(op, &slice, options);
    slice.insert(op);
  };
  for (const Plan &plan : plans) {
    if (plan.output)
      addSlice(plan.output);
    if (plan.backward) {
      addSlice(plan.backward->gradQuery);
      addSlice(plan.backward->gradKey);
      addSlice(plan.backward->gradValue);
      if (plan.backward->gradSinks)
        addSlice(plan.backward->gradSinks);
    }
  }

  DenseMap<Value, Value> replaced;
  for (const Plan &plan : plans) {
    const Info &info = *plan.group.info;
    Operation *anchor = plan.group.pv ? plan.group.pv : plan.group.dv;
    Value query = current(replaced, info.query);
    Value key = current(replaced, info.key);
    Value value = current(replaced,
                          plan.output ? info.value : plan.backward->value);
    SmallVector<Operation *> roots, gradRoots;
    if (plan.output)
      roots.push_back(current(replaced, plan.output).getDefiningOp());
    Value gradOutput, grads[4];
    if (plan.backward) {
      gradOutput = current(replaced, plan.backward->gradOutput);
      grads[0] = current(replaced, plan.backward->gradQuery);
      grads[1] = current(replaced, plan.backward->gradKey);
      grads[2] = current(replaced, plan.backward->gradValue);
      if (plan.backward->gradSinks)
        grads[3] = current(replaced, plan.backward->gradSinks);
      for (Value grad : grads)
        if (grad)
          gradRoots.push_back(grad.getDefiningOp());
      roots.append(gradRoots);
    }
    if (llvm::is_contained(roots, nullptr)) {
      anchor->emitRemark("decomposed attention not imported: a result is "
                         "a function argument");
      continue;
    }
    SmallVector<Value> forwardOperands = {query, key, value};
    if (info.sinks)
      forwardOperands.push_back(current(replaced, info.sinks));
    Operation *before = placement(forwardOperands, roots);
    SmallVector<Value> gradOperands = {query, key, value, gradOutput};
    if (info.sinks)
      gradOperands.push_back(current(replaced, info.sinks));
    Operation *gradBefore =
        plan.backward ? placement(gradOperands, gradRoots) : nullptr;
    if (!before || (plan.backward && !gradBefore)) {
      anchor->emitRemark("decomposed attention not imported: its operands "
                         "are not defined before its results are used");
      continue;
    }
    AttentionSpec spec{plan.band, info.scale, info.layout, false,
                       info.softcap};
    rewriter.setInsertionPoint(before);
    Value sinks = info.sinks ? current(replaced, info.sinks) : Value();
    AttentionOp attention = createAttention(rewriter, before->getLoc(), query,
                                            key, value, ValueRange(), spec, sinks);
    if (std::optional<std::string> problem = verifyQuietly(attention)) {
      rewriter.eraseOp(attention);
      anchor->emitRemark("decomposed attention not imported: ") << *problem;
      continue;
    }
    if (std::optional<std::string> problem =
            check ? lowersQuietly(attention, *check) : std::nullopt) {
      rewriter.eraseOp(attention);
      anchor->emitRemark("decomposed attention not imported: the gpu "
                         "lowering refuses it: ")
          << *problem;
      continue;
    }
    // The pipeline's site becomes an FFI call: one the call cannot state
    // stays StableHLO too.
    if (std::string problem = check ? whyNotExportable(attention) : "";
        !problem.empty()) {
      rewriter.eraseOp(attention);
      anchor->emitRemark("decomposed attention not imported: the FFI export "
                         "cannot call it: ")
          << problem;
      continue;
    }
    AttentionGradOp grad;
    bool hasBackward = plan.backward.has_value();
    if (hasBackward) {
      rewriter.setInsertionPoint(gradBefore);
      grad = createAttentionGrad(rewriter, gradBefore->getLoc(), query, key,
                                 value, attention.getOutput(), gradOutput,
                                 attention.getLse(), ValueRange(), spec,
                                 sinks);
      if (std::optional<std::string> problem = verifyQuietly(grad)) {
        rewriter.eraseOp(grad);
        rewriter.eraseOp(attention);
        anchor->emitRemark("decomposed attention not imported: ") << *problem;
        continue;
      }
      // A backward the lowering refuses stays StableHLO; its forward is
      // imported still (the graph's backward reads its own softmax).
      if (std::optional<std::string> problem =
              check ? lowersQuietly(grad, *check) : std::nullopt) {
        rewriter.eraseOp(grad);
        grad = {};
        hasBackward = false;
        plan.group.dv->emitRemark("decomposed attention backward not "
                                  "imported: the gpu lowering refuses it: ")
            << *problem;
        if (!plan.output) {
          rewriter.eraseOp(attention);
          continue;
        }
      }
    }
    InFlightDiagnostic remark =
        attention.emitRemark("imported decomposed attention: ");
    remark << describe(plan.band) << ", scale " << info.scale << ", layout "
           << stringifyLayout(info.layout) << ", " << info.groups
           << " query head(s) per kv head; ";
    if (info.softcap)
      remark << "softcap " << *info.softcap << "; ";
    if (info.sinks)
      remark << "sinks; ";
    if (info.mask)
      remark << "mask verified on " << plan.cells << " cells";
    else
      remark << "no mask";
    if (!plan.output)
      remark << "; only its backward reads it";
    remark.report();
    if (plan.output) {
      Value old = current(replaced, plan.output);
      rewriter.replaceAllUsesWith(old, attention.getOutput());
      replaced[plan.output] = attention.getOutput();
    }
    if (hasBackward) {
      grad.emitRemark("imported decomposed attention backward: dV = P^T dO, "
                      "dP = dO V^T, dS = P * (dP - rowsum(P * dP))")
          << (info.softcap ? " * (1 - tanh^2(S / c))" : "")
          << ", dQ = scale dS K, dK = scale dS^T Q"
          << (!info.sinks ? ""
              : plan.backward->gradSinks
                  ? ", dsink = -sum P_sink * rowsum(P * dP)"
                  : " (the graph computes no sink gradient)")
          << " verified";
      Value results[4] = {grad.getGradQuery(), grad.getGradKey(),
                          grad.getGradValue(), grad.getGradSinks()};
      Value originals[4] = {plan.backward->gradQuery, plan.backward->gradKey,
                            plan.backward->gradValue,
                            plan.backward->gradSinks};
      for (unsigned i = 0; i < 4; ++i) {
        if (!grads[i])
          continue;
        rewriter.replaceAllUsesWith(grads[i], results[i]);
        replaced[originals[i]] = results[i];
      }
    }
  }
  eraseDead(rewriter, slice);
}
