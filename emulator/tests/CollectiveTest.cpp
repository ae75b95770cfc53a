//===- CollectiveTest.cpp - shfl, vote, ldmatrix, mma and bar.sync --------===//

#include "EmuTestUtil.h"

#include "PtxEmulator/FloatBits.h"

#include <gtest/gtest.h>

using namespace sdpa::emu;
using namespace sdpa::emu::test;

namespace {

TEST(Collective, ShflBfly) {
  Emu emu;
  // out[lane] = value of lane^1 (clamp 0x1f); out[32 + lane] = value of
  // lane^16 with clamp 15, where lanes 0..15 (source above 15) keep their
  // own value and report p = false.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	mul.lo.s32 %r2, %r1, 10;
	shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.b32 [%rd3], %r3;
	shfl.sync.bfly.b32 %r4|%p1, %r2, 16, 15, -1;
	st.global.b32 [%rd3+128], %r4;
	selp.b32 %r5, 1, 0, %p1;
	st.global.b32 [%rd3+256], %r5;
)",
                                 1)))
      << emu.parseError;
  uint64_t out = emu.zeros(3 * 128);
  Fault f = emu.run({out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 96);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r[lane], (lane ^ 1) * 10) << lane;
    EXPECT_EQ(r[32 + lane], lane < 16 ? lane * 10 : (lane ^ 16) * 10) << lane;
    EXPECT_EQ(r[64 + lane], lane < 16 ? 0u : 1u) << lane;
  }
}

TEST(Collective, VoteAny) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	setp.eq.s32 %p1, %r1, 5;
	vote.sync.any.pred %p2, %p1, -1;
	setp.eq.s32 %p3, %r1, 99;
	vote.sync.any.pred %p4, %p3, -1;
	selp.b32 %r2, 1, 0, %p2;
	selp.b32 %r3, 2, 0, %p4;
	add.s32 %r4, %r2, %r3;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.b32 [%rd3], %r4;
)",
                                 1)))
      << emu.parseError;
  uint64_t out = emu.zeros(128);
  Fault f = emu.run({out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 32);
  for (unsigned lane = 0; lane < 32; ++lane)
    EXPECT_EQ(r[lane], 1u) << lane;
}

TEST(Collective, ShflModesAndVoteForms) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	shfl.sync.idx.b32 %r2, %r1, 5, 31, -1;
	st.global.b32 [%rd3], %r2;
	shfl.sync.down.b32 %r3|%p1, %r1, 3, 31, -1;
	st.global.b32 [%rd3+128], %r3;
	shfl.sync.up.b32 %r4, %r1, 3, 0, -1;
	st.global.b32 [%rd3+256], %r4;
	and.b32 %r5, %r1, 1;
	setp.eq.s32 %p2, %r5, 1;
	vote.sync.ballot.b32 %r6, %p2, -1;
	st.global.b32 [%rd3+384], %r6;
	vote.sync.all.pred %p3, %p2, -1;
	vote.sync.uni.pred %p4, %p2, -1;
	vote.sync.all.pred %p5, !%p3, -1;
	selp.b32 %r7, 1, 0, %p3;
	selp.b32 %r8, 2, 0, %p4;
	selp.b32 %r9, 4, 0, %p5;
	add.s32 %r10, %r7, %r8;
	add.s32 %r10, %r10, %r9;
	st.global.b32 [%rd3+512], %r10;
)",
                                 1)))
      << emu.parseError;
  uint64_t out = emu.zeros(5 * 128);
  Fault f = emu.run({out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 160);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r[lane], 5u) << lane;
    EXPECT_EQ(r[32 + lane], lane + 3 <= 31 ? lane + 3 : lane) << lane;
    EXPECT_EQ(r[64 + lane], lane >= 3 ? lane - 3 : lane) << lane;
    EXPECT_EQ(r[96 + lane], 0xaaaaaaaau) << lane;
    EXPECT_EQ(r[128 + lane], 4u) << lane; // not all, not uniform; !all holds
  }
}

/// Element c of shared row slot s holds s * 8 + c; lane L points at slot
/// perm(L) = (7L + 3) % 32.
unsigned perm(unsigned lane) { return (7 * lane + 3) % 32; }

/// ldmatrix with `count` matrices and `trans`; returns out[lane * 4 + i].
std::vector<uint32_t> runLdmatrix(unsigned count, bool trans) {
  Emu emu;
  std::string dests = "{%r20";
  for (unsigned i = 1; i < count; ++i)
    dests += ", %r" + std::to_string(20 + i);
  dests += "}";
  std::string op = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                   (trans ? ".trans" : "") + ".shared.b16 " + dests +
                   ", [%rd6];\n";
  std::string stores;
  for (unsigned i = 0; i < count; ++i)
    stores += "\tst.global.b32 [%rd7+" + std::to_string(4 * i) + "], %r" +
              std::to_string(20 + i) + ";\n";
  // Lanes beyond the ones whose addresses count point outside the window:
  // their addresses must not be used.
  std::string body = R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd4];
	mov.u64 %rd5, tile;
	add.s64 %rd8, %rd5, %rd3;
	st.shared.v4.b32 [%rd8], {%r2, %r3, %r4, %r5};
	bar.sync 0;
	mul.lo.s32 %r6, %r1, 7;
	add.s32 %r6, %r6, 3;
	rem.u32 %r6, %r6, 32;
	mul.wide.u32 %rd9, %r6, 16;
	add.s64 %rd6, %rd5, %rd9;
	setp.ge.u32 %p1, %r1, )" + std::to_string(8 * count) + R"(;
	@%p1 mov.u64 %rd6, 1048576;
	)" + op + R"(
	mul.wide.u32 %rd10, %r1, 16;
	add.s64 %rd7, %rd2, %rd10;
)" + stores;
  EXPECT_TRUE(emu.load(kernelPtx(
      body, 2, "\t.shared .align 16 .b8 tile[512];\n")))
      << emu.parseError;
  std::vector<uint16_t> rows(32 * 8);
  for (unsigned s = 0; s < 32; ++s)
    for (unsigned c = 0; c < 8; ++c)
      rows[s * 8 + c] = uint16_t(s * 8 + c);
  uint64_t in = emu.buffer(rows);
  uint64_t out = emu.zeros(32 * 16);
  Fault f = emu.run({in, out});
  EXPECT_EQ(f.code, 0) << f.message;
  return emu.read<uint32_t>(out, 32 * 4);
}

void checkLdmatrix(unsigned count, bool trans) {
  std::vector<uint32_t> r = runLdmatrix(count, trans);
  for (unsigned t = 0; t < 32; ++t)
    for (unsigned i = 0; i < count; ++i) {
      uint32_t lo, hi;
      if (!trans) {
        // Row t/4, elements 2(t%4) and 2(t%4)+1 of matrix i.
        unsigned slot = perm(8 * i + t / 4);
        lo = slot * 8 + 2 * (t % 4);
        hi = lo + 1;
      } else {
        // Rows 2(t%4) and 2(t%4)+1, column t/4.
        lo = perm(8 * i + 2 * (t % 4)) * 8 + t / 4;
        hi = perm(8 * i + 2 * (t % 4) + 1) * 8 + t / 4;
      }
      EXPECT_EQ(r[t * 4 + i], lo | (hi << 16))
          << "x" << count << (trans ? ".trans" : "") << " lane " << t
          << " reg " << i;
    }
}

TEST(Collective, LdmatrixX1) { checkLdmatrix(1, false); }
TEST(Collective, LdmatrixX2) { checkLdmatrix(2, false); }
TEST(Collective, LdmatrixX4) { checkLdmatrix(4, false); }
TEST(Collective, LdmatrixX1Trans) { checkLdmatrix(1, true); }
TEST(Collective, LdmatrixX2Trans) { checkLdmatrix(2, true); }
TEST(Collective, LdmatrixX4Trans) { checkLdmatrix(4, true); }

/// Distinct small integers, exact in f16 and bf16.
float aValue(unsigned i, unsigned k) { return float(int(i * 16 + k) - 128); }
float bValue(unsigned k, unsigned j) { return float(int(k * 8 + j) - 64); }
float cValue(unsigned i, unsigned j) { return float(i * 8 + j) * 0.5f; }

uint16_t toHalf(float v, bool bf16) {
  return bf16 ? f32ToBF16(v) : f32ToF16(v);
}

/// D = A * B + C by hand, in double (exact for these values).
float expected(unsigned i, unsigned j) {
  double sum = cValue(i, j);
  for (unsigned k = 0; k < 16; ++k)
    sum += double(aValue(i, k)) * bValue(k, j);
  return float(sum);
}

/// mma with fragments packed on the host by the documented layout: per lane
/// 10 words a0..a3, b0, b1, c0..c3; out: d0..d3 per lane.
void checkMmaFragments(bool bf16) {
  Emu emu;
  std::string type = bf16 ? "bf16" : "f16";
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 40;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.b32 %r2, [%rd4];
	ld.global.b32 %r3, [%rd4+4];
	ld.global.b32 %r4, [%rd4+8];
	ld.global.b32 %r5, [%rd4+12];
	ld.global.b32 %r6, [%rd4+16];
	ld.global.b32 %r7, [%rd4+20];
	ld.global.b32 %r8, [%rd4+24];
	ld.global.b32 %r9, [%rd4+28];
	ld.global.b32 %r10, [%rd4+32];
	ld.global.b32 %r11, [%rd4+36];
	mma.sync.aligned.m16n8k16.row.col.f32.)" + type + "." + type + R"(.f32
		{%r12, %r13, %r14, %r15},
		{%r2, %r3, %r4, %r5},
		{%r6, %r7},
		{%r8, %r9, %r10, %r11};
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd2, %rd5;
	st.global.v4.b32 [%rd6], {%r12, %r13, %r14, %r15};
)")))
      << emu.parseError;
  std::vector<uint32_t> in(32 * 10);
  auto pack = [&](float lo, float hi) {
    return uint32_t(toHalf(lo, bf16)) | (uint32_t(toHalf(hi, bf16)) << 16);
  };
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned g = lane >> 2, t = lane & 3;
    uint32_t *w = &in[lane * 10];
    w[0] = pack(aValue(g, 2 * t), aValue(g, 2 * t + 1));
    w[1] = pack(aValue(g + 8, 2 * t), aValue(g + 8, 2 * t + 1));
    w[2] = pack(aValue(g, 2 * t + 8), aValue(g, 2 * t + 9));
    w[3] = pack(aValue(g + 8, 2 * t + 8), aValue(g + 8, 2 * t + 9));
    w[4] = pack(bValue(2 * t, g), bValue(2 * t + 1, g));
    w[5] = pack(bValue(2 * t + 8, g), bValue(2 * t + 9, g));
    w[6] = f32ToBits(cValue(g, 2 * t));
    w[7] = f32ToBits(cValue(g, 2 * t + 1));
    w[8] = f32ToBits(cValue(g + 8, 2 * t));
    w[9] = f32ToBits(cValue(g + 8, 2 * t + 1));
  }
  uint64_t inBuf = emu.buffer(in);
  uint64_t out = emu.zeros(32 * 16);
  Fault f = emu.run({inBuf, out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 128);
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned g = lane >> 2, t = lane & 3;
    EXPECT_EQ(bitsToF32(r[lane * 4 + 0]), expected(g, 2 * t)) << lane;
    EXPECT_EQ(bitsToF32(r[lane * 4 + 1]), expected(g, 2 * t + 1)) << lane;
    EXPECT_EQ(bitsToF32(r[lane * 4 + 2]), expected(g + 8, 2 * t)) << lane;
    EXPECT_EQ(bitsToF32(r[lane * 4 + 3]), expected(g + 8, 2 * t + 1)) << lane;
  }
}

TEST(Collective, MmaF16Fragments) { checkMmaFragments(false); }
TEST(Collective, MmaBF16Fragments) { checkMmaFragments(true); }

/// The kernels' pattern: A (16x16) and B (16x8, k-major rows) row-major in
/// shared memory, A through ldmatrix.x4, B through ldmatrix.x2.trans, then
/// mma; D row-major to global.
TEST(Collective, LdmatrixFeedsMma) {
  Emu emu;
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	mov.u64 %rd3, sa;
	mul.wide.u32 %rd4, %r1, 16;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd5];
	add.s64 %rd6, %rd3, %rd4;
	st.shared.v4.b32 [%rd6], {%r2, %r3, %r4, %r5};
	setp.ge.u32 %p1, %r1, 16;
	@%p1 bra $L__loaded;
	ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd5+512];
	st.shared.v4.b32 [%rd6+512], {%r2, %r3, %r4, %r5};
$L__loaded:
	bar.sync 0;
	// A: lane L gives row (L % 16), column half (L / 16) * 8.
	and.b32 %r6, %r1, 15;
	shr.u32 %r7, %r1, 4;
	mul.lo.s32 %r8, %r6, 32;
	mul.lo.s32 %r9, %r7, 16;
	add.s32 %r10, %r8, %r9;
	cvt.u64.u32 %rd7, %r10;
	add.s64 %rd8, %rd3, %rd7;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r11, %r12, %r13, %r14}, [%rd8];
	// B: lane L (< 16) gives row k = L of the 16x8 matrix at sa + 512.
	and.b32 %r15, %r1, 15;
	mul.lo.s32 %r16, %r15, 16;
	cvt.u64.u32 %rd9, %r16;
	add.s64 %rd10, %rd3, %rd9;
	ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r17, %r18}, [%rd10+512];
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
		{%r20, %r21, %r22, %r23},
		{%r11, %r12, %r13, %r14},
		{%r17, %r18},
		{%r30, %r31, %r32, %r33};
	// Lane (g, t) owns D[g][2t..2t+1] and D[g+8][2t..2t+1].
	shr.u32 %r40, %r1, 2;
	and.b32 %r41, %r1, 3;
	mul.lo.s32 %r42, %r40, 8;
	mul.lo.s32 %r43, %r41, 2;
	add.s32 %r44, %r42, %r43;
	mul.wide.u32 %rd11, %r44, 4;
	add.s64 %rd12, %rd2, %rd11;
	st.global.v2.b32 [%rd12], {%r20, %r21};
	st.global.v2.b32 [%rd12+256], {%r22, %r23};
)",
                                 2, "\t.shared .align 16 .b8 sa[768];\n")))
      << emu.parseError;
  // ldmatrix.x4 matrices: 0 = rows 0-7 cols 0-7 (lanes 0-7), 1 = rows 8-15
  // cols 0-7, 2 = rows 0-7 cols 8-15, 3 = rows 8-15 cols 8-15: exactly
  // a0..a3 of the documented fragment.
  std::vector<uint16_t> data(16 * 16 + 16 * 8);
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned k = 0; k < 16; ++k)
      data[i * 16 + k] = f32ToF16(aValue(i, k) / 4);
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned j = 0; j < 8; ++j)
      data[256 + k * 8 + j] = f32ToF16(bValue(k, j));
  uint64_t in = emu.buffer(data);
  uint64_t out = emu.zeros(16 * 8 * 4);
  Fault f = emu.run({in, out});
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<float> d = emu.read<float>(out, 128);
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 8; ++j) {
      double sum = 0;
      for (unsigned k = 0; k < 16; ++k)
        sum += double(aValue(i, k) / 4) * bValue(k, j);
      EXPECT_EQ(d[i * 8 + j], float(sum)) << i << "," << j;
    }
}

TEST(Collective, BarrierOrdersSharedMemoryAcrossWarps) {
  Emu emu;
  // Warp 1 writes, bar.sync, warp 0 reads: no race, data visible.
  ASSERT_TRUE(emu.load(kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	mov.u64 %rd2, buf;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	add.s32 %r2, %r1, 1000;
	st.shared.b32 [%rd4], %r2;
	bar.sync 0;
	xor.b32 %r3, %r1, 32;
	mul.wide.u32 %rd5, %r3, 4;
	add.s64 %rd6, %rd2, %rd5;
	ld.shared.b32 %r4, [%rd6];
	add.s64 %rd7, %rd1, %rd3;
	st.global.b32 [%rd7], %r4;
)",
                                 1, "\t.shared .align 4 .b8 buf[256];\n")))
      << emu.parseError;
  uint64_t out = emu.zeros(256);
  Fault f = emu.run({out}, 64);
  ASSERT_EQ(f.code, 0) << f.message;
  std::vector<uint32_t> r = emu.read<uint32_t>(out, 64);
  for (unsigned t = 0; t < 64; ++t)
    EXPECT_EQ(r[t], (t ^ 32) + 1000) << t;
}

} // namespace
