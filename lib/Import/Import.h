//===- Import.h - Shared pieces of the StableHLO importer -------*- C++ -*-===//
//
// What the three importers (cuDNN custom calls, composites, decomposed
// graphs) share: the attributes of the sdpa op they build, the shape checks
// that keep the built op valid, and the absorption of layout transposes.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_IMPORT_H
#define SDPADIALECT_LIB_IMPORT_IMPORT_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Conversion/SdpaGradToGPU.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::sdpa::import {

/// The attributes of an sdpa op the importer builds.
struct AttentionSpec {
  Band band;
  std::optional<double> scale;
  Layout layout = Layout::bhsd;
  bool deterministic = false;
  /// The logit softcap c (scores c * tanh(S / c)); none without.
  std::optional<double> softcap;
};

/// Why query, key and value of these types cannot be the operands of an sdpa
/// op in `layout` (rank, element type f16/bf16, sizes, GQA divisibility), or
/// nullopt when they can.
std::optional<std::string> checkOperandTypes(Layout layout, Type query,
                                             Type key, Type value);

/// Whether `scale` can be an sdpa op's scale: positive, and finite and
/// nonzero once rounded to the kernels' f32.
bool isRepresentableScale(double scale);

/// The lse type of an sdpa op with this query in `layout`: f32 [B, Hq, Sq].
RankedTensorType getLseType(Layout layout, RankedTensorType query);

/// `[B, S, H, D]` <-> `[B, H, S, D]`: the permutation between bshd and bhsd.
ArrayRef<int64_t> getSwapSeqHeadsPermutation();

/// Replaces the uses of `old` by `replacement`, where `old` equals
/// `stablehlo.transpose(replacement, dims = perm)`. A user that is itself a
/// transpose undoing `perm` is absorbed (its uses take `replacement`); any
/// other user reads one new transpose. An identity `perm` replaces directly.
void replaceTransposed(RewriterBase &rewriter, Value old, Value replacement,
                       ArrayRef<int64_t> perm);

/// Builds sdpa.attention with `spec` (and `sinks`, if given).
AttentionOp createAttention(OpBuilder &builder, Location loc, Value query,
                            Value key, Value value, ValueRange seqlens,
                            const AttentionSpec &spec, Value sinks = Value());

/// Builds sdpa.attention_grad with `spec` (and `sinks` with its grad_sinks
/// result, if given).
AttentionGradOp createAttentionGrad(OpBuilder &builder, Location loc,
                                    Value query, Value key, Value value,
                                    Value output, Value gradOutput, Value lse,
                                    ValueRange seqlens,
                                    const AttentionSpec &spec,
                                    Value sinks = Value());

/// Runs the verifier on `op` (just built by an importer) with its
/// diagnostics captured: the first message if it fails, nullopt if valid.
/// Keeps every import in step with the sdpa verifier.
std::optional<std::string> verifyQuietly(Operation *op);

/// The options the gpu lowerings will run with, against which an imported
/// op is checked (sdpa-import-stablehlo's check-lowering).
struct LoweringCheck {
  ForwardKernelOptions forward;
  BackwardKernelOptions backward;
  /// The kernels' index width: at 32, static shapes past 2^31 elements are
  /// refused (getIndexRangeProblem).
  int indexBitwidth = 64;
};

/// Reads `op` as its gpu lowering will (getForwardKernelSpec /
/// getBackwardKernelSpec with `check`'s options), diagnostics captured: the
/// first message if the lowering refuses it, nullopt if it accepts it.
std::optional<std::string> lowersQuietly(AttentionOp op,
                                         const LoweringCheck &check);
std::optional<std::string> lowersQuietly(AttentionGradOp op,
                                         const LoweringCheck &check);

/// The band as `left = .., right = .., align = ..` for remarks.
std::string describe(const Band &band);

//===----------------------------------------------------------------------===//
// cuDNN custom calls (CudnnCustomCall.cpp)
//===----------------------------------------------------------------------===//

/// A cuDNN attention custom call that can be imported, and how.
struct CudnnCall {
  shlo::CustomCallOp op;
  bool backward = false;
  /// PADDING / PADDING_CAUSAL: the call carries per-batch lengths operands.
  bool padding = false;
  AttentionSpec spec;
};

/// Whether the custom call targets cuDNN's fused attention (any variant).
bool isCudnnAttentionTarget(StringRef target);

/// Reads `op`'s target, backend_config, operands and results. Emits an error
/// naming what is unsupported or malformed and fails if it cannot be
/// imported exactly.
FailureOr<CudnnCall> analyzeCudnnCall(shlo::CustomCallOp op);

/// Replaces the call by the sdpa op; the operands are read at this point
/// (earlier imports may have replaced them).
void importCudnnCall(RewriterBase &rewriter, const CudnnCall &call);

//===----------------------------------------------------------------------===//
// Composites (Composite.cpp)
//===----------------------------------------------------------------------===//

/// Imports a `stablehlo.composite "sdpa.attention"` / `"sdpa.attention_grad"`
/// that follows the convention of docs/Import.md. Otherwise emits a remark
/// saying why, keeps the composite and fails.
LogicalResult importComposite(RewriterBase &rewriter, shlo::CompositeOp op);

//===----------------------------------------------------------------------===//
// Decomposed graphs (DecomposedAttention.cpp)
//===----------------------------------------------------------------------===//

/// Finds XLA-decomposed attention in `func` (calls into private helpers are
/// followed), recovers and verifies its band, and replaces each exact match
/// by sdpa.attention. Remarks report each import and each decline; a
/// declined graph is left unchanged.
/// With `check`, a site whose op the gpu lowerings refuse is declined too.
void importDecomposedAttention(RewriterBase &rewriter, func::FuncOp func,
                               const LoweringCheck *check = nullptr);

} // namespace mlir::sdpa::import

#endif // SDPADIALECT_LIB_IMPORT_IMPORT_H
