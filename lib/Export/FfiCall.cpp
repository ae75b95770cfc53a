//===- FfiCall.cpp - One attention site as an XLA FFI custom call ---------===//
//
// Builds the `stablehlo.custom_call` that stands for a lowered attention
// site: operands, results (the backward's workspaces included), the typed
// backend_config and row-major layouts (docs/Export.md).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Export/FfiCall.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "SdpaSchema/Schema.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sdpa;

LogicalResult mlir::sdpa::readFfiArtifact(StringRef manifest, StringRef role,
                                          FfiArtifact &artifact,
                                          std::string &error) {
  artifact.kernel.clear();
  artifact.tileQ = 0;
  artifact.recomputesDq = false;
  SmallVector<StringRef> lines;
  manifest.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    SmallVector<StringRef> fields;
    line.split(fields, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (fields.size() == 3 && fields[0] == "kernel" && fields[2] == role)
      artifact.kernel = fields[1].str();
    if (fields.size() == 3 && fields[0] == "kernel" &&
        fields[2] == sdpa_schema::toString(sdpa_schema::KernelRole::BwdDq))
      artifact.recomputesDq = true;
    if (fields.size() == 2 && fields[0] == "tile_q" &&
        !llvm::to_integer(fields[1], artifact.tileQ, 10))
      artifact.tileQ = 0;
  }
  if (artifact.kernel.empty()) {
    error = ("the manifest has no kernel of role " + role).str();
    return failure();
  }
  if (artifact.tileQ <= 0) {
    error = "the manifest has no positive tile_q";
    return failure();
  }
  return success();
}

std::string mlir::sdpa::whyNotExportable(AttentionOpInterface op) {
  if (op.getLayout() == Layout::thd)
    return "layout thd is not exported (the call would need the maximum "
           "sequence lengths)";
  if (op.hasPerSequenceLengths())
    return "per-batch lengths (seqlens) are not exported";
  for (Type type : op->getOperandTypes())
    if (!cast<ShapedType>(type).hasStaticShape()) {
      std::string text;
      llvm::raw_string_ostream(text) << "expected static shapes, operand type is '" << type << "'";
      return text;
    }
  return "";
}

/// `dense<[r-1, ..., 0]> : tensor<rxindex>`: row-major, as XLA writes
/// minor-to-major layouts.
static Attribute rowMajor(Builder &b, int64_t rank) {
  SmallVector<int64_t> minorToMajor;
  for (int64_t d = rank - 1; d >= 0; --d)
    minorToMajor.push_back(d);
  auto type = RankedTensorType::get({rank}, b.getIndexType());
  return DenseIntElementsAttr::get(type, minorToMajor);
}

static ArrayAttr rowMajorLayouts(Builder &b, TypeRange types) {
  SmallVector<Attribute> layouts;
  for (Type type : types)
    layouts.push_back(rowMajor(b, cast<ShapedType>(type).getRank()));
  return b.getArrayAttr(layouts);
}

/// The cap the kernels apply, as the manifest's softcap key and the runtime
/// (sdpaArtifactSoftcap) state it: 0 for none (no attribute, or +inf).
static float kernelSoftcap(AttentionOpInterface op) {
  return static_cast<float>(op.getFiniteSoftcap().value_or(0.0));
}

/// The backend_config every call carries; `deterministic` only for the
/// backward.
static DictionaryAttr backendConfig(Builder &b, AttentionOpInterface op,
                                    const FfiArtifact &artifact,
                                    std::optional<bool> deterministic) {
  Band band = op.getMaskAttr().getBand();
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("artifact", b.getStringAttr(artifact.path)),
      b.getNamedAttr("kernel", b.getStringAttr(artifact.kernel)),
      b.getNamedAttr("layout", b.getStringAttr(stringifyLayout(op.getLayout()))),
      b.getNamedAttr("left", b.getI64IntegerAttr(band.left.value_or(-1))),
      b.getNamedAttr("right", b.getI64IntegerAttr(band.right.value_or(-1))),
      b.getNamedAttr("bottom_right",
                     b.getBoolAttr(band.align == Alignment::BottomRight)),
      b.getNamedAttr("scale", b.getF32FloatAttr(op.getScaleOrDefault())),
      b.getNamedAttr("softcap", b.getF32FloatAttr(kernelSoftcap(op)))};
  if (deterministic)
    entries.push_back(
        b.getNamedAttr("deterministic", b.getBoolAttr(*deterministic)));
  return b.getDictionaryAttr(entries);
}

StringRef mlir::sdpa::getFfiTarget(AttentionOpInterface op, bool backward) {
  return sdpa_schema::getFfiTarget(backward ? sdpa_schema::Direction::Backward
                                            : sdpa_schema::Direction::Forward,
                                   op.getSinks() != nullptr);
}

/// Creates the call (the site's operands: q, k, v, then o, do, lse for the
/// backward, then the sinks when it has them) and returns its results.
static ResultRange createCall(RewriterBase &rewriter, Operation *site,
                              StringRef target, TypeRange resultTypes,
                              DictionaryAttr config) {
  SmallVector<NamedAttribute> attrs = {
      rewriter.getNamedAttr("call_target_name", rewriter.getStringAttr(target)),
      rewriter.getNamedAttr("api_version",
                            rewriter.getI32IntegerAttr(kFfiApiVersion)),
      rewriter.getNamedAttr("backend_config", config),
      rewriter.getNamedAttr(
          "operand_layouts",
          rowMajorLayouts(rewriter, site->getOperandTypes())),
      rewriter.getNamedAttr("result_layouts",
                            rowMajorLayouts(rewriter, resultTypes))};
  auto call = shlo::CustomCallOp::create(rewriter, site->getLoc(), resultTypes,
                                         site->getOperands(), attrs);
  return call->getResults();
}

void mlir::sdpa::exportForwardSite(RewriterBase &rewriter, AttentionOp op,
                                   const FfiArtifact &artifact) {
  DictionaryAttr config =
      backendConfig(rewriter, op, artifact, /*deterministic=*/std::nullopt);
  ResultRange results =
      createCall(rewriter, op, getFfiTarget(op, /*backward=*/false),
                 op->getResultTypes(), config);
  rewriter.replaceOp(op, results);
}

void mlir::sdpa::exportBackwardSite(RewriterBase &rewriter, AttentionGradOp op,
                                    const FfiArtifact &artifact) {
  AttentionShape shape = op.getAttentionShape();
  Type f32 = rewriter.getF32Type();
  // dq, dk, dv and, with sinks, grad_sinks.
  SmallVector<Type> resultTypes(op->getResultTypes());
  // The workspaces, as sdpaBackwardWorkspace sizes them (docs/Runtime.md):
  // no dq_accum element where bwd_dq recomputes dQ.
  if (artifact.recomputesDq)
    resultTypes.push_back(RankedTensorType::get({0}, f32));
  else
    resultTypes.push_back(RankedTensorType::get(
        {shape.batch, shape.headsQ, shape.seqQ, shape.headDim}, f32));
  resultTypes.push_back(
      RankedTensorType::get({shape.batch, shape.headsQ, shape.seqQ}, f32));
  // Read only by a deterministic artifact; always there, so that the call
  // has one signature per target.
  std::array<int64_t, 3> perTile = sdpa_schema::getQueryTileWorkspaceShape(
      shape.batch, shape.headsQ,
      sdpa_schema::getQueryTiles(shape.seqQ, artifact.tileQ));
  resultTypes.push_back(
      RankedTensorType::get(perTile, rewriter.getI32Type()));
  if (op.getSinks())
    resultTypes.push_back(RankedTensorType::get(perTile, f32));
  DictionaryAttr config =
      backendConfig(rewriter, op, artifact, op.getDeterministic());
  ResultRange results =
      createCall(rewriter, op, getFfiTarget(op, /*backward=*/true),
                 resultTypes, config);
  rewriter.replaceOp(op, results.take_front(op->getNumResults()));
}
