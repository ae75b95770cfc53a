//===- FloatBitsTest.cpp - f16 and bf16 rounding at their edges -----------===//
//
// FloatBits.h's conversions, which cvt uses and sdpa-kernel-check
// (runtime/check) uses on the host: ties to even, overflow to infinity,
// subnormals, NaN.
//
//===----------------------------------------------------------------------===//

#include "PtxEmulator/FloatBits.h"

#include <gtest/gtest.h>

using namespace sdpa::emu;

namespace {

TEST(FloatBits, F16RoundsToNearestEven) {
  EXPECT_EQ(f32ToF16(1.0f), 0x3c00);
  EXPECT_EQ(f32ToF16(-2.0f), 0xc000);
  EXPECT_EQ(f32ToF16(65504.0f), 0x7bff);
  EXPECT_EQ(f32ToF16(65519.0f), 0x7bff);
  EXPECT_EQ(f32ToF16(65520.0f), 0x7c00); // the tie rounds to infinity
  EXPECT_EQ(f32ToF16(1.0f + 0x1p-11f), 0x3c00); // tie: stays even
  EXPECT_EQ(f32ToF16(1.0f + 0x3p-11f), 0x3c02); // tie: up to even
  EXPECT_EQ(f32ToF16(0x1p-24f), 0x0001);        // smallest subnormal
  EXPECT_EQ(f32ToF16(0x1p-25f), 0x0000);        // tie: to even zero
  EXPECT_EQ(f32ToF16(0x3p-25f), 0x0002);        // 1.5 units: to 2
  EXPECT_EQ(f32ToF16(0x1.ffcp-15f), 0x0400);    // rounds up to normal
  EXPECT_EQ(f32ToF16(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(f16ToF32(f32ToF16(NAN))));
  EXPECT_EQ(f16ToF32(0x0001), 0x1p-24f);
  EXPECT_EQ(f16ToF32(0x3555), 0x1.554p-2f);
  EXPECT_EQ(f16ToF32(0xfc00), -INFINITY);
}

TEST(FloatBits, Bf16RoundsToNearestEven) {
  EXPECT_EQ(f32ToBF16(1.0f), 0x3f80);
  EXPECT_EQ(f32ToBF16(1.0f + 0x1p-8f), 0x3f80); // tie: stays even
  EXPECT_EQ(f32ToBF16(1.0f + 0x3p-8f), 0x3f82); // tie: up to even
  EXPECT_EQ(f32ToBF16(-1.0f - 0x1p-7f - 0x1p-9f), 0xbf81);
  EXPECT_EQ(f32ToBF16(0x1.fffffep+127f), 0x7f80); // FLT_MAX rounds up
  EXPECT_TRUE(std::isnan(bf16ToF32(f32ToBF16(NAN))));
  EXPECT_EQ(bf16ToF32(0x4049), 3.140625f);
}

} // namespace
