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
// verified cell by cell. Anything that does not match exactly is declined
// with a remark and left unchanged.
//
//===----------------------------------------------------------------------===//

#include "Import.h"
#include "MaskAnalysis.h"
#include "Site.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <memory>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

namespace {

/// What one tensor dimension indexes.
enum class Dim : uint8_t {
  B,    ///< batch
  Hkv,  ///< key/value head
  G,    ///< query head within its group (h = hkv * G + g)
  H,    ///< query head (Hkv and G merged)
  Sq,   ///< query row
  Skv,  ///< key
  D,    ///< head dimension
  Unit, ///< a size-1 dimension without meaning
  Star, ///< a broadcast (repeated) dimension
};
using Labels = SmallVector<Dim, 6>;

/// The stages of the attention chain.
enum class Kind {
  Unknown,
  Splat,   ///< a float splat constant
  Scores,  ///< Q K^T
  Scaled,  ///< scale * Q K^T
  Masked,  ///< select(mask, scaled scores, fill)
  RowMax,  ///< max over keys of the logits
  Shifted, ///< logits - row max
  Exp,     ///< exp(logits - row max)
  RowSum,  ///< sum over keys of Exp
  Probs,   ///< Exp / RowSum
  Out,     ///< P V
};

/// Facts about one attention, gathered along its chain.
struct Info {
  Value query, key, value;
  Layout layout = Layout::bhsd;
  int64_t groups = 1;
  double scale = 1.0;
  std::optional<Site> mask;
  Labels maskLabels;
  double fill = 0;
};

struct Node {
  Kind kind = Kind::Unknown;
  Labels labels;
  double splat = 0;
  std::shared_ptr<Info> info;
  /// The op that produced this kind (shape ops keep it): identifies a value
  /// up to layout.
  std::optional<Site> origin;
  /// For RowMax / Shifted / Exp: the logits' origin; for RowSum: the Exp's.
  std::optional<Site> of;
};

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

/// The labels of the non-unit dimensions, in order.
Labels significant(const Labels &labels, ArrayRef<int64_t> shape) {
  Labels out;
  for (auto [label, size] : llvm::zip(labels, shape))
    if (size != 1)
      out.push_back(label);
  return out;
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Labels through a reshape: size-1 dimensions come and go, and (Hkv, G)
/// may merge into H.
std::optional<Labels> reshapeLabels(const Labels &in, ArrayRef<int64_t> from,
                                    ArrayRef<int64_t> to) {
  Labels inSig;
  SmallVector<int64_t> inSizes;
  for (auto [label, size] : llvm::zip(in, from))
    if (size != 1) {
      inSig.push_back(label);
      inSizes.push_back(size);
    }
  SmallVector<int64_t> outDims;
  for (auto [d, size] : llvm::enumerate(to))
    if (size != 1)
      outDims.push_back(d);
  Labels out(to.size(), Dim::Unit);
  size_t i = 0, o = 0;
  while (i < inSig.size() && o < outDims.size()) {
    int64_t size = to[outDims[o]];
    if (inSizes[i] == size) {
      out[outDims[o++]] = inSig[i++];
      continue;
    }
    if (i + 1 < inSig.size() && inSig[i] == Dim::Hkv && inSig[i + 1] == Dim::G &&
        inSizes[i] * inSizes[i + 1] == size) {
      out[outDims[o++]] = Dim::H;
      i += 2;
      continue;
    }
    return std::nullopt;
  }
  if (i != inSig.size() || o != outDims.size())
    return std::nullopt;
  return out;
}

/// The labels of a rank-4 key (or value) tensor in `layout`.
Labels keyLabels(Layout layout) {
  if (layout == Layout::bshd)
    return {Dim::B, Dim::Skv, Dim::Hkv, Dim::D};
  return {Dim::B, Dim::Hkv, Dim::Skv, Dim::D};
}

/// The labels the output must have: the query's layout.
Labels queryLabels(Layout layout, int64_t groups) {
  Dim head = groups > 1 ? Dim::H : Dim::Hkv;
  if (layout == Layout::bshd)
    return {Dim::B, Dim::Sq, head, Dim::D};
  return {Dim::B, head, Dim::Sq, Dim::D};
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

/// The abstract interpreter of the attention chain.
class Matcher {
public:
  Node analyze(const Site &site) {
    Operation *op = site.getDefiningOp();
    if (!op)
      return {};
    auto type = dyn_cast<RankedTensorType>(site.value.getType());
    if (!type)
      return {};
    ArrayRef<int64_t> shape = type.getShape();

    if (auto constant = dyn_cast<shlo::ConstantOp>(op)) {
      if (std::optional<double> v = splatValue(constant))
        return Node{Kind::Splat, {}, *v, nullptr, std::nullopt, std::nullopt};
      return {};
    }
    if (auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(op)) {
      Node in = analyze(site.operand(0));
      if (in.kind == Kind::Splat || in.kind == Kind::Unknown)
        return in;
      ArrayRef<int64_t> from = shapeOf(broadcast.getOperand());
      Labels labels;
      for (int64_t size : shape)
        labels.push_back(size == 1 ? Dim::Unit : Dim::Star);
      for (auto [j, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
        if (from[j] == shape[d])
          labels[d] = in.labels[j];
      in.labels = labels;
      return in;
    }
    if (auto transpose = dyn_cast<shlo::TransposeOp>(op)) {
      Node in = analyze(site.operand(0));
      if (in.kind == Kind::Splat || in.kind == Kind::Unknown)
        return in;
      Labels labels;
      for (int64_t p : transpose.getPermutation())
        labels.push_back(in.labels[p]);
      in.labels = labels;
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
      Node lhs = analyze(site.operand(0)), rhs = analyze(site.operand(1));
      if (lhs.kind == Kind::Splat)
        std::swap(lhs, rhs);
      if (rhs.kind != Kind::Splat ||
          (lhs.kind != Kind::Scores && lhs.kind != Kind::Scaled))
        return {};
      auto info = std::make_shared<Info>(*lhs.info);
      info->scale *= rhs.splat;
      return Node{Kind::Scaled, lhs.labels, 0, info, site, std::nullopt};
    }
    if (isa<shlo::SelectOp>(op)) {
      Node x = analyze(site.operand(1)), fill = analyze(site.operand(2));
      if ((x.kind != Kind::Scores && x.kind != Kind::Scaled) ||
          fill.kind != Kind::Splat || x.info->mask)
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
      Node in = analyze(site.operand(0)), init = analyze(site.operand(1));
      ArrayRef<int64_t> dims = reduce.getDimensions();
      ArrayRef<int64_t> inShape = shapeOf(reduce.getInput());
      // The reduced dimensions: the key, and any size-1 ones.
      bool overKeys = false;
      for (int64_t d : dims) {
        if (in.kind != Kind::Unknown && in.labels[d] == Dim::Skv)
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
      bool isLogits = in.kind == Kind::Scores || in.kind == Kind::Scaled ||
                      in.kind == Kind::Masked;
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
      Node lhs = analyze(site.operand(0)), rhs = analyze(site.operand(1));
      if (lhs.kind == Kind::Splat)
        std::swap(lhs, rhs);
      if (lhs.kind == Kind::RowMax && rhs.kind == Kind::Splat &&
          std::isinf(rhs.splat) && rhs.splat < 0)
        return lhs;
      return {};
    }
    if (isa<shlo::SubtractOp>(op)) {
      Node x = analyze(site.operand(0)), max = analyze(site.operand(1));
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
      Node e = analyze(site.operand(0)), sum = analyze(site.operand(1));
      if (e.kind != Kind::Exp || sum.kind != Kind::RowSum || !sum.of ||
          !(*e.origin == *sum.of) || !compatible(e.labels, sum.labels, shape))
        return {};
      return Node{Kind::Probs, e.labels, 0, e.info, site, std::nullopt};
    }
    return {};
  }

  /// Why the last product with a probabilities operand was not P V.
  std::string why;

private:
  /// Q K^T: `lhs` is the query (maybe with heads split into (Hkv, G)),
  /// `rhs` the key, contracted over the head dimension.
  Node matchScores(const Site &site, shlo::DotGeneralOp dot) {
    Site lhs = site.operand(0), rhs = site.operand(1);
    if (!lhs.calls.empty() || !rhs.calls.empty())
      return {};
    auto keyType = dyn_cast<RankedTensorType>(rhs.value.getType());
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
    Value query = lhs.value;
    auto lhsType = cast<RankedTensorType>(lhs.value.getType());
    if (auto reshape = lhs.value.getDefiningOp<shlo::ReshapeOp>();
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
    } else if (lhsType.getRank() == 4) {
      if (lhsType.getDimSize(bshd ? 2 : 1) != headsKv)
        return {};
      lhsLabels = queryLabels(info->layout, 1);
    } else {
      return {};
    }
    Labels rhsLabels = keyLabels(info->layout);
    FailureOr<Labels> labels =
        productLabels(dot, lhsLabels, rhsLabels, {Dim::D}, {Dim::Sq, Dim::G},
                      {Dim::Skv});
    if (failed(labels))
      return {};
    info->query = query;
    info->key = rhs.value;
    return Node{Kind::Scores, *labels, 0, info, Site(site), std::nullopt};
  }

  /// P V with P from the softmax; V in the key's layout and shape.
  Node matchProbsTimesValue(const Site &site, shlo::DotGeneralOp dot) {
    for (unsigned probsSide : {0u, 1u}) {
      Node probs = analyze(site.operand(probsSide));
      if (probs.kind != Kind::Probs)
        continue;
      Site value = site.operand(1 - probsSide);
      auto declined = [&](const Twine &reason) {
        why = reason.str();
        return Node{};
      };
      if (!value.calls.empty() || !site.calls.empty())
        return declined("the product with the probabilities is inside a "
                        "called function");
      if (value.value.getType() != probs.info->key.getType())
        return declined("the probabilities are multiplied with a tensor "
                        "that is not shaped like the key (a decomposed "
                        "backward is not imported)");
      Labels valueLabels = keyLabels(probs.info->layout);
      FailureOr<Labels> labels =
          probsSide == 0
              ? productLabels(dot, probs.labels, valueLabels, {Dim::Skv},
                              {Dim::G, Dim::Sq}, {Dim::D})
              : productLabels(dot, valueLabels, probs.labels, {Dim::Skv},
                              {Dim::D}, {Dim::G, Dim::Sq});
      if (failed(labels))
        return declined("the probabilities are not contracted with the "
                        "value over the keys (a decomposed backward is not "
                        "imported)");
      auto info = std::make_shared<Info>(*probs.info);
      info->value = value.value;
      return Node{Kind::Out, *labels, 0, info, site, std::nullopt};
    }
    return {};
  }

  /// The labels of a dot_general's result, checking that batch dimensions
  /// pair equal labels from {B, Hkv}, contracting dimensions pair labels
  /// from `contract`, and the non-unit free dimensions of each side are
  /// from `lhsFree` / `rhsFree`.
  static FailureOr<Labels> productLabels(shlo::DotGeneralOp dot,
                                         const Labels &lhs, const Labels &rhs,
                                         ArrayRef<Dim> contract,
                                         ArrayRef<Dim> lhsFree,
                                         ArrayRef<Dim> rhsFree) {
    ArrayRef<int64_t> lhsShape = shapeOf(dot.getLhs());
    ArrayRef<int64_t> rhsShape = shapeOf(dot.getRhs());
    Labels result;
    for (auto [l, r] : llvm::zip(dot.getLhsBatchingDimensions(),
                                 dot.getRhsBatchingDimensions())) {
      if (lhs[l] != rhs[r] || (lhs[l] != Dim::B && lhs[l] != Dim::Hkv))
        return failure();
      result.push_back(lhs[l]);
    }
    for (auto [l, r] : llvm::zip(dot.getLhsContractingDimensions(),
                                 dot.getRhsContractingDimensions())) {
      bool unit = lhsShape[l] == 1 && rhsShape[r] == 1;
      if (!unit &&
          (lhs[l] != rhs[r] || !llvm::is_contained(contract, lhs[l])))
        return failure();
    }
    auto addFree = [&](const Labels &labels, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> batch, ArrayRef<int64_t> contracting,
                       ArrayRef<Dim> allowed) {
      for (auto [d, label] : llvm::enumerate(labels)) {
        int64_t dim = static_cast<int64_t>(d);
        if (llvm::is_contained(batch, dim) ||
            llvm::is_contained(contracting, dim))
          continue;
        if (shape[d] != 1 && !llvm::is_contained(allowed, label))
          return false;
        result.push_back(label);
      }
      return true;
    };
    if (!addFree(lhs, lhsShape, dot.getLhsBatchingDimensions(),
                 dot.getLhsContractingDimensions(), lhsFree) ||
        !addFree(rhs, rhsShape, dot.getRhsBatchingDimensions(),
                 dot.getRhsContractingDimensions(), rhsFree))
      return failure();
    // Every non-unit B / Hkv dimension must be batched.
    auto batched = [&](Dim label) {
      return llvm::count(result, label) <= 1;
    };
    if (!batched(Dim::B) || !batched(Dim::Hkv))
      return failure();
    return result;
  }
};

/// Follows the output of P V through transposes, reshapes and converts to
/// the first value in the query's layout and type.
FailureOr<Value> findOutput(Value out, Labels labels, const Info &info) {
  Type queryType = info.query.getType();
  Labels want = queryLabels(info.layout, info.groups);
  while (true) {
    if (out.getType() == queryType &&
        significant(labels, shapeOf(out)) ==
            significant(want, shapeOf(info.query)))
      return out;
    if (!out.hasOneUse())
      return failure();
    Operation *user = *out.user_begin();
    Value next = user->getResult(0);
    if (auto transpose = dyn_cast<shlo::TransposeOp>(user)) {
      Labels permuted;
      for (int64_t p : transpose.getPermutation())
        permuted.push_back(labels[p]);
      labels = permuted;
    } else if (isa<shlo::ReshapeOp>(user)) {
      std::optional<Labels> reshaped =
          reshapeLabels(labels, shapeOf(out), shapeOf(next));
      if (!reshaped)
        return failure();
      labels = *reshaped;
    } else if (!isa<shlo::ConvertOp>(user)) {
      return failure();
    }
    out = next;
  }
}

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

/// Erases what became dead of `slice` after the import, and private
/// helpers left without callers.
void eraseDead(RewriterBase &rewriter, ArrayRef<Operation *> slice) {
  llvm::SetVector<func::FuncOp> callees;
  bool changed = true;
  llvm::SetVector<Operation *> live(slice.begin(), slice.end());
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

} // namespace

/// Imports the attention whose P V product is `dot`, or declines it with a
/// remark. Returns true if the IR changed.
static bool importAt(RewriterBase &rewriter, shlo::DotGeneralOp dot) {
  Matcher matcher;
  Site site{dot.getResult(), {}};
  Node out = matcher.analyze(site);
  if (out.kind != Kind::Out) {
    if (!matcher.why.empty())
      dot.emitRemark("decomposed attention not imported: ") << matcher.why;
    return false;
  }
  const Info &info = *out.info;
  auto decline = [&](const Twine &why) {
    dot.emitRemark("decomposed attention not imported: ") << why;
  };
  FailureOr<Value> root = findOutput(dot.getResult(), out.labels, info);
  if (failed(root)) {
    decline("the output is not brought back to the query's layout");
    return false;
  }
  if (std::optional<std::string> problem =
          checkOperandTypes(info.layout, info.query.getType(),
                            info.key.getType(), info.value.getType())) {
    decline(*problem);
    return false;
  }

  // The band: recovered symbolically, then checked on every cell.
  Band band{std::nullopt, std::nullopt, Alignment::TopLeft};
  int64_t cells = 0;
  if (info.mask) {
    const Labels &labels = info.maskLabels;
    auto qIt = llvm::find(labels, Dim::Sq), kIt = llvm::find(labels, Dim::Skv);
    if (qIt == labels.end() || kIt == labels.end()) {
      decline("the mask has no query or key dimension");
      return false;
    }
    unsigned qDim = qIt - labels.begin(), kDim = kIt - labels.begin();
    std::string why;
    FailureOr<Band> recovered = recoverBand(*info.mask, qDim, kDim, why);
    if (failed(recovered)) {
      decline("the mask is not a band: " + why);
      return false;
    }
    FailureOr<IntTensor> mask = evaluateMask(*info.mask, why);
    if (failed(mask)) {
      decline("the mask could not be verified: " + why);
      return false;
    }
    FailureOr<int64_t> checked =
        verifyBand(*mask, *recovered, qDim, kDim, why);
    if (failed(checked)) {
      decline("the recovered band (" + describe(*recovered) +
              ") does not match: " + why);
      return false;
    }
    band = *recovered;
    cells = *checked;
    // A masked cell contributes exp(fill - max) = 0 only if the row sees
    // a key; with a finite fill a row without keys would average V.
    if (!(std::isinf(info.fill) && info.fill < 0)) {
      if (info.fill > -1e30) {
        decline("the masked value " + std::to_string(info.fill) +
                " is not a large negative number");
        return false;
      }
      int64_t seqQ = mask->shape[qDim], seqKv = mask->shape[kDim];
      bool everyRowSees = true;
      for (int64_t q = 0; q < seqQ && everyRowSees; ++q) {
        int64_t lo = band.left ? std::max<int64_t>(0, q - *band.left) : 0;
        int64_t hi = band.right ? std::min(seqKv - 1, q + *band.right)
                                : seqKv - 1;
        everyRowSees = lo <= hi && lo < seqKv;
      }
      if (!everyRowSees) {
        decline("a query row sees no key, where the graph's finite masked "
                "value would average the values");
        return false;
      }
    }
  }

  // Replace the output; what only fed it goes.
  Operation *rootOp = root->getDefiningOp();
  llvm::SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  (void)getBackwardSlice(rootOp, &slice, options);
  slice.insert(rootOp);
  rewriter.setInsertionPoint(rootOp);
  AttentionSpec spec{band, info.scale, info.layout, false};
  AttentionOp attention =
      createAttention(rewriter, rootOp->getLoc(), info.query, info.key,
                      info.value, ValueRange(), spec);
  if (std::optional<std::string> problem = verifyQuietly(attention)) {
    rewriter.eraseOp(attention);
    decline(*problem);
    return false;
  }
  InFlightDiagnostic remark = attention.emitRemark(
      "imported decomposed attention: ");
  remark
      << describe(band) << ", scale " << info.scale << ", layout "
      << stringifyLayout(info.layout) << ", " << info.groups
      << " query head(s) per kv head; ";
  if (info.mask)
    remark << "mask verified on " << cells << " cells";
  else
    remark << "no mask";
  rewriter.replaceAllUsesWith(*root, attention.getOutput());
  eraseDead(rewriter, slice.getArrayRef());
  return true;
}

void import::importDecomposedAttention(RewriterBase &rewriter,
                                       func::FuncOp func) {
  // Each import erases ops: walk again after one, skipping the products
  // already looked at (no new product is ever created).
  llvm::DenseSet<Operation *> seen;
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<shlo::DotGeneralOp> dots;
    func.walk([&](shlo::DotGeneralOp dot) { dots.push_back(dot); });
    for (shlo::DotGeneralOp dot : dots) {
      if (!seen.insert(dot).second)
        continue;
      if (importAt(rewriter, dot)) {
        changed = true;
        break;
      }
    }
  }
}
