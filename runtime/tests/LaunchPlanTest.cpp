//===- LaunchPlanTest.cpp - Grid formation and parameter packing ----------===//

#include "SdpaRuntime/LaunchPlan.h"
#include "TestArtifacts.h"
#include "gtest/gtest.h"

#include <cstring>

using namespace sdpa::runtime;
using namespace sdpa::runtime::testing;

namespace {

/// q, k, v, o and lse 4 GiB apart, o right after q.
constexpr Addresses kApart = {0x100000000, 0x300000000, 0x400000000,
                              0x200000000, 0x500000000};

GridValues sampleValues() {
  GridValues v;
  v.qTiles = 8;
  v.kvTiles = 24;
  v.headsQ = 16;
  v.headsKv = 4;
  v.batch = 2;
  v.totalRows = 32000;
  return v;
}

Kernel kernelWithGrid(GridTerm x, GridTerm y, GridTerm z, unsigned blockX) {
  Kernel k;
  k.name = "k";
  k.role = KernelRole::Forward;
  k.block = {blockX, 1, 1};
  k.grid = {x, y, z};
  return k;
}

TEST(Grid, EachTermTakesItsValue) {
  GridValues v = sampleValues();
  EXPECT_EQ(gridTermValue(GridTerm::QTiles, v, 128), 8);
  EXPECT_EQ(gridTermValue(GridTerm::KvTiles, v, 128), 24);
  EXPECT_EQ(gridTermValue(GridTerm::HeadsQ, v, 128), 16);
  EXPECT_EQ(gridTermValue(GridTerm::HeadsKv, v, 128), 4);
  EXPECT_EQ(gridTermValue(GridTerm::Batch, v, 128), 2);
  EXPECT_EQ(gridTermValue(GridTerm::One, v, 128), 1);
  // rows = ceil(32000 / 256) = 125, ceil(32000 / 384) = 84 (83.33...).
  EXPECT_EQ(gridTermValue(GridTerm::Rows, v, 256), 125);
  EXPECT_EQ(gridTermValue(GridTerm::Rows, v, 384), 84);
}

TEST(Grid, FormsTheManifestOrder) {
  std::array<unsigned, 3> grid;
  std::string error;
  ASSERT_TRUE(formGrid(kernelWithGrid(GridTerm::KvTiles, GridTerm::HeadsKv,
                                      GridTerm::Batch, 128),
                       sampleValues(), grid, error));
  EXPECT_EQ(grid, (std::array<unsigned, 3>{24, 4, 2}));
  ASSERT_TRUE(formGrid(kernelWithGrid(GridTerm::Rows, GridTerm::One,
                                      GridTerm::One, 1000),
                       sampleValues(), grid, error));
  EXPECT_EQ(grid, (std::array<unsigned, 3>{32, 1, 1}));
}

TEST(Grid, FormsTheGridOfAParsedManifestFromCheckedArguments) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BSHD, kBf16, {2, 16, 16, 4096, 4096, 64},
                  kApart);
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkForward(m, a, p, t, error)) << error;
  std::array<unsigned, 3> grid;
  ASSERT_TRUE(formGrid(m.kernels[0], p.grid, grid, error)) << error;
  // grid q_tiles heads_q batch with Tq = 128.
  EXPECT_EQ(grid, (std::array<unsigned, 3>{32, 16, 2}));
}

TEST(Grid, RejectsDimensionsBeyondTheLimits) {
  GridValues v = sampleValues();
  v.headsQ = 70000;
  std::array<unsigned, 3> grid;
  std::string error;
  EXPECT_FALSE(formGrid(kernelWithGrid(GridTerm::QTiles, GridTerm::HeadsQ,
                                       GridTerm::Batch, 128),
                        v, grid, error));
  EXPECT_EQ(error, "grid: kernel 'k' dimension y = 70000 (heads_q) exceeds "
                   "the limit 65535");
  // The same count is fine on x.
  EXPECT_TRUE(formGrid(kernelWithGrid(GridTerm::HeadsQ, GridTerm::QTiles,
                                      GridTerm::Batch, 128),
                       v, grid, error));
  EXPECT_EQ(grid[0], 70000u);
}

TEST(Grid, EmptyProblemsGiveAZeroDimension) {
  GridValues v = sampleValues();
  v.qTiles = 0;
  std::array<unsigned, 3> grid;
  std::string error;
  ASSERT_TRUE(formGrid(kernelWithGrid(GridTerm::QTiles, GridTerm::HeadsQ,
                                      GridTerm::Batch, 128),
                       v, grid, error));
  EXPECT_EQ(grid[0], 0u);
}

template <typename T>
T slotAs(const PackedParams &packed, size_t i) {
  T value;
  std::memcpy(&value, packed.slot(i), sizeof(T));
  return value;
}

TEST(Params, PackedInManifestOrderWithTheirTypes) {
  Kernel k;
  k.name = "k";
  k.role = KernelRole::Forward;
  k.params = {{"lse", ParamType::Ptr},
              {"seq_q", ParamType::I32},
              {"q_stride_s", ParamType::I64},
              {"scale", ParamType::F32},
              {"q", ParamType::Ptr}};
  ParamTable table;
  table["q"] = ParamValue::pointer(0x7f0000001000ULL);
  table["lse"] = ParamValue::pointer(0x7f0000002000ULL);
  table["seq_q"] = ParamValue::int32(-7);
  table["q_stride_s"] = ParamValue::int64(1LL << 40);
  table["scale"] = ParamValue::float32(0.125f);
  table["unused"] = ParamValue::int32(1);
  PackedParams packed;
  std::string error;
  ASSERT_TRUE(packed.pack(k, table, error)) << error;
  ASSERT_EQ(packed.size(), 5u);
  EXPECT_EQ(slotAs<uint64_t>(packed, 0), 0x7f0000002000ULL);
  EXPECT_EQ(slotAs<int32_t>(packed, 1), -7);
  EXPECT_EQ(slotAs<int64_t>(packed, 2), 1LL << 40);
  EXPECT_EQ(slotAs<float>(packed, 3), 0.125f);
  EXPECT_EQ(slotAs<uint64_t>(packed, 4), 0x7f0000001000ULL);
  // The array handed to cuLaunchKernel points at the slots, in order, and
  // each slot is 8-byte aligned.
  for (size_t i = 0; i < packed.size(); ++i) {
    EXPECT_EQ(packed.data()[i], packed.slot(i));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(packed.data()[i]) % 8, 0u);
  }
  // Reading through the launch array gives the same values.
  EXPECT_EQ(*static_cast<int32_t *>(packed.data()[1]), -7);
  EXPECT_EQ(*static_cast<float *>(packed.data()[3]), 0.125f);
}

TEST(Params, PackingAParsedForwardKernelFollowsTheManifest) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BHSD, kBf16, {2, 16, 8, 300, 500, 64},
                  kApart);
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkForward(m, a, p, t, error)) << error;
  PackedParams packed;
  ASSERT_TRUE(packed.pack(m.kernels[0], t, error)) << error;
  ASSERT_EQ(packed.size(), 23u);
  // q k v o lse, seq_q seq_kv heads_q heads_kv, then strides.
  EXPECT_EQ(slotAs<uint64_t>(packed, 0), 0x100000000u);
  EXPECT_EQ(slotAs<uint64_t>(packed, 1), 0x300000000u);
  EXPECT_EQ(slotAs<uint64_t>(packed, 2), 0x400000000u);
  EXPECT_EQ(slotAs<uint64_t>(packed, 3), 0x200000000u);
  EXPECT_EQ(slotAs<uint64_t>(packed, 4), 0x500000000u);
  EXPECT_EQ(slotAs<int32_t>(packed, 5), 300);
  EXPECT_EQ(slotAs<int32_t>(packed, 6), 500);
  EXPECT_EQ(slotAs<int32_t>(packed, 7), 16);
  EXPECT_EQ(slotAs<int32_t>(packed, 8), 8);
  EXPECT_EQ(slotAs<int64_t>(packed, 9), 16 * 300 * 64);  // q_stride_b
  EXPECT_EQ(slotAs<int64_t>(packed, 10), 300 * 64);      // q_stride_h
  EXPECT_EQ(slotAs<int64_t>(packed, 11), 64);            // q_stride_s
  EXPECT_EQ(slotAs<int64_t>(packed, 12), 8 * 500 * 64);  // k_stride_b
  EXPECT_EQ(slotAs<int64_t>(packed, 21), 16 * 300);      // lse_stride_b
  EXPECT_EQ(slotAs<int64_t>(packed, 22), 300);           // lse_stride_h
}

TEST(Params, MissingOrMistypedValuesAreErrors) {
  Kernel k;
  k.name = "fwd";
  k.role = KernelRole::Forward;
  k.params = {{"q", ParamType::Ptr}, {"cu_seqlens_q", ParamType::Ptr}};
  ParamTable table;
  table["q"] = ParamValue::pointer(0x1000);
  PackedParams packed;
  std::string error;
  EXPECT_FALSE(packed.pack(k, table, error));
  EXPECT_EQ(error, "param: kernel 'fwd' takes 'cu_seqlens_q', which these "
                   "arguments do not provide");
  table["cu_seqlens_q"] = ParamValue::int64(5);
  EXPECT_FALSE(packed.pack(k, table, error));
  EXPECT_EQ(error, "param: kernel 'fwd' takes 'cu_seqlens_q' as ptr, the "
                   "value is i64");
}

} // namespace
