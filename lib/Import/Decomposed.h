//===- Decomposed.h - The abstract interpreter of decomposed attention -*- C++ -*-===//
//
// What the forward matcher (DecomposedAttention.cpp) and the backward
// matcher (DecomposedBackward.cpp) share: the labels of tensor dimensions,
// the stages of the attention chain, and the interpreter that assigns each
// value its stage and labels.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_DECOMPOSED_H
#define SDPADIALECT_LIB_IMPORT_DECOMPOSED_H

#include "Import.h"
#include "Site.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace mlir::sdpa::import {

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
  Scaled,  ///< scale * Q K^T (or its softcap c * tanh(scale * Q K^T / c))
  Tanh,    ///< tanh(scale * Q K^T / c), the softcap before its factor c
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
  /// Q, K, V as the sdpa op reads them; `queryOperand` is the product's
  /// left operand (Q, or Q with its heads split into (Hkv, G)).
  Value query, key, value, queryOperand;
  Layout layout = Layout::bhsd;
  int64_t groups = 1;
  /// K and V are repeated over the groups (jnp.repeat) before the products.
  bool repeated = false;
  double scale = 1.0;
  std::optional<Site> mask;
  Labels maskLabels;
  double fill = 0;
  /// Attention sinks (gpt-oss): the [Hq] f32 logits joined to the scores as
  /// one more key column; `sinkColumn` while the probabilities still carry
  /// that column (until it is sliced off).
  Value sinks;
  bool sinkColumn = false;
  /// The logit softcap c of `c * tanh(S / c)`, and the tanh (the
  /// backward's `1 - tanh^2` reads it).
  std::optional<double> softcap;
  std::optional<Site> tanh;
  /// The Exp of the softmax: identifies the attention.
  std::optional<Site> exp;
  /// Why the chain is no sdpa op (sinks, a softcap written otherwise): it
  /// is matched so the remark can say so, and declined.
  std::string unsupported;
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
  /// Scores divided by a constant (the softcap's S / c): c, and the scale
  /// before the division. For Tanh: the same c and scale.
  std::optional<std::pair<double, double>> divided = std::nullopt;
};

ArrayRef<int64_t> shapeOf(Value value);

/// The labels of the non-unit dimensions, in order.
Labels significant(const Labels &labels, ArrayRef<int64_t> shape);

/// Labels through a reshape: size-1 dimensions come and go, (Hkv, G) may
/// merge into H, and H may split into (Hkv, G) with `headsKv` kv heads.
std::optional<Labels> reshapeLabels(const Labels &in, ArrayRef<int64_t> from,
                                    ArrayRef<int64_t> to,
                                    int64_t headsKv = 0);

/// Labels through a transpose.
Labels permuteLabels(const Labels &in, ArrayRef<int64_t> permutation);

/// Labels through a broadcast_in_dim to `shape`: operand dimension j keeps
/// its label where it lands at full size, new dimensions are Unit (size 1)
/// or Star (repeated).
Labels broadcastLabels(const Labels &in, shlo::BroadcastInDimOp broadcast,
                       ArrayRef<int64_t> shape);

/// The labels of a rank-4 key (or value) tensor in `layout`.
Labels keyLabels(Layout layout);

/// The labels of the query (and of the output) in `layout`.
Labels queryLabels(Layout layout, int64_t groups);

/// The labels of a dot_general's result, checking that batch dimensions
/// pair equal labels from {B, Hkv}, contracting dimensions pair labels
/// from `contract`, and the non-unit free dimensions of each side are
/// from `lhsFree` / `rhsFree`.
FailureOr<Labels> productLabels(shlo::DotGeneralOp dot, const Labels &lhs,
                                const Labels &rhs, ArrayRef<Dim> contract,
                                ArrayRef<Dim> lhsFree, ArrayRef<Dim> rhsFree);

/// Follows `out` (labelled `labels`) through its single users that are
/// transposes, reshapes and float converts (and, if `factor` is given,
/// multiplications by a splat, whose product goes to `*factor`) to the first
/// value of type `type` whose labels are `want`.
FailureOr<Value> followToLayout(Value out, Labels labels, Type type,
                                const Labels &want, int64_t headsKv,
                                double *factor = nullptr);

/// The abstract interpreter of the attention chain. Results are memoized
/// per site, so a value shared by many users is interpreted once, and the
/// recursion stops at kMaxGraphDepth.
class Matcher {
public:
  Node analyze(const Site &site);

  /// Why a product with a probabilities operand was not P V, by product.
  std::map<Operation *, std::string> declines;
  /// Set when a graph was deeper than kMaxGraphDepth.
  bool tooDeep = false;

private:
  Node analyzeOp(const Site &site);
  Node matchScores(const Site &site, shlo::DotGeneralOp dot);
  Node matchProbsTimesValue(const Site &site, shlo::DotGeneralOp dot);

  std::map<SmallVector<const void *, 4>, Node> memo;
  unsigned depth = 0;
};

/// GQA written as jnp.repeat: `value = reshape(broadcast_in_dim(x))` that
/// inserts a group dimension (G > 1) right after x's head dimension in
/// `layout` and merges the two, so head h of `value` is head h / G of x.
/// Returns x and G.
std::optional<std::pair<Value, int64_t>> unrepeatHeads(Value value,
                                                       Layout layout);

/// Whether `value` is `convert(x)` from f16/bf16 to a wider float; returns
/// x then (an exact widening), otherwise `value`.
Value peelUpcast(Value value);

//===----------------------------------------------------------------------===//
// The backward (DecomposedBackward.cpp)
//===----------------------------------------------------------------------===//

/// A matched decomposed backward: the values the sdpa.attention_grad
/// replaces and its operands.
struct Backward {
  Value gradOutput, value;
  /// dQ, dK, dV as the graph computes them (in Q's, K's, V's type).
  Value gradQuery, gradKey, gradValue;
  /// With sinks: their gradient as the graph computes it (in the sinks'
  /// type), null if the graph computes none.
  Value gradSinks;
};

/// Matches the gradient of the attention `info` whose dV product is `dv`
/// (dV = P^T dO) among `dots`, the products of the function. Fails with
/// `why` naming the piece that does not match.
FailureOr<Backward> matchBackward(Matcher &matcher, const Info &info,
                                  shlo::DotGeneralOp dv,
                                  ArrayRef<shlo::DotGeneralOp> dots,
                                  std::string &why);

} // namespace mlir::sdpa::import

#endif // SDPADIALECT_LIB_IMPORT_DECOMPOSED_H
