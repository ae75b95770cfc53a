//===- InstructionTest.cpp - Per-thread instruction semantics -------------===//
//
// Tiny kernels whose results are derived by hand from the PTX ISA. Every
// thread computes the same values and stores them to out[i] (8 bytes each).
//
//===----------------------------------------------------------------------===//

#include "EmuTestUtil.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace sdpa::emu;
using namespace sdpa::emu::test;

namespace {

/// Runs `body` (with %rd1 = out) on one warp; returns out[0..n).
std::vector<uint64_t> runScalar(const std::string &body, size_t n) {
  Emu emu;
  std::string ptx = kernelPtx("\tld.param.u64 %rd1, [k_param_0];\n" + body);
  EXPECT_TRUE(emu.load(ptx)) << emu.parseError;
  uint64_t out = emu.zeros(n * 8);
  Fault f = emu.run({out});
  EXPECT_EQ(f.code, 0) << f.message;
  return emu.read<uint64_t>(out, n);
}

TEST(Instruction, IntegerArithmetic) {
  std::vector<uint64_t> r = runScalar(R"(
	mov.u32 %r1, 7;
	mov.u32 %r2, -3;
	add.s32 %r3, %r1, %r2;
	st.global.b32 [%rd1], %r3;
	sub.s32 %r3, %r1, %r2;
	st.global.b32 [%rd1+8], %r3;
	mul.lo.s32 %r3, %r1, %r2;
	st.global.b32 [%rd1+16], %r3;
	mov.u32 %r4, 0x80000000;
	mul.hi.u32 %r3, %r4, 6;
	st.global.b32 [%rd1+24], %r3;
	mov.u32 %r5, 0x40000000;
	mov.u32 %r6, -2;
	mul.hi.s32 %r3, %r6, %r5;
	st.global.b32 [%rd1+32], %r3;
	mul.wide.s32 %rd2, %r2, 5;
	st.global.b64 [%rd1+40], %rd2;
	mov.u32 %r7, -1;
	mul.wide.u32 %rd2, %r7, 2;
	st.global.b64 [%rd1+48], %rd2;
	mov.u32 %r8, -7;
	div.s32 %r3, %r8, 2;
	st.global.b32 [%rd1+56], %r3;
	rem.s32 %r3, %r8, 2;
	st.global.b32 [%rd1+64], %r3;
	div.u32 %r3, %r1, 2;
	st.global.b32 [%rd1+72], %r3;
	mov.b64 %rd3, -1;
	mul.hi.u64 %rd4, %rd3, %rd3;
	st.global.b64 [%rd1+80], %rd4;
	mov.b64 %rd5, 3;
	mad.lo.s64 %rd4, %rd3, %rd5, 10;
	st.global.b64 [%rd1+88], %rd4;
	rem.u64 %rd4, 100, 7;
	st.global.b64 [%rd1+96], %rd4;
	div.u64 %rd4, %rd3, 2;
	st.global.b64 [%rd1+104], %rd4;
	neg.s64 %rd4, %rd5;
	st.global.b64 [%rd1+112], %rd4;
	mov.u16 %rs1, -1;
	mul.hi.u16 %rs2, %rs1, %rs1;
	st.global.b16 [%rd1+120], %rs2;
	mul.lo.s16 %rs2, %rs1, 3;
	st.global.b16 [%rd1+128], %rs2;
	mul.wide.u16 %r3, %rs1, 2;
	st.global.b32 [%rd1+136], %r3;
	add.s16 %rs3, %rs1, 2;
	st.global.b16 [%rd1+144], %rs3;
	sub.s16 %rs3, %rs3, %rs1;
	st.global.b16 [%rd1+152], %rs3;
	mul.lo.s64 %rd4, %rd5, -4;
	st.global.b64 [%rd1+160], %rd4;
	mul.lo.s32 %r3, %r1, %r1;
	st.global.b32 [%rd1+168], %r3;
	sub.s64 %rd4, 0, %rd5;
	st.global.b64 [%rd1+176], %rd4;
	add.s64 %rd4, %rd3, 2;
	st.global.b64 [%rd1+184], %rd4;
)",
                                      24);
  EXPECT_EQ(r[0], 4u);
  EXPECT_EQ(r[1], 10u);
  EXPECT_EQ(uint32_t(r[2]), uint32_t(-21));
  EXPECT_EQ(r[3], 3u);                    // (2^31 * 6) >> 32
  EXPECT_EQ(uint32_t(r[4]), 0xffffffffu); // (-2 * 2^30) >> 32 = -1
  EXPECT_EQ(r[5], uint64_t(-15));
  EXPECT_EQ(r[6], 0x1fffffffeull);
  EXPECT_EQ(uint32_t(r[7]), uint32_t(-3)); // truncates toward zero
  EXPECT_EQ(uint32_t(r[8]), uint32_t(-1));
  EXPECT_EQ(r[9], 3u);
  EXPECT_EQ(r[10], 0xfffffffffffffffeull); // (2^64-1)^2 >> 64
  EXPECT_EQ(r[11], 7u);                    // -1 * 3 + 10
  EXPECT_EQ(r[12], 2u);
  EXPECT_EQ(r[13], 0x7fffffffffffffffull);
  EXPECT_EQ(r[14], uint64_t(-3));
  EXPECT_EQ(r[15], 0xfffeu); // 0xffff * 0xffff = 0xfffe0001
  EXPECT_EQ(r[16], 0xfffdu); // -3
  EXPECT_EQ(r[17], 0x1fffeu);
  EXPECT_EQ(r[18], 1u); // 0xffff + 2 wraps
  EXPECT_EQ(r[19], 2u); // 1 - 0xffff wraps
  EXPECT_EQ(r[20], uint64_t(-12));
  EXPECT_EQ(r[21], 49u);
  EXPECT_EQ(r[22], uint64_t(-3));
  EXPECT_EQ(r[23], 1u);
}

TEST(Instruction, ShiftsLogicBitField) {
  std::vector<uint64_t> r = runScalar(R"(
	mov.b32 %r1, 1;
	mov.b32 %r2, 33;
	shl.b32 %r3, %r1, %r2;
	st.global.b32 [%rd1], %r3;
	mov.b32 %r4, -8;
	shr.s32 %r3, %r4, 40;
	st.global.b32 [%rd1+8], %r3;
	shr.s32 %r3, %r4, 1;
	st.global.b32 [%rd1+16], %r3;
	shr.u32 %r3, %r4, 28;
	st.global.b32 [%rd1+24], %r3;
	shr.u32 %r3, %r4, 32;
	st.global.b32 [%rd1+32], %r3;
	mov.b64 %rd2, 0xABCD;
	bfe.u64 %rd3, %rd2, 4, 8;
	st.global.b64 [%rd1+40], %rd3;
	mov.b64 %rd2, 0xA000000000000000;
	bfe.u64 %rd3, %rd2, 60, 8;
	st.global.b64 [%rd1+48], %rd3;
	bfe.u64 %rd3, %rd2, 64, 8;
	st.global.b64 [%rd1+56], %rd3;
	bfe.u64 %rd3, %rd2, 4, 0;
	st.global.b64 [%rd1+64], %rd3;
	bfe.u64 %rd3, %rd2, 260, 8;
	st.global.b64 [%rd1+72], %rd3;
	shl.b64 %rd3, %rd2, 3;
	st.global.b64 [%rd1+80], %rd3;
	shr.s64 %rd3, %rd2, 4;
	st.global.b64 [%rd1+88], %rd3;
	and.b64 %rd3, %rd2, -4294967296;
	st.global.b64 [%rd1+96], %rd3;
	or.b64 %rd3, %rd2, 5;
	st.global.b64 [%rd1+104], %rd3;
	xor.b32 %r3, %r4, -1;
	st.global.b32 [%rd1+112], %r3;
	not.b64 %rd3, %rd2;
	st.global.b64 [%rd1+120], %rd3;
	mov.u16 %rs1, 0x8001;
	shl.b16 %rs2, %rs1, 1;
	st.global.b16 [%rd1+128], %rs2;
	shr.u16 %rs2, %rs1, 15;
	st.global.b16 [%rd1+136], %rs2;
	or.b16 %rs2, %rs1, 6;
	st.global.b16 [%rd1+144], %rs2;
	min.s64 %rd3, %rd2, 1;
	st.global.b64 [%rd1+152], %rd3;
	min.u64 %rd3, %rd2, 1;
	st.global.b64 [%rd1+160], %rd3;
	max.s64 %rd3, %rd2, 1;
	st.global.b64 [%rd1+168], %rd3;
	max.u64 %rd3, %rd2, 1;
	st.global.b64 [%rd1+176], %rd3;
)",
                                      23);
  EXPECT_EQ(r[0], 0u);                    // shift >= 32 gives 0
  EXPECT_EQ(uint32_t(r[1]), 0xffffffffu); // all sign bits
  EXPECT_EQ(uint32_t(r[2]), uint32_t(-4));
  EXPECT_EQ(r[3], 0xfu);
  EXPECT_EQ(r[4], 0u);
  EXPECT_EQ(r[5], 0xbcu);
  EXPECT_EQ(r[6], 0xau); // only bits 60..63 exist
  EXPECT_EQ(r[7], 0u);   // pos beyond the msb
  EXPECT_EQ(r[8], 0u);   // len 0
  EXPECT_EQ(r[9], 0u);   // pos taken mod 256: 4, bits 4..11 of r2 are 0
  EXPECT_EQ(r[10], 0ull);
  EXPECT_EQ(r[11], 0xfa00000000000000ull);
  EXPECT_EQ(r[12], 0xa000000000000000ull);
  EXPECT_EQ(r[13], 0xa000000000000005ull);
  EXPECT_EQ(uint32_t(r[14]), 7u);
  EXPECT_EQ(r[15], 0x5fffffffffffffffull);
  EXPECT_EQ(r[16], 2u);
  EXPECT_EQ(r[17], 1u);
  EXPECT_EQ(r[18], 0x8007u);
  EXPECT_EQ(r[19], 0xa000000000000000ull); // negative as s64
  EXPECT_EQ(r[20], 1u);
  EXPECT_EQ(r[21], 1u);
  EXPECT_EQ(r[22], 0xa000000000000000ull);
}

TEST(Instruction, SetpSelpAndPredicatedBranches) {
  std::vector<uint64_t> r = runScalar(R"(
	mov.u32 %r1, -1;
	mov.u32 %r2, 1;
	setp.lt.s32 %p1, %r1, %r2;
	selp.b32 %r3, 10, 20, %p1;
	st.global.b32 [%rd1], %r3;
	setp.lt.u32 %p2, %r1, %r2;
	selp.b32 %r3, 10, 20, %p2;
	st.global.b32 [%rd1+8], %r3;
	mov.b32 %r4, 0f7FC00000;
	setp.lt.f32 %p3, %r4, 0f3F800000;
	setp.ltu.f32 %p4, %r4, 0f3F800000;
	setp.ne.f32 %p5, %r4, %r4;
	setp.neu.f32 %p6, %r4, %r4;
	setp.eq.f32 %p7, %r4, %r4;
	setp.ge.f32 %p8, 0f3F800000, 0fBF800000;
	selp.b32 %r5, 1, 0, %p3;
	st.global.b32 [%rd1+16], %r5;
	selp.b32 %r5, 1, 0, %p4;
	st.global.b32 [%rd1+24], %r5;
	selp.b32 %r5, 1, 0, %p5;
	st.global.b32 [%rd1+32], %r5;
	selp.b32 %r5, 1, 0, %p6;
	st.global.b32 [%rd1+40], %r5;
	selp.b32 %r5, 1, 0, %p7;
	st.global.b32 [%rd1+48], %r5;
	selp.b32 %r5, 1, 0, %p8;
	st.global.b32 [%rd1+56], %r5;
	and.pred %p9, %p1, %p2;
	or.pred %p10, %p1, %p2;
	not.pred %p11, %p1;
	xor.pred %p12, %p1, %p8;
	selp.b32 %r5, 1, 0, %p9;
	st.global.b32 [%rd1+64], %r5;
	selp.b32 %r5, 1, 0, %p10;
	st.global.b32 [%rd1+72], %r5;
	selp.b32 %r5, 1, 0, %p11;
	st.global.b32 [%rd1+80], %r5;
	selp.b32 %r5, 1, 0, %p12;
	st.global.b32 [%rd1+88], %r5;
	mov.u32 %r6, 100;
	@%p2 bra $L__skip;
	st.global.b32 [%rd1+96], %r6;
$L__skip:
	@!%p1 bra $L__skip2;
	st.global.b32 [%rd1+104], %r6;
$L__skip2:
	@%p1 st.global.b32 [%rd1+112], %r6;
	@!%p1 st.global.b32 [%rd1+120], %r6;
	mov.b64 %rd2, -5;
	setp.gt.s64 %p13, %rd2, -6;
	setp.gt.u64 %p14, %rd2, 7;
	setp.eq.b64 %p15, %rd2, -5;
	setp.le.u64 %p16, %rd2, 7;
	selp.b64 %rd3, 1, 0, %p13;
	selp.b64 %rd4, 2, 0, %p14;
	add.s64 %rd3, %rd3, %rd4;
	selp.b64 %rd4, 4, 0, %p15;
	add.s64 %rd3, %rd3, %rd4;
	selp.b64 %rd4, 8, 0, %p16;
	add.s64 %rd3, %rd3, %rd4;
	st.global.b64 [%rd1+128], %rd3;
	selp.f32 %r7, 0f3F800000, 0f40000000, %p16;
	st.global.b32 [%rd1+136], %r7;
	mov.u32 %r8, 0;
	mov.u32 %r9, 0;
$L__loop:
	add.s32 %r8, %r8, 3;
	add.s32 %r9, %r9, 1;
	setp.lt.u32 %p17, %r9, 5;
	@%p17 bra.uni $L__loop;
	st.global.b32 [%rd1+144], %r8;
)",
                                      19);
  EXPECT_EQ(r[0], 10u); // -1 < 1 signed
  EXPECT_EQ(r[1], 20u); // 0xffffffff > 1 unsigned
  EXPECT_EQ(r[2], 0u);  // NaN < 1 ordered: false
  EXPECT_EQ(r[3], 1u);  // unordered: true
  EXPECT_EQ(r[4], 0u);  // ne ordered with NaN: false
  EXPECT_EQ(r[5], 1u);
  EXPECT_EQ(r[6], 0u);
  EXPECT_EQ(r[7], 1u);
  EXPECT_EQ(r[8], 0u);  // true and false
  EXPECT_EQ(r[9], 1u);
  EXPECT_EQ(r[10], 0u);
  EXPECT_EQ(r[11], 0u); // true xor true
  EXPECT_EQ(r[12], 100u); // not skipped (p2 false)
  EXPECT_EQ(r[13], 100u); // not skipped (p1 true)
  EXPECT_EQ(r[14], 100u);
  EXPECT_EQ(r[15], 0u);
  EXPECT_EQ(r[16], 1u + 2u + 4u); // -5 > 7 unsigned; -5 <= 7 unsigned false
  EXPECT_EQ(uint32_t(r[17]), f32ToBits(2.0f));
  EXPECT_EQ(r[18], 15u);
}

// LLVM's NVPTX writes a constant predicate as a literal: `mov.pred %p, -1`.
TEST(Instruction, MovPredicateLiteral) {
  std::vector<uint64_t> r = runScalar(R"(
	mov.pred %p1, -1;
	mov.pred %p2, 0;
	mov.pred %p3, %p1;
	selp.b32 %r1, 1, 2, %p1;
	st.global.b32 [%rd1], %r1;
	selp.b32 %r1, 1, 2, %p2;
	st.global.b32 [%rd1+8], %r1;
	selp.b32 %r1, 1, 2, %p3;
	st.global.b32 [%rd1+16], %r1;
)",
                                      3);
  EXPECT_EQ(r[0], 1u);
  EXPECT_EQ(r[1], 2u);
  EXPECT_EQ(r[2], 1u);
}

TEST(Instruction, SetpPairAndCombine) {
  std::vector<uint64_t> r = runScalar(R"(
	mov.u32 %r1, 3;
	setp.ne.s32 %p1, %r1, 0;
	setp.lt.and.s32 %p2|%p3, %r1, 5, %p1;
	setp.lt.or.s32 %p4|%p5, %r1, 2, !%p1;
	setp.gt.xor.s32 %p6, %r1, 2, %p1;
	selp.b32 %r2, 1, 0, %p2;
	selp.b32 %r3, 2, 0, %p3;
	selp.b32 %r4, 4, 0, %p4;
	selp.b32 %r5, 8, 0, %p5;
	selp.b32 %r6, 16, 0, %p6;
	add.s32 %r7, %r2, %r3;
	add.s32 %r7, %r7, %r4;
	add.s32 %r7, %r7, %r5;
	add.s32 %r7, %r7, %r6;
	st.global.b32 [%rd1], %r7;
)",
                                      1);
  // p2 = (3<5) & 1 = 1; p3 = !(3<5) & 1 = 0; p4 = (3<2) | 0 = 0;
  // p5 = !(3<2) | 0 = 1; p6 = (3>2) ^ 1 = 0.
  EXPECT_EQ(r[0], 1u + 8u);
}

TEST(Instruction, FloatArithmetic) {
  // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24 rounds (tie, to even) to
  // 1 + 2^-11, so mul then add of -1 gives 2^-11 while fma gives
  // 2^-11 + 2^-24.
  std::vector<uint64_t> r = runScalar(R"(
	mov.b32 %r1, 0f3F800800;
	mul.rn.f32 %r2, %r1, %r1;
	add.rn.f32 %r3, %r2, 0fBF800000;
	st.global.b32 [%rd1], %r3;
	fma.rn.f32 %r4, %r1, %r1, 0fBF800000;
	st.global.b32 [%rd1+8], %r4;
	copysign.f32 %r5, 0fBF800000, 0f40000000;
	st.global.b32 [%rd1+16], %r5;
	mov.b32 %r6, 0f7FC00000;
	max.f32 %r7, %r6, 0f40400000;
	st.global.b32 [%rd1+24], %r7;
	max.f32 %r7, 0f80000000, 0f00000000;
	st.global.b32 [%rd1+32], %r7;
	ex2.approx.f32 %r8, 0f40400000;
	st.global.b32 [%rd1+40], %r8;
	ex2.approx.ftz.f32 %r8, 0f00000001;
	st.global.b32 [%rd1+48], %r8;
	ex2.approx.f32 %r8, 0fFF800000;
	st.global.b32 [%rd1+56], %r8;
	rcp.rn.f32 %r9, 0f40800000;
	st.global.b32 [%rd1+64], %r9;
	rcp.approx.ftz.f32 %r9, 0f00000001;
	st.global.b32 [%rd1+72], %r9;
	neg.f32 %r10, 0f3F800000;
	st.global.b32 [%rd1+80], %r10;
	abs.f32 %r10, 0fC0000000;
	st.global.b32 [%rd1+88], %r10;
	sub.rn.f32 %r11, 0f40400000, 0f3F800000;
	st.global.b32 [%rd1+96], %r11;
	min.f32 %r12, 0f40400000, 0fC0000000;
	st.global.b32 [%rd1+104], %r12;
	cvt.rn.f32.s32 %r13, -7;
	st.global.b32 [%rd1+112], %r13;
	mov.u32 %r14, 16777217;
	cvt.rn.f32.s32 %r13, %r14;
	st.global.b32 [%rd1+120], %r13;
	lg2.approx.f32 %r15, 0f41000000;
	st.global.b32 [%rd1+128], %r15;
	lg2.approx.f32 %r15, 0f00000000;
	st.global.b32 [%rd1+136], %r15;
	lg2.approx.f32 %r15, 0fBF800000;
	st.global.b32 [%rd1+144], %r15;
	lg2.approx.ftz.f32 %r15, 0f00000001;
	st.global.b32 [%rd1+152], %r15;
	lg2.approx.f32 %r15, 0f00000001;
	st.global.b32 [%rd1+160], %r15;
)",
                                      21);
  EXPECT_EQ(uint32_t(r[0]), f32ToBits(std::ldexp(1.0f, -11)));
  EXPECT_EQ(uint32_t(r[1]),
            f32ToBits(std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24)));
  EXPECT_EQ(uint32_t(r[2]), f32ToBits(-2.0f)); // |b| with the sign of a
  EXPECT_EQ(uint32_t(r[3]), f32ToBits(3.0f));  // NaN ignored
  EXPECT_EQ(uint32_t(r[4]), f32ToBits(0.0f));
  EXPECT_EQ(uint32_t(r[5]), f32ToBits(8.0f));
  EXPECT_EQ(uint32_t(r[6]), f32ToBits(1.0f)); // subnormal input flushed
  EXPECT_EQ(uint32_t(r[7]), f32ToBits(0.0f));
  EXPECT_EQ(uint32_t(r[8]), f32ToBits(0.25f));
  EXPECT_EQ(uint32_t(r[9]), 0x7f800000u); // 1/+0 after the flush
  EXPECT_EQ(uint32_t(r[10]), f32ToBits(-1.0f));
  EXPECT_EQ(uint32_t(r[11]), f32ToBits(2.0f));
  EXPECT_EQ(uint32_t(r[12]), f32ToBits(2.0f));
  EXPECT_EQ(uint32_t(r[13]), f32ToBits(-2.0f));
  EXPECT_EQ(uint32_t(r[14]), f32ToBits(-7.0f));
  EXPECT_EQ(uint32_t(r[15]), f32ToBits(16777216.0f)); // ties to even
  // lg2.approx, computed exactly: 0 gives -inf, a negative value NaN, and
  // with .ftz a subnormal counts as 0.
  EXPECT_EQ(uint32_t(r[16]), f32ToBits(3.0f));
  EXPECT_EQ(uint32_t(r[17]), 0xff800000u);
  EXPECT_TRUE(std::isnan(bitsToF32(uint32_t(r[18]))));
  EXPECT_EQ(uint32_t(r[19]), 0xff800000u);
  EXPECT_EQ(uint32_t(r[20]), f32ToBits(-149.0f)); // 2^-149
}

TEST(Instruction, ConversionsAndPacking) {
  std::vector<uint64_t> r = runScalar(R"(
	cvt.rn.f16.f32 %rs1, 0f477FF000;
	st.global.b16 [%rd1], %rs1;
	cvt.rn.f16.f32 %rs1, 0f477FEF00;
	st.global.b16 [%rd1+8], %rs1;
	cvt.rn.f16.f32 %rs1, 0f3F801000;
	st.global.b16 [%rd1+16], %rs1;
	cvt.rn.f16.f32 %rs1, 0f3F803000;
	st.global.b16 [%rd1+24], %rs1;
	cvt.rn.f16.f32 %rs1, 0f33800000;
	st.global.b16 [%rd1+32], %rs1;
	cvt.rn.f16.f32 %rs1, 0f7FC00000;
	st.global.b16 [%rd1+40], %rs1;
	cvt.rn.bf16.f32 %rs1, 0f3F808000;
	st.global.b16 [%rd1+48], %rs1;
	cvt.rn.bf16.f32 %rs1, 0f3F818000;
	st.global.b16 [%rd1+56], %rs1;
	cvt.rn.bf16.f32 %rs1, 0f7F7FFFFF;
	st.global.b16 [%rd1+64], %rs1;
	cvt.rn.bf16x2.f32 %r1, 0f3F800000, 0f40000000;
	st.global.b32 [%rd1+72], %r1;
	cvt.rn.f16x2.f32 %r1, 0f3F800000, 0f40000000;
	st.global.b32 [%rd1+80], %r1;
	mov.b32 %r2, 0x11112222;
	mov.b32 {%rs2, %rs3}, %r2;
	st.global.b16 [%rd1+88], %rs2;
	st.global.b16 [%rd1+96], %rs3;
	mov.b32 %r3, {%rs3, %rs2};
	st.global.b32 [%rd1+104], %r3;
	mov.u16 %rs4, 1;
	cvt.f32.f16 %r4, %rs4;
	st.global.b32 [%rd1+112], %r4;
	mov.u16 %rs4, 0x3f80;
	cvt.f32.bf16 %r4, %rs4;
	st.global.b32 [%rd1+120], %r4;
	mov.u16 %rs4, 0xfc00;
	cvt.f32.f16 %r4, %rs4;
	st.global.b32 [%rd1+128], %r4;
	mov.u32 %r5, -5;
	cvt.s64.s32 %rd2, %r5;
	st.global.b64 [%rd1+136], %rd2;
	cvt.u64.u32 %rd2, %r5;
	st.global.b64 [%rd1+144], %rd2;
	mov.u32 %r6, 0x12345;
	cvt.u16.u32 %rs5, %r6;
	st.global.b16 [%rd1+152], %rs5;
	cvt.u32.u16 %r7, %rs5;
	st.global.b32 [%rd1+160], %r7;
	cvt.u64.u16 %rd3, %rs5;
	st.global.b64 [%rd1+168], %rd3;
	mov.b64 %rd4, 0x123456789;
	cvt.u32.u64 %r8, %rd4;
	st.global.b32 [%rd1+176], %r8;
	cvt.u16.u64 %rs6, %rd4;
	st.global.b16 [%rd1+184], %rs6;
	cvta.to.global.u64 %rd5, %rd4;
	st.global.b64 [%rd1+192], %rd5;
	cvt.rn.f16.f32 %rs1, 0f38800000;
	st.global.b16 [%rd1+200], %rs1;
	cvt.rn.f16.f32 %rs1, 0f387FE000;
	st.global.b16 [%rd1+208], %rs1;
	cvt.rn.f16.f32 %rs1, 0fC7800000;
	st.global.b16 [%rd1+216], %rs1;
)",
                                      28);
  EXPECT_EQ(r[0], 0x7c00u); // 65520 rounds to infinity
  EXPECT_EQ(r[1], 0x7bffu); // 65519 to 65504
  EXPECT_EQ(r[2], 0x3c00u); // 1 + 2^-11: tie, to even
  EXPECT_EQ(r[3], 0x3c02u); // 1 + 3 * 2^-11: tie, to even (up)
  EXPECT_EQ(r[4], 0x0001u); // 2^-24: smallest subnormal
  EXPECT_EQ(r[5], 0x7fffu); // NaN
  EXPECT_EQ(r[6], 0x3f80u); // 1 + 2^-8: tie, to even
  EXPECT_EQ(r[7], 0x3f82u); // 1 + 3 * 2^-8: tie, up to even
  EXPECT_EQ(r[8], 0x7f80u); // FLT_MAX overflows to infinity
  EXPECT_EQ(r[9], 0x3f804000u);  // a -> upper half, b -> lower half
  EXPECT_EQ(r[10], 0x3c004000u);
  EXPECT_EQ(r[11], 0x2222u); // low half -> first
  EXPECT_EQ(r[12], 0x1111u);
  EXPECT_EQ(r[13], 0x22221111u);
  EXPECT_EQ(uint32_t(r[14]), f32ToBits(std::ldexp(1.0f, -24)));
  EXPECT_EQ(uint32_t(r[15]), f32ToBits(1.0f));
  EXPECT_EQ(uint32_t(r[16]), f32ToBits(-INFINITY));
  EXPECT_EQ(r[17], uint64_t(-5));
  EXPECT_EQ(r[18], 0xfffffffbull);
  EXPECT_EQ(r[19], 0x2345u);
  EXPECT_EQ(r[20], 0x2345u);
  EXPECT_EQ(r[21], 0x2345u);
  EXPECT_EQ(r[22], 0x23456789u);
  EXPECT_EQ(r[23], 0x6789u);
  EXPECT_EQ(r[24], 0x123456789ull);
  EXPECT_EQ(r[25], 0x0400u); // 2^-14: smallest normal
  EXPECT_EQ(r[26], 0x0400u); // just below 2^-14 rounds up to it
  EXPECT_EQ(r[27], 0xfc00u); // -65536 to -infinity
}

TEST(Instruction, LoadsAndStores) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L__done;
	ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd1];
	st.global.b32 [%rd2], %r5;
	st.global.b32 [%rd2+4], %r2;
	ld.global.s32 %rd3, [%rd1+16];
	st.global.b64 [%rd2+8], %rd3;
	ld.global.b32 %r6, [%rd1+16];
	cvt.u64.u32 %rd4, %r6;
	st.global.b64 [%rd2+16], %rd4;
	mov.u64 %rd5, smem;
	st.shared.v2.b32 [%rd5+8], {%r3, %r4};
	ld.shared.b32 %r7, [smem+12];
	st.global.b32 [%rd2+24], %r7;
	ld.shared.v2.b32 {%r8, %r9}, [%rd5+8];
	st.global.b32 [%rd2+28], %r8;
	st.shared.b16 [%rd5+2], %rs1;
	mov.u16 %rs1, 0xbeef;
	st.shared.b16 [%rd5+2], %rs1;
	ld.shared.b32 %r10, [smem];
	st.global.b32 [%rd2+32], %r10;
	ld.param.s32 %rd6, [k_param_1+4];
	st.global.b64 [%rd2+40], %rd6;
	st.global.v2.b32 [%rd2+48], {%r2, %r3};
	atom.global.add.f32 %r11, [%rd2+56], 0f3FC00000;
	atom.global.add.f32 %r12, [%rd2+56], 0f3FC00000;
	st.global.b32 [%rd2+60], %r12;
$L__done:
)",
                                2, "\t.shared .align 16 .b8 smem[64];\n")))
      << emu.parseError;
  uint64_t in = emu.buffer<uint32_t>({1, 2, 3, 4, 0xfffffff0u});
  uint64_t out = emu.zeros(64);
  Fault f = emu.run({in, out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 16);
  EXPECT_EQ(r[0], 4u);
  EXPECT_EQ(r[1], 1u);
  EXPECT_EQ(r[2], 0xfffffff0u); // sign-extended to 64 bits
  EXPECT_EQ(r[3], 0xffffffffu);
  EXPECT_EQ(r[4], 0xfffffff0u); // zero-extended by cvt.u64.u32
  EXPECT_EQ(r[5], 0u);
  EXPECT_EQ(r[6], 3u);
  EXPECT_EQ(r[7], 2u);
  EXPECT_EQ(r[8], 0xbeefffffu); // the low half was never written: poison
  // ld.param.s32 of the upper half of the `out` pointer: sign-extended.
  uint64_t hi = out >> 32;
  uint64_t expect = uint64_t(int64_t(int32_t(uint32_t(hi))));
  EXPECT_EQ(r[10] | (uint64_t(r[11]) << 32), expect);
  EXPECT_EQ(r[12], 1u);
  EXPECT_EQ(r[13], 2u);
  EXPECT_EQ(r[14], f32ToBits(3.0f)); // 0 + 1.5 + 1.5
  EXPECT_EQ(r[15], f32ToBits(1.5f)); // atom returns the old value
}

} // namespace
