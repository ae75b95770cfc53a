//===- KernelSpec.cpp - What a forward kernel is specialized for ----------===//
//
// Reads the kernel spec off an sdpa.attention, refusing (with a diagnostic
// naming the operand or attribute) what the SM80 forward kernel does not
// cover.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/KernelDefaults.h"
#include "SdpaDialect/Conversion/KernelOptions.h"
#include "SdpaDialect/Conversion/KernelSchema.h"
#include "SdpaDialect/DefaultTiles.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"

using namespace mlir;
using namespace mlir::sdpa;

FailureOr<ForwardKernelSpec>
mlir::sdpa::getForwardKernelSpec(AttentionOp op,
                                 const ForwardKernelOptions &options) {
  bool packed = op.getLayout() == Layout::thd;
  // The runtime has lengths per sequence only as thd offsets; a dense layout
  // with per-batch valid lengths would need parameters it does not have.
  if (!packed && op.hasPerSequenceLengths())
    return op.emitOpError("expected no seqlens operands for layout ")
           << stringifyLayout(op.getLayout())
           << ": the gpu lowering takes per-sequence lengths only as thd "
              "cumulative offsets";

  ForwardKernelSpec spec;
  spec.packedSequences = packed;
  AttentionShape shape = op.getAttentionShape();
  spec.elementType = getElementTypeOrSelf(op.getQuery().getType());
  spec.headDim = shape.headDim;
  // The schema's table decides (the runtime checks artifacts against it).
  std::string headDimError;
  if (!checkKernelHeadDim(schema::Direction::Forward, spec.headDim,
                          headDimError))
    return op.emitOpError(headDimError);
  spec.mmaHeadDim = getMmaHeadDim(schema::Direction::Forward, spec.headDim);

  if (ScheduleAttr schedule = op.getScheduleAttr())
    spec.tiles = schedule.getTileShape();
  else
    spec.tiles = resolveTiles(op, options.tiles);
  spec.warps = resolveForwardWarps(op, spec.tiles.q, options.warps);
  spec.stages = options.stages;
  // The pass checks its options first; these guard the C++ entry point.
  // kMaxWarps is a quotient, not warps * 32: warps = 2^60 + 1 wrapped that
  // to 32.
  for (std::string error :
       {checkOptionRange("warps", spec.warps, 1, kMaxWarps),
        checkOptionRange("stages", spec.stages, kMinStages, kMaxStages)})
    if (!error.empty())
      return op.emitOpError(error);
  if (spec.tiles.q % (sm80::kMmaM * spec.warps) != 0)
    return op.emitOpError("expected schedule tile_q ")
           << spec.tiles.q << " to be a multiple of 16 * warps ("
           << sm80::kMmaM * spec.warps << ")";
  if (spec.tiles.kv % sm80::kMmaK != 0)
    return op.emitOpError("expected schedule tile_kv ")
           << spec.tiles.kv << " to be a multiple of 16";
  if (spec.sharedBytes() > sm80::kMaxSharedBytes)
    return op.emitOpError("expected the tiles to fit in shared memory: need ")
           << spec.sharedBytes() << " bytes, at most "
           << sm80::kMaxSharedBytes;

  spec.queryFragmentsResident = spec.rowTilesPerWarp() == 1;
  spec.lazyRescale = spec.rowTilesPerWarp() == 1;

  spec.band = op.getMaskAttr().getBand();
  std::optional<int64_t> width =
      getBandWidth(spec.band, /*seqKv=*/std::nullopt);
  bool narrow = isNarrowBand(width);
  spec.copiesThroughL1 = narrow;
  // Flushed exponentials but where ptxas spilled with them (their doc).
  bool spillsWhenFlushed =
      spec.rowTilesPerWarp() == 2 &&
      (spec.packedSequences || spec.band.align == Alignment::BottomRight ||
       (spec.band.left && !spec.band.right));
  spec.flushExponentials =
      flushesExponentials(spec.mmaHeadDim, width) && !spillsWhenFlushed;
  if (spec.mmaHeadDim <= 64 && !narrow)
    spec.minBlocksPerSm = std::max<int64_t>(
        1, sm80::kRegistersPerSm /
               (spec.threads() * ForwardKernelSpec::kMaxRegistersSmallHeadDim));
  spec.leanSteps = spec.rowTilesPerWarp() == 1 && spec.mmaHeadDim <= 64 &&
                   spec.tiles.kv <= 32 && !spec.minBlocksPerSm;
  spec.scale = op.getScaleOrDefault();
  spec.softcap = op.getFiniteSoftcap();
  spec.sinks = bool(op.getSinks());
  spec.schedule = getKernelSchedule(op, spec.tiles);
  // Measured where it pays (gpt-oss's band); elsewhere it cost registers:
  // bottom-right (rho known at run time) took the sinks kernel to 134
  // registers for sm_90 and 3 blocks an SM (10% slower), and with constant
  // window counts to 128 and 8 bytes spilled; a right edge of 127 spilled
  // 4 bytes for sm_90, and a window of 32 keys 24 bytes for sm_80. At 6c98708
  // gpt-oss's band at 128 rows and 8 warps (a ring of 7 stages, 126
  // registers for sm_90) spilled nothing but took 1.00-1.03x the time of 64
  // rows and 4, and 96 rows and 6 warps (12 an SM) 1.13-1.18x
  // (bench/RESULTS.md, 2026-12-07 11:45); with sinks 8 warps spilled 8 bytes
  // for sm_80.
  // (leanSteps already implies a narrow band: see its doc.)
  spec.warpWindows = spec.leanSteps && spec.warps > 1 && spec.warps <= 4 &&
                     spec.stages == 2 && !spec.packedSequences &&
                     spec.band.align == Alignment::TopLeft &&
                     spec.band.left && spec.band.right == 0 &&
                     *spec.band.left + 1 >= 4 * spec.tiles.kv;
  if (spec.warpWindows) {
    spec.stages = windowSpanTiles(spec.windowShape()) + 1;
    if (spec.sharedBytes() > sm80::kMaxSharedBytes) {
      spec.warpWindows = false;
      spec.stages = options.stages;
    }
  }
  return spec;
}
