//===- SdpaInterfaces.td - What attention ops share --------*- tablegen -*-===//

#ifndef SDPA_INTERFACES_TD
#define SDPA_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Sdpa_AttentionOpInterface : OpInterface<"AttentionOpInterface"> {
  let cppNamespace = "::mlir::sdpa";
  let description = [{
    What the forward and backward attention ops share: query, key and value
    operands, the band, the layout, the sequence operands, the score
    modifiers (sinks, softcap) and the schedule.
    Passes that only need these work on both ops through this interface.
  }];
  let methods = [
    InterfaceMethod<"The query operand.", "::mlir::Value", "getQuery">,
    InterfaceMethod<"The key operand.", "::mlir::Value", "getKey">,
    InterfaceMethod<"The value operand.", "::mlir::Value", "getValue">,
    InterfaceMethod<"The sequence-length operands (THD offsets or per-batch lengths).",
                    "::mlir::OperandRange", "getSeqlens">,
    InterfaceMethod<"The per-query-head sink logits, or null.", "::mlir::Value",
                    "getSinks">,
    InterfaceMethod<"The softcap attribute, if set.", "::mlir::FloatAttr",
                    "getSoftcapAttr">,
    InterfaceMethod<"Removes the softcap attribute.", "::mlir::Attribute",
                    "removeSoftcapAttr">,
    InterfaceMethod<"The band mask.", "::mlir::sdpa::BandAttr", "getMaskAttr">,
    InterfaceMethod<"Replaces the band mask.", "void", "setMaskAttr",
                    (ins "::mlir::sdpa::BandAttr":$mask)>,
    InterfaceMethod<"The scale attribute, if set.", "::mlir::FloatAttr", "getScaleAttr">,
    InterfaceMethod<"The memory layout.", "::mlir::sdpa::Layout", "getLayout">,
    InterfaceMethod<"The derived schedule, if any.", "::mlir::sdpa::ScheduleAttr",
                    "getScheduleAttr">,
    InterfaceMethod<"Sets the derived schedule.", "void", "setScheduleAttr",
                    (ins "::mlir::sdpa::ScheduleAttr":$schedule)>,
  ];
  let extraSharedClassDeclaration = [{
    /// Sizes read off the operand types, with ShapedType::kDynamic where
    /// unknown. For THD, seqQ/seqKv are the packed token counts.
    ::mlir::sdpa::AttentionShape getAttentionShape() {
      return ::mlir::sdpa::AttentionShape::get($_op.getLayout(),
          ::llvm::cast<::mlir::ShapedType>($_op.getQuery().getType()),
          ::llvm::cast<::mlir::ShapedType>($_op.getKey().getType()));
    }
    /// The scale of the scores: the `scale` attribute, else 1/sqrt(head_dim).
    double getScaleOrDefault() {
      if (auto scale = $_op.getScaleAttr())
        return scale.getValueAsDouble();
      return 1.0 / std::sqrt(double(getAttentionShape().headDim));
    }
    /// Whether sequence lengths are per sequence (THD or padded batches)
    /// rather than read off the shapes.
    bool hasPerSequenceLengths() { return !$_op.getSeqlens().empty(); }
    /// The logit cap the op applies (docs/Semantics.md §7): none without
    /// the attribute or at +inf (the verifier refuses 0, negative and NaN).
    std::optional<double> getFiniteSoftcap() {
      auto cap = $_op.getSoftcapAttr();
      if (!cap || std::isinf(cap.getValueAsDouble()))
        return std::nullopt;
      return cap.getValueAsDouble();
    }
    /// Whether the op has sinks or a finite softcap (docs/Semantics.md §7).
    bool hasScoreModifiers() {
      return $_op.getSinks() || getFiniteSoftcap().has_value();
    }
  }];
}

#endif // SDPA_INTERFACES_TD
