//===- MaskAnalysis.cpp - Recover and verify a band from a mask graph -----===//
//
// Symbolic reading (affine index expressions and half-planes) and concrete
// evaluation of the boolean mask subgraph of a decomposed attention graph.
//
//===----------------------------------------------------------------------===//

#include "MaskAnalysis.h"

#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

//===----------------------------------------------------------------------===//
// Index helpers
//===----------------------------------------------------------------------===//

static SmallVector<int64_t, 4> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

static int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

/// Calls `fn(flat, index)` for every cell of `shape`, row-major.
template <typename Fn>
static void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  int64_t n = getNumElements(shape);
  SmallVector<int64_t, 4> index(shape.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    fn(flat, ArrayRef<int64_t>(index));
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

static std::string opName(Operation *op) {
  return op ? op->getName().getStringRef().str() : "a function argument";
}

static RankedTensorType tensorType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

//===----------------------------------------------------------------------===//
// Coefficient mapping through shape ops
//===----------------------------------------------------------------------===//

/// Maps per-dimension coefficients of the operand of a shape op to its
/// result: `value(result index) = sum coeff[d] * index[d]` stays true.
static FailureOr<SmallVector<int64_t, 4>>
mapCoefficients(Operation *op, ArrayRef<int64_t> in, std::string &why) {
  auto resultType = tensorType(op->getResult(0));
  auto operandType = tensorType(op->getOperand(0));
  SmallVector<int64_t, 4> out(resultType.getRank(), 0);
  if (auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(op)) {
    for (auto [j, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (operandType.getDimSize(j) == resultType.getDimSize(d))
        out[d] += in[j];
    // A size-1 operand dimension repeats index 0: its term vanishes.
    return out;
  }
  if (auto transpose = dyn_cast<shlo::TransposeOp>(op)) {
    for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
      out[i] = in[p];
    return out;
  }
  if (isa<shlo::ReshapeOp>(op)) {
    // Only reshapes that insert or drop size-1 dimensions keep indices.
    SmallVector<int64_t> from, to;
    for (int64_t d = 0; d < operandType.getRank(); ++d)
      if (operandType.getDimSize(d) != 1)
        from.push_back(d);
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      if (resultType.getDimSize(d) != 1)
        to.push_back(d);
    if (from.size() != to.size())
      return why = "reshape that merges or splits dimensions", failure();
    for (auto [f, t] : llvm::zip(from, to)) {
      if (operandType.getDimSize(f) != resultType.getDimSize(t))
        return why = "reshape that merges or splits dimensions", failure();
      out[t] = in[f];
    }
    return out;
  }
  why = "unexpected " + opName(op);
  return failure();
}

//===----------------------------------------------------------------------===//
// Symbolic reading
//===----------------------------------------------------------------------===//

namespace {

/// `sum coeff[d] * index[d] + constant` over the indices of one tensor.
/// The arithmetic is checked: an operation that overflows int64 fails.
struct Affine {
  SmallVector<int64_t, 4> coeff;
  int64_t constant = 0;

  bool isConstant() const {
    return llvm::all_of(coeff, [](int64_t c) { return c == 0; });
  }
  std::optional<Affine> scaled(int64_t factor) const {
    Affine r = *this;
    for (int64_t &c : r.coeff)
      if (llvm::MulOverflow(c, factor, c))
        return std::nullopt;
    if (llvm::MulOverflow(r.constant, factor, r.constant))
      return std::nullopt;
    return r;
  }
  std::optional<Affine> plus(const Affine &other) const {
    Affine r = *this;
    for (auto [a, b] : llvm::zip(r.coeff, other.coeff))
      if (llvm::AddOverflow(a, b, a))
        return std::nullopt;
    if (llvm::AddOverflow(r.constant, other.constant, r.constant))
      return std::nullopt;
    return r;
  }
  /// The smallest and largest value over `shape`, or nullopt on overflow.
  std::optional<std::pair<int64_t, int64_t>>
  range(ArrayRef<int64_t> shape) const {
    int64_t lo = constant, hi = constant;
    for (auto [c, size] : llvm::zip(coeff, shape)) {
      int64_t span;
      if (size <= 1)
        continue;
      if (llvm::MulOverflow(c, size - 1, span))
        return std::nullopt;
      int64_t &bound = span < 0 ? lo : hi;
      if (llvm::AddOverflow(bound, span, bound))
        return std::nullopt;
    }
    return std::make_pair(lo, hi);
  }
};

/// A conjunction of `expr >= 0`.
using Conjunction = SmallVector<Affine, 4>;

/// Why an index tensor of `type` cannot be read as exact integers: its
/// element type is not a signless integer of at most 64 bits.
std::optional<std::string> unreadableIndexType(RankedTensorType type) {
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!element)
    return std::string("non-integer index value");
  if (!element.isSignless())
    return std::string("index value of unsigned or signed-qualified type");
  if (element.getWidth() > 64)
    return "index value wider than 64 bits (i" +
           std::to_string(element.getWidth()) + ")";
  return std::nullopt;
}

class SymbolicReader {
public:
  explicit SymbolicReader(std::string &why) : why(why) {}

  /// The affine reading of an integer site; memoized, so a sub-expression
  /// shared by many users is read once.
  FailureOr<Affine> affine(const Site &site) {
    auto key = site.key();
    auto it = affineMemo.find(key);
    if (it != affineMemo.end())
      return it->second ? FailureOr<Affine>(*it->second) : FailureOr<Affine>(failure());
    FailureOr<Affine> result = guarded([&] { return readAffine(site); });
    affineMemo[key] = succeeded(result) ? std::optional<Affine>(*result)
                                        : std::nullopt;
    return result;
  }

  /// The conjunction a boolean site states; memoized like affine().
  FailureOr<Conjunction> predicate(const Site &site) {
    auto key = site.key();
    auto it = predicateMemo.find(key);
    if (it != predicateMemo.end())
      return it->second ? FailureOr<Conjunction>(*it->second)
                        : FailureOr<Conjunction>(failure());
    FailureOr<Conjunction> result =
        guarded([&] { return readPredicate(site); });
    predicateMemo[key] = succeeded(result)
                             ? std::optional<Conjunction>(*result)
                             : std::nullopt;
    return result;
  }

private:
  /// Runs `read` one level deeper, failing past kMaxGraphDepth.
  template <typename Fn>
  auto guarded(Fn read) -> decltype(read()) {
    if (depth >= kMaxGraphDepth)
      return fail("mask graph deeper than " + Twine(kMaxGraphDepth) +
                  " ops");
    ++depth;
    auto result = read();
    --depth;
    return result;
  }

  FailureOr<Affine> readAffine(const Site &site) {
    if (site.truncated)
      return fail("calls nested deeper than " + Twine(Site::kMaxCallDepth) +
                  " (a recursive helper)");
    Operation *op = site.getDefiningOp();
    auto type = tensorType(site.value);
    if (!op || !type)
      return fail("index value defined by " + opName(op));
    if (std::optional<std::string> problem = unreadableIndexType(type))
      return fail(*problem + " defined by " + opName(op));
    FailureOr<Affine> result = readAffineOp(site, op, type);
    if (failed(result))
      return failure();
    // The reading holds only if no value of the tensor wraps in its type.
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    std::optional<std::pair<int64_t, int64_t>> range =
        result->range(type.getShape());
    bool fits = range.has_value();
    if (fits && width < 64) {
      int64_t max = (int64_t(1) << (width - 1)) - 1;
      fits = range->first >= -max - 1 && range->second <= max;
    }
    if (!fits)
      return fail("the values of " + opName(op) + " overflow i" +
                  Twine(width));
    return result;
  }

  FailureOr<Affine> readAffineOp(const Site &site, Operation *op,
                                 RankedTensorType type) {
    Affine zero{SmallVector<int64_t, 4>(type.getRank(), 0), 0};
    if (auto iota = dyn_cast<shlo::IotaOp>(op)) {
      zero.coeff[iota.getIotaDimension()] = 1;
      return zero;
    }
    if (auto constant = dyn_cast<shlo::ConstantOp>(op))
      return ramp(constant, zero);
    if (isa<shlo::BroadcastInDimOp, shlo::TransposeOp, shlo::ReshapeOp>(op)) {
      FailureOr<Affine> in = affine(site.operand(0));
      if (failed(in))
        return failure();
      FailureOr<SmallVector<int64_t, 4>> coeff =
          mapCoefficients(op, in->coeff, why);
      if (failed(coeff))
        return failure();
      return Affine{*coeff, in->constant};
    }
    if (isa<shlo::ConvertOp>(op))
      return affine(site.operand(0));
    if (isa<shlo::NegOp>(op)) {
      FailureOr<Affine> in = affine(site.operand(0));
      if (failed(in))
        return failure();
      return checked(in->scaled(-1));
    }
    if (isa<shlo::AddOp, shlo::SubtractOp, shlo::MultiplyOp>(op)) {
      FailureOr<Affine> lhs = affine(site.operand(0));
      if (failed(lhs))
        return failure();
      FailureOr<Affine> rhs = affine(site.operand(1));
      if (failed(rhs))
        return failure();
      if (isa<shlo::AddOp>(op))
        return checked(lhs->plus(*rhs));
      if (isa<shlo::SubtractOp>(op)) {
        std::optional<Affine> negated = rhs->scaled(-1);
        return checked(negated ? lhs->plus(*negated) : std::nullopt);
      }
      if (rhs->isConstant())
        return checked(lhs->scaled(rhs->constant));
      if (lhs->isConstant())
        return checked(rhs->scaled(lhs->constant));
      return fail("product of two index expressions");
    }
    return fail("index value defined by " + opName(op));
  }

  FailureOr<Conjunction> readPredicate(const Site &site) {
    if (site.truncated)
      return fail("calls nested deeper than " + Twine(Site::kMaxCallDepth) +
                  " (a recursive helper)");
    Operation *op = site.getDefiningOp();
    auto type = tensorType(site.value);
    if (!op || !type || !type.getElementType().isInteger(1))
      return fail("mask value defined by " + opName(op));
    if (auto constant = dyn_cast<shlo::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
      if (dense && dense.isSplat() && dense.getSplatValue<bool>())
        return Conjunction{};
      return fail("mask constant that is not all true");
    }
    if (auto compare = dyn_cast<shlo::CompareOp>(op)) {
      std::optional<shlo::ComparisonType> kind = compare.getCompareType();
      if (kind && *kind != shlo::ComparisonType::SIGNED &&
          *kind != shlo::ComparisonType::NOTYPE)
        return fail("compare that is not signed");
      FailureOr<Affine> lhs = affine(site.operand(0));
      if (failed(lhs))
        return failure();
      FailureOr<Affine> rhs = affine(site.operand(1));
      if (failed(rhs))
        return failure();
      // lhs - rhs, and its negation; both exact in int64 or declined.
      std::optional<Affine> negRhs = rhs->scaled(-1);
      std::optional<Affine> diff =
          negRhs ? lhs->plus(*negRhs) : std::optional<Affine>();
      std::optional<Affine> negDiff =
          diff ? diff->scaled(-1) : std::optional<Affine>();
      if (!negDiff)
        return fail("index arithmetic overflows int64");
      Affine minusOne{SmallVector<int64_t, 4>(diff->coeff.size(), 0), -1};
      std::optional<Affine> strict;
      switch (compare.getComparisonDirection()) {
      case shlo::ComparisonDirection::GE:
        return Conjunction{*diff};
      case shlo::ComparisonDirection::LE:
        return Conjunction{*negDiff};
      case shlo::ComparisonDirection::GT:
        strict = diff->plus(minusOne);
        break;
      case shlo::ComparisonDirection::LT:
        strict = negDiff->plus(minusOne);
        break;
      case shlo::ComparisonDirection::EQ:
        return Conjunction{*diff, *negDiff};
      case shlo::ComparisonDirection::NE:
        return fail("not-equal compare (not a half-plane)");
      }
      if (!strict)
        return fail("index arithmetic overflows int64");
      return Conjunction{*strict};
    }
    if (isa<shlo::AndOp>(op))
      return conjoinOperands(site);
    if (auto select = dyn_cast<shlo::SelectOp>(op)) {
      // pred ? x : false  ==  pred and x.
      Site onFalse = site.operand(2);
      auto constant = onFalse.value.getDefiningOp<shlo::ConstantOp>();
      Operation *def = onFalse.getDefiningOp();
      if (auto broadcast = dyn_cast_or_null<shlo::BroadcastInDimOp>(def))
        constant = onFalse.operand(0).value.getDefiningOp<shlo::ConstantOp>();
      auto dense = constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue())
                            : DenseIntElementsAttr();
      if (!dense || !dense.isSplat() || dense.getSplatValue<bool>())
        return fail("select whose false branch is not all false");
      return conjoinOperands(site);
    }
    if (isa<shlo::BroadcastInDimOp, shlo::TransposeOp, shlo::ReshapeOp>(op)) {
      FailureOr<Conjunction> in = predicate(site.operand(0));
      if (failed(in))
        return failure();
      Conjunction out;
      for (const Affine &half : *in) {
        FailureOr<SmallVector<int64_t, 4>> coeff =
            mapCoefficients(op, half.coeff, why);
        if (failed(coeff))
          return failure();
        out.push_back({*coeff, half.constant});
      }
      return out;
    }
    return fail("mask value defined by " + opName(op));
  }

  /// The predicates of operands 0 and 1 of `site`'s op, conjoined.
  FailureOr<Conjunction> conjoinOperands(const Site &site) {
    FailureOr<Conjunction> left = predicate(site.operand(0));
    if (failed(left))
      return failure();
    FailureOr<Conjunction> right = predicate(site.operand(1));
    if (failed(right))
      return failure();
    return conjoin(*left, *right);
  }

  /// `lhs and rhs`, without repeating a half-plane (`x and x` is `x`).
  static Conjunction conjoin(const Conjunction &lhs, const Conjunction &rhs) {
    Conjunction out = lhs;
    for (const Affine &half : rhs)
      if (!llvm::any_of(out, [&](const Affine &have) {
            return have.coeff == half.coeff && have.constant == half.constant;
          }))
        out.push_back(half);
    return out;
  }

  FailureOr<Affine> checked(std::optional<Affine> value) {
    if (!value)
      return fail("index arithmetic overflows int64");
    return *value;
  }

  /// A constant: a splat, or a ramp `c + index[d]` along one dimension.
  FailureOr<Affine> ramp(shlo::ConstantOp constant, Affine result) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!dense)
      return fail("non-integer index constant");
    if (dense.isSplat()) {
      result.constant = dense.getSplatValue<APInt>().getSExtValue();
      return result;
    }
    auto values = llvm::to_vector(llvm::map_range(
        dense.getValues<APInt>(),
        [](const APInt &v) { return v.getSExtValue(); }));
    ArrayRef<int64_t> shape = dense.getType().getShape();
    for (unsigned d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1)
        continue;
      bool isRamp = true;
      forEachIndex(shape, [&](int64_t flat, ArrayRef<int64_t> index) {
        isRamp = isRamp && values[flat] == values.front() + index[d];
      });
      if (isRamp) {
        result.coeff[d] = 1;
        result.constant = values.front();
        return result;
      }
    }
    return fail("index constant that is not a ramp along one dimension");
  }

  LogicalResult fail(const Twine &message) {
    why = message.str();
    return failure();
  }

  std::string &why;
  unsigned depth = 0;
  std::map<SmallVector<const void *, 4>, std::optional<Affine>> affineMemo;
  std::map<SmallVector<const void *, 4>, std::optional<Conjunction>>
      predicateMemo;
};

/// Floor division for a positive divisor.
int64_t floorDiv(int64_t a, int64_t b) { return llvm::divideFloorSigned(a, b); }

} // namespace

FailureOr<Band> import::recoverBand(const Site &site, unsigned qDim,
                                    unsigned kDim, std::string &why) {
  SymbolicReader reader(why);
  FailureOr<Conjunction> halves = reader.predicate(site);
  if (failed(halves))
    return failure();
  ArrayRef<int64_t> shape = tensorType(site.value).getShape();
  std::optional<int64_t> left, right;
  auto tighten = [](std::optional<int64_t> &edge, int64_t value) {
    edge = edge ? std::min(*edge, value) : value;
  };
  for (const Affine &half : *halves) {
    for (auto [d, c] : llvm::enumerate(half.coeff))
      if (c != 0 && d != qDim && d != kDim && shape[d] != 1) {
        why = "mask depends on a dimension other than query and key";
        return failure();
      }
    int64_t a = half.coeff[qDim], b = half.coeff[kDim], c = half.constant;
    if (a == 0 && b == 0) {
      if (c >= 0)
        continue;
      why = "mask hides every cell";
      return failure();
    }
    if (a != -b) {
      why = "mask has a half-plane that is not parallel to the diagonal";
      return failure();
    }
    // a * (q - k) + c >= 0.
    if (a > 0)
      tighten(right, floorDiv(c, a)); // k <= q + floor(c / a)
    else
      tighten(left, floorDiv(c, -a)); // k >= q - floor(c / -a)
  }
  if ((left && *left < 0) || (right && *right < 0)) {
    why = "mask excludes the diagonal (a band edge would be negative)";
    return failure();
  }
  return Band{left, right, Alignment::TopLeft};
}

//===----------------------------------------------------------------------===//
// Concrete evaluation
//===----------------------------------------------------------------------===//

namespace {

using TensorRef = std::shared_ptr<const IntTensor>;

class Evaluator {
public:
  Evaluator(std::string &why, int64_t maxElements)
      : why(why), maxElements(maxElements) {}

  /// The values of `site`; memoized, so a shared sub-expression is
  /// evaluated once (evaluation is linear in the graph).
  FailureOr<TensorRef> eval(const Site &site) {
    auto key = site.key();
    auto it = memo.find(key);
    if (it != memo.end())
      return it->second ? FailureOr<TensorRef>(it->second)
                        : FailureOr<TensorRef>(failure());
    if (depth >= kMaxGraphDepth)
      return fail("mask graph deeper than " + Twine(kMaxGraphDepth) +
                  " ops");
    ++depth;
    FailureOr<TensorRef> result = evalOp(site);
    --depth;
    memo[key] = succeeded(result) ? *result : TensorRef();
    return result;
  }

private:
  FailureOr<TensorRef> evalOp(const Site &site) {
    if (site.truncated)
      return fail("calls nested deeper than " + Twine(Site::kMaxCallDepth) +
                  " (a recursive helper)");
    Operation *op = site.getDefiningOp();
    auto type = tensorType(site.value);
    if (!op || !type || !type.hasStaticShape())
      return fail("cannot evaluate a value defined by " + opName(op));
    auto element = dyn_cast<IntegerType>(type.getElementType());
    if (!element)
      return fail("cannot evaluate a non-integer value defined by " +
                  opName(op));
    if (element.getWidth() > 64)
      return fail("cannot evaluate integers wider than 64 bits");
    if (type.getNumElements() > maxElements)
      return fail("mask too large to verify");
    unsigned width = element.getWidth();
    bool isUnsigned = element.isUnsigned();
    auto result = std::make_shared<IntTensor>();
    result->shape.assign(type.getShape().begin(), type.getShape().end());
    result->data.resize(type.getNumElements());
    std::vector<int64_t> &data = result->data;
    auto wrapped = [&](int64_t v) { return wrap(v, width, isUnsigned); };

    auto unary = [&](auto fn) -> FailureOr<TensorRef> {
      FailureOr<TensorRef> in = eval(site.operand(0));
      if (failed(in))
        return failure();
      for (auto [r, x] : llvm::zip(data, (*in)->data))
        r = wrapped(fn(x));
      return TensorRef(result);
    };
    // Two's complement arithmetic, as XLA computes it: through uint64, so
    // an overflow wraps instead of being undefined.
    auto binary = [&](auto fn) -> FailureOr<TensorRef> {
      FailureOr<TensorRef> lhs = eval(site.operand(0));
      if (failed(lhs))
        return failure();
      FailureOr<TensorRef> rhs = eval(site.operand(1));
      if (failed(rhs))
        return failure();
      for (size_t i = 0; i < data.size(); ++i)
        data[i] = wrapped(fn((*lhs)->data[i], (*rhs)->data[i]));
      return TensorRef(result);
    };

    if (auto constant = dyn_cast<shlo::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
      if (!dense)
        return fail("cannot evaluate a non-integer constant");
      if (dense.isSplat()) {
        int64_t v = toInt(dense.getSplatValue<APInt>(), width, isUnsigned);
        std::fill(data.begin(), data.end(), v);
      } else {
        size_t i = 0;
        for (const APInt &v : dense.getValues<APInt>())
          data[i++] = toInt(v, width, isUnsigned);
      }
      return TensorRef(result);
    }
    if (auto iota = dyn_cast<shlo::IotaOp>(op)) {
      // An iota longer than its type's range wraps, as XLA's does.
      forEachIndex(result->shape, [&](int64_t flat, ArrayRef<int64_t> index) {
        data[flat] = wrapped(index[iota.getIotaDimension()]);
      });
      return TensorRef(result);
    }
    if (isa<shlo::BroadcastInDimOp, shlo::TransposeOp, shlo::ReshapeOp,
            shlo::ConvertOp>(op)) {
      FailureOr<TensorRef> inRef = eval(site.operand(0));
      if (failed(inRef))
        return failure();
      const IntTensor &in = **inRef;
      if (isa<shlo::ReshapeOp, shlo::ConvertOp>(op)) {
        for (auto [r, x] : llvm::zip(data, in.data))
          r = isa<shlo::ConvertOp>(op) && width == 1 ? x != 0 : wrapped(x);
        return TensorRef(result);
      }
      SmallVector<int64_t, 4> inStrides = getStrides(in.shape);
      auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(op);
      auto transpose = dyn_cast<shlo::TransposeOp>(op);
      forEachIndex(result->shape, [&](int64_t flat, ArrayRef<int64_t> index) {
        int64_t from = 0;
        if (broadcast) {
          for (auto [j, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
            if (in.shape[j] != 1)
              from += index[d] * inStrides[j];
        } else {
          for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
            from += index[i] * inStrides[p];
        }
        data[flat] = in.data[from];
      });
      return TensorRef(result);
    }
    auto u = [](int64_t x) { return static_cast<uint64_t>(x); };
    if (isa<shlo::NegOp>(op))
      return unary([&](int64_t x) { return int64_t(0 - u(x)); });
    if (isa<shlo::NotOp>(op))
      return unary([&](int64_t x) { return width == 1 ? int64_t(!x) : ~x; });
    if (isa<shlo::AddOp>(op))
      return binary([&](int64_t a, int64_t b) { return int64_t(u(a) + u(b)); });
    if (isa<shlo::SubtractOp>(op))
      return binary([&](int64_t a, int64_t b) { return int64_t(u(a) - u(b)); });
    if (isa<shlo::MultiplyOp>(op))
      return binary([&](int64_t a, int64_t b) { return int64_t(u(a) * u(b)); });
    if (isa<shlo::MaximumOp>(op))
      return binary([&](int64_t a, int64_t b) {
        return isUnsigned ? int64_t(std::max(u(a), u(b))) : std::max(a, b);
      });
    if (isa<shlo::MinimumOp>(op))
      return binary([&](int64_t a, int64_t b) {
        return isUnsigned ? int64_t(std::min(u(a), u(b))) : std::min(a, b);
      });
    if (isa<shlo::AndOp>(op))
      return binary([](int64_t a, int64_t b) { return a & b; });
    if (isa<shlo::OrOp>(op))
      return binary([](int64_t a, int64_t b) { return a | b; });
    if (auto compare = dyn_cast<shlo::CompareOp>(op)) {
      auto operandType =
          cast<IntegerType>(tensorType(op->getOperand(0)).getElementType());
      bool unsignedCompare =
          compare.getCompareType() == shlo::ComparisonType::UNSIGNED ||
          (!compare.getCompareType() && operandType.isUnsigned());
      uint64_t mask = operandType.getWidth() >= 64
                          ? ~uint64_t(0)
                          : (uint64_t(1) << operandType.getWidth()) - 1;
      shlo::ComparisonDirection direction = compare.getComparisonDirection();
      return binary([&](int64_t a, int64_t b) -> int64_t {
        int cmp;
        if (unsignedCompare) {
          uint64_t ua = uint64_t(a) & mask, ub = uint64_t(b) & mask;
          cmp = ua < ub ? -1 : (ua > ub ? 1 : 0);
        } else {
          cmp = a < b ? -1 : (a > b ? 1 : 0);
        }
        switch (direction) {
        case shlo::ComparisonDirection::EQ:
          return cmp == 0;
        case shlo::ComparisonDirection::NE:
          return cmp != 0;
        case shlo::ComparisonDirection::GE:
          return cmp >= 0;
        case shlo::ComparisonDirection::GT:
          return cmp > 0;
        case shlo::ComparisonDirection::LE:
          return cmp <= 0;
        case shlo::ComparisonDirection::LT:
          return cmp < 0;
        }
        return 0;
      });
    }
    if (isa<shlo::SelectOp>(op)) {
      FailureOr<TensorRef> pred = eval(site.operand(0));
      if (failed(pred))
        return failure();
      FailureOr<TensorRef> onTrue = eval(site.operand(1));
      if (failed(onTrue))
        return failure();
      FailureOr<TensorRef> onFalse = eval(site.operand(2));
      if (failed(onFalse))
        return failure();
      if ((*pred)->data.size() != data.size())
        return fail("cannot evaluate a select with a scalar predicate");
      for (size_t i = 0; i < data.size(); ++i)
        data[i] = (*pred)->data[i] ? (*onTrue)->data[i] : (*onFalse)->data[i];
      return TensorRef(result);
    }
    return fail("cannot evaluate " + opName(op));
  }

  /// `v` reduced to `width` bits: sign-extended, or zero-extended for
  /// unsigned types (kept non-negative in int64 up to 63 bits).
  static int64_t wrap(int64_t v, unsigned width, bool isUnsigned) {
    if (width == 1)
      return v & 1;
    if (width >= 64)
      return v;
    if (isUnsigned)
      return static_cast<int64_t>(uint64_t(v) & ((uint64_t(1) << width) - 1));
    return llvm::SignExtend64(uint64_t(v), width);
  }
  static int64_t toInt(const APInt &v, unsigned width, bool isUnsigned) {
    return width == 1 || isUnsigned ? int64_t(v.getZExtValue())
                                    : v.getSExtValue();
  }
  LogicalResult fail(const Twine &message) {
    why = message.str();
    return failure();
  }

  std::string &why;
  int64_t maxElements;
  unsigned depth = 0;
  std::map<SmallVector<const void *, 4>, TensorRef> memo;
};

} // namespace

FailureOr<IntTensor> import::evaluateMask(const Site &site, std::string &why,
                                          int64_t maxElements) {
  FailureOr<TensorRef> result = Evaluator(why, maxElements).eval(site);
  if (failed(result))
    return failure();
  return IntTensor(**result);
}

FailureOr<int64_t> import::verifyBand(const IntTensor &mask, const Band &band,
                                      unsigned qDim, unsigned kDim,
                                      std::string &why) {
  int64_t seqQ = mask.shape[qDim], seqKv = mask.shape[kDim];
  bool ok = true;
  forEachIndex(mask.shape, [&](int64_t flat, ArrayRef<int64_t> index) {
    if (!ok)
      return;
    bool expected = band.isVisible(index[qDim], index[kDim], seqQ, seqKv);
    if ((mask.data[flat] != 0) != expected) {
      ok = false;
      why = "mask differs from the band at query row " +
            std::to_string(index[qDim]) + ", key " +
            std::to_string(index[kDim]);
    }
  });
  if (!ok)
    return failure();
  return static_cast<int64_t>(mask.data.size());
}
