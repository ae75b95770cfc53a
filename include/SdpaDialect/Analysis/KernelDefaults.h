//===- KernelDefaults.h - Default tiles of the attention kernels -*- C++ -*-===//
//
// The one rule that picks tile-q, tile-kv and the forward's warps when a pass
// or pipeline option leaves them 0 (unset): read by sdpa-derive-bounds, both
// convert passes and every lowering pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_ANALYSIS_KERNELDEFAULTS_H
#define SDPADIALECT_ANALYSIS_KERNELDEFAULTS_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaSchema/Schema.h"

#include <cstdint>
#include <optional>

namespace mlir::sdpa {

/// A band of at most this many keys per query row is narrow.
constexpr int64_t kNarrowBandKeys = 512;

/// The forward's warps when tile-q is not the rule's own (the fixed default
/// before the rule).
constexpr int64_t kFallbackForwardWarps = 4;
/// The most warps a default gives a forward kernel (256 threads).
constexpr int64_t kMaxForwardWarps = 8;

/// The most keys one query row of `band` can see: left + right + 1 for a
/// band bounded on both sides, else `seqKv` when the key length is static;
/// nullopt (wide) when unbounded with a dynamic key length.
std::optional<int64_t> getBandWidth(const Band &band,
                                    std::optional<int64_t> seqKv);

/// Whether a band of `width` keys (nullopt: unbounded or unknown) takes the
/// narrow rule, width <= kNarrowBandKeys.
inline bool isNarrowBand(std::optional<int64_t> width) {
  return width && *width <= kNarrowBandKeys;
}

/// The widest mma width whose narrow bands keep libdevice's exponentials.
constexpr int64_t kMaxUnflushedHeadDim = 64;

/// Whether a kernel's exponentials flush subnormal results (marked `afn`,
/// one `ex2.approx.ftz.f32` each by sdpa-lower-exp2; docs/Semantics.md
/// §2.5): all but narrow bands up to mma width kMaxUnflushedHeadDim. Timed
/// flushed against libdevice's `ex2.approx.f32` (four SASS instructions;
/// H100, 2026-12-07, bench/RESULTS.md): forwards 0.92-0.99x (two row tiles
/// at d 128 0.93-0.95x), wide backwards 0.97-1.00x (heavy 0.985x), but
/// gpt-oss's narrow d 64 forward 1.01-1.03x, and at 64 x 64 and 128
/// registers ptxas 13.0 spilled 4 bytes for sm_80 there.
inline bool flushesExponentials(int64_t mmaHeadDim,
                                std::optional<int64_t> bandWidth) {
  return !(isNarrowBand(bandWidth) && mmaHeadDim <= kMaxUnflushedHeadDim);
}

/// Tiles and warps of a forward kernel.
struct ForwardDefaults {
  TileShape tiles;
  int64_t warps = kFallbackForwardWarps;
};

/// The default forward tiles, from the configuration sweep on an H200
/// (bench/RESULTS.md, 2026-12-02 b9a9aaf; median ms, torch 2.11):
///
///   band <= 512 keys, head_dim <= 128   64 x 32, 4 warps
///       gpt-oss (d 64, window 128) 16k/32k: 0.162/0.315 ms against
///       0.170/0.330 at 64 x 64 (Flex 0.188/0.360)
///   wider band, head_dim 97..128        128 x 32, 4 warps (two m16 row
///       tiles per warp, Q fragments loaded per key tile; 2026-12-04)
///       heavy (d 128, window 4096) 16k: 3.222 ms against 3.607 at
///       128 x 32 with 8 warps (Flex 2.442); 128 x 64 with 4 warps spills
///   otherwise                           64 x 64, 4 warps (as before)
///
/// and where those spill or do not fit (ptxas 13.0, sm_80; tile-q 64 with 4
/// warps at every multiple of 8, 2026-12-04, not timed):
///
///   head_dim <= 32, narrow band         64 x 64 (64 x 32 spills 12 bytes)
///   head_dim 129..176                   64 x 32 (64 x 64 spills)
///   head_dim 177..256                   64 x 16 (64 x 32 spills; 64 x 64
///                                       does not fit in shared memory)
///
/// The thresholds are multiples of 16, so a head dim and its mma width
/// (rounded up to 16) take the same tiles.
ForwardDefaults getDefaultForwardTiles(int64_t headDim,
                                       std::optional<int64_t> bandWidth);

/// The forward's warps for a kernel of `tileQ` query rows: the rule's own
/// when tileQ is the rule's tile-q, else kFallbackForwardWarps. Logits both
/// capped and with sinks take one m16 row tile per warp where tileQ allows
/// it: at two row tiles, head_dim 128 spills 4 bytes (ptxas 13.0, bf16,
/// 128 x 32, 2026-12-04).
inline int64_t getDefaultForwardWarps(const ForwardDefaults &rule,
                                      int64_t tileQ, bool cappedWithSinks) {
  int64_t warps = tileQ == rule.tiles.q ? rule.warps : kFallbackForwardWarps;
  if (cappedWithSinks && tileQ % 16 == 0 && tileQ / 16 > warps &&
      tileQ / 16 <= kMaxForwardWarps)
    warps = tileQ / 16;
  return warps;
}

/// The default backward tiles for dQ mode `dqMode` (getDefaultDqMode's, so
/// that the tiles and the mode are one choice), from the same sweep:
///
///   band <= 512 keys, head_dim <= 80          64 x 64
///       gpt-oss fwd+bwd 16k: 1.174 ms against 1.185 at 32 x 64; the
///       deterministic step 1.356/2.660 ms (16k/32k) against 1.417/2.775.
///   band <= 512 keys, head_dim 81..96,        64 x 64
///   dQ recomputed
///       bf16 d 96, window 128, 16k (H100, 2026-12-06): 0.82x the time
///       of 32 x 64, deterministic or not. With dQ accumulated the relay's
///       main kernel spills 28 bytes at 64 x 64 (ptxas 13.0, sm_80), so
///       there d 81..96 keeps 32 x 64.
///   wider band, head_dim 97..128, and         64 x 128
///   81..96 with dQ recomputed
///       d 96 (bf16, causal 8k, H100, 2026-12-07): 0.95x the time of
///       64 x 64 (d 80: 1.00x, so d 65..80 keeps 64 x 64).
///       heavy fwd+bwd 16k (2026-12-04, bench/RESULTS.md): 15.59 ms
///       against 16.07 at 32 x 128 (17.80 against 20.02 at 32 x 64 on
///       2026-12-02); deterministic 20.43 against 28.39 at 32 x 64. It
///       spilled until bwd_main reduced S^T and dP^T over head_dim
///       outermost (one A fragment live, not head_dim / 4 registers).
///       With a softcap or packed sequences (`cappedOrPacked`) bwd_main
///       spills 8-20 bytes there (ptxas 13.0: d 120 with a cap, d 128 thd
///       with recomputed dQ), so those keep the earlier 32 x 128 (atomic
///       dQ) and 32 x 64 (deterministic: chosen for the relay, kept since
///       deterministic backwards recompute dQ, 0.69x the relay's time at
///       d 120 with a cap).
///   head_dim > kMaxFullTileRecomputeHeadDim,  32 x 32
///   dQ recomputed
///       bwd_dq's largest key tile there (kMaxWideRecomputeKeyTile).
///   wider band, head_dim <= 80,               64 x 64
///   dQ recomputed, neither capped nor packed
///       Up to mma width 64 bwd_main's warps hold two key row tiles
///       (BackwardKernelSpec::keyRowTiles) and form a visit 32 queries at a
///       time (H100, 2026-12-06, bottom-right causal 8k, deterministic):
///       f16 d 64 0.80x and bf16 d 24 0.86x the time of 32 x 64 (64 x 128:
///       0.87x). Above, one row
///       tile (causal 8k, non-deterministic): bf16 d 96 0.80x, d 80 0.84x
///       (two row tiles in 16-query slices at 32 x 64: 0.95x). With a cap
///       (sm_80) or packed sequences (sm_90) bwd_main spills 20 bytes at
///       d 64 (ptxas 13.0), so those keep 32 x 64.
///   otherwise                                 32 x 64 (as before)
///       the narrow d 128 backward (window 128, f16, 8k, H100, 2026-12-07)
///       at 64 x 64: 0.99x, within what a rule should follow; kept.
TileShape getDefaultBackwardTiles(int64_t headDim,
                                  std::optional<int64_t> bandWidth,
                                  sdpa_schema::DqMode dqMode,
                                  bool deterministic, bool cappedOrPacked);

/// bwd_dq (dq-mode=recompute) takes any key tile up to mma width
/// kMaxFullTileRecomputeHeadDim, and past it key tiles of at most
/// kMaxWideRecomputeKeyTile: its dQ takes head_dim / 2 registers a thread,
/// and with a key tile of 64 ptxas 13.0 spilled 4-856 bytes at d 136..256
/// (at 32, d 160..256 compile clean: 238-247 registers, sm_90;
/// bench/RESULTS.md 2026-12-06). The lowering refuses a larger tile, and
/// the tile rule above takes 32 x 32 there.
constexpr int64_t kMaxFullTileRecomputeHeadDim = 128;
constexpr int64_t kMaxWideRecomputeKeyTile = 32;

/// The default dQ mode of a backward (docs/Artifact.md, "Backward kernels").
/// `capped`: a finite softcap; `deterministic`: an accumulated dQ would be
/// relayed. Measured on an H100 (bench/RESULTS.md, 2026-12-06 11:17, 11:23
/// and 14:22; backward kernels alone, b 2, H 16, recomputed / accumulated):
///
///   every head_dim, unless below             recompute (bwd_dq)
///       deterministic (against the relay): 0.46-0.69 at S 4k and 16k
///       (d 24 and d 64 causal, d 80 window 128, d 120 causal with a cap,
///       d 128 window 4096); non-deterministic (against atomics): d 128
///       window 4096 0.95-0.98 (sinks 0.97), d 96 causal 0.82-0.84;
///       gpt-oss (d 64, window 128) since 2026-12-02. Above d 128 (at the
///       tile rule's 32 x 32, against 32 x 64 accumulated): Gemma 2's
///       d 256, window 4096, softcap 50 at 8k, deterministic 0.56 (14.9
///       ms against the relay's 26.8), non-deterministic 0.83. Deterministic
///       at the speed of the non-deterministic pass.
///   capped, non-deterministic, band > 512,   accumulate
///   head_dim <= kMaxFullTileRecomputeHeadDim
///       d 128, window 4096, softcap 50: recomputed 1.45-1.52x slower
///       (bwd_dq evaluates the cap's tanh again on every cell). Above
///       d 128 the accumulating main kernel splits its visits and adds
///       d-wide partials, and recomputing wins even with the cap (0.83).
sdpa_schema::DqMode getDefaultDqMode(int64_t headDim,
                                     std::optional<int64_t> bandWidth,
                                     bool capped, bool deterministic);

} // namespace mlir::sdpa

#endif // SDPADIALECT_ANALYSIS_KERNELDEFAULTS_H
