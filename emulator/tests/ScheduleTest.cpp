//===- ScheduleTest.cpp - Shuffled schedules of CTAs and warps ------------===//
//
// With a schedule seed, the order in which CTAs reach an atomic changes with
// the seed and repeats with it; seed 0 is round-robin in blockIdx order.
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include <gtest/gtest.h>
#include <set>

using namespace sdpa::emu;
using namespace sdpa::emu::test;

namespace {

/// Lane 0 of each CTA takes a ticket (atom.add.f32 of 1 on a counter) and
/// stores it at out[ctaid]: the order the CTAs got there.
std::vector<uint32_t> arrivalOrder(uint64_t seed, unsigned ctas) {
  Emu emu;
  emu.options.scheduleSeed = seed;
  EXPECT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L__end;
	atom.global.add.f32 %r2, [%rd1], 0f3F800000;
	mov.u32 %r3, %ctaid.x;
	mul.wide.u32 %rd3, %r3, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.b32 [%rd4], %r2;
$L__end:
)",
                                 2)))
      << emu.parseError;
  uint64_t counter = emu.zeros(4);
  uint64_t out = emu.zeros(4 * ctas);
  Fault f = emu.run({counter, out}, 32, ctas);
  EXPECT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> order;
  for (uint32_t bits : emu.read<uint32_t>(out, ctas))
    order.push_back(uint32_t(bitsToF32(bits)));
  return order;
}

TEST(Schedule, RoundRobinWithoutSeed) {
  EXPECT_EQ(arrivalOrder(0, 8),
            (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(Schedule, SeedsShuffleAndRepeat) {
  std::set<std::vector<uint32_t>> orders;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::vector<uint32_t> order = arrivalOrder(seed, 8);
    std::vector<uint32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    orders.insert(order);
  }
  EXPECT_GE(orders.size(), 3u); // different seeds, different interleavings
  EXPECT_EQ(arrivalOrder(4, 8), arrivalOrder(4, 8));
}

} // namespace
