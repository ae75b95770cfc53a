//===- DecomposedBackward.cpp - Recover attention_grad from XLA graphs ----===//
//
// JAX's autodiff of the decomposed forward (docs/Import.md §3) computes,
// with E = exp(X - max X), s = rowsum(E), P = E / s:
//
//   dV = P^T dO                      a product of P with dO over the rows
//   dP = dO V^T                      a product of dO with V over the head dim
//   dS = P * (dP - rowsum(P * dP))   in some algebraically equal form
//   dQ = scale dS K,  dK = scale dS^T Q
//
// The products are matched by their labels, like the forward's. dS is read
// as a Laurent polynomial in the cell atoms E, dP and the row atoms s and
// rowsum(m) of cell monomials m, with exact coefficients; it must equal
// c * (E dP s^-1 - E s^-2 rowsum(E dP)), with c times the factors applied
// after the products equal to the forward's scale. Whatever differs is
// declined with the piece that did not match.
//
//===----------------------------------------------------------------------===//

#include "Decomposed.h"

#include "llvm/ADT/SetVector.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

namespace {

//===----------------------------------------------------------------------===//
// Polynomials over the atoms of the gradient
//===----------------------------------------------------------------------===//

/// Atom ids: the cell atoms (E, dP, and the softcap's t = tanh(S / c)),
/// the row sum of E, then row sums of other cell monomials, numbered as
/// they appear.
enum : int {
  kExp = 0,
  kGradProbs = 1,
  kTanh = 2,
  kRowSum = 3,
  kFirstReduced = 4
};

bool isCellAtom(int atom) {
  return atom == kExp || atom == kGradProbs || atom == kTanh;
}

/// A product of atoms with integer exponents, sorted by atom.
using Monomial = SmallVector<std::pair<int, int>, 4>;

/// A sum of monomials with their coefficients.
using Poly = std::map<Monomial, double>;

Monomial multiply(const Monomial &a, const Monomial &b) {
  std::map<int, int> exponents;
  for (auto [atom, e] : a)
    exponents[atom] += e;
  for (auto [atom, e] : b)
    exponents[atom] += e;
  Monomial out;
  for (auto [atom, e] : exponents)
    if (e != 0)
      out.push_back({atom, e});
  return out;
}

Poly atom(int id) { return Poly{{Monomial{{id, 1}}, 1.0}}; }
Poly constant(double c) { return c == 0 ? Poly{} : Poly{{Monomial{}, c}}; }

Poly add(const Poly &a, const Poly &b, double sign = 1.0) {
  Poly out = a;
  for (const auto &[m, c] : b) {
    double &sum = out[m];
    sum += sign * c;
    if (sum == 0)
      out.erase(m);
  }
  return out;
}

Poly multiply(const Poly &a, const Poly &b) {
  Poly out;
  for (const auto &[ma, ca] : a)
    for (const auto &[mb, cb] : b) {
      double &sum = out[multiply(ma, mb)];
      sum += ca * cb;
    }
  for (auto it = out.begin(); it != out.end();)
    it = it->second == 0 ? out.erase(it) : std::next(it);
  return out;
}

/// 1 / p for a single-term p.
std::optional<Poly> reciprocal(const Poly &p) {
  if (p.size() != 1)
    return std::nullopt;
  Monomial m = p.begin()->first;
  for (auto &[atom, e] : m)
    e = -e;
  return Poly{{m, 1.0 / p.begin()->second}};
}

//===----------------------------------------------------------------------===//
// The interpreter of the gradient graph
//===----------------------------------------------------------------------===//

/// A value of the gradient graph: its polynomial and dimension labels.
/// `wild` marks a splat constant, which broadcasts to any labels.
struct GradNode {
  Poly poly;
  Labels labels;
  bool wild = false;
};

/// Walks `value` up through transposes, reshapes and float converts to the
/// first value of type `type`; returns it and the ops walked, outermost
/// last.
std::optional<std::pair<Value, SmallVector<Operation *>>>
traceToRoot(Value value, Type type) {
  SmallVector<Operation *> chain;
  while (value.getType() != type) {
    Operation *def = value.getDefiningOp();
    if (!def || chain.size() >= kMaxGraphDepth ||
        !isa<shlo::TransposeOp, shlo::ReshapeOp, shlo::ConvertOp>(def))
      return std::nullopt;
    if (isa<shlo::ConvertOp>(def) &&
        !isa<FloatType>(getElementTypeOrSelf(def->getOperand(0).getType())))
      return std::nullopt;
    chain.push_back(def);
    value = def->getOperand(0);
  }
  return std::make_pair(value, chain);
}

/// The labels of `value` when the root `traceToRoot` found has `labels`.
std::optional<Labels> labelsAlong(ArrayRef<Operation *> chain, Labels labels,
                                  int64_t headsKv) {
  for (Operation *op : llvm::reverse(chain)) {
    if (auto transpose = dyn_cast<shlo::TransposeOp>(op)) {
      labels = permuteLabels(labels, transpose.getPermutation());
    } else if (isa<shlo::ReshapeOp>(op)) {
      std::optional<Labels> reshaped =
          reshapeLabels(labels, shapeOf(op->getOperand(0)),
                        shapeOf(op->getResult(0)), headsKv);
      if (!reshaped)
        return std::nullopt;
      labels = *reshaped;
    }
  }
  return labels;
}

/// `value` read as `type`'s tensor with `rootLabels`: its labels, if it is
/// that tensor through shape ops.
std::optional<Labels> readAs(Value value, Value root, const Labels &rootLabels,
                             int64_t headsKv) {
  auto traced = traceToRoot(value, root.getType());
  if (!traced || traced->first != root)
    return std::nullopt;
  return labelsAlong(traced->second, rootLabels, headsKv);
}

/// The labels of an elementwise op's result from its operands', or nullopt
/// if they index different cells. A Star (broadcast) pairs with a key.
std::optional<Labels> combine(const GradNode &a, const GradNode &b,
                              ArrayRef<int64_t> shape) {
  if (a.wild)
    return b.wild ? a.labels : b.labels;
  if (b.wild)
    return a.labels;
  if (a.labels.size() != shape.size() || b.labels.size() != shape.size())
    return std::nullopt;
  Labels out;
  for (auto [i, size] : llvm::enumerate(shape)) {
    Dim x = a.labels[i], y = b.labels[i];
    if (size == 1)
      out.push_back(Dim::Unit);
    else if (x == y)
      out.push_back(x);
    else if ((x == Dim::Star && y == Dim::Skv) ||
             (y == Dim::Star && x == Dim::Skv))
      out.push_back(Dim::Skv);
    else
      return std::nullopt;
  }
  return out;
}

class GradMatcher {
public:
  GradMatcher(Matcher &forward, const Info &info, Value gradOutput,
              const Labels &gradOutputLabels, std::string &why)
      : forward(forward), info(info), gradOutput(gradOutput),
        gradOutputLabels(gradOutputLabels), why(why),
        headsKv(shapeOf(info.key)[info.layout == Layout::bshd ? 2 : 1]),
        seqKv(shapeOf(info.key)[info.layout == Layout::bshd ? 1 : 2]) {}

  FailureOr<GradNode> analyze(const Site &site) {
    auto key = site.key();
    auto it = memo.find(key);
    if (it != memo.end()) {
      if (!it->second)
        return failure();
      return *it->second;
    }
    if (depth >= kMaxGraphDepth)
      return fail("the gradient graph is deeper than " +
                  Twine(kMaxGraphDepth) + " ops");
    ++depth;
    FailureOr<GradNode> node = analyzeOp(site);
    --depth;
    memo[key] = succeeded(node) ? std::optional<GradNode>(*node) : std::nullopt;
    return node;
  }

  /// The row sum atom of a cell monomial.
  int reducedAtom(const Monomial &cell) {
    if (cell == Monomial{{kExp, 1}})
      return kRowSum;
    auto [it, inserted] =
        reduced.try_emplace(cell, kFirstReduced + int(reduced.size()));
    return it->second;
  }

  /// The V that dP = dO V^T reads (null until a dP is seen).
  Value value;
  /// With sinks: the values over the keys and the sink column whose sink
  /// column was sliced off (the extended dS, as JAX computes it).
  llvm::SetVector<Value> sliced;

private:
  FailureOr<GradNode> analyzeOp(const Site &site) {
    Operation *op = site.getDefiningOp();
    if (!op || site.truncated)
      return fail("the gradient reads a function argument");
    auto type = dyn_cast<RankedTensorType>(site.value.getType());
    if (!type)
      return fail("the gradient reads a non-tensor value");
    ArrayRef<int64_t> shape = type.getShape();

    // dP = dO V^T (a product that may look like Q K^T to the forward).
    if (auto dot = dyn_cast<shlo::DotGeneralOp>(op))
      return gradProbs(site, dot);
    // The forward's values: E, the row sum, P; splat constants.
    Node fwd = forward.analyze(site);
    if (fwd.kind == Kind::Splat)
      return GradNode{constant(fwd.splat), Labels(shape.size(), Dim::Star),
                      true};
    if (fwd.kind != Kind::Unknown) {
      bool mine = fwd.info && fwd.info->exp == info.exp;
      if (fwd.kind == Kind::Exp && fwd.origin == info.exp)
        return GradNode{atom(kExp), fwd.labels};
      if (fwd.kind == Kind::RowSum && fwd.of == info.exp)
        return GradNode{atom(kRowSum), fwd.labels};
      if (fwd.kind == Kind::Probs && mine)
        return GradNode{multiply(atom(kExp), *reciprocal(atom(kRowSum))),
                        fwd.labels};
      if (fwd.kind == Kind::Tanh && info.tanh && fwd.origin == info.tanh)
        return GradNode{atom(kTanh), fwd.labels};
      if (fwd.kind == Kind::Exp || fwd.kind == Kind::RowSum ||
          fwd.kind == Kind::Probs)
        return fail("the gradient reads another attention's softmax");
      return fail("the gradient reads the forward's " + kindName(fwd.kind) +
                  " (only P, exp and the row sum are expected)");
    }

    if (auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(op)) {
      FailureOr<GradNode> in = analyze(site.operand(0));
      if (failed(in))
        return failure();
      if (in->wild)
        return GradNode{in->poly, Labels(shape.size(), Dim::Star), true};
      return GradNode{in->poly,
                      broadcastLabels(in->labels, broadcast, shape)};
    }
    if (auto transpose = dyn_cast<shlo::TransposeOp>(op)) {
      FailureOr<GradNode> in = analyze(site.operand(0));
      if (failed(in) || in->wild)
        return in;
      return GradNode{in->poly,
                      permuteLabels(in->labels, transpose.getPermutation())};
    }
    if (auto reshape = dyn_cast<shlo::ReshapeOp>(op)) {
      FailureOr<GradNode> in = analyze(site.operand(0));
      if (failed(in) || in->wild)
        return in;
      std::optional<Labels> labels = reshapeLabels(
          in->labels, shapeOf(reshape.getOperand()), shape, headsKv);
      if (!labels)
        return fail("a reshape in the gradient mixes dimensions");
      return GradNode{in->poly, *labels};
    }
    if (isa<shlo::ConvertOp>(op)) {
      // Float roundings; the sdpa op accumulates in f32 instead.
      if (!isa<FloatType>(type.getElementType()) ||
          !isa<FloatType>(getElementTypeOrSelf(op->getOperand(0).getType())))
        return fail("a convert in the gradient that is not between floats");
      return analyze(site.operand(0));
    }
    if (isa<shlo::NegOp>(op)) {
      FailureOr<GradNode> in = analyze(site.operand(0));
      if (failed(in))
        return failure();
      return GradNode{add(Poly{}, in->poly, -1.0), in->labels, in->wild};
    }
    if (isa<shlo::AddOp, shlo::SubtractOp, shlo::MultiplyOp, shlo::DivideOp>(
            op)) {
      FailureOr<GradNode> lhs = analyze(site.operand(0));
      if (failed(lhs))
        return failure();
      FailureOr<GradNode> rhs = analyze(site.operand(1));
      if (failed(rhs))
        return failure();
      std::optional<Labels> labels = combine(*lhs, *rhs, shape);
      if (!labels)
        return fail("an elementwise op of the gradient combines values "
                    "over different dimensions");
      bool wild = lhs->wild && rhs->wild;
      if (isa<shlo::AddOp>(op))
        return GradNode{add(lhs->poly, rhs->poly), *labels, wild};
      if (isa<shlo::SubtractOp>(op))
        return GradNode{add(lhs->poly, rhs->poly, -1.0), *labels, wild};
      if (isa<shlo::MultiplyOp>(op))
        return GradNode{multiply(lhs->poly, rhs->poly), *labels, wild};
      std::optional<Poly> inverse = reciprocal(rhs->poly);
      if (!inverse)
        return fail("the gradient divides by a sum");
      return GradNode{multiply(lhs->poly, *inverse), *labels, wild};
    }
    if (auto reduce = dyn_cast<shlo::ReduceOp>(op))
      return rowSum(site, reduce);
    if (auto pad = dyn_cast<shlo::PadOp>(op))
      return padSinkColumn(site, pad);
    if (auto slice = dyn_cast<shlo::SliceOp>(op))
      return sliceSinkColumn(site, slice);
    if (isa<shlo::SelectOp>(op))
      return masked(site);
    return fail("the gradient graph has a " +
                op->getName().getStringRef().str());
  }

  /// reduce add over the keys (and size-1 dimensions) of a cell value.
  FailureOr<GradNode> rowSum(const Site &site, shlo::ReduceOp reduce) {
    if (reduce->getNumOperands() != 2)
      return fail("the gradient reduces several values at once");
    if (reduce.getApplies() != "stablehlo.add")
      return fail("the gradient reduces with " + reduce.getApplies().str());
    Node init = forward.analyze(site.operand(1));
    if (init.kind != Kind::Splat || init.splat != 0)
      return fail("a sum in the gradient starts from a non-zero value");
    if (std::optional<FailureOr<GradNode>> delta = deltaFromOutput(site, reduce))
      return *delta;
    FailureOr<GradNode> in = analyze(site.operand(0));
    if (failed(in))
      return failure();
    ArrayRef<int64_t> dims = reduce.getDimensions();
    ArrayRef<int64_t> inShape = shapeOf(reduce->getOperand(0));
    bool overKeys = false;
    for (int64_t d : dims) {
      if (!in->wild && in->labels[d] == Dim::Skv)
        overKeys = true;
      else if (inShape[d] != 1)
        return fail("the gradient sums over another dimension than the "
                    "keys");
    }
    Labels labels;
    for (auto [d, label] : llvm::enumerate(in->labels))
      if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
        labels.push_back(label);
    if (!overKeys)
      return GradNode{in->poly, labels, in->wild};
    // With sinks a row atom sums over the keys and the sink column (as s
    // does); over the keys alone only terms with dP, which is 0 on the
    // sink column, sum to the same atom.
    bool withoutSinkColumn = false;
    if (info.sinks)
      for (int64_t d : dims)
        if (!in->wild && in->labels[d] == Dim::Skv)
          withoutSinkColumn = inShape[d] == seqKv;
    Poly out;
    for (const auto &[m, c] : in->poly) {
      Monomial cell, row;
      for (auto term : m)
        (isCellAtom(term.first) ? cell : row).push_back(term);
      if (cell.empty())
        return fail("the gradient sums a row value over the keys");
      if (withoutSinkColumn && !hasGradProbs(m))
        return fail("the gradient sums a term without dP over the keys "
                    "without the sink column");
      out = add(out, Poly{{multiply(row, Monomial{{reducedAtom(cell), 1}}), c}});
    }
    return GradNode{out, labels};
  }

  /// Delta = rowsum(dO * O) over the head dimension, with O the forward's
  /// P V (a hand-written backward, as flash attention computes it): equal
  /// to rowsum(P * dP) = rowsum(E dP) / s, since dO . sum_k P_k V_k =
  /// sum_k P_k (dO . V_k). Nullopt when `reduce` does not sum a product
  /// with dO; a failure when it sums dO times anything else.
  std::optional<FailureOr<GradNode>> deltaFromOutput(const Site &site,
                                                     shlo::ReduceOp reduce) {
    auto decline = [&](const Twine &message) {
      return std::optional<FailureOr<GradNode>>(FailureOr<GradNode>(fail(message)));
    };
    Site product = site.operand(0);
    if (auto convert = product.value.getDefiningOp<shlo::ConvertOp>();
        convert && isa<FloatType>(getElementTypeOrSelf(convert.getType())))
      product = product.operand(0);
    if (!isa_and_nonnull<shlo::MultiplyOp>(product.getDefiningOp()))
      return std::nullopt;
    ArrayRef<int64_t> shape = shapeOf(product.value);
    for (unsigned side : {0u, 1u}) {
      std::optional<Labels> doLabels =
          readAs(product.getDefiningOp()->getOperand(side), gradOutput,
                 gradOutputLabels, headsKv);
      if (!doLabels)
        continue;
      Node out = forward.analyze(product.operand(1 - side).resolve());
      if (out.kind != Kind::Out)
        return decline("rowsum(dO * x) with x not the forward's output");
      if (!out.info || !(out.info->exp == info.exp))
        return decline("rowsum(dO * O) reads another attention's output");
      if (significant(*doLabels, shape) != significant(out.labels, shape))
        return decline("rowsum(dO * O) multiplies dO and O over different "
                    "dimensions");
      ArrayRef<int64_t> dims = reduce.getDimensions();
      bool overHead = false;
      for (int64_t d : dims) {
        if ((*doLabels)[d] == Dim::D)
          overHead = true;
        else if (shape[d] != 1)
          return decline("rowsum(dO * O) sums over another dimension than the "
                      "head dimension");
      }
      if (!overHead)
        return decline("rowsum(dO * O) does not sum over the head dimension");
      Labels labels;
      for (auto [d, label] : llvm::enumerate(*doLabels))
        if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
          labels.push_back(label);
      int rowsum = reducedAtom(Monomial{{kExp, 1}, {kGradProbs, 1}});
      return FailureOr<GradNode>(GradNode{
          multiply(atom(rowsum), *reciprocal(atom(kRowSum))), labels});
    }
    return std::nullopt;
  }

  /// select(mask, x, 0) with the forward's mask: x, since every term of
  /// the gradient carries E, which is 0 on masked cells.
  FailureOr<GradNode> masked(const Site &site) {
    Node zero = forward.analyze(site.operand(2));
    if (zero.kind != Kind::Splat || zero.splat != 0)
      return fail("a select in the gradient whose other value is not 0");
    if (!info.mask || !(site.operand(0) == *info.mask))
      return fail("a select in the gradient whose predicate is not the "
                  "forward's mask");
    FailureOr<GradNode> x = analyze(site.operand(1));
    if (failed(x))
      return failure();
    if (x->wild || significant(x->labels, shapeOf(site.value)) !=
                       significant(info.maskLabels, shapeOf(site.value)))
      return fail("the gradient's mask is applied over other dimensions");
    for (const auto &[m, c] : x->poly)
      if (!llvm::any_of(m, [](auto term) {
            return term.first == kExp && term.second > 0;
          }))
        return fail("the masked gradient has a term without exp");
    return x;
  }

  /// Whether every value of `m` is 0 where dP is: dP divides it.
  static bool hasGradProbs(const Monomial &m) {
    return llvm::any_of(m, [](auto term) {
      return term.first == kGradProbs && term.second > 0;
    });
  }

  /// The key dimension of `labels` if `shape` has `size` keys there.
  static std::optional<unsigned> keyDim(const Labels &labels,
                                        ArrayRef<int64_t> shape,
                                        int64_t size) {
    auto it = llvm::find(labels, Dim::Skv);
    if (it == labels.end() || labels.size() != shape.size() ||
        shape[it - labels.begin()] != size)
      return std::nullopt;
    return it - labels.begin();
  }

  /// With sinks, pad(x, 0) by one key at the end: x over the keys and the
  /// sink column, exact if every term of x carries dP (the sink column's
  /// dP is 0: the column is sliced off the probabilities).
  FailureOr<GradNode> padSinkColumn(const Site &site, shlo::PadOp pad) {
    if (!info.sinks)
      return fail("the gradient graph has a stablehlo.pad");
    FailureOr<GradNode> in = analyze(site.operand(0));
    if (failed(in))
      return failure();
    std::optional<unsigned> dim =
        in->wild ? std::nullopt
                 : keyDim(in->labels, shapeOf(pad.getOperand()), seqKv);
    if (!dim)
      return fail("a pad in the gradient that is not over the keys");
    for (unsigned d = 0, e = in->labels.size(); d < e; ++d)
      if (pad.getEdgePaddingLow()[d] != 0 || pad.getInteriorPadding()[d] != 0 ||
          pad.getEdgePaddingHigh()[d] != (d == *dim ? 1 : 0))
        return fail("a pad in the gradient that does not add one key at the "
                    "end (the sink column)");
    Node zero = forward.analyze(site.operand(1));
    if (zero.kind != Kind::Splat || zero.splat != 0)
      return fail("a pad in the gradient whose value is not 0");
    for (const auto &[m, c] : in->poly)
      if (!hasGradProbs(m))
        return fail("a pad to the sink column of a gradient term without "
                    "dP");
    return in;
  }

  /// With sinks, the keys [0, Skv) of a value over the keys and the sink
  /// column (the extended dS): the same terms over the keys.
  FailureOr<GradNode> sliceSinkColumn(const Site &site, shlo::SliceOp slice) {
    if (!info.sinks)
      return fail("the gradient graph has a stablehlo.slice");
    FailureOr<GradNode> in = analyze(site.operand(0));
    if (failed(in))
      return failure();
    ArrayRef<int64_t> from = shapeOf(slice.getOperand());
    std::optional<unsigned> dim =
        in->wild ? std::nullopt : keyDim(in->labels, from, seqKv + 1);
    if (!dim)
      return fail("a slice in the gradient that is not of the keys and the "
                  "sink column");
    for (unsigned d = 0, e = from.size(); d < e; ++d)
      if (slice.getStartIndices()[d] != 0 || slice.getStrides()[d] != 1 ||
          slice.getLimitIndices()[d] != (d == *dim ? seqKv : from[d]))
        return fail("a slice in the gradient that is not the keys without "
                    "the sink column");
    if (!site.calls.empty())
      return fail("the sink column is sliced off inside a called function");
    sliced.insert(site.operand(0).value);
    return in;
  }

  /// dP = dO V^T: a product of dO with a key-shaped V over the head dim.
  FailureOr<GradNode> gradProbs(const Site &site, shlo::DotGeneralOp dot) {
    if (!site.calls.empty())
      return fail("a product of the gradient is inside a called function");
    for (unsigned side : {0u, 1u}) {
      std::optional<Labels> doLabels = readAs(
          dot->getOperand(side), gradOutput, gradOutputLabels, headsKv);
      if (!doLabels)
        continue;
      Value v = dot->getOperand(1 - side);
      // V repeated over the groups (jnp.repeat), read with query heads.
      std::optional<std::pair<Value, SmallVector<Operation *>>> traced;
      std::optional<Labels> vLabels;
      if (auto un = info.repeated ? unrepeatHeads(peelUpcast(v), info.layout)
                                  : std::nullopt;
          un && un->second == info.groups) {
        traced = std::make_pair(peelUpcast(un->first), SmallVector<Operation *>());
        vLabels = queryLabels(info.layout, 2);
        std::replace(vLabels->begin(), vLabels->end(), Dim::Sq, Dim::Skv);
      } else {
        traced = traceToRoot(v, info.key.getType());
        if (!traced)
          return fail("dP = dO V^T reads a value not shaped like the key");
        vLabels = labelsAlong(traced->second, keyLabels(info.layout), headsKv);
      }
      if (!vLabels)
        return fail("dP = dO V^T reads the value through a reshape");
      FailureOr<Labels> labels =
          side == 0 ? productLabels(dot, *doLabels, *vLabels, {Dim::D},
                                    {Dim::Sq, Dim::G}, {Dim::Skv})
                    : productLabels(dot, *vLabels, *doLabels, {Dim::D},
                                    {Dim::Skv}, {Dim::Sq, Dim::G});
      if (failed(labels))
        return fail("dP = dO V^T is not contracted over the head dimension");
      if (value && value != traced->first)
        return fail("dP = dO V^T reads two different values");
      value = traced->first;
      return GradNode{atom(kGradProbs), *labels};
    }
    return fail("a product in the gradient does not read dO");
  }

  static std::string kindName(Kind kind) {
    switch (kind) {
    case Kind::Scores:
    case Kind::Scaled:
      return "scores";
    case Kind::Tanh:
      return "tanh of the scores";
    case Kind::Masked:
      return "masked scores";
    case Kind::RowMax:
      return "row max";
    case Kind::Shifted:
      return "shifted scores";
    case Kind::Out:
      return "output";
    default:
      return "values";
    }
  }

  LogicalResult fail(const Twine &message) {
    if (why.empty())
      why = message.str();
    return failure();
  }

  Matcher &forward;
  const Info &info;
  Value gradOutput;
  Labels gradOutputLabels;
  std::string &why;
  int64_t headsKv, seqKv;
  unsigned depth = 0;
  std::map<SmallVector<const void *, 4>, std::optional<GradNode>> memo;
  std::map<Monomial, int> reduced;
};

/// Whether `poly` is `c * target` for one c, returned.
std::optional<double> proportional(const Poly &poly, const Poly &target) {
  if (poly.size() != target.size() || target.empty())
    return std::nullopt;
  double c = 0;
  for (const auto &[m, coeff] : target) {
    auto it = poly.find(m);
    if (it == poly.end())
      return std::nullopt;
    double ratio = it->second / coeff;
    if (c == 0)
      c = ratio;
    else if (std::abs(ratio - c) > 1e-6 * std::abs(c))
      return std::nullopt;
  }
  return c;
}

bool sameScale(double a, double b) {
  return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b));
}

/// The transpose of jnp.repeat's broadcast, as JAX writes it: `grad`, the
/// gradient of the repeated tensor (`type` with `groups` times its heads,
/// which are dimension `head`), reshaped to split the heads into (kv heads,
/// groups), summed over the groups and any size-1 dimensions, then put
/// back into `type` (the size-1 dimensions by a broadcast_in_dim or a
/// reshape). Returns that value of `type`: the gradient of the tensor that
/// was repeated, as sdpa.attention_grad computes it.
FailureOr<Value> sumOverGroups(Matcher &matcher, Value grad,
                               RankedTensorType type, unsigned head,
                               int64_t groups) {
  auto single = [](Value v) -> Operation * {
    return v.hasOneUse() ? *v.user_begin() : nullptr;
  };
  auto reshape = dyn_cast_or_null<shlo::ReshapeOp>(single(grad));
  if (!reshape)
    return failure();
  SmallVector<int64_t> split(shapeOf(grad));
  if (split.size() != 4 || split[head] != type.getDimSize(head) * groups)
    return failure();
  split[head] = type.getDimSize(head);
  split.insert(split.begin() + head + 1, groups);
  if (shapeOf(reshape.getResult()) != ArrayRef<int64_t>(split))
    return failure();
  auto reduce = dyn_cast_or_null<shlo::ReduceOp>(single(reshape.getResult()));
  if (!reduce || reduce->getNumOperands() != 2 ||
      reduce.getApplies() != "stablehlo.add" || reduce->getNumResults() != 1)
    return failure();
  Node init = matcher.analyze(Site{reduce->getOperand(1), {}});
  if (init.kind != Kind::Splat || init.splat != 0)
    return failure();
  ArrayRef<int64_t> dims = reduce.getDimensions();
  if (!llvm::is_contained(dims, int64_t(head) + 1))
    return failure();
  for (int64_t d : dims)
    if (d != int64_t(head) + 1 && split[d] != 1)
      return failure();
  Value sum = reduce->getResult(0);
  if (sum.getType() == type)
    return sum;
  // The size-1 dimensions JAX summed over come back in order (a reshape,
  // or a broadcast_in_dim with increasing dimensions).
  Operation *back = single(sum);
  if (!back || back->getNumResults() != 1 ||
      back->getResult(0).getType() != type)
    return failure();
  if (isa<shlo::ReshapeOp>(back))
    return back->getResult(0);
  auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(back);
  if (!broadcast)
    return failure();
  ArrayRef<int64_t> map = broadcast.getBroadcastDimensions();
  ArrayRef<int64_t> from = shapeOf(sum);
  for (auto [i, d] : llvm::enumerate(map))
    if ((i > 0 && d <= map[i - 1]) || from[i] != type.getDimSize(d))
      return failure();
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!llvm::is_contained(map, d) && type.getDimSize(d) != 1)
      return failure();
  return broadcast.getResult();
}

/// The sinks' gradient as JAX computes it: the extended dS (over the keys
/// and the sink column; its keys are the dS that `grad` matched) sliced to
/// the sink column, dS[b, h, q, sink] = -P_sink * rowsum(P * dP), and summed
/// over everything but the query head (the transpose of the sinks'
/// broadcast) to an [Hq] value of the sinks' type: docs/Semantics.md §7's
/// dsink. Returns that value, or null if the graph slices out no sink
/// column (it computes no sink gradient); fails with `why` on any other
/// form.
FailureOr<Value> matchSinkGradient(Matcher &matcher, GradMatcher &grad,
                                   const Info &info, const Poly &target,
                                   std::string &why) {
  auto fail = [&](const Twine &message) {
    why = message.str();
    return failure();
  };
  if (grad.sliced.size() != 1)
    return fail(grad.sliced.empty()
                    ? "dS is not sliced off a gradient over the keys and the "
                      "sink column"
                    : "dS is sliced off two different gradients over the "
                      "keys and the sink column");
  Value full = grad.sliced.front();
  FailureOr<GradNode> node = grad.analyze(Site{full, {}});
  if (failed(node))
    return failure();
  std::optional<double> c = proportional(node->poly, target);
  if (!c)
    return fail("the gradient over the keys and the sink column is not "
                "P * (dP - rowsum(P * dP))");
  ArrayRef<int64_t> fullShape = shapeOf(full);
  unsigned keyDim = llvm::find(node->labels, Dim::Skv) - node->labels.begin();
  shlo::SliceOp column;
  for (Operation *user : full.getUsers()) {
    auto slice = dyn_cast<shlo::SliceOp>(user);
    if (!slice)
      continue;
    bool isColumn = true;
    for (auto [d, size] : llvm::enumerate(fullShape))
      isColumn &= slice.getStrides()[d] == 1 &&
                  slice.getStartIndices()[d] == (d == keyDim ? size - 1 : 0) &&
                  slice.getLimitIndices()[d] == size;
    if (!isColumn)
      continue;
    if (column)
      return fail("the sink column of dS is sliced out twice");
    column = slice;
  }
  if (!column)
    return Value();

  // Sum over the batch and the query rows, through shape ops, to [Hq].
  auto notSummed = [&](const Twine &detail) {
    return fail("the sinks' gradient is not the sink column of dS summed "
                "over the batch and the query rows: " +
                detail);
  };
  Value value = column.getResult();
  Labels labels = node->labels;
  labels[keyDim] = Dim::Unit;
  double factor = *c;
  int64_t headsKv = shapeOf(info.key)[info.layout == Layout::bshd ? 2 : 1];
  auto isHead = [](Dim d) { return d == Dim::H || d == Dim::G; };
  for (unsigned steps = 0;; ++steps) {
    // (A single query head is labelled as a size-1 dimension.)
    if (value.getType() == info.sinks.getType() && labels.size() == 1 &&
        (isHead(labels[0]) || shapeOf(value)[0] == 1))
      break;
    if (steps >= kMaxGraphDepth || !value.hasOneUse())
      return notSummed("it has no single use on the way");
    Operation *user = *value.user_begin();
    if (user->getNumResults() != 1)
      return notSummed("it reaches a " + user->getName().getStringRef());
    ArrayRef<int64_t> shape = shapeOf(value);
    Value next = user->getResult(0);
    if (auto reduce = dyn_cast<shlo::ReduceOp>(user)) {
      Node init = matcher.analyze(Site{reduce->getOperand(1), {}});
      if (reduce->getNumOperands() != 2 ||
          reduce.getApplies() != "stablehlo.add" ||
          reduce->getOperand(0) != value || init.kind != Kind::Splat ||
          init.splat != 0)
        return notSummed("a reduce that is not a sum from 0");
      ArrayRef<int64_t> dims = reduce.getDimensions();
      for (int64_t d : dims)
        if (isHead(labels[d]) && shape[d] != 1)
          return notSummed("a sum over the query heads");
      Labels kept;
      for (auto [d, label] : llvm::enumerate(labels))
        if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
          kept.push_back(label);
      labels = kept;
    } else if (isa<shlo::ReshapeOp>(user)) {
      std::optional<Labels> reshaped =
          reshapeLabels(labels, shape, shapeOf(next), headsKv);
      if (!reshaped)
        return notSummed("a reshape that mixes dimensions");
      labels = *reshaped;
    } else if (auto transpose = dyn_cast<shlo::TransposeOp>(user)) {
      labels = permuteLabels(labels, transpose.getPermutation());
    } else if (isa<shlo::ConvertOp>(user)) {
      if (!isa<FloatType>(getElementTypeOrSelf(next.getType())))
        return notSummed("a convert to a non-float type");
    } else if (auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(user)) {
      labels = broadcastLabels(labels, broadcast, shapeOf(next));
      if (llvm::is_contained(labels, Dim::Star))
        return notSummed("a broadcast that repeats it");
    } else if (isa<shlo::MultiplyOp, shlo::DivideOp>(user)) {
      bool divide = isa<shlo::DivideOp>(user);
      unsigned other = user->getOperand(0) == value ? 1 : 0;
      Node splat = matcher.analyze(Site{user->getOperand(other), {}});
      if (splat.kind != Kind::Splat || (divide && other == 0) ||
          user->getOperand(1 - other) != value ||
          shapeOf(next) != shape || splat.splat == 0)
        return notSummed("a product with a value that is not a constant");
      factor = divide ? factor / splat.splat : factor * splat.splat;
    } else {
      return notSummed("it reaches a " + user->getName().getStringRef());
    }
    value = next;
  }
  if (!sameScale(factor, 1.0))
    return fail("the sinks' gradient is scaled by " + std::to_string(factor) +
                ", not 1");
  return value;
}

} // namespace

FailureOr<Backward> import::matchBackward(Matcher &matcher, const Info &info,
                                          shlo::DotGeneralOp dv,
                                          ArrayRef<shlo::DotGeneralOp> dots,
                                          std::string &why) {
  auto fail = [&](const Twine &message) {
    why = message.str();
    return failure();
  };
  int64_t headsKv = shapeOf(info.key)[info.layout == Layout::bshd ? 2 : 1];
  Type queryType = info.query.getType(), keyType = info.key.getType();
  Labels qLabels = queryLabels(info.layout, info.groups);
  // With one kv head the query head is the group index (h = g): label it so,
  // as the split query Q' of the scores is.
  if (headsKv == 1 && !info.repeated)
    for (Dim &label : qLabels)
      if (label == Dim::H)
        label = Dim::G;
  Labels kLabels = keyLabels(info.layout);
  // K and V repeated over the groups (jnp.repeat): the products read the
  // repeated tensors, [B, S, H, D] or [B, H, S, D] with query heads, and
  // their gradients are summed over each group back to K's and V's type.
  unsigned head = info.layout == Layout::bshd ? 2 : 1;
  Labels repLabels = queryLabels(info.layout, 2);
  std::replace(repLabels.begin(), repLabels.end(), Dim::Sq, Dim::Skv);
  SmallVector<int64_t> repShape(shapeOf(info.key));
  repShape[head] *= info.groups;
  auto repType = RankedTensorType::get(
      repShape, cast<RankedTensorType>(keyType).getElementType());
  auto toKvLayout = [&](Value out, const Labels &labels,
                        double *factor) -> FailureOr<Value> {
    if (!info.repeated)
      return followToLayout(out, labels, keyType, kLabels, headsKv, factor);
    FailureOr<Value> grad =
        followToLayout(out, labels, repType, repLabels, headsKv, factor);
    if (failed(grad))
      return failure();
    return sumOverGroups(matcher, *grad, cast<RankedTensorType>(keyType),
                         head, info.groups);
  };

  // dV = P^T dO: dO is the first value in Q's type behind the other operand.
  Backward result;
  Labels dvLabels;
  for (unsigned side : {0u, 1u}) {
    Node probs = matcher.analyze(Site{dv->getOperand(side), {}}.resolve());
    if (probs.kind != Kind::Probs)
      continue;
    auto traced = traceToRoot(dv->getOperand(1 - side), queryType);
    if (!traced)
      return fail("dV = P^T dO: the other operand is not the query-shaped dO "
                  "through transposes and reshapes");
    std::optional<Labels> doLabels =
        labelsAlong(traced->second, qLabels, headsKv);
    if (!doLabels)
      return fail("dV = P^T dO reads dO through a reshape that mixes "
                  "dimensions");
    FailureOr<Labels> labels =
        side == 0 ? productLabels(dv, probs.labels, *doLabels,
                                  {Dim::Sq, Dim::G}, {Dim::Skv}, {Dim::D})
                  : productLabels(dv, *doLabels, probs.labels,
                                  {Dim::Sq, Dim::G}, {Dim::D}, {Dim::Skv});
    if (failed(labels))
      return fail("dV = P^T dO is not contracted over the query rows");
    result.gradOutput = traced->first;
    dvLabels = *labels;
    break;
  }
  if (!result.gradOutput)
    return fail("dV = P^T dO has no probabilities operand");
  double dvFactor = 1.0;
  FailureOr<Value> gradValue = toKvLayout(dv.getResult(), dvLabels, &dvFactor);
  if (failed(gradValue) || dvFactor != 1.0)
    return fail(info.repeated
                    ? "dV = P^T dO is not summed over the groups of the "
                      "repeated value back to the value's layout"
                    : "dV = P^T dO is not brought back to the value's layout");
  result.gradValue = *gradValue;

  // dQ = scale dS K and dK = scale dS^T Q: the other products reading K or
  // Q (not the scores themselves), whose other operand is dS.
  GradMatcher grad(matcher, info, result.gradOutput, qLabels, why);
  Poly target =
      add(multiply(multiply(atom(kExp), atom(kGradProbs)),
                   *reciprocal(atom(kRowSum))),
          multiply(multiply(atom(kExp), *reciprocal(multiply(
                                            atom(kRowSum), atom(kRowSum)))),
                   atom(grad.reducedAtom(Monomial{{kExp, 1}, {kGradProbs, 1}}))),
          -1.0);
  // The sink column's dS has no softcap factor: the sinks join the capped
  // logits.
  Poly sinkTarget = target;
  // Through the softcap c * tanh(S / c): the chain rule's c and 1 / c
  // cancel, and dS gains the factor 1 - t^2.
  if (info.softcap)
    target = multiply(target, add(constant(1.0),
                                  multiply(atom(kTanh), atom(kTanh)), -1.0));
  StringRef targetText = info.softcap
                             ? "P * (dP - rowsum(P * dP)) * (1 - tanh^2(S / c))"
                             : "P * (dP - rowsum(P * dP))";
  for (shlo::DotGeneralOp dot : dots) {
    if (dot == dv)
      continue;
    Node node = matcher.analyze(Site{dot.getResult(), {}});
    if (node.kind != Kind::Unknown)
      continue; // the scores or a P V product
    for (unsigned side : {0u, 1u}) {
      Value operand = dot->getOperand(side);
      std::optional<Labels> kl =
          readAs(peelUpcast(operand), info.key, kLabels, headsKv);
      if (!kl && info.repeated)
        if (auto un = unrepeatHeads(peelUpcast(operand), info.layout);
            un && un->second == info.groups && peelUpcast(un->first) == info.key)
          kl = repLabels;
      std::optional<Labels> ql =
          kl ? std::nullopt
             : readAs(peelUpcast(operand), info.query, qLabels, headsKv);
      if (!kl && !ql)
        continue;
      bool isGradQuery = kl.has_value();
      if (isGradQuery ? bool(result.gradQuery) : bool(result.gradKey))
        return fail(Twine("more than one product computes ") +
                    (isGradQuery ? "dQ" : "dK"));
      why.clear();
      FailureOr<GradNode> ds =
          grad.analyze(Site{dot->getOperand(1 - side), {}}.resolve());
      if (failed(ds))
        return fail(Twine(isGradQuery ? "dQ = scale dS K" : "dK = scale dS^T Q") +
                    ": " + why);
      const Labels &other = isGradQuery ? *kl : *ql;
      FailureOr<Labels> labels =
          isGradQuery
              ? (side == 1 ? productLabels(dot, ds->labels, other, {Dim::Skv},
                                           {Dim::Sq, Dim::G}, {Dim::D})
                           : productLabels(dot, other, ds->labels, {Dim::Skv},
                                           {Dim::D}, {Dim::Sq, Dim::G}))
              : (side == 1
                     ? productLabels(dot, ds->labels, other, {Dim::Sq, Dim::G},
                                     {Dim::Skv}, {Dim::D})
                     : productLabels(dot, other, ds->labels, {Dim::Sq, Dim::G},
                                     {Dim::D}, {Dim::Skv}));
      if (failed(labels))
        return fail(Twine(isGradQuery ? "dQ = scale dS K" : "dK = scale dS^T Q") +
                    " is not contracted over the " +
                    (isGradQuery ? "keys" : "query rows"));
      std::optional<double> c = proportional(ds->poly, target);
      if (!c)
        return fail("dS is not " + targetText);
      double factor = *c;
      FailureOr<Value> root =
          isGradQuery ? followToLayout(dot.getResult(), *labels, queryType,
                                       qLabels, headsKv, &factor)
                      : toKvLayout(dot.getResult(), *labels, &factor);
      if (failed(root))
        return fail(isGradQuery ? "dQ is not brought back to the query's layout"
                    : info.repeated
                        ? "dK is not summed over the groups of the repeated "
                          "key back to the key's layout"
                        : "dK is not brought back to the key's layout");
      if (!sameScale(factor, info.scale))
        return fail(Twine(isGradQuery ? "dQ" : "dK") + " is scaled by " +
                    std::to_string(factor) + ", not the forward's scale " +
                    std::to_string(info.scale));
      (isGradQuery ? result.gradQuery : result.gradKey) = *root;
      break;
    }
  }
  if (!result.gradQuery)
    return fail("no product computes dQ = scale dS K");
  if (!result.gradKey)
    return fail("no product computes dK = scale dS^T Q");
  if (!grad.value)
    return fail("dS reads no dP = dO V^T");
  if (grad.value.getType() != keyType)
    return fail("dP = dO V^T reads a value not shaped like the key");
  result.value = grad.value;
  if (info.sinks) {
    FailureOr<Value> gradSinks =
        matchSinkGradient(matcher, grad, info, sinkTarget, why);
    if (failed(gradSinks))
      return failure();
    result.gradSinks = *gradSinks;
  }
  return result;
}
