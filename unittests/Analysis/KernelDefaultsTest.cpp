//===- KernelDefaultsTest.cpp - The default tile rule ---------------------===//

#include "SdpaDialect/Analysis/KernelDefaults.h"
#include "gtest/gtest.h"

#include <limits>
#include <random>

using namespace mlir::sdpa;

namespace {

constexpr std::optional<int64_t> kWide = std::nullopt;

/// Every row sees at most getBandWidth keys (brute force over the mask), and
/// a two-sided band's width is reached by some row when Skv is long enough.
TEST(KernelDefaults, BandWidthBoundsEveryRow) {
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 2000; ++trial) {
    auto edge = [&]() -> std::optional<int64_t> {
      if (rng() % 4 == 0)
        return std::nullopt;
      return static_cast<int64_t>(rng() % 40);
    };
    Band band{edge(), edge(),
              rng() % 2 ? Alignment::TopLeft : Alignment::BottomRight};
    int64_t seqQ = 1 + rng() % 90, seqKv = 1 + rng() % 90;
    std::optional<int64_t> width = getBandWidth(band, seqKv);
    ASSERT_TRUE(width.has_value());
    int64_t widest = 0;
    for (int64_t q = 0; q < seqQ; ++q) {
      int64_t seen = 0;
      for (int64_t k = 0; k < seqKv; ++k)
        seen += band.isVisible(q, k, seqQ, seqKv);
      widest = std::max(widest, seen);
    }
    EXPECT_LE(widest, *width) << "trial " << trial;
    if (!band.left || !band.right) {
      EXPECT_EQ(*width, seqKv);
    }
  }
}

TEST(KernelDefaults, BandWidthOfCommonMasks) {
  // The gpt-oss window: 128 keys, narrow.
  EXPECT_EQ(getBandWidth(Band{127, 0, Alignment::TopLeft}, kWide), 128);
  EXPECT_TRUE(isNarrowBand(getBandWidth(Band{127, 0}, kWide)));
  // Exactly 512 keys is narrow, 513 is not.
  EXPECT_TRUE(isNarrowBand(getBandWidth(Band{511, 0}, kWide)));
  EXPECT_FALSE(isNarrowBand(getBandWidth(Band{512, 0}, kWide)));
  // Symmetric 40 / 40: 81 keys.
  EXPECT_EQ(getBandWidth(Band{40, 40}, kWide), 81);
  // Causal with a dynamic key length is wide; with a static one it is Skv.
  EXPECT_EQ(getBandWidth(Band{std::nullopt, 0}, kWide), std::nullopt);
  EXPECT_EQ(getBandWidth(Band{std::nullopt, 0}, 300), 300);
  EXPECT_TRUE(isNarrowBand(getBandWidth(Band{std::nullopt, 0}, 300)));
  // Edges past any width that could be narrow: wide, without overflow.
  int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(getBandWidth(Band{huge, huge}, kWide), std::nullopt);
  EXPECT_EQ(getBandWidth(Band{4095, 0}, kWide), std::nullopt);
}

bool operator==(TileShape a, TileShape b) { return a.q == b.q && a.kv == b.kv; }

/// The forward rule of bench/RESULTS.md (2026-12-02, the sweep), row by row.
TEST(KernelDefaults, ForwardRule) {
  auto expect = [](int64_t d, std::optional<int64_t> width, int64_t q,
                   int64_t kv, int64_t warps) {
    ForwardDefaults got = getDefaultForwardTiles(d, width);
    EXPECT_TRUE((got.tiles == TileShape{q, kv}))
        << "d " << d << ": " << got.tiles.q << "x" << got.tiles.kv;
    EXPECT_EQ(got.warps, warps) << "d " << d;
  };
  // Narrow: 64 x 32, 4 warps, up to d 128 (gpt-oss d 64 window 128 measured).
  expect(64, 128, 64, 32, 4);
  expect(40, 1, 64, 32, 4);
  expect(96, 512, 64, 32, 4);
  expect(128, 512, 64, 32, 4);
  // Wide at d 97..128: 128 x 32, 4 warps (heavy d 128 window 4096 measured).
  expect(128, kWide, 128, 32, 4);
  expect(97, 513, 128, 32, 4);
  expect(128, 4096, 128, 32, 4);
  // Otherwise as before: 64 x 64, 4 warps.
  expect(64, kWide, 64, 64, 4);
  expect(96, 513, 64, 64, 4);
  expect(8, kWide, 64, 64, 4);
  // Where those spill or do not fit (ptxas 13.0): d <= 32 narrow keeps
  // 64 x 64, 129..176 takes 64 x 32, 177..256 64 x 16, narrow or not.
  expect(32, 1, 64, 64, 4);
  expect(24, 128, 64, 64, 4);
  expect(136, kWide, 64, 32, 4);
  expect(160, 128, 64, 32, 4);
  expect(176, kWide, 64, 32, 4);
  expect(184, kWide, 64, 16, 4);
  expect(192, 128, 64, 16, 4);
  expect(256, 1, 64, 16, 4);
}

TEST(KernelDefaults, ForwardWarpsFollowTileQ) {
  ForwardDefaults wide = getDefaultForwardTiles(128, kWide);
  EXPECT_EQ(getDefaultForwardWarps(wide, 128, false), 4);
  // An explicit tile-q other than the rule's keeps the fixed 4 warps.
  EXPECT_EQ(getDefaultForwardWarps(wide, 64, false), kFallbackForwardWarps);
  EXPECT_EQ(getDefaultForwardWarps(getDefaultForwardTiles(64, 128), 64, false),
            4);
  // Capped logits with sinks: one m16 row tile per warp where 8 warps allow.
  EXPECT_EQ(getDefaultForwardWarps(wide, 128, true), 8);
  EXPECT_EQ(getDefaultForwardWarps(wide, 64, true), 4);
  EXPECT_EQ(getDefaultForwardWarps(wide, 256, true), 4);
}

/// The backward rule, both dQ modes.
TEST(KernelDefaults, BackwardRule) {
  using sdpa_schema::DqMode;
  auto expect = [](int64_t d, std::optional<int64_t> width, DqMode mode,
                   bool det, int64_t q, int64_t kv) {
    TileShape got =
        getDefaultBackwardTiles(d, width, mode, det, /*cappedOrPacked=*/false);
    EXPECT_TRUE((got == TileShape{q, kv}))
        << "d " << d << (mode == DqMode::Recompute ? " recompute" : " accumulate")
        << (det ? " det: " : ": ") << got.q << "x" << got.kv;
  };
  for (DqMode mode : {DqMode::Accumulate, DqMode::Recompute}) {
    bool rc = mode == DqMode::Recompute;
    for (bool det : {false, true}) {
      // Narrow up to d 80: 64 x 64 (gpt-oss measured, both modes); d 81..96
      // 64 x 64 with dQ recomputed (d 96 measured), 32 x 64 accumulated
      // (the relay spills at 64 x 64).
      expect(64, 128, mode, det, 64, 64);
      expect(80, 512, mode, det, 64, 64);
      expect(32, 1, mode, det, 64, 64);
      expect(96, 128, mode, det, rc ? 64 : 32, 64);
      expect(88, 81, mode, det, rc ? 64 : 32, 64);
      // Narrow at d 97..128: as before.
      expect(128, 128, mode, det, 32, 64);
      expect(112, 512, mode, det, 32, 64);
      // Above d 128, narrow or not: 32 x 32 recomputed (bwd_dq's widest key
      // tile there), 32 x 64 accumulated.
      expect(256, 128, mode, det, 32, rc ? 32 : 64);
      expect(136, kWide, mode, det, 32, rc ? 32 : 64);
      expect(160, kWide, mode, det, 32, rc ? 32 : 64);
      // Wide up to d 80: 64 x 64 recomputed (to d 64 two key row tiles a
      // bwd_main warp; causal measured at d 24, 64, 80), 32 x 64
      // accumulated; d 81..96 64 x 128 recomputed (d 96 measured against
      // 64 x 64), 32 x 64 accumulated.
      expect(64, kWide, mode, det, rc ? 64 : 32, 64);
      expect(24, 513, mode, det, rc ? 64 : 32, 64);
      expect(72, kWide, mode, det, rc ? 64 : 32, 64);
      expect(80, kWide, mode, det, rc ? 64 : 32, 64);
      expect(96, 513, mode, det, rc ? 64 : 32, rc ? 128 : 64);
      expect(81, kWide, mode, det, rc ? 64 : 32, rc ? 128 : 64);
      expect(104, kWide, mode, det, 64, 128);
    }
    // Wide at d 97..128: 64 x 128, both dQ orders (heavy measured).
    expect(128, kWide, mode, false, 64, 128);
    expect(97, 4096, mode, false, 64, 128);
    expect(128, kWide, mode, true, 64, 128);
    expect(112, 513, mode, true, 64, 128);
  }
}

/// With a softcap or packed sequences the wide d 97..128 backward keeps the
/// earlier tiles (64 x 128 spills there), and so does the wide recomputed
/// one up to d 96 (32 x 64, not 64 x 64); elsewhere the flag changes
/// nothing.
TEST(KernelDefaults, BackwardCappedOrPackedKeepsEarlierWideTiles) {
  auto tiles = [](int64_t d, std::optional<int64_t> width,
                  sdpa_schema::DqMode mode, bool det) {
    TileShape t =
        getDefaultBackwardTiles(d, width, mode, det, /*cappedOrPacked=*/true);
    return std::pair<int64_t, int64_t>(t.q, t.kv);
  };
  using Tiles = std::pair<int64_t, int64_t>;
  constexpr auto acc = sdpa_schema::DqMode::Accumulate;
  constexpr auto rc = sdpa_schema::DqMode::Recompute;
  EXPECT_EQ(tiles(128, kWide, acc, false), Tiles(32, 128));
  EXPECT_EQ(tiles(120, 4096, acc, false), Tiles(32, 128));
  EXPECT_EQ(tiles(128, kWide, rc, true), Tiles(32, 64));
  EXPECT_EQ(tiles(64, 128, rc, false), Tiles(64, 64));
  // The wide d <= 96 recomputed backward keeps 32 x 64 capped or packed
  // (64 x 64 spills at d 64).
  EXPECT_EQ(tiles(64, kWide, rc, true), Tiles(32, 64));
  EXPECT_EQ(tiles(40, kWide, rc, false), Tiles(32, 64));
  EXPECT_EQ(tiles(96, kWide, rc, false), Tiles(32, 64));
  EXPECT_EQ(tiles(256, kWide, acc, false), Tiles(32, 64));
  EXPECT_EQ(tiles(256, kWide, rc, false), Tiles(32, 32));
}

/// The dQ mode: recompute at every head dim, deterministic or not, except
/// a capped non-deterministic backward on a band wider than 512 keys up to
/// head_dim 128 (measured 1.5x slower recomputed; above 128 recomputing
/// won with the cap).
TEST(KernelDefaults, DqModeRecomputesButCappedWideUpToD128) {
  using sdpa_schema::DqMode;
  auto mode = [](int64_t d, std::optional<int64_t> width, bool capped,
                 bool det) { return getDefaultDqMode(d, width, capped, det); };
  EXPECT_EQ(mode(64, 128, false, false), DqMode::Recompute);
  EXPECT_EQ(mode(32, 1, false, true), DqMode::Recompute);
  EXPECT_EQ(mode(80, 128, false, true), DqMode::Recompute);
  EXPECT_EQ(mode(96, kWide, false, false), DqMode::Recompute);
  EXPECT_EQ(mode(128, 4096, false, false), DqMode::Recompute);
  EXPECT_EQ(mode(128, 4096, false, true), DqMode::Recompute);
  EXPECT_EQ(mode(kMaxFullTileRecomputeHeadDim + 8, 128, false, true),
            DqMode::Recompute);
  EXPECT_EQ(mode(256, 4096, false, false), DqMode::Recompute);
  // A cap: accumulate only without determinism on a wide band, up to d 128.
  EXPECT_EQ(mode(128, 4096, true, false), DqMode::Accumulate);
  EXPECT_EQ(mode(128, 513, true, false), DqMode::Accumulate);
  EXPECT_EQ(mode(kMaxFullTileRecomputeHeadDim, kWide, true, false),
            DqMode::Accumulate);
  EXPECT_EQ(mode(kMaxFullTileRecomputeHeadDim + 8, kWide, true, false),
            DqMode::Recompute);
  EXPECT_EQ(mode(256, 4096, true, false), DqMode::Recompute);
  EXPECT_EQ(mode(256, 4096, true, true), DqMode::Recompute);
  EXPECT_EQ(mode(128, 512, true, false), DqMode::Recompute);
  EXPECT_EQ(mode(120, kWide, true, true), DqMode::Recompute);
}

/// Exponentials flush in every kernel but narrow bands up to mma width 64
/// (gpt-oss's forward was slower flushed); a wide or unknown band flushes.
TEST(KernelDefaults, FlushesExponentialsButNarrowUpToD64) {
  EXPECT_FALSE(flushesExponentials(64, 128));
  EXPECT_FALSE(flushesExponentials(16, kNarrowBandKeys));
  EXPECT_TRUE(flushesExponentials(80, 128));
  EXPECT_TRUE(flushesExponentials(64, kNarrowBandKeys + 1));
  EXPECT_TRUE(flushesExponentials(64, std::nullopt));
  EXPECT_TRUE(flushesExponentials(256, 128));
}

} // namespace
