//===- SdpaGradToGPU.h - Lowering sdpa.attention_grad to SM80 ---*- C++ -*-===//
//
// The public face of the backward lowering: what the three backward kernels
// are specialized for (BackwardKernelSpec), how it is read off an op, their
// parameters, the gpu.module builder and the artifact manifest.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_SDPAGRADTOGPU_H
#define SDPADIALECT_CONVERSION_SDPAGRADTOGPU_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Analysis/KernelDefaults.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/Conversion/KernelParam.h"
#include "SdpaDialect/Conversion/Sm80.h"
#include "SdpaDialect/SdpaOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "SdpaSchema/Schema.h"
#include "mlir/IR/Builders.h"

#include <algorithm>
#include <string>

namespace mlir::sdpa {

/// Defaults of the backward lowering where the op does not fix them.
struct BackwardKernelOptions {
  /// 0: the default tile rule (resolveTiles).
  TileShape tiles{0, 0};
  /// How dQ is formed (docs/Artifact.md, "Backward kernels"); none: the
  /// default rule (resolveDqMode).
  std::optional<sdpa_schema::DqMode> dqMode;
};

/// Everything the backward kernels are specialized for. Sequence lengths
/// (or offsets), head counts, batch and strides are runtime parameters.
struct BackwardKernelSpec {
  Type elementType; // f16 or bf16
  /// The head dim of q, k, v, o, dO and the gradients (global memory, the
  /// workspaces, the manifest).
  int64_t headDim = 0;
  /// The width the kernels compute at (getMmaHeadDim): shared rows, the mma
  /// reductions over the head dim and the dK/dV register tiles; columns past
  /// headDim are zero and never stored.
  int64_t mmaHeadDim = 0;
  /// Packed sequences (layout thd): program z runs sequence z, whose first
  /// tokens and lengths come from the cumulative offsets cu_seqlens_q/kv;
  /// delta and dq_accum are [Hq, total_q] (times head_dim), like LSE.
  bool packed = false;
  TileShape tiles;
  Band band;
  double scale = 1.0;
  /// The logit cap c (docs/Semantics.md §7), none: no cap.
  std::optional<double> softcap;
  /// The kernels take the sink logits and return their gradient
  /// (docs/Semantics.md §7).
  bool sinks = false;
  bool deterministic = false;
  /// The recomputed probabilities' exponentials are marked `afn`, so that
  /// sdpa-lower-exp2 makes each one `ex2.approx.ftz.f32`: where
  /// flushesExponentials (Analysis/KernelDefaults.h) says (heavy's backward
  /// 0.985x the time, Gemma 2's 0.995x; H100, 2026-12-07).
  bool flushExponentials = false;
  /// Accumulate: bwd_main adds the dQ partials into dq_accum (atomics, or
  /// the relay when deterministic); Recompute: bwd_dq forms dQ per query
  /// tile and bwd_main only dK, dV.
  sdpa_schema::DqMode dqMode = sdpa_schema::DqMode::Accumulate;
  bool recomputesDq() const {
    return dqMode == sdpa_schema::DqMode::Recompute;
  }
  /// The relay orders the dQ adds of a deterministic accumulating backward.
  bool usesRelay() const { return deterministic && !recomputesDq(); }
  /// The symbolic schedule of the band for `tiles` (never specialized to
  /// static lengths: one kernel serves every length).
  ScheduleAttr schedule;

  /// The main kernel's warps: one per 16 keys of its key tile (a key block)
  /// and column group. A warp's dK and dV accumulators (16 keys x its
  /// columns, f32) take 2 * 16 * columns / 32 = columns registers per
  /// thread, beside the A fragments of S and dP. Up to kOneWarpHeadDim =
  /// 128 one warp holds every column of its keys (the d = 128 kernel uses
  /// 254 of the 255 registers) and forms P^T and dS^T of every query in
  /// registers, as A fragments of the dV and dK products. Above, visits are
  /// split: columnGroups() = 2 warps share a key block, one per half of the
  /// columns, and a visit runs in two phases: warp group g forms S^T, dP^T,
  /// P^T and dS^T of the g-th half of the query tile over the full head
  /// dim, the warps store P^T and dS^T to shared memory, and after a barrier
  /// each reads them back as A fragments for the dV and dK columns of its
  /// group: every product once a visit. (Column passes, a warp walking its
  /// query tiles once per 48 columns with P and dS recomputed each time,
  /// were 1.1x slower at d 160 and 2.6x at d 256 on an H200, and spilled at
  /// 224 and 240, which they computed at 256; bench/RESULTS.md, 2026-12-05.)
  /// Independent of the tiles, which only set shared memory.
  static constexpr int64_t kOneWarpHeadDim = 128;
  int64_t keyBlocks() const { return tiles.kv / sm80::kMmaM; }
  int64_t columnGroups() const {
    return (mmaHeadDim + kOneWarpHeadDim - 1) / kOneWarpHeadDim;
  }
  /// Whether a visit runs in the two phases above (columnGroups() > 1).
  bool splitsVisit() const { return columnGroups() > 1; }
  /// 8-column blocks of dK and dV a warp accumulates: its group's (the mma
  /// width is a multiple of 16, so two groups divide it).
  int64_t groupBlocks() const {
    return mmaHeadDim / sm80::kMmaN / columnGroups();
  }
  /// Queries per part of the query tile in the first phase of a split
  /// visit (the tile otherwise).
  int64_t partQueries() const { return tiles.q / columnGroups(); }
  /// bwd_main's m16 key row tiles a warp (16 or 32 keys): at 2 every Q
  /// and dO fragment a warp reads from shared memory feeds two mma, not one.
  /// dK and dV then take 4 * columns registers a thread and S^T and dP^T
  /// 4 * queries / 8 each, so a visit forms them kTwoKeyRowTilesSlice
  /// queries at a time (querySlices()), and getBackwardKernelSpec takes 2
  /// only with dQ recomputed (no dS tile, no relay), one column group, mma
  /// width at most kMaxTwoKeyRowTilesHeadDim, tile_kv a multiple of 32 and
  /// tile_q at most kTwoKeyRowTilesSlice, or a multiple of it on a wide
  /// band. On gpt-oss's narrow band, 64 x 64 tiles with two row tiles ran
  /// as fast as with one (H100, 2026-12-06: 0.99-1.00x at 16k and 32k),
  /// and the packed kernels spilled 20 bytes at sm_90 (ptxas 13.0); on
  /// wide bands they are what the tile rule takes (KernelDefaults.h).
  static constexpr int64_t kMaxTwoKeyRowTilesHeadDim = 64;
  static constexpr int64_t kTwoKeyRowTilesSlice = 32;
  int64_t keyRowTiles = 1;
  /// Keys a warp holds (16 keyRowTiles).
  int64_t warpKeys() const { return sm80::kMmaM * keyRowTiles; }
  /// The queries of a warp's part that one pass of a visit forms S^T, dP^T,
  /// P^T and dS^T of (its whole part unless it holds two key row tiles),
  /// and the passes of a visit.
  int64_t sliceQueries() const {
    if (keyRowTiles == 1)
      return partQueries();
    return std::min(partQueries(), kTwoKeyRowTilesSlice);
  }
  int64_t querySlices() const { return partQueries() / sliceQueries(); }
  int64_t warps() const {
    return tiles.kv / warpKeys() * columnGroups();
  }
  int64_t threads() const { return warps() * sm80::kWarpSize; }
  /// Threads of the preprocessing and dQ conversion kernels.
  int64_t rowThreads() const { return 128; }
  int64_t elementBytes() const { return 2; }
  /// Elements per padded shared row of a [rows][head_dim] tile.
  int64_t rowElems() const { return mmaHeadDim + sm80::kSmemPadElems; }
  /// Elements per padded shared row of the [Tq][Tk] dS tile.
  int64_t dsRowElems() const { return tiles.kv + sm80::kSmemPadElems; }
  int64_t tileBytes(int64_t rows) const {
    return rows * rowElems() * elementBytes();
  }
  /// Stages of the tiles a kernel streams through shared memory: bwd_main's
  /// query tiles (Q, dO and their row stats) and bwd_dq's key tiles (K and
  /// V). With 2 the copies of the next tile are in flight while the current
  /// one computes; with 1 a visit waits for its own (no prefetch).
  /// getBackwardKernelSpec picks 2 where shared memory allows and:
  /// * bwd_main: up to mma width kOneWarpHeadDim, where one warp holds
  ///   every column. With the column passes that split visits replaced, the
  ///   second stage cost gemma-2's d 256 backward 48% (H200: 230 registers
  ///   instead of 168, and 140 KB of shared memory, one block per SM); at
  ///   d 128 it gained 4%, at d 64 2% (bench/RESULTS.md). Split visits keep
  ///   one stage.
  /// * bwd_dq: up to kMaxPrefetchRecomputeHeadDim: at mma width 128 its dQ
  ///   and a chunk's S and dP take 128 registers a thread, and with the
  ///   prefetch's addresses ptxas 13.0 spilled 4 bytes (tile_kv 128).
  static constexpr int64_t kMaxStages = 2;
  static constexpr int64_t kMaxPrefetchRecomputeHeadDim = 96;
  int64_t queryStages = 1;
  int64_t keyStages = 1;
  /// Byte offsets of the main kernel's shared buffers (all 16-byte aligned):
  /// K, V; Q, dO, LSE and Delta, each [queryStages]; dS (an accumulated
  /// dQ's operand: none when bwd_dq recomputes dQ); where the visit is
  /// split, P^T and dS^T ([Tk][Tq] each, rows padded).
  int64_t kOffset() const { return 0; }
  int64_t vOffset() const { return kOffset() + tileBytes(tiles.kv); }
  int64_t qOffset() const { return vOffset() + tileBytes(tiles.kv); }
  int64_t doOffset() const {
    return qOffset() + queryStages * tileBytes(tiles.q);
  }
  int64_t dsOffset() const {
    return doOffset() + queryStages * tileBytes(tiles.q);
  }
  int64_t lseOffset() const {
    if (recomputesDq())
      return dsOffset();
    return dsOffset() + tiles.q * dsRowElems() * elementBytes();
  }
  int64_t deltaOffset() const {
    return lseOffset() + queryStages * tiles.q * 4;
  }
  /// Elements per padded shared row of the [Tk][Tq] P^T and dS^T tiles.
  int64_t transposedRowElems() const {
    return tiles.q + sm80::kSmemPadElems;
  }
  int64_t pTransposedOffset() const {
    return deltaOffset() + queryStages * tiles.q * 4;
  }
  int64_t dsTransposedOffset() const {
    return pTransposedOffset() +
           tiles.kv * transposedRowElems() * elementBytes();
  }
  /// Dynamic shared memory of the main kernel.
  int64_t sharedBytes() const {
    if (!splitsVisit())
      return pTransposedOffset();
    return dsTransposedOffset() +
           tiles.kv * transposedRowElems() * elementBytes();
  }

  /// bwd_dq: one warp per dqRowTiles m16 row tiles (16 or 32 query rows)
  /// of the tile, each holding its rows' dQ (16 x head_dim per row tile,
  /// f32: head_dim / 2 registers per thread) beside S and dP of a chunk of
  /// keys (64 / dqRowTiles keys: 64 registers).
  /// getBackwardKernelSpec takes two row tiles up to mma width
  /// kMaxTwoRowTilesRecomputeHeadDim where tile_q is a multiple of 32 of at
  /// least 64 (two warps or more), and at mma width kWideTwoRowTilesHeadDim
  /// on a wide band with key tiles of at most kWideTwoRowTilesKeyTile (an
  /// explicit tile: the default rule keeps 64 x 128 there until this layout
  /// is timed against it; docs/Performance.md, the wide backward).
  /// Past mma width kMaxFullTileRecomputeHeadDim bwd_dq takes key tiles of
  /// at most kMaxWideRecomputeKeyTile (Analysis/KernelDefaults.h, which the
  /// default dQ rule reads too).
  static constexpr int64_t kMaxFullTileRecomputeHeadDim =
      sdpa::kMaxFullTileRecomputeHeadDim;
  static constexpr int64_t kMaxWideRecomputeKeyTile =
      sdpa::kMaxWideRecomputeKeyTile;
  static constexpr int64_t kMaxTwoRowTilesRecomputeHeadDim = 64;
  static constexpr int64_t kWideTwoRowTilesHeadDim = 128;
  static constexpr int64_t kWideTwoRowTilesKeyTile = 64;
  int64_t dqRowTiles = 1;
  int64_t dqWarps() const { return tiles.q / (sm80::kMmaM * dqRowTiles); }
  int64_t dqThreads() const { return dqWarps() * sm80::kWarpSize; }
  /// Keys of one chunk of a key tile in bwd_dq: 64 at one row tile per
  /// warp, 32 at two, so that S and dP of a chunk take the same registers
  /// (tile_kv is a multiple of 16, so a chunk is too).
  static constexpr int64_t kDqChunkKeysOneRowTile = 64;
  int64_t dqChunkKeys() const { return kDqChunkKeysOneRowTile / dqRowTiles; }
  /// Whether a warp of two row tiles at mma width kWideTwoRowTilesHeadDim
  /// holds dQ's 128 registers. Then it forms a chunk's S whole but its dP
  /// and dS one k16 block of keys at a time (dQ, S and a block's dP: 176
  /// registers, not 192), and reads K's and V's B fragments two 8-key
  /// blocks per ldmatrix. That way ptxas 13.0 spills nothing at the heavy
  /// backward's 64 x 64 (248 registers for sm_80, 255 for sm_90); the
  /// whole chunk at once spilled 4 bytes for sm_80 and 16 for sm_90, and
  /// the other mixes of chunk and paired loads 20-52 bytes on one target
  /// or both.
  bool dqHoldsWideRows() const {
    return dqRowTiles > 1 && mmaHeadDim > kMaxTwoRowTilesRecomputeHeadDim;
  }
  /// Keys of a chunk whose dP and dS bwd_dq forms at once.
  int64_t dqGradientKeys() const {
    return dqHoldsWideRows() ? sm80::kMmaK : dqChunkKeys();
  }
  /// The band's schedule over one bwd_dq warp's rows and a chunk of keys,
  /// for a narrow band, several warps of two row tiles, and key tiles the
  /// chunks divide: a warp computes a chunk only if its rows see a key of
  /// it and masks it only if they do not all see it whole
  /// (docs/Semantics.md §3.8). At gpt-oss's band each warp skips 1 of 6
  /// chunks and masks 2 of the 4 edge ones: the kernel's PTX
  /// warp-instructions fell 13%, ptxas 13.0 took 8-14 registers fewer, and
  /// the gpt-oss backward ran 3-4% faster on an H200 (bench/RESULTS.md,
  /// 2026-12-05; the same per-warp skips in the forward and in bwd_main cut
  /// instructions and cost time, and were removed). At one row tile (d 80)
  /// it took 32 more registers, a block fewer an SM. Null otherwise.
  ScheduleAttr dqChunkSchedule;
  /// Byte offsets of bwd_dq's shared tiles: Q, dO ([Tq] rows), K, V
  /// ([keyStages][Tk] rows).
  int64_t dqQOffset() const { return 0; }
  int64_t dqDoOffset() const { return dqQOffset() + tileBytes(tiles.q); }
  int64_t dqKOffset() const { return dqDoOffset() + tileBytes(tiles.q); }
  int64_t dqVOffset() const {
    return dqKOffset() + keyStages * tileBytes(tiles.kv);
  }
  int64_t dqSharedBytes() const {
    return dqVOffset() + keyStages * tileBytes(tiles.kv);
  }
};

/// Reads the spec of `op`'s backward kernels: element type, head dim, band,
/// scale, mode, and the tiles of its schedule (else `options.tiles`). Emits
/// an error naming what the lowering does not support and fails.
FailureOr<BackwardKernelSpec>
getBackwardKernelSpec(AttentionGradOp op, const BackwardKernelOptions &options);

/// The backward kernels: Preprocess, Main and DqConvert (accumulated dQ) or
/// Preprocess, Main and Dq (recomputed dQ), in launch order.
enum class BackwardRole { Preprocess, Main, DqConvert, Dq };

/// The kernels of `spec`'s dQ mode, in launch order (the schema's).
SmallVector<BackwardRole> getBackwardRoles(const BackwardKernelSpec &spec);

/// The manifest role name and the kernel symbol of `role`.
StringRef getBackwardRoleName(BackwardRole role);
StringRef getBackwardKernelName(BackwardRole role);
sdpa_schema::KernelRole getBackwardSchemaRole(BackwardRole role);

/// Threads per block and dynamic shared bytes of a backward kernel.
struct BackwardKernelShape {
  int64_t threads, sharedBytes;
};
BackwardKernelShape getBackwardKernelShape(const BackwardKernelSpec &spec,
                                           BackwardRole role);

/// The parameters of the kernel of `role`, in order.
SmallVector<KernelParam> getBackwardKernelParams(const BackwardKernelSpec &spec,
                                                   BackwardRole role);

/// Builds `gpu.module @moduleName` holding the three backward kernels at
/// `b`'s insertion point.
gpu::GPUModuleOp buildBackwardKernelModule(OpBuilder &b, Location loc,
                                           StringRef moduleName,
                                           const BackwardKernelSpec &spec);

/// The artifact manifest of the backward kernels (docs/Artifact.md) without
/// its `ptx` line.
std::string buildBackwardManifest(const BackwardKernelSpec &spec);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_SDPAGRADTOGPU_H
