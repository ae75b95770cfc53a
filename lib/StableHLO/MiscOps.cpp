//===- MiscOps.cpp - Contractions, calls and other stablehlo ops ----------===//
//
// The verifiers of dot_general, convolution, custom_call and
// optimization_barrier, and the generated definitions of their family.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

//===----------------------------------------------------------------------===//
// DotGeneralOp
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::verify() {
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(),
                    rb = getRhsBatchingDimensions(),
                    lc = getLhsContractingDimensions(),
                    rc = getRhsContractingDimensions();
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return emitOpError("expected as many lhs as rhs batching and contracting "
                       "dimensions");
  SmallVector<bool> lhsUsed(lhsType.getRank(), false),
      rhsUsed(rhsType.getRank(), false);
  auto claim = [](SmallVectorImpl<bool> &used, int64_t d) {
    if (d < 0 || d >= static_cast<int64_t>(used.size()) || used[d])
      return false;
    used[d] = true;
    return true;
  };
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  for (auto [l, r] : llvm::zip_equal(lb, rb))
    pairs.push_back({l, r});
  for (auto [l, r] : llvm::zip_equal(lc, rc))
    pairs.push_back({l, r});
  for (auto [l, r] : pairs) {
    if (!claim(lhsUsed, l) || !claim(rhsUsed, r))
      return emitOpError("expected distinct in-range batching and "
                         "contracting dimensions");
    if (lhsType.getDimSize(l) != rhsType.getDimSize(r))
      return emitOpError("expected paired dimensions lhs ")
             << l << " and rhs " << r << " to have the same size";
  }
  SmallVector<int64_t> expected;
  for (int64_t l : lb)
    expected.push_back(lhsType.getDimSize(l));
  for (int64_t i = 0; i < lhsType.getRank(); ++i)
    if (!lhsUsed[i])
      expected.push_back(lhsType.getDimSize(i));
  for (int64_t i = 0; i < rhsType.getRank(); ++i)
    if (!rhsUsed[i])
      expected.push_back(rhsType.getDimSize(i));
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("expected the result shape to be the batch, lhs free "
                       "and rhs free dimensions");
  if (ArrayAttr precisions = getPrecisionConfigAttr())
    if (precisions.size() > 2)
      return emitOpError("expected at most 2 precision entries");
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions, calls, tokens
//===----------------------------------------------------------------------===//

LogicalResult ConvolutionOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto result = cast<RankedTensorType>(getType());
  ConvDimensionNumbersAttr dims = getDimensionNumbers();
  int64_t spatial = dims.getInputSpatialDimensions().size();
  if (lhs.getRank() != spatial + 2 || rhs.getRank() != spatial + 2 ||
      result.getRank() != spatial + 2)
    return emitOpError("expected lhs, rhs and result to have rank ")
           << spatial + 2 << " (2 + the spatial dimensions of dim_numbers)";
  auto hasSpatial = [&](std::optional<ArrayRef<int64_t>> values) {
    return !values || static_cast<int64_t>(values->size()) == spatial;
  };
  if (!hasSpatial(getWindowStrides()) || !hasSpatial(getLhsDilation()) ||
      !hasSpatial(getRhsDilation()))
    return emitOpError("expected stride, lhs_dilate and rhs_dilate to have "
                       "one entry per spatial dimension (")
           << spatial << ")";
  if (std::optional<DenseIntElementsAttr> padding = getPadding()) {
    auto shape = padding->getType().getShape();
    if (shape.size() != 2 || shape[0] != spatial || shape[1] != 2)
      return emitOpError("expected pad to have one [low, high] pair per "
                         "spatial dimension (")
             << spatial << ")";
  }
  int64_t inFeatures = lhs.getDimSize(dims.getInputFeatureDimension());
  int64_t kernelIn = rhs.getDimSize(dims.getKernelInputFeatureDimension());
  if (!ShapedType::isDynamic(inFeatures) && !ShapedType::isDynamic(kernelIn) &&
      inFeatures != kernelIn * static_cast<int64_t>(getFeatureGroupCount()))
    return emitOpError("expected the input feature dimension (")
           << inFeatures << ") to be the kernel input features times "
           << "feature_group_count (" << kernelIn << " * "
           << getFeatureGroupCount() << ")";
  return success();
}

LogicalResult CustomCallOp::verify() {
  std::optional<uint32_t> version = getApiVersion();
  if (version && *version > 4)
    return emitOpError("expected api_version between 0 and 4, got ")
           << *version;
  bool typedFfi = version && *version == 4;
  if (Attribute config = getBackendConfigAttr();
      config && isa<DictionaryAttr>(config) != typedFfi)
    return emitOpError(typedFfi ? "expected backend_config to be a "
                                  "dictionary with api_version 4"
                                : "expected backend_config to be a string "
                                  "below api_version 4");
  auto checkLayouts = [&](std::optional<ArrayAttr> layouts, TypeRange types,
                          StringRef name) -> LogicalResult {
    if (!layouts)
      return success();
    if (layouts->size() != types.size())
      return emitOpError("expected ")
             << name << " to have one layout per value (" << types.size()
             << ")";
    for (auto [layout, type] : llvm::zip_equal(*layouts, types)) {
      auto dense = dyn_cast<DenseIntElementsAttr>(layout);
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!dense || (tensor && dense.getNumElements() != tensor.getRank()))
        return emitOpError("expected each of ")
               << name << " to be a dense index list of the value's rank";
    }
    return success();
  };
  if (failed(checkLayouts(getOperandLayouts(), getInputs().getTypes(),
                          "operand_layouts")) ||
      failed(checkLayouts(getResultLayouts(), getResultTypes(),
                          "result_layouts")))
    return failure();
  if (std::optional<ArrayAttr> aliases = getOutputOperandAliases())
    for (Attribute attr : *aliases) {
      auto alias = cast<OutputOperandAliasAttr>(attr);
      if (alias.getOperandIndex() < 0 ||
          alias.getOperandIndex() >= static_cast<int64_t>(getInputs().size()))
        return emitOpError("expected output_operand_aliases to name an "
                           "operand index below ")
               << getInputs().size();
    }
  return success();
}

LogicalResult OptimizationBarrierOp::verify() {
  if (getOperand().getTypes() != getResult().getTypes())
    return emitOpError("expected the results to have the operand types");
  return success();
}

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloMiscOps.cpp.inc"
