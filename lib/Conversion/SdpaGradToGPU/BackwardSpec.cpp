//===- BackwardSpec.cpp - What the backward kernels are built for ---------===//
//
// Reads the backward kernel spec off an sdpa.attention_grad (refusing what
// the lowering does not support), lists the kernels' parameters and writes
// their artifact manifest. It calls no kernel builder (BackwardModule.cpp
// does), so the builders may read the parameters without a call cycle.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaGradToGPU.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sdpa;

FailureOr<BackwardKernelSpec>
mlir::sdpa::getBackwardKernelSpec(AttentionGradOp op,
                                  const BackwardKernelOptions &options) {
  // Never lowered without them: a dropped sink or cap is a wrong result.
  if (op.getSinks())
    return op.emitOpError("expected no sinks: the gpu lowering does not "
                          "implement attention sinks yet");
  if (op.hasScoreModifiers())
    return op.emitOpError("expected no softcap: the gpu lowering does not "
                          "implement a logit softcap yet");
  BackwardKernelSpec spec;
  spec.packed = op.getLayout() == Layout::thd;
  if (!spec.packed && op.hasPerSequenceLengths())
    return op.emitOpError(
        "expected no seqlens on a dense layout: the backward lowering does "
        "not support per-batch valid lengths (use layout thd with cumulative "
        "offsets)");
  // f16 or bf16 (the verifier's element types): both lower.
  spec.elementType = cast<ShapedType>(op.getQuery().getType()).getElementType();
  AttentionShape shape = op.getAttentionShape();
  spec.headDim = shape.headDim;
  if (spec.headDim != 64 && spec.headDim != 128)
    return op.emitOpError("expected head_dim to be 64 or 128");

  spec.tiles = options.tiles;
  if (ScheduleAttr schedule = op.getScheduleAttr())
    spec.tiles = schedule.getTileShape();
  TileShape tiles = spec.tiles;
  if (tiles.kv % sm80::kMmaM != 0 || tiles.kv > 8 * sm80::kMmaM)
    return op.emitOpError("expected schedule tile_kv to be 16, 32, 48, ... "
                          "or 128 (one warp per 16 keys)");
  if (tiles.q % sm80::kMmaM != 0 || tiles.q > tiles.kv)
    return op.emitOpError(
        "expected schedule tile_q to be a multiple of 16 and at most tile_kv");
  int64_t chunks = tiles.q * spec.headDim / sm80::kAsyncCopyElems;
  if (chunks % spec.threads() != 0)
    return op.emitOpError("expected schedule tile_q * head_dim / 8 to be a "
                          "multiple of the block's ")
           << spec.threads() << " threads";
  if (spec.sharedBytes() > sm80::kMaxSharedBytes)
    return op.emitOpError("expected the backward kernel's shared memory (")
           << spec.sharedBytes() << " bytes) to fit in "
           << sm80::kMaxSharedBytes << " bytes";

  spec.band = op.getMaskAttr().getBand();
  spec.scale = op.getScaleOrDefault();
  spec.deterministic = op.getDeterministic();
  spec.schedule = getKernelSchedule(op, tiles);
  return spec;
}

StringRef mlir::sdpa::getBackwardRoleName(BackwardRole role) {
  switch (role) {
  case BackwardRole::Preprocess:
    return "bwd_preprocess";
  case BackwardRole::Main:
    return "bwd_main";
  case BackwardRole::DqConvert:
    return "bwd_dq_convert";
  }
  llvm_unreachable("unknown role");
}

StringRef mlir::sdpa::getBackwardKernelName(BackwardRole role) {
  switch (role) {
  case BackwardRole::Preprocess:
    return "sdpa_bwd_preprocess";
  case BackwardRole::Main:
    return "sdpa_bwd_main";
  case BackwardRole::DqConvert:
    return "sdpa_bwd_dq_convert";
  }
  llvm_unreachable("unknown role");
}

SmallVector<KernelParam>
mlir::sdpa::getBackwardKernelParams(const BackwardKernelSpec &spec,
                                    BackwardRole role) {
  using Kind = KernelParam::Kind;
  SmallVector<KernelParam> params;
  auto ptrs = [&](ArrayRef<StringRef> names) {
    for (StringRef name : names)
      params.push_back({name.str(), Kind::Ptr});
    if (spec.deterministic && role != BackwardRole::DqConvert)
      params.push_back({"relay_counters", Kind::Ptr});
  };
  auto scalars = [&](ArrayRef<StringRef> names) {
    for (StringRef name : names)
      params.push_back({name.str(), Kind::I32});
  };
  auto strides = [&](ArrayRef<StringRef> tensors) {
    for (StringRef t : tensors)
      for (StringRef dim : {"b", "h", "s"})
        params.push_back({(t + "_stride_" + dim).str(), Kind::I64});
  };
  // Packed sequences: the cumulative offsets after the other pointers, and
  // the number of sequences (cu_seqlens_q[batch] is the token count).
  auto offsets = [&](ArrayRef<StringRef> names) {
    if (!spec.packed)
      return;
    for (StringRef name : names)
      params.push_back({name.str(), Kind::Ptr});
  };
  auto batch = [&]() {
    if (spec.packed)
      params.push_back({"batch", Kind::I32});
  };
  switch (role) {
  case BackwardRole::Preprocess:
    ptrs({"o", "do", "delta", "dq_accum"});
    offsets({"cu_seqlens_q"});
    scalars({"seq_q", "heads_q"});
    batch();
    strides({"o", "do"});
    break;
  case BackwardRole::Main:
    ptrs({"q", "k", "v", "do", "lse", "delta", "dq_accum", "dk", "dv"});
    offsets({"cu_seqlens_q", "cu_seqlens_kv"});
    scalars({"seq_q", "seq_kv", "heads_q", "heads_kv"});
    batch();
    strides({"q", "k", "v", "do", "dk", "dv"});
    params.push_back({"lse_stride_b", Kind::I64});
    params.push_back({"lse_stride_h", Kind::I64});
    break;
  case BackwardRole::DqConvert:
    ptrs({"dq_accum", "dq"});
    offsets({"cu_seqlens_q"});
    scalars({"seq_q", "heads_q"});
    batch();
    strides({"dq"});
    break;
  }
  return params;
}

std::string mlir::sdpa::buildBackwardManifest(const BackwardKernelSpec &spec) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto edge = [](std::optional<int64_t> width) {
    return width ? std::to_string(*width) : std::string("inf");
  };
  os << "sdpa-artifact 1\n";
  os << "direction backward\n";
  os << "dtype " << (spec.elementType.isBF16() ? "bf16" : "f16") << "\n";
  os << "head_dim " << spec.headDim << "\n";
  os << "tile_q " << spec.tiles.q << "\n";
  os << "tile_kv " << spec.tiles.kv << "\n";
  os << "band " << edge(spec.band.left) << " " << edge(spec.band.right) << " "
     << (spec.band.align == Alignment::BottomRight ? "bottom_right"
                                                    : "top_left")
     << "\n";
  os << "scale " << llvm::format("%.17g", spec.scale) << "\n";
  os << "varlen " << (spec.packed ? 1 : 0) << "\n";
  os << "deterministic " << (spec.deterministic ? 1 : 0) << "\n";
  for (BackwardRole role : {BackwardRole::Preprocess, BackwardRole::Main,
                            BackwardRole::DqConvert}) {
    bool isMain = role == BackwardRole::Main;
    os << "kernel " << getBackwardKernelName(role) << " "
       << getBackwardRoleName(role) << "\n";
    os << "block " << (isMain ? spec.threads() : spec.rowThreads())
       << " 1 1\n";
    os << "shared_bytes " << (isMain ? spec.sharedBytes() : 0) << "\n";
    os << "grid " << (isMain ? "kv_tiles heads_kv" : "q_tiles heads_q")
       << " batch\n";
    for (const KernelParam &param : getBackwardKernelParams(spec, role))
      os << "param " << param.name << " " << getKernelParamTypeName(param.kind)
         << "\n";
  }
  return text;
}
