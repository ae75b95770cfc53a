//===- DecomposedLabels.cpp - Dimension labels of decomposed attention ---===//
//
// What each tensor dimension of a decomposed attention graph indexes, and
// how shape ops and products carry those labels (Decomposed.h).
//
//===----------------------------------------------------------------------===//

#include "Decomposed.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

ArrayRef<int64_t> import::shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

Labels import::significant(const Labels &labels, ArrayRef<int64_t> shape) {
  Labels out;
  for (auto [label, size] : llvm::zip(labels, shape))
    if (size != 1)
      out.push_back(label);
  return out;
}

std::optional<Labels> import::reshapeLabels(const Labels &in,
                                            ArrayRef<int64_t> from,
                                            ArrayRef<int64_t> to,
                                            int64_t headsKv) {
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
    if (o + 1 < outDims.size() && inSig[i] == Dim::H && headsKv > 0 &&
        size == headsKv && size * to[outDims[o + 1]] == inSizes[i]) {
      out[outDims[o++]] = Dim::Hkv;
      out[outDims[o++]] = Dim::G;
      ++i;
      continue;
    }
    return std::nullopt;
  }
  if (i != inSig.size() || o != outDims.size())
    return std::nullopt;
  return out;
}

Labels import::permuteLabels(const Labels &in, ArrayRef<int64_t> permutation) {
  Labels out;
  for (int64_t p : permutation)
    out.push_back(in[p]);
  return out;
}

Labels import::broadcastLabels(const Labels &in,
                               shlo::BroadcastInDimOp broadcast,
                               ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> from = shapeOf(broadcast.getOperand());
  Labels labels;
  for (int64_t size : shape)
    labels.push_back(size == 1 ? Dim::Unit : Dim::Star);
  for (auto [j, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
    if (from[j] == shape[d])
      labels[d] = in[j];
  return labels;
}

Labels import::keyLabels(Layout layout) {
  if (layout == Layout::bshd)
    return {Dim::B, Dim::Skv, Dim::Hkv, Dim::D};
  return {Dim::B, Dim::Hkv, Dim::Skv, Dim::D};
}

Labels import::queryLabels(Layout layout, int64_t groups) {
  Dim head = groups > 1 ? Dim::H : Dim::Hkv;
  if (layout == Layout::bshd)
    return {Dim::B, Dim::Sq, head, Dim::D};
  return {Dim::B, head, Dim::Sq, Dim::D};
}

/// The significant labels with a lone group dimension read as the query
/// head (with one kv head, G indexes the query heads).
static Labels headsNormalized(const Labels &labels, ArrayRef<int64_t> shape) {
  Labels out = significant(labels, shape);
  if (!llvm::is_contained(out, Dim::Hkv))
    for (Dim &label : out)
      if (label == Dim::G)
        label = Dim::H;
  return out;
}

FailureOr<Labels> import::productLabels(shlo::DotGeneralOp dot,
                                        const Labels &lhs, const Labels &rhs,
                                        ArrayRef<Dim> contract,
                                        ArrayRef<Dim> lhsFree,
                                        ArrayRef<Dim> rhsFree) {
  ArrayRef<int64_t> lhsShape = shapeOf(dot.getLhs());
  ArrayRef<int64_t> rhsShape = shapeOf(dot.getRhs());
  Labels result;
  for (auto [l, r] : llvm::zip(dot.getLhsBatchingDimensions(),
                               dot.getRhsBatchingDimensions())) {
    // Size-1 dimensions carry no meaning (their labels may differ).
    if (lhsShape[l] == 1 && rhsShape[r] == 1) {
      result.push_back(Dim::Unit);
      continue;
    }
    if (lhs[l] != rhs[r] ||
        (lhs[l] != Dim::B && lhs[l] != Dim::Hkv && lhs[l] != Dim::H))
      return failure();
    result.push_back(lhs[l]);
  }
  for (auto [l, r] : llvm::zip(dot.getLhsContractingDimensions(),
                               dot.getRhsContractingDimensions())) {
    bool unit = lhsShape[l] == 1 && rhsShape[r] == 1;
    if (!unit && (lhs[l] != rhs[r] || !llvm::is_contained(contract, lhs[l])))
      return failure();
  }
  auto addFree = [&](const Labels &labels, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> batch, ArrayRef<int64_t> contracting,
                     ArrayRef<Dim> allowed) {
    for (auto [d, label] : llvm::enumerate(labels)) {
      int64_t dim = static_cast<int64_t>(d);
      if (llvm::is_contained(batch, dim) || llvm::is_contained(contracting, dim))
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
  auto batched = [&](Dim label) { return llvm::count(result, label) <= 1; };
  if (!batched(Dim::B) || !batched(Dim::Hkv) || !batched(Dim::H))
    return failure();
  return result;
}

FailureOr<Value> import::followToLayout(Value out, Labels labels, Type type,
                                        const Labels &want, int64_t headsKv,
                                        double *factor) {
  auto wantType = cast<RankedTensorType>(type);
  Labels wanted = headsNormalized(want, wantType.getShape());
  while (true) {
    if (out.getType() == type &&
        headsNormalized(labels, shapeOf(out)) == wanted)
      return out;
    if (!out.hasOneUse())
      return failure();
    Operation *user = *out.user_begin();
    if (user->getNumResults() != 1)
      return failure();
    Value next = user->getResult(0);
    if (auto transpose = dyn_cast<shlo::TransposeOp>(user)) {
      labels = permuteLabels(labels, transpose.getPermutation());
    } else if (isa<shlo::ReshapeOp>(user)) {
      std::optional<Labels> reshaped =
          reshapeLabels(labels, shapeOf(out), shapeOf(next), headsKv);
      if (!reshaped)
        return failure();
      labels = *reshaped;
    } else if (isa<shlo::ConvertOp>(user)) {
      if (!isa<FloatType>(getElementTypeOrSelf(next.getType())))
        return failure();
    } else if (isa<shlo::MultiplyOp>(user) && factor) {
      Value other = user->getOperand(0) == out ? user->getOperand(1)
                                               : user->getOperand(0);
      Operation *def = other.getDefiningOp();
      if (auto broadcast = dyn_cast_or_null<shlo::BroadcastInDimOp>(def))
        def = broadcast.getOperand().getDefiningOp();
      auto constant = dyn_cast_or_null<shlo::ConstantOp>(def);
      auto dense = constant ? dyn_cast<DenseFPElementsAttr>(constant.getValue())
                            : DenseFPElementsAttr();
      if (!dense || !dense.isSplat())
        return failure();
      *factor *= dense.getSplatValue<APFloat>().convertToDouble();
    } else {
      return failure();
    }
    out = next;
  }
}

Value import::peelUpcast(Value value) {
  auto convert = value.getDefiningOp<shlo::ConvertOp>();
  if (!convert)
    return value;
  Type from = getElementTypeOrSelf(convert.getOperand().getType());
  Type to = getElementTypeOrSelf(value.getType());
  if (isa<Float16Type, BFloat16Type>(from) && isa<Float32Type, Float64Type>(to))
    return convert.getOperand();
  return value;
}

std::optional<std::pair<Value, int64_t>>
import::unrepeatHeads(Value value, Layout layout) {
  auto reshape = value.getDefiningOp<shlo::ReshapeOp>();
  auto broadcast =
      reshape ? reshape.getOperand().getDefiningOp<shlo::BroadcastInDimOp>()
              : shlo::BroadcastInDimOp();
  if (!broadcast)
    return std::nullopt;
  Value x = broadcast.getOperand();
  ArrayRef<int64_t> from = shapeOf(x), mid = shapeOf(broadcast),
                    to = shapeOf(value);
  if (from.size() != 4 || mid.size() != 5 || to.size() != 4)
    return std::nullopt;
  unsigned head = layout == Layout::bshd ? 2 : 1;
  SmallVector<int64_t> dims = {0, 1, 2, 3};
  dims[3] = 4;
  if (head == 1)
    dims[2] = 3;
  if (broadcast.getBroadcastDimensions() != ArrayRef<int64_t>(dims))
    return std::nullopt;
  int64_t groups = mid[head + 1];
  if (groups <= 1)
    return std::nullopt;
  for (unsigned d = 0; d < 4; ++d)
    if (from[d] != mid[dims[d]] ||
        to[d] != (d == head ? from[d] * groups : from[d]))
      return std::nullopt;
  return std::make_pair(x, groups);
}

