//===- ArgCheckTest.cpp - Argument checks and per-layout strides ----------===//

#include "TestArtifacts.h"
#include "gtest/gtest.h"

using namespace sdpa::runtime;
using namespace sdpa::runtime::testing;

namespace {

/// THD forward arguments: 3 sequences of 100, 0 and 200 query tokens and
/// 150, 50, 300 key tokens; Hq = 16, Hkv = 4.
struct ThdFixture {
  int32_t hostQ[4] = {0, 100, 100, 300};
  int32_t hostKv[4] = {0, 150, 200, 500};
  SdpaForwardArgs args{};
  ThdFixture() {
    args.layout = SDPA_LAYOUT_THD;
    args.q = makeTensor(0x1000000000, kBf16, {300, 16, 64});
    args.k = makeTensor(0x2000000000, kBf16, {500, 4, 64});
    args.v = makeTensor(0x3000000000, kBf16, {500, 4, 64});
    args.o = makeTensor(0x4000000000, kBf16, {300, 16, 64});
    args.lse = makeTensor(0x5000000000, kF32, {16, 300});
    args.cu_seqlens_q = makeTensor(0x6000000000, kI32, {4});
    args.cu_seqlens_kv = makeTensor(0x6000000100, kI32, {4});
    args.max_seqlen_q = 200;
    args.max_seqlen_kv = 300;
    args.host_cu_seqlens_q = hostQ;
    args.host_cu_seqlens_kv = hostKv;
  }
};

std::string forwardError(const Manifest &m, const SdpaForwardArgs &a) {
  Problem problem;
  ParamTable params;
  std::string error;
  EXPECT_FALSE(checkForward(m, a, problem, params, error))
      << "expected an argument error";
  return error;
}

#define EXPECT_FORWARD_ERROR(manifest, args, text)                             \
  do {                                                                         \
    std::string error_ = forwardError(manifest, args);                         \
    EXPECT_NE(error_.find(text), std::string::npos)                            \
        << "got '" << error_ << "', expected '" << text << "'";                \
  } while (0)

int64_t i64(const ParamTable &t, const char *name) { return t.at(name).i64; }
int32_t i32(const ParamTable &t, const char *name) { return t.at(name).i32; }

TEST(Strides, ContiguousStridesAreRowMajor) {
  SdpaTensor t = makeTensor(0, kBf16, {2, 3, 5, 64});
  EXPECT_EQ(t.strides[0], 3 * 5 * 64);
  EXPECT_EQ(t.strides[1], 5 * 64);
  EXPECT_EQ(t.strides[2], 64);
  EXPECT_EQ(t.strides[3], 1);
}

TEST(Strides, PerLayout) {
  // bhsd [2, 3, 5, 64]: b = 960, h = 320, s = 64.
  BhsStrides bhsd =
      layoutStrides(Layout::BHSD, makeTensor(0, kBf16, {2, 3, 5, 64}));
  EXPECT_EQ(bhsd.b, 960);
  EXPECT_EQ(bhsd.h, 320);
  EXPECT_EQ(bhsd.s, 64);
  // bshd [2, 5, 3, 64]: b = 960, s = 192, h = 64.
  BhsStrides bshd =
      layoutStrides(Layout::BSHD, makeTensor(0, kBf16, {2, 5, 3, 64}));
  EXPECT_EQ(bshd.b, 960);
  EXPECT_EQ(bshd.h, 64);
  EXPECT_EQ(bshd.s, 192);
  // thd [7, 3, 64]: b = 0, s = 192, h = 64.
  BhsStrides thd = layoutStrides(Layout::THD, makeTensor(0, kBf16, {7, 3, 64}));
  EXPECT_EQ(thd.b, 0);
  EXPECT_EQ(thd.h, 64);
  EXPECT_EQ(thd.s, 192);
}

/// Checks `args` (valid for the artifact of `lines`) with `check`
/// (checkForward or checkBackward) against that artifact at 64 bits, which
/// must take them, and at 32 bits, which must refuse them with
/// SDPA_ERROR_INDEX_RANGE; returns the refusal's message.
template <typename Args, typename Check>
std::string indexRangeError(const std::vector<std::string> &lines,
                            const Args &args, Check check) {
  Problem p;
  ParamTable t;
  std::string error;
  SdpaStatus status = SDPA_SUCCESS;
  EXPECT_TRUE(check(parseOrDie(lines), args, p, t, error, &status)) << error;
  EXPECT_FALSE(check(parseOrDie(at32Bits(lines)), args, p, t, error, &status));
  EXPECT_EQ(status, SDPA_ERROR_INDEX_RANGE);
  return error;
}

TEST(ForwardCheck, A32BitIndexArtifactRefusesOffsetsPast2To31) {
  // q's batch stride of 2^31 elements puts its last element at
  // 2^31 + 15 * 64000 + 999 * 64 + 63: fine at 64 bits, not at 32.
  SdpaForwardArgs a = denseArgs();
  a.q.strides[0] = int64_t(1) << 31;
  EXPECT_EQ(indexRangeError(forwardLines(), a, checkForward),
            "q: the last element's offset 2148507647 does not fit the "
            "artifact's 32-bit index arithmetic (limit 2147483647; the "
            "artifact lowered with index-bitwidth=64 takes it)");
  // One element less is the largest offset a 32-bit artifact takes.
  a.q.strides[0] = (int64_t(1) << 31) - (2148507647 - 2147483647);
  Problem p;
  ParamTable t;
  std::string error;
  EXPECT_TRUE(checkForward(parseOrDie(at32Bits(forwardLines())), a, p, t, error)) << error;
}

TEST(ForwardCheck, TheIndexRangeIsTheLastRule) {
  // A call past 32 bits that breaks another rule too is an invalid argument
  // with that rule's message: the 64-bit artifact would refuse it as well.
  Manifest narrow = parseOrDie(at32Bits(forwardLines()));
  SdpaForwardArgs a = denseArgs();
  a.q.strides[0] = int64_t(1) << 31;
  a.o.dtype = kF16;
  Problem p;
  ParamTable t;
  std::string error;
  SdpaStatus status = SDPA_SUCCESS;
  EXPECT_FALSE(checkForward(narrow, a, p, t, error, &status));
  EXPECT_EQ(status, SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "o: expected dtype bf16 (the artifact's), got f16");
}

TEST(ForwardCheck, DenseBhsdFillsEveryParameter) {
  Manifest m = parseOrDie(forwardLines());
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkForward(m, denseArgs(), p, t, error)) << error;
  EXPECT_EQ(p.batch, 2);
  EXPECT_EQ(p.headsQ, 16);
  EXPECT_EQ(p.headsKv, 4);
  EXPECT_EQ(p.seqQ, 1000);
  EXPECT_EQ(p.seqKv, 1500);
  EXPECT_EQ(p.grid.qTiles, 8);   // ceil(1000 / 128)
  EXPECT_EQ(p.grid.kvTiles, 24); // ceil(1500 / 64)
  EXPECT_EQ(p.grid.totalRows, 2 * 16 * 1000);
  EXPECT_EQ(t.at("q").ptr, 0x1000000000u);
  EXPECT_EQ(t.at("lse").ptr, 0x5000000000u);
  EXPECT_EQ(i64(t, "q_stride_b"), 16 * 1000 * 64);
  EXPECT_EQ(i64(t, "q_stride_h"), 1000 * 64);
  EXPECT_EQ(i64(t, "q_stride_s"), 64);
  EXPECT_EQ(i64(t, "k_stride_b"), 4 * 1500 * 64);
  EXPECT_EQ(i64(t, "v_stride_h"), 1500 * 64);
  EXPECT_EQ(i64(t, "o_stride_s"), 64);
  EXPECT_EQ(i64(t, "lse_stride_b"), 16 * 1000);
  EXPECT_EQ(i64(t, "lse_stride_h"), 1000);
  EXPECT_EQ(i32(t, "seq_q"), 1000);
  EXPECT_EQ(i32(t, "seq_kv"), 1500);
  EXPECT_EQ(i32(t, "heads_q"), 16);
  EXPECT_EQ(i32(t, "heads_kv"), 4);
  EXPECT_EQ(i32(t, "batch"), 2);
  EXPECT_FLOAT_EQ(t.at("scale").f32, 0.125f);
  EXPECT_EQ(t.count("cu_seqlens_q"), 0u);
}

TEST(ForwardCheck, BshdStridesComeFromTheLayout) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs();
  a.layout = SDPA_LAYOUT_BSHD;
  a.q = makeTensor(0x1000000000, kBf16, {2, 1000, 16, 64});
  a.o = makeTensor(0x4000000000, kBf16, {2, 1000, 16, 64});
  a.k = makeTensor(0x2000000000, kBf16, {2, 1500, 4, 64});
  // v is a view into a packed [B, S, 2, Hkv, D] kv buffer.
  a.v = makeTensor(0x3000000000, kBf16, {2, 1500, 4, 64});
  a.v.strides[0] = 1500 * 2 * 4 * 64;
  a.v.strides[1] = 2 * 4 * 64;
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkForward(m, a, p, t, error)) << error;
  EXPECT_EQ(p.seqQ, 1000);
  EXPECT_EQ(p.headsQ, 16);
  EXPECT_EQ(i64(t, "q_stride_b"), 1000 * 16 * 64);
  EXPECT_EQ(i64(t, "q_stride_s"), 16 * 64);
  EXPECT_EQ(i64(t, "q_stride_h"), 64);
  EXPECT_EQ(i64(t, "k_stride_s"), 4 * 64);
  EXPECT_EQ(i64(t, "v_stride_b"), 1500 * 2 * 4 * 64);
  EXPECT_EQ(i64(t, "v_stride_s"), 2 * 4 * 64);
  EXPECT_EQ(i64(t, "v_stride_h"), 64);
}

TEST(ForwardCheck, ThdUsesOffsetsAndMaximumLengths) {
  Manifest m = parseOrDie(varlenLines());
  ThdFixture f;
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkForward(m, f.args, p, t, error)) << error;
  EXPECT_EQ(p.batch, 3);
  EXPECT_EQ(p.seqQ, 200);
  EXPECT_EQ(p.seqKv, 300);
  EXPECT_EQ(p.totalQ, 300);
  EXPECT_EQ(p.grid.qTiles, 2);  // ceil(200 / 128)
  EXPECT_EQ(p.grid.kvTiles, 5); // ceil(300 / 64)
  EXPECT_EQ(p.grid.totalRows, 16 * 300);
  EXPECT_EQ(i64(t, "q_stride_b"), 0);
  EXPECT_EQ(i64(t, "q_stride_s"), 16 * 64);
  EXPECT_EQ(i64(t, "q_stride_h"), 64);
  EXPECT_EQ(i64(t, "k_stride_s"), 4 * 64);
  EXPECT_EQ(i64(t, "lse_stride_b"), 0);
  EXPECT_EQ(i64(t, "lse_stride_h"), 300);
  EXPECT_EQ(t.at("cu_seqlens_q").ptr, 0x6000000000u);
  EXPECT_EQ(t.at("cu_seqlens_kv").ptr, 0x6000000100u);
  EXPECT_EQ(i32(t, "seq_q"), 200);
  EXPECT_EQ(i32(t, "batch"), 3);
}

TEST(ForwardCheck, EmptyTensorsMayHaveNullPointers) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs();
  a.q = makeTensor(0, kBf16, {2, 16, 0, 64});
  a.o = makeTensor(0, kBf16, {2, 16, 0, 64});
  a.lse = makeTensor(0, kF32, {2, 16, 0});
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkForward(m, a, p, t, error)) << error;
  EXPECT_EQ(p.grid.qTiles, 0);
}

/// An empty tensor's strides are not bounded by its span: the row-stride
/// check must not multiply a huge one by the element size (2^62 * 2 bytes
/// overflowed int64_t). 2^62 elements of 2 bytes are 16-byte aligned, and
/// the tensors are empty, so the check passes.
TEST(ForwardCheck, EmptyTensorsMayHaveHugeStrides) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs(/*batch=*/0, /*nullData=*/true);
  a.q.strides[1] = int64_t(1) << 62;
  EXPECT_EQ(checkMessage(m, a), "");
  // Misaligned by 2 bytes it still is refused.
  a.q.strides[1] += 1;
  EXPECT_FORWARD_ERROR(m, a, "q: the heads stride (4611686018427387905 "
                             "elements) is not a multiple of 16 bytes");
}

TEST(ForwardCheck, SizeOneDimensionsIgnoreTheirStrides) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs(/*batch=*/1);
  a.q.strides[0] = 3; // as torch may give after unsqueeze or expand
  Problem p;
  ParamTable t;
  std::string error;
  EXPECT_TRUE(checkForward(m, a, p, t, error)) << error;
}

TEST(ForwardCheck, RejectsEachBadArgument) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a;

  a = denseArgs();
  a.q.rank = 3;
  EXPECT_FORWARD_ERROR(m, a, "q: expected 4 dimensions for layout bhsd, got 3");
  a = denseArgs();
  a.layout = 7;
  EXPECT_FORWARD_ERROR(m, a, "layout: unknown layout code 7");
  a = denseArgs();
  a.k.data = 0;
  EXPECT_FORWARD_ERROR(m, a, "k: null data pointer");
  a = denseArgs();
  a.v.data = 0x3000000008;
  EXPECT_FORWARD_ERROR(m, a, "v: data pointer 0x3000000008 is not 16-byte aligned");
  a = denseArgs();
  a.lse.data = 0x5000000004;
  EXPECT_FORWARD_ERROR(m, a, "lse: data pointer 0x5000000004 is not 16-byte");
  a = denseArgs();
  a.q.dtype = kF16;
  EXPECT_FORWARD_ERROR(m, a, "q: expected dtype bf16 (the artifact's), got f16");
  a = denseArgs();
  a.o.dtype = 9;
  EXPECT_FORWARD_ERROR(m, a, "o: unknown dtype code 9");
  a = denseArgs();
  a.q = makeTensor(0x1000000000, kBf16, {2, 16, 1000, 128});
  EXPECT_FORWARD_ERROR(m, a,
                       "q: head_dim (last dimension) is 128, the artifact was "
                       "compiled for 64");
  a = denseArgs();
  a.k.strides[3] = 2;
  EXPECT_FORWARD_ERROR(m, a, "k: the head_dim stride must be 1 (contiguous "
                             "rows), got 2");
  a = denseArgs();
  a.q.strides[2] = 68; // 136 bytes
  EXPECT_FORWARD_ERROR(m, a, "q: the seq stride (68 elements) is not a "
                             "multiple of 16 bytes");
  a = denseArgs();
  a.k.strides[1] = 1500 * 64 + 4;
  EXPECT_FORWARD_ERROR(m, a, "k: the heads stride (96004 elements) is not a "
                             "multiple of 16 bytes");
  a = denseArgs();
  a.v.strides[0] = -1;
  EXPECT_FORWARD_ERROR(m, a, "v: negative stride -1 in dimension 0");
  a = denseArgs();
  a.v = makeTensor(0x3000000000, kBf16, {2, 4, 1499, 64});
  EXPECT_FORWARD_ERROR(m, a, "v: shape [2, 4, 1499, 64] differs from k's "
                             "[2, 4, 1500, 64]");
  a = denseArgs();
  a.o = makeTensor(0x4000000000, kBf16, {2, 16, 999, 64});
  EXPECT_FORWARD_ERROR(m, a, "o: shape [2, 16, 999, 64] differs from q's");
  a = denseArgs();
  a.k = makeTensor(0x2000000000, kBf16, {3, 4, 1500, 64});
  a.v = a.k;
  a.v.data = 0x3000000000;
  EXPECT_FORWARD_ERROR(m, a, "k: batch is 3, q's is 2");
  a = denseArgs();
  a.k = makeTensor(0x2000000000, kBf16, {2, 5, 1500, 64});
  a.v = a.k;
  a.v.data = 0x3000000000;
  EXPECT_FORWARD_ERROR(m, a, "heads: query heads (16) are not a multiple of "
                             "kv heads (5)");
  a = denseArgs();
  a.k = makeTensor(0x2000000000, kBf16, {2, 0, 1500, 64});
  a.v = a.k;
  EXPECT_FORWARD_ERROR(m, a, "k: zero heads");
  a = denseArgs();
  a.q.shape[2] = -5;
  EXPECT_FORWARD_ERROR(m, a, "q: negative size -5 in dimension 2");
  a = denseArgs();
  a.lse = makeTensor(0x5000000000, kF32, {2, 16, 999});
  EXPECT_FORWARD_ERROR(m, a, "lse: expected shape [2, 16, 1000] (batch, "
                             "heads_q, seq_q), got [2, 16, 999]");
  a = denseArgs();
  a.lse.dtype = kBf16;
  EXPECT_FORWARD_ERROR(m, a, "lse: expected dtype f32, got bf16");
  a = denseArgs();
  a.lse.rank = 2;
  EXPECT_FORWARD_ERROR(m, a, "lse: expected 3 dimensions [batch, heads_q, "
                             "seq_q], got 2");
  a = denseArgs();
  a.lse.strides[2] = 2;
  EXPECT_FORWARD_ERROR(m, a, "lse: the seq stride must be 1, got 2");
  a = denseArgs();
  a.cu_seqlens_q = makeTensor(0x6000000000, kI32, {3});
  EXPECT_FORWARD_ERROR(m, a, "cu_seqlens_q: given for the dense layout bhsd");
}

TEST(ForwardCheck, RejectsLengthsBeyond32BitIndexing) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs();
  a.q = makeTensor(0x1000000000, kBf16, {1, 1, 2147483648LL, 64});
  EXPECT_FORWARD_ERROR(m, a, "q: dimension 2 has size 2147483648, beyond "
                             "32-bit index arithmetic");

  // Each length fits, but rounded up to tiles and widened by the band's
  // left edge they do not: 2147483000 query rows are 16777211 tiles of 128 =
  // 2147483008 positions; with 64 keys (one tile) and L = 127 that still
  // fits (2147483199), with 20000 keys (313 tiles, 20032) it does not.
  a.q = makeTensor(0x1000000000, kBf16, {1, 16, 2147483000LL, 64});
  a.o = a.q;
  a.o.data = 0x4000000000;
  a.k = makeTensor(0x2000000000, kBf16, {1, 4, 64, 64});
  a.v = a.k;
  a.v.data = 0x3000000000;
  a.lse = makeTensor(0x5000000000, kF32, {1, 16, 2147483000LL});
  Problem p;
  ParamTable t;
  std::string error;
  bool fits = checkForward(m, a, p, t, error);
  // It fails only on the heads * rows product, not on the band reach.
  EXPECT_FALSE(fits);
  EXPECT_EQ(error.find("seq_q/seq_kv"), std::string::npos) << error;
  a.k = makeTensor(0x2000000000, kBf16, {1, 4, 20000, 64});
  a.v = a.k;
  a.v.data = 0x3000000000;
  EXPECT_FORWARD_ERROR(m, a, "seq_q/seq_kv: 2147483000 and 20000 positions, "
                             "rounded to tiles and widened by the band, "
                             "overflow 32-bit index arithmetic");

  // Lengths and band fit, but heads * tokens does not: 2 * 16 * 2^27 = 2^32.
  a = denseArgs();
  a.q = makeTensor(0x1000000000, kBf16, {2, 16, 1LL << 27, 64});
  a.o = a.q;
  a.o.data = 0x4000000000;
  a.lse = makeTensor(0x5000000000, kF32, {2, 16, 1LL << 27});
  EXPECT_FORWARD_ERROR(m, a, "q: heads_q * query tokens = 16 * 268435456 rows "
                             "overflow 32-bit index arithmetic");
}

/// A stride of 2^62 elements on a dimension of size 2 fits int64_t as an
/// element offset but not in bytes; the row-stride check then overflowed
/// (stride * 2 bytes = 2^63). Refused before any arithmetic on it.
TEST(ForwardCheck, RejectsByteOffsetsBeyond64Bits) {
  Manifest m = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs();
  a.q = makeTensor(0x1000000000, kBf16, {2, 16, 1000, 64});
  a.q.strides[0] = int64_t(1) << 62;
  EXPECT_FORWARD_ERROR(m, a, "q: byte offsets overflow 64 bits");
}

TEST(ForwardCheck, LayoutMustMatchTheArtifactsVarlen) {
  Manifest dense = parseOrDie(forwardLines());
  Manifest varlen = parseOrDie(varlenLines());
  ThdFixture f;
  EXPECT_FORWARD_ERROR(dense, f.args,
                       "layout: thd needs an artifact compiled for packed "
                       "sequences (varlen 1), this one is dense");
  EXPECT_FORWARD_ERROR(varlen, denseArgs(),
                       "layout: bhsd given, but the artifact was compiled for "
                       "packed sequences");
}

TEST(ForwardCheck, RejectsBadThdOffsets) {
  Manifest m = parseOrDie(varlenLines());
  {
    ThdFixture f;
    f.args.cu_seqlens_kv = makeTensor(0x6000000100, kI32, {5});
    f.args.host_cu_seqlens_kv = nullptr;
    EXPECT_FORWARD_ERROR(m, f.args,
                         "cu_seqlens_kv: 5 offsets, but cu_seqlens_q has 4");
  }
  {
    ThdFixture f;
    f.args.cu_seqlens_q.dtype = kF32;
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_q: expected dtype i32, got f32");
  }
  {
    ThdFixture f;
    f.args.cu_seqlens_q = makeTensor(0x6000000000, kI32, {0});
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_q: expected at least one offset");
  }
  {
    ThdFixture f;
    f.args.cu_seqlens_kv.data = 0;
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_kv: null data pointer");
  }
  {
    ThdFixture f;
    f.args.cu_seqlens_q.strides[0] = 2;
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_q: the stride must be 1, got 2");
  }
  {
    ThdFixture f;
    f.args.max_seqlen_q = 400;
    EXPECT_FORWARD_ERROR(m, f.args,
                         "max_seqlen_q: 400 is more than the 300 tokens given");
  }
  {
    ThdFixture f;
    f.args.max_seqlen_kv = -1;
    EXPECT_FORWARD_ERROR(m, f.args, "max_seqlen_kv: negative (-1)");
  }
  {
    ThdFixture f;
    f.hostQ[0] = 4;
    EXPECT_FORWARD_ERROR(m, f.args,
                         "cu_seqlens_q: the first offset is 4, expected 0");
  }
  {
    ThdFixture f;
    f.hostKv[2] = 140;
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_kv: offsets decrease at index 2 "
                                    "(140 after 150)");
  }
  {
    ThdFixture f;
    f.hostQ[3] = 290;
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_q: the last offset is 290, but "
                                    "there are 300 tokens");
  }
  {
    ThdFixture f;
    f.args.max_seqlen_q = 150;
    EXPECT_FORWARD_ERROR(m, f.args, "cu_seqlens_q: sequence 2 has 200 tokens, "
                                    "more than max_seqlen_q = 150");
  }
  {
    ThdFixture f;
    f.args.lse = makeTensor(0x5000000000, kF32, {300, 16});
    EXPECT_FORWARD_ERROR(m, f.args, "lse: expected shape [16, 300] (heads_q, "
                                    "tokens_q), got [300, 16]");
  }
  {
    ThdFixture f;
    f.args.q.rank = 4;
    EXPECT_FORWARD_ERROR(m, f.args,
                         "q: expected 3 dimensions for layout thd, got 4");
  }
}

TEST(ForwardCheck, RefusesABackwardArtifact) {
  Manifest m = parseOrDie(backwardLines());
  EXPECT_FORWARD_ERROR(m, denseArgs(),
                       "artifact: compiled for the backward, not the forward");
}

std::string backwardError(const Manifest &m, const SdpaBackwardArgs &a) {
  Problem problem;
  ParamTable params;
  std::string error;
  EXPECT_FALSE(checkBackward(m, a, problem, params, error));
  return error;
}

TEST(BackwardCheck, WorkspaceSizes) {
  Manifest m = parseOrDie(backwardLines());
  SdpaWorkspaceSizes sizes{};
  std::string error;
  ASSERT_TRUE(backwardWorkspace(m, backwardArgs(), sizes, error)) << error;
  EXPECT_EQ(sizes.dq_accum_elements, 2 * 8 * 100 * 128);
  EXPECT_EQ(sizes.delta_elements, 2 * 8 * 100);
  EXPECT_EQ(sizes.relay_counter_elements, 2 * 8 * 2); // ceil(100 / 64) = 2
}

TEST(BackwardCheck, FillsGradientParameters) {
  Manifest m = parseOrDie(backwardLines());
  Problem p;
  ParamTable t;
  std::string error;
  ASSERT_TRUE(checkBackward(m, backwardArgs(), p, t, error)) << error;
  EXPECT_EQ(t.at("do").ptr, 0x6000000000u);
  EXPECT_EQ(t.at("dq_accum").ptr, 0xa000000000u);
  EXPECT_EQ(t.at("delta").ptr, 0xb000000000u);
  EXPECT_EQ(t.at("relay_counters").ptr, 0xc000000000u);
  EXPECT_EQ(i64(t, "dq_stride_s"), 8 * 128);
  EXPECT_EQ(i64(t, "dk_stride_s"), 2 * 128);
  EXPECT_EQ(i64(t, "dv_stride_h"), 128);
  EXPECT_EQ(i64(t, "do_stride_b"), 100 * 8 * 128);
  EXPECT_EQ(p.grid.kvTiles, 3); // ceil(300 / 128)
}

TEST(BackwardCheck, RejectsBadGradientsAndWorkspaces) {
  Manifest m = parseOrDie(backwardLines());
  SdpaBackwardArgs a;
  auto expectError = [&](const SdpaBackwardArgs &args, const char *text) {
    std::string error = backwardError(m, args);
    EXPECT_NE(error.find(text), std::string::npos)
        << "got '" << error << "', expected '" << text << "'";
  };
  a = backwardArgs();
  a.dout = makeTensor(0x6000000000, kF16, {2, 99, 8, 128});
  expectError(a, "do: shape [2, 99, 8, 128] differs from q's");
  a = backwardArgs();
  a.dk.dtype = kBf16;
  expectError(a, "dk: expected dtype f16 (the artifact's), got bf16");
  a = backwardArgs();
  a.dv.data = 0x9000000002;
  expectError(a, "dv: data pointer 0x9000000002 is not 16-byte aligned");
  a = backwardArgs();
  a.dq_accum = makeTensor(0xa000000000, kF32, {2 * 8 * 100 * 64});
  expectError(a, "dq_accum: holds 102400 elements, expected 204800");
  a = backwardArgs();
  a.delta.dtype = kBf16;
  expectError(a, "delta: expected dtype f32, got bf16");
  a = backwardArgs();
  a.delta.strides[2] = 2;
  expectError(a, "delta: must be densely packed");
  a = backwardArgs();
  a.relay_counters.data = 0;
  expectError(a, "relay_counters: null data pointer");
  a = backwardArgs();
  a.relay_counters = makeTensor(0xc000000000, kI32, {2, 8, 1});
  expectError(a, "relay_counters: holds 16 elements, expected 32");
}

TEST(BackwardCheck, A32BitIndexArtifactRefusesAGradientPast2To31) {
  // dv with a batch stride of 2^31 elements: its last element lies past
  // 2^31 - 1, which the 64-bit artifact takes and the 32-bit one refuses.
  SdpaBackwardArgs a = backwardArgs();
  a.dv.strides[0] = int64_t(1) << 31;
  std::string error = indexRangeError(backwardLines(), a, checkBackward);
  EXPECT_EQ(error.rfind("dv: the last element's offset ", 0), 0u) << error;
  // The workspace sizes need no index range: sdpaBackwardWorkspace answers.
  SdpaWorkspaceSizes sizes{};
  EXPECT_TRUE(backwardWorkspace(parseOrDie(at32Bits(backwardLines())), a, sizes, error))
      << error;
}

/// Issue 13: outputs and workspaces that share memory were accepted (relay
/// counters aliasing delta would hang the relay). Inputs may still share.
TEST(ArgCheck, RefusesAliasedOutputsAndWorkspaces) {
  Manifest fwd = parseOrDie(forwardLines());
  SdpaForwardArgs a = denseArgs();
  a.o.data = a.q.data;
  EXPECT_EQ(checkMessage(fwd, a),
            "o: its memory overlaps q's (outputs and workspaces must not "
            "share memory with each other or with an input)");
  a = denseArgs();
  a.lse.data = a.o.data + 16; // inside o
  EXPECT_PRED2(startsWith, checkMessage(fwd, a), "o: its memory overlaps lse's");
  a = denseArgs();
  a.v.data = a.k.data; // k and v from one buffer: fine
  EXPECT_EQ(checkMessage(fwd, a), "");

  Manifest bwd = parseOrDie(backwardLines());
  SdpaBackwardArgs b = backwardArgs();
  b.relay_counters.data = b.delta.data;
  EXPECT_PRED2(startsWith, backwardError(bwd, b),
               "delta: its memory overlaps relay_counters's");
  b = backwardArgs();
  b.dk.data = b.dq.data + 256 * 1024; // dq spans 409600 bytes
  EXPECT_PRED2(startsWith, backwardError(bwd, b), "dq: its memory overlaps dk's");
  b = backwardArgs();
  b.dq_accum.data = b.k.data;
  EXPECT_PRED2(startsWith, backwardError(bwd, b),
               "dq_accum: its memory overlaps k's");
}

} // namespace
