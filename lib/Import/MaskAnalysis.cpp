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
struct Affine {
  SmallVector<int64_t, 4> coeff;
  int64_t constant = 0;

  bool isConstant() const {
    return llvm::all_of(coeff, [](int64_t c) { return c == 0; });
  }
  Affine scaled(int64_t factor) const {
    Affine r = *this;
    for (int64_t &c : r.coeff)
      c *= factor;
    r.constant *= factor;
    return r;
  }
  Affine plus(const Affine &other) const {
    Affine r = *this;
    for (auto [a, b] : llvm::zip(r.coeff, other.coeff))
      a += b;
    r.constant += other.constant;
    return r;
  }
};

/// A conjunction of `expr >= 0`.
using Conjunction = SmallVector<Affine, 4>;

class SymbolicReader {
public:
  explicit SymbolicReader(std::string &why) : why(why) {}

  FailureOr<Affine> affine(const Site &site) {
    Operation *op = site.getDefiningOp();
    auto type = tensorType(site.value);
    if (!op || !type || !isa<IntegerType>(type.getElementType()))
      return fail("index value defined by " + opName(op));
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
      return in->scaled(-1);
    }
    if (isa<shlo::AddOp, shlo::SubtractOp, shlo::MultiplyOp>(op)) {
      FailureOr<Affine> lhs = affine(site.operand(0));
      FailureOr<Affine> rhs = affine(site.operand(1));
      if (failed(lhs) || failed(rhs))
        return failure();
      if (isa<shlo::AddOp>(op))
        return lhs->plus(*rhs);
      if (isa<shlo::SubtractOp>(op))
        return lhs->plus(rhs->scaled(-1));
      if (rhs->isConstant())
        return lhs->scaled(rhs->constant);
      if (lhs->isConstant())
        return rhs->scaled(lhs->constant);
      return fail("product of two index expressions");
    }
    return fail("index value defined by " + opName(op));
  }

  FailureOr<Conjunction> predicate(const Site &site) {
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
      FailureOr<Affine> rhs = affine(site.operand(1));
      if (failed(lhs) || failed(rhs))
        return failure();
      Affine diff = lhs->plus(rhs->scaled(-1)); // lhs - rhs
      Affine minusOne{SmallVector<int64_t, 4>(diff.coeff.size(), 0), -1};
      switch (compare.getComparisonDirection()) {
      case shlo::ComparisonDirection::GE:
        return Conjunction{diff};
      case shlo::ComparisonDirection::GT:
        return Conjunction{diff.plus(minusOne)};
      case shlo::ComparisonDirection::LE:
        return Conjunction{diff.scaled(-1)};
      case shlo::ComparisonDirection::LT:
        return Conjunction{diff.scaled(-1).plus(minusOne)};
      case shlo::ComparisonDirection::EQ:
        return Conjunction{diff, diff.scaled(-1)};
      case shlo::ComparisonDirection::NE:
        return fail("not-equal compare (not a half-plane)");
      }
    }
    if (isa<shlo::AndOp>(op)) {
      FailureOr<Conjunction> lhs = predicate(site.operand(0));
      FailureOr<Conjunction> rhs = predicate(site.operand(1));
      if (failed(lhs) || failed(rhs))
        return failure();
      lhs->append(rhs->begin(), rhs->end());
      return lhs;
    }
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
      FailureOr<Conjunction> lhs = predicate(site.operand(0));
      FailureOr<Conjunction> rhs = predicate(site.operand(1));
      if (failed(lhs) || failed(rhs))
        return failure();
      lhs->append(rhs->begin(), rhs->end());
      return lhs;
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

private:
  /// A constant: a splat, or a ramp `c + index[d]` along one dimension.
  FailureOr<Affine> ramp(shlo::ConstantOp constant, Affine result) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!dense)
      return fail("non-integer index constant");
    auto values = llvm::to_vector(llvm::map_range(
        dense.getValues<APInt>(),
        [](const APInt &v) { return v.getSExtValue(); }));
    if (dense.isSplat()) {
      result.constant = values.front();
      return result;
    }
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

class Evaluator {
public:
  Evaluator(std::string &why, int64_t maxElements)
      : why(why), maxElements(maxElements) {}

  FailureOr<IntTensor> eval(const Site &site) {
    Operation *op = site.getDefiningOp();
    auto type = tensorType(site.value);
    if (!op || !type || !type.hasStaticShape())
      return fail("cannot evaluate a value defined by " + opName(op));
    auto element = dyn_cast<IntegerType>(type.getElementType());
    if (!element)
      return fail("cannot evaluate a non-integer value defined by " +
                  opName(op));
    if (type.getNumElements() > maxElements)
      return fail("mask too large to verify");
    unsigned width = element.getWidth();
    IntTensor result;
    result.shape.assign(type.getShape().begin(), type.getShape().end());
    result.data.resize(type.getNumElements());

    auto unary = [&](auto fn) -> FailureOr<IntTensor> {
      FailureOr<IntTensor> in = eval(site.operand(0));
      if (failed(in))
        return failure();
      for (auto [r, x] : llvm::zip(result.data, in->data))
        r = wrap(fn(x), width);
      return std::move(result);
    };
    auto binary = [&](auto fn) -> FailureOr<IntTensor> {
      FailureOr<IntTensor> lhs = eval(site.operand(0));
      FailureOr<IntTensor> rhs = eval(site.operand(1));
      if (failed(lhs) || failed(rhs))
        return failure();
      for (size_t i = 0; i < result.data.size(); ++i)
        result.data[i] = wrap(fn(lhs->data[i], rhs->data[i]), width);
      return std::move(result);
    };

    if (auto constant = dyn_cast<shlo::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
      if (!dense)
        return fail("cannot evaluate a non-integer constant");
      if (dense.isSplat()) {
        int64_t v = toInt(dense.getSplatValue<APInt>(), width);
        std::fill(result.data.begin(), result.data.end(), v);
      } else {
        size_t i = 0;
        for (const APInt &v : dense.getValues<APInt>())
          result.data[i++] = toInt(v, width);
      }
      return std::move(result);
    }
    if (auto iota = dyn_cast<shlo::IotaOp>(op)) {
      forEachIndex(result.shape, [&](int64_t flat, ArrayRef<int64_t> index) {
        result.data[flat] = index[iota.getIotaDimension()];
      });
      return std::move(result);
    }
    if (isa<shlo::BroadcastInDimOp, shlo::TransposeOp, shlo::ReshapeOp,
            shlo::ConvertOp>(op)) {
      FailureOr<IntTensor> in = eval(site.operand(0));
      if (failed(in))
        return failure();
      if (isa<shlo::ReshapeOp, shlo::ConvertOp>(op)) {
        for (auto [r, x] : llvm::zip(result.data, in->data))
          r = isa<shlo::ConvertOp>(op) && width == 1 ? x != 0 : wrap(x, width);
        return std::move(result);
      }
      SmallVector<int64_t, 4> inStrides = getStrides(in->shape);
      auto broadcast = dyn_cast<shlo::BroadcastInDimOp>(op);
      auto transpose = dyn_cast<shlo::TransposeOp>(op);
      forEachIndex(result.shape, [&](int64_t flat, ArrayRef<int64_t> index) {
        int64_t from = 0;
        if (broadcast) {
          for (auto [j, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
            if (in->shape[j] != 1)
              from += index[d] * inStrides[j];
        } else {
          for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
            from += index[i] * inStrides[p];
        }
        result.data[flat] = in->data[from];
      });
      return std::move(result);
    }
    if (isa<shlo::NegOp>(op))
      return unary([](int64_t x) { return -x; });
    if (isa<shlo::NotOp>(op))
      return unary([&](int64_t x) { return width == 1 ? !x : ~x; });
    if (isa<shlo::AddOp>(op))
      return binary([](int64_t a, int64_t b) { return a + b; });
    if (isa<shlo::SubtractOp>(op))
      return binary([](int64_t a, int64_t b) { return a - b; });
    if (isa<shlo::MultiplyOp>(op))
      return binary([](int64_t a, int64_t b) { return a * b; });
    if (isa<shlo::MaximumOp>(op))
      return binary([](int64_t a, int64_t b) { return std::max(a, b); });
    if (isa<shlo::MinimumOp>(op))
      return binary([](int64_t a, int64_t b) { return std::min(a, b); });
    if (isa<shlo::AndOp>(op))
      return binary([](int64_t a, int64_t b) { return a & b; });
    if (isa<shlo::OrOp>(op))
      return binary([](int64_t a, int64_t b) { return a | b; });
    if (auto compare = dyn_cast<shlo::CompareOp>(op)) {
      auto operandType =
          cast<IntegerType>(tensorType(op->getOperand(0)).getElementType());
      bool isUnsigned = compare.getCompareType() ==
                        shlo::ComparisonType::UNSIGNED;
      uint64_t mask = operandType.getWidth() >= 64
                          ? ~uint64_t(0)
                          : (uint64_t(1) << operandType.getWidth()) - 1;
      shlo::ComparisonDirection direction = compare.getComparisonDirection();
      return binary([&](int64_t a, int64_t b) -> int64_t {
        int cmp;
        if (isUnsigned) {
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
      FailureOr<IntTensor> pred = eval(site.operand(0));
      FailureOr<IntTensor> onTrue = eval(site.operand(1));
      FailureOr<IntTensor> onFalse = eval(site.operand(2));
      if (failed(pred) || failed(onTrue) || failed(onFalse))
        return failure();
      if (pred->data.size() != result.data.size())
        return fail("cannot evaluate a select with a scalar predicate");
      for (size_t i = 0; i < result.data.size(); ++i)
        result.data[i] = pred->data[i] ? onTrue->data[i] : onFalse->data[i];
      return std::move(result);
    }
    return fail("cannot evaluate " + opName(op));
  }

private:
  static int64_t wrap(int64_t v, unsigned width) {
    if (width == 1)
      return v & 1;
    return width >= 64 ? v : llvm::SignExtend64(uint64_t(v), width);
  }
  static int64_t toInt(const APInt &v, unsigned width) {
    return width == 1 ? int64_t(v.getZExtValue()) : v.getSExtValue();
  }
  LogicalResult fail(const Twine &message) {
    why = message.str();
    return failure();
  }

  std::string &why;
  int64_t maxElements;
};

} // namespace

FailureOr<IntTensor> import::evaluateMask(const Site &site, std::string &why,
                                          int64_t maxElements) {
  return Evaluator(why, maxElements).eval(site);
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
