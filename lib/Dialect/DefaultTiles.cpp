//===- DefaultTiles.cpp - The default tile rule applied to an op ----------===//
//
// Reads off an attention op what Analysis/KernelDefaults.h's rule takes.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/KernelDefaults.h"
#include "SdpaDialect/DefaultTiles.h"

using namespace mlir;
using namespace mlir::sdpa;

/// The band width of `op` (nullopt: wide) with its uniform key length.
static std::optional<int64_t> getOpBandWidth(AttentionOpInterface op) {
  return getBandWidth(op.getMaskAttr().getBand(),
                      getUniformSeqLengths(op).second);
}

/// Whether `op` caps its logits (a finite softcap) or packs sequences (THD):
/// the kernels that need more registers, which the rule gives smaller tiles
/// (Analysis/KernelDefaults.h).
static bool isCappedOrPacked(AttentionOpInterface op) {
  return op.getFiniteSoftcap().has_value() || op.getLayout() == Layout::thd;
}

TileShape
mlir::sdpa::resolveTiles(AttentionOpInterface op, TileShape options,
                         std::optional<sdpa_schema::DqMode> dqMode) {
  if (options.q != 0 && options.kv != 0)
    return options;
  int64_t headDim = op.getAttentionShape().headDim;
  TileShape rule;
  if (auto grad = dyn_cast<AttentionGradOp>(op.getOperation())) {
    rule = getDefaultBackwardTiles(headDim, getOpBandWidth(op),
                                   resolveDqMode(grad, dqMode),
                                   grad.getDeterministic(),
                                   isCappedOrPacked(op));
  } else {
    rule = getDefaultForwardTiles(headDim, getOpBandWidth(op)).tiles;
  }
  return {options.q != 0 ? options.q : rule.q,
          options.kv != 0 ? options.kv : rule.kv};
}

sdpa_schema::DqMode
mlir::sdpa::resolveDqMode(AttentionGradOp op,
                          std::optional<sdpa_schema::DqMode> option) {
  if (option)
    return *option;
  return getDefaultDqMode(op.getAttentionShape().headDim, getOpBandWidth(op),
                          op.getFiniteSoftcap().has_value(),
                          op.getDeterministic());
}

int64_t mlir::sdpa::resolveForwardWarps(AttentionOp op, int64_t tileQ,
                                        int64_t warps) {
  if (warps != 0)
    return warps;
  return getDefaultForwardWarps(
      getDefaultForwardTiles(op.getAttentionShape().headDim,
                             getOpBandWidth(op)),
      tileQ, /*cappedWithSinks=*/op.getSoftcapAttr() && op.getSinks());
}
