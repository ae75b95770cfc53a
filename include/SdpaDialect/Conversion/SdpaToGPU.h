//===- SdpaToGPU.h - Lowering sdpa.attention to SM80 kernels ----*- C++ -*-===//
//
// The public face of the forward lowering: what a kernel is specialized for
// (ForwardKernelSpec), how it is read off an op, the kernel's parameters, the
// gpu.module builder and the artifact manifest of the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_SDPATOGPU_H
#define SDPADIALECT_CONVERSION_SDPATOGPU_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/Analysis/WarpWindows.h"
#include "SdpaDialect/Conversion/KernelParam.h"
#include "SdpaDialect/Conversion/Sm80.h"
#include "SdpaDialect/SdpaOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::sdpa {

/// Defaults of the lowering where the op does not fix them.
struct ForwardKernelOptions {
  /// 0: the default tile rule (resolveTiles, resolveForwardWarps).
  TileShape tiles{0, 0};
  int64_t warps = 0;
  int64_t stages = 2;
};

/// Everything one forward kernel is specialized for. Sequence lengths, head
/// counts, batch and strides are runtime parameters.
struct ForwardKernelSpec {
  Type elementType;   // f16 or bf16
  /// The head dim of q, k, v and o (global memory, the manifest).
  int64_t headDim = 0;
  /// The width the kernel computes at (getMmaHeadDim): shared rows, the
  /// mma reductions and the accumulators; columns past headDim are zero.
  int64_t mmaHeadDim = 0;
  /// Packed sequences (layout thd): program z runs sequence z, whose lengths
  /// and first tokens come from the cumulative offsets cu_seqlens_q/kv.
  bool packedSequences = false;
  TileShape tiles;
  int64_t warps = 4;
  /// Shared stages of K and V (2 or 3): step u copies tile u + stages - 1.
  int64_t stages = 2;
  Band band;
  double scale = 1.0;
  /// The logit cap c (docs/Semantics.md §7), none: no cap.
  std::optional<double> softcap;
  /// The kernel reads one sink logit per query head (docs/Semantics.md §7).
  bool sinks = false;
  /// The schedule of the kernel, over symbolic lengths so that one kernel
  /// serves every length (getKernelSchedule, SdpaDialect/Utils).
  ScheduleAttr schedule;
  /// Blocks per SM the kernel asks ptxas to allow for (`nvvm.minctasm`,
  /// PTX .minnctapersm), none: ptxas's own choice. Given only the block
  /// size, ptxas picks a register budget for an occupancy of its own; for
  /// the wide-band kernels of mma width <= 64 (key tiles of 64) it picked
  /// 80 to 128 registers and spilled 4 to 16 bytes (ptxas 13.0: dense
  /// causal d 8 and 56, THD causal d 40), where kMaxRegistersSmallHeadDim
  /// suffice without a spill. The narrow-band kernels (key tiles of 32)
  /// keep ptxas's choice: it does not spill there, and it is the occupancy
  /// measured for gpt-oss.
  std::optional<int64_t> minBlocksPerSm;
  static constexpr int64_t kMaxRegistersSmallHeadDim = 168;
  /// The warp's Q A-fragments stay in registers for the whole kernel (one
  /// m16 row tile per warp), else each key tile loads them again from the
  /// shared Q tile, one k16 block at a time (getForwardKernelSpec's rule):
  /// resident, two row tiles at head_dim 128 hold 64 registers that the
  /// accumulators of 32 rows need.
  bool queryFragmentsResident = true;
  /// The reference row max moves only past a growth of 2^8, and O's
  /// rescale is a branch that a warp skips when none of its rows moves it
  /// (docs/Semantics.md §2.6; one m16 row tile per warp). Else m is the
  /// running max and every key tile multiplies O: at two row tiles
  /// (head_dim 128, 255 registers) the branch made a wide band 3-5% slower
  /// and the threshold alone spilled 4 bytes (H200, 2026-12-04).
  bool lazyRescale = true;
  /// The exponentials are marked `afn` (math.exp2 fastmath<afn>), so that
  /// sdpa-lower-exp2 makes each one `ex2.approx.ftz.f32`: where
  /// flushesExponentials (Analysis/KernelDefaults.h) says, but at two row
  /// tiles with packed sequences, a bottom-right band or a left edge without
  /// a right one: at 255 registers ptxas 13.0 spilled 4 to 16 bytes for
  /// sm_80 there with the flush.
  bool flushExponentials = false;
  /// The Q, K and V copies allocate in L1 too (cp.async.ca), else they
  /// bypass it (cp.async.cg): for narrow bands (isNarrowBand), where on an
  /// H100 .ca made gpt-oss's forward 0.94-0.99x as long, with sinks 0.95x;
  /// it made wide bands slower: causal d 64 1.10x, d 128 window 4096 1.02x,
  /// Gemma 2's d 256 1.04x (bench/RESULTS.md, 2026-12-07 15:53).
  bool copiesThroughL1 = false;
  /// Fewer instructions a key step (the forward of a narrow band is bound by
  /// its instruction count: ncu, bench/RESULTS.md 2026-12-06): the band room
  /// of a masked tile compared in wrapped i32 (BandCellTest), copy sources
  /// affine in the tile's first row (TileCopy::affineSource), and alpha and
  /// l's rescale formed in the lazy branch only. For one row tile a warp,
  /// mma width <= 64, key tiles of at most 32 and ptxas's own register
  /// budget (no minBlocksPerSm): elsewhere the kernels sit at their register
  /// budget and spilled 4 to 16 bytes with them (d 64 THD causal at 168
  /// registers, d 80 and d 128, gpt-oss's band at 128 x 64 with 8 warps).
  /// At mma width <= 64 no pin means a narrow band (both edges, at most 512
  /// keys wide), whose one-compare band test the wrapped room needs.
  bool leanSteps = false;
  /// Each warp walks key windows of its own (docs/Semantics.md §3.9):
  /// tile_kv keys from its first visible key rounded down to 16, masking
  /// only its edge windows: at gpt-oss's band 5 windows a warp, 2 masked,
  /// against the program's 6 key tiles, 4 masked (16.7% fewer instructions,
  /// ncu on an H100). A step reads windowSpanTiles() key tiles, which
  /// `stages` (one more) hold while the next one is copied. Set for one row
  /// tile a warp with leanSteps, 2 to 4 warps, two stages asked for, dense
  /// layouts and a top-left band with R = 0 and L + 1 >= 4 tile_kv
  /// (getForwardKernelSpec says where else it cost registers).
  bool warpWindows = false;
  /// The shape of the warp windows' walk.
  WindowShape windowShape() const {
    return {rowsPerWarp(), warps, tiles.kv};
  }

  int64_t threads() const { return warps * sm80::kWarpSize; }
  int64_t rowsPerWarp() const { return tiles.q / warps; }
  /// mma row tiles (16 rows each) per warp.
  int64_t rowTilesPerWarp() const { return rowsPerWarp() / sm80::kMmaM; }
  /// Elements per padded shared row.
  int64_t smemRowElems() const { return mmaHeadDim + sm80::kSmemPadElems; }
  int64_t elementBytes() const { return 2; }
  int64_t qSmemBytes() const {
    return tiles.q * smemRowElems() * elementBytes();
  }
  int64_t kvSmemBytes() const {
    return stages * tiles.kv * smemRowElems() * elementBytes();
  }
  /// Byte offsets of the Q, K and V buffers in dynamic shared memory.
  int64_t qSmemOffset() const { return 0; }
  int64_t kSmemOffset() const { return qSmemBytes(); }
  int64_t vSmemOffset() const { return qSmemBytes() + kvSmemBytes(); }
  /// Dynamic shared memory the kernel needs.
  int64_t sharedBytes() const { return qSmemBytes() + 2 * kvSmemBytes(); }
  bool isBF16() const { return elementType.isBF16(); }
};

/// Reads the spec of `op`'s forward kernel: its element type, head dim, band,
/// scale, and the tiles of its schedule (else `options.tiles`). Emits an
/// error naming what the lowering does not support and fails.
FailureOr<ForwardKernelSpec>
getForwardKernelSpec(AttentionOp op, const ForwardKernelOptions &options);

/// The parameters of the forward kernel of `spec`, in order: the dense list,
/// with cu_seqlens_q and cu_seqlens_kv after lse for packed sequences.
SmallVector<KernelParam> getForwardKernelParams(const ForwardKernelSpec &spec);

/// Builds `gpu.module @moduleName` holding the forward kernel
/// `gpu.func @kernelName`, at `b`'s insertion point.
gpu::GPUModuleOp buildForwardKernelModule(OpBuilder &b, Location loc,
                                          StringRef moduleName,
                                          StringRef kernelName,
                                          const ForwardKernelSpec &spec);

/// The artifact manifest of the forward kernel (docs/Artifact.md) without
/// its `ptx` line, which the artifact writer adds.
std::string buildForwardManifest(const ForwardKernelSpec &spec,
                                 StringRef kernelName);

/// The name of the top-level module attribute (a dictionary from gpu.module
/// name to manifest text) that carries manifests to the artifact writer.
inline StringRef getArtifactsAttrName() { return "sdpa.artifacts"; }
/// The discardable attribute naming the kernel an op was lowered to.
inline StringRef getKernelAttrName() { return "sdpa.kernel"; }

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_SDPATOGPU_H
