//===- MemoryCheckTest.cpp - cp.async, bounds, races, deadlocks -----------===//

#include "EmuTestUtil.h"

#include <gtest/gtest.h>

using namespace sdpa::emu;
using namespace sdpa::emu::test;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(MemoryCheck, GlobalLoadOutOfBounds) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1+64];
)")))
      << emu.parseError;
  uint64_t buf = emu.zeros(64);
  Fault f = emu.run({buf});
  EXPECT_EQ(f.code, kErrIllegalAddress);
  EXPECT_TRUE(contains(f.message, "global load of 16 bytes at " +
                                      hex(buf + 64) +
                                      " outside every allocation"))
      << f.message;
  EXPECT_TRUE(contains(f.message, "kernel k block (0,0,0) thread (0,0,0)"))
      << f.message;
  EXPECT_TRUE(contains(f.message, "line 17 'ld.global.v4.b32")) << f.message;
}

TEST(MemoryCheck, GlobalMisaligned) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	st.global.b32 [%rd1+2], %r1;
)")))
      << emu.parseError;
  uint64_t buf = emu.zeros(64);
  Fault f = emu.run({buf});
  EXPECT_EQ(f.code, kErrMisalignedAddress);
  EXPECT_TRUE(contains(f.message, "not 4-byte aligned")) << f.message;
}

TEST(MemoryCheck, SharedOutOfBounds) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u64 %rd1, buf;
	st.shared.b32 [%rd1+60], %r1;
	st.shared.b32 [%rd1+64], %r1;
)",
                                 1, "\t.shared .align 4 .b8 buf[64];\n")))
      << emu.parseError;
  Fault f = emu.run({});
  EXPECT_EQ(f.code, kErrIllegalAddress);
  EXPECT_TRUE(contains(f.message, "shared store of 4 bytes at 0x40 outside "
                                  "the shared window of 64 bytes"))
      << f.message;
}

TEST(MemoryCheck, DynamicSharedFollowsStatic) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u64 %rd2, __dynamic_shmem__0;
	st.global.b64 [%rd1], %rd2;
	st.shared.b32 [%rd2+124], %r1;
)",
                                 1,
                                 "\t.shared .align 4 .b8 st[20];\n"
                                 "\t.shared .align 16 .b8 __dynamic_shmem__0;"
                                 "\n")))
      << emu.parseError;
  uint64_t out = emu.zeros(8);
  Fault f = emu.run({out}, 32, 1, 128);
  ASSERT_EQ(f.code, 0) << f.message;
  EXPECT_EQ(emu.read<uint64_t>(out, 1)[0], 32u); // 20 aligned to 16
  f = emu.run({out}, 32, 1, 124);
  EXPECT_EQ(f.code, kErrIllegalAddress) << f.message;
}

TEST(MemoryCheck, CpAsyncLandsAtWaitGroup) {
  Emu emu;
  // Shared starts as 0xAAAAAAAA words. Group 0 copies 16 bytes of which 8
  // come from global; group 1 copies from a zero-size source at address 0
  // (never read). Thread 0 records smem before any wait, after
  // wait_group 1 (group 0 landed) and after wait_group 0.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L__done;
	mov.u64 %rd3, buf;
	mov.b32 %r2, -1431655766;
	st.shared.v4.b32 [%rd3], {%r2, %r2, %r2, %r2};
	st.shared.v4.b32 [%rd3+16], {%r2, %r2, %r2, %r2};
	mov.u32 %r3, 8;
	cp.async.ca.shared.global [%rd3], [%rd1], 16, %r3;
	cp.async.commit_group;
	mov.u32 %r4, 0;
	mov.u64 %rd4, 0;
	cp.async.cg.shared.global [%rd3+16], [%rd4], 16, %r4;
	cp.async.commit_group;
	ld.shared.v4.b32 {%r5, %r6, %r7, %r8}, [%rd3];
	st.global.v4.b32 [%rd2], {%r5, %r6, %r7, %r8};
	cp.async.wait_group 1;
	ld.shared.v4.b32 {%r5, %r6, %r7, %r8}, [%rd3];
	st.global.v4.b32 [%rd2+16], {%r5, %r6, %r7, %r8};
	ld.shared.v4.b32 {%r5, %r6, %r7, %r8}, [%rd3+16];
	st.global.v4.b32 [%rd2+32], {%r5, %r6, %r7, %r8};
	cp.async.wait_group 0;
	ld.shared.v4.b32 {%r5, %r6, %r7, %r8}, [%rd3+16];
	st.global.v4.b32 [%rd2+48], {%r5, %r6, %r7, %r8};
$L__done:
)",
                                 2, "\t.shared .align 16 .b8 buf[32];\n")))
      << emu.parseError;
  uint64_t src = emu.buffer<uint32_t>({1, 2});
  uint64_t out = emu.zeros(64);
  Fault f = emu.run({src, out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 16);
  const uint32_t stale = 0xaaaaaaaau;
  std::vector<uint32_t> expect = {stale, stale, stale, stale, // before wait
                                  1,     2,     0,     0,     // group 0
                                  stale, stale, stale, stale, // group 1 open
                                  0,     0,     0,     0};    // zero fill
  EXPECT_EQ(r, expect);
}

TEST(MemoryCheck, CpAsyncSourceOutOfBounds) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u64 %rd3, buf;
	mov.u32 %r3, 16;
	cp.async.cg.shared.global [%rd3], [%rd1+16], 16, %r3;
	cp.async.commit_group;
	cp.async.wait_group 0;
)",
                                 1, "\t.shared .align 16 .b8 buf[512];\n")))
      << emu.parseError;
  uint64_t src = emu.zeros(16);
  Fault f = emu.run({src});
  EXPECT_EQ(f.code, kErrIllegalAddress);
  EXPECT_TRUE(contains(f.message, "outside every allocation")) << f.message;
}

/// Warp 0 writes word 0; warp 1 reads it; optionally a barrier between.
std::string raceKernel(bool barrier) {
  return kernelPtx(std::string(R"(
	mov.u32 %r1, %tid.x;
	mov.u64 %rd1, buf;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L__skip;
	st.shared.b32 [%rd1], %r1;
$L__skip:
)") + (barrier ? "\tbar.sync 0;\n" : "") + R"(
	setp.ne.s32 %p2, %r1, 32;
	@%p2 bra $L__end;
	ld.shared.b32 %r2, [%rd1];
$L__end:
)",
                   1, "\t.shared .align 4 .b8 buf[64];\n");
}

TEST(MemoryCheck, RaceBetweenWarpsReported) {
  Emu emu;
  emu.options.scheduleSeed = 0; // warp 0 first: the race is a RAW
  ASSERT_TRUE(emu.load(raceKernel(false))) << emu.parseError;
  Fault f = emu.run({}, 64);
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "shared-memory race (RAW)")) << f.message;
  EXPECT_TRUE(contains(f.message, "warp 1 reads at line 25, warp 0 wrote at "
                                  "line 20"))
      << f.message;
}

TEST(MemoryCheck, RaceBetweenWarpsOrderedByBarrier) {
  Emu emu;
  ASSERT_TRUE(emu.load(raceKernel(true))) << emu.parseError;
  Fault f = emu.run({}, 64);
  EXPECT_EQ(f.code, 0) << f.message;
}

TEST(MemoryCheck, RacecheckCanBeDisabled) {
  Emu emu;
  emu.options.racecheck = false;
  ASSERT_TRUE(emu.load(raceKernel(false))) << emu.parseError;
  Fault f = emu.run({}, 64);
  EXPECT_EQ(f.code, 0) << f.message;
}

TEST(MemoryCheck, WriteAfterReadAcrossWarps) {
  Emu emu;
  emu.options.scheduleSeed = 0; // warp 0 (the readers) first: a WAR
  // Lanes of warp 0 read word 0, then lane 0 of warp 1 writes it.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, %tid.x;
	mov.u64 %rd1, buf;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $L__w;
	ld.shared.b32 %r2, [%rd1];
	bra.uni $L__end;
$L__w:
	st.shared.b16 [%rd1+2], %rs1;
$L__end:
)",
                                 1, "\t.shared .align 4 .b8 buf[64];\n")))
      << emu.parseError;
  Fault f = emu.run({}, 64);
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "(WAR)")) << f.message;
}

TEST(MemoryCheck, SameWarpIsNoHazardAndHalvesAreDistinct) {
  Emu emu;
  // Lanes of one warp write and read the same word; warps 0 and 1 write
  // different halves of word 0.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, %tid.x;
	mov.u64 %rd1, buf;
	st.shared.b32 [%rd1+8], %r1;
	ld.shared.b32 %r2, [%rd1+8];
	shr.u32 %r3, %r1, 5;
	mul.wide.u32 %rd2, %r3, 2;
	add.s64 %rd3, %rd1, %rd2;
	st.shared.b16 [%rd3], %rs1;
	ld.shared.b16 %rs2, [%rd3];
)",
                                 1, "\t.shared .align 4 .b8 buf[64];\n")))
      << emu.parseError;
  Fault f = emu.run({}, 32);
  EXPECT_EQ(f.code, 0) << f.message;
  // With two warps both write word 2 (+8): a WAW.
  f = emu.run({}, 64);
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "(WAW)")) << f.message;
}

TEST(MemoryCheck, DivergentCollectiveReported) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $L__a;
	shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
	bra.uni $L__end;
$L__a:
	shfl.sync.bfly.b32 %r2, %r1, 2, 31, -1;
$L__end:
)")))
      << emu.parseError;
  Fault f = emu.run({});
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "divergent warp collective")) << f.message;
  EXPECT_TRUE(contains(f.message, "line 19")) << f.message;
  EXPECT_TRUE(contains(f.message, "line 22")) << f.message;
}

TEST(MemoryCheck, PartialMemberMaskRefused) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, %tid.x;
	vote.sync.any.pred %p1, %p2, 0xffff;
)")))
      << emu.parseError;
  Fault f = emu.run({});
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "member mask 0xffff")) << f.message;
}

TEST(MemoryCheck, DeadlockedBarrierReported) {
  Emu emu;
  // Lanes 0..15 wait at bar.sync, lanes 16..31 at a warp collective that
  // needs lanes 0..15: nobody can proceed.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $L__a;
	vote.sync.any.pred %p2, %p1, -1;
	bra.uni $L__end;
$L__a:
	bar.sync 0;
$L__end:
)")))
      << emu.parseError;
  Fault f = emu.run({});
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "deadlock")) << f.message;
  EXPECT_TRUE(contains(f.message, "16 threads wait at bar.sync (e.g. line "
                                  "22)"))
      << f.message;
}

TEST(MemoryCheck, BarrierIgnoresExitedThreads) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra $L__end;
	bar.sync 0;
$L__end:
)")))
      << emu.parseError;
  Fault f = emu.run({}, 64);
  EXPECT_EQ(f.code, 0) << f.message;
}

TEST(MemoryCheck, EndlessSpinHitsBudget) {
  Emu emu;
  emu.options.maxInstructions = 100000;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
$L__spin:
	ld.param.u64 %rd1, [k_param_0];
	ld.acquire.gpu.global.b32 %r1, [%rd1];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L__spin;
)")))
      << emu.parseError;
  uint64_t flag = emu.zeros(4);
  Fault f = emu.run({flag});
  EXPECT_EQ(f.code, kErrLaunchTimeout);
  EXPECT_TRUE(contains(f.message, "instruction budget")) << f.message;
}

TEST(MemoryCheck, CtasInterleaveThroughGlobalFlags) {
  Emu emu;
  // CTA b waits until counter == b, then increments it (st.release): only
  // works if CTAs interleave; the last value is the grid size.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	setp.ne.s32 %p2, %r2, 0;
	@%p2 bra $L__end;
$L__spin:
	ld.acquire.gpu.global.b32 %r3, [%rd1];
	setp.ne.s32 %p1, %r3, %r1;
	@%p1 bra $L__spin;
	fence.acq_rel.gpu;
	add.s32 %r4, %r3, 1;
	st.release.gpu.global.b32 [%rd1], %r4;
$L__end:
)")))
      << emu.parseError;
  uint64_t counter = emu.zeros(4);
  emu.options.maxResidentCtas = 4;
  // Launch CTAs 0..9 in reverse-friendly order: higher ones spin first.
  Fault f = emu.run({counter}, 32, 10);
  ASSERT_EQ(f.code, 0) << f.message;
  EXPECT_EQ(emu.read<uint32_t>(counter, 1)[0], 10u);
}

TEST(MemoryCheck, DivisionByZeroReported) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	mov.u32 %r1, 0;
	div.u32 %r2, 5, %r1;
)")))
      << emu.parseError;
  Fault f = emu.run({});
  EXPECT_EQ(f.code, kErrLaunchFailed);
  EXPECT_TRUE(contains(f.message, "division by zero")) << f.message;
}

} // namespace
