//===- HaloTest.cpp - The halo C API on hand-derived cases and bad input ---===//
//
// Values worked out by hand from docs/Semantics.md §1 (the brute-force and
// schedule comparisons over many bands are unittests/ContextParallel, which
// has the analysis library at hand), and every argument error.
//
//===----------------------------------------------------------------------===//

#include "SdpaRuntime/SdpaHalo.h"

#include "gtest/gtest.h"

#include <string>
#include <utility>

namespace {

using Range = std::pair<int64_t, int64_t>;

Range keys(int64_t left, int64_t right, int32_t bottomRight, int64_t seqQ,
           int64_t seqKv, int64_t q0, int64_t q1) {
  int64_t b = -7, e = -7;
  EXPECT_EQ(sdpaBandKeyRange(left, right, bottomRight, seqQ, seqKv, q0, q1,
                             &b, &e),
            SDPA_SUCCESS)
      << sdpaGetLastError();
  return {b, e};
}

Range rows(int64_t left, int64_t right, int32_t bottomRight, int64_t seqQ,
           int64_t seqKv, int64_t k0, int64_t k1) {
  int64_t b = -7, e = -7;
  EXPECT_EQ(sdpaBandQueryRange(left, right, bottomRight, seqQ, seqKv, k0, k1,
                               &b, &e),
            SDPA_SUCCESS)
      << sdpaGetLastError();
  return {b, e};
}

TEST(HaloCApi, CausalWindowChunk) {
  // Rows 8..11 of a 4-key causal window (L = 3): row 8 starts at key 5,
  // row 11 ends at key 11.
  EXPECT_EQ(keys(3, 0, 0, 16, 16, 8, 12), Range(5, 12));
  // Keys 4..7 are seen by rows 4 (key 4 on its diagonal) to 10 (key 7 at
  // distance 3).
  EXPECT_EQ(rows(3, 0, 0, 16, 16, 4, 8), Range(4, 11));
  // The first chunk needs no earlier key.
  EXPECT_EQ(keys(3, 0, 0, 16, 16, 0, 4), Range(0, 4));
}

TEST(HaloCApi, BottomRightShortQueries) {
  // Sq = 4, Skv = 10, delta = 6, causal: row 1 ends at key 7.
  EXPECT_EQ(keys(-1, 0, 1, 4, 10, 0, 2), Range(0, 8));
  // Sq = 10, Skv = 4, delta = -6: rows 0..4 see nothing, row 6 sees key 0.
  EXPECT_EQ(keys(-1, 0, 1, 10, 4, 0, 5), Range(0, 0));
  EXPECT_EQ(keys(-1, 0, 1, 10, 4, 6, 7), Range(0, 1));
  EXPECT_EQ(keys(-1, 0, 1, 10, 4, 5, 10), Range(0, 4));
  // Key 0 is seen by rows 6..9.
  EXPECT_EQ(rows(-1, 0, 1, 10, 4, 0, 1), Range(6, 10));
}

TEST(HaloCApi, EmptyResults) {
  // Top-left, Sq = 10 > Skv = 4, diagonal only: rows 6..9 are past the keys.
  EXPECT_EQ(keys(0, 0, 0, 10, 4, 6, 10), Range(0, 0));
  // An empty row range and an empty key side.
  EXPECT_EQ(keys(2, 2, 0, 10, 10, 3, 3), Range(0, 0));
  EXPECT_EQ(keys(2, 2, 0, 10, 0, 0, 10), Range(0, 0));
  // Keys 8..9 of a diagonal-only band with Sq = 4 are seen by no row.
  EXPECT_EQ(rows(0, 0, 0, 4, 10, 8, 10), Range(0, 0));
}

TEST(HaloCApi, UnboundedBand) {
  EXPECT_EQ(keys(-1, -1, 0, 5, 9, 2, 3), Range(0, 9));
  EXPECT_EQ(rows(-1, -1, 1, 5, 9, 8, 9), Range(0, 5));
}

/// Expects `status` to be an invalid-argument failure whose message is `want`.
void expectError(SdpaStatus status, const std::string &want) {
  EXPECT_EQ(status, SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(sdpaGetLastError()), want);
}

TEST(HaloCApi, BadArguments) {
  int64_t b = 0, e = 0;
  expectError(sdpaBandKeyRange(-2, 0, 0, 4, 4, 0, 4, &b, &e),
              "left: expected -1 (unbounded) or a width in [0, 2147483647], "
              "got -2");
  expectError(sdpaBandKeyRange(0, int64_t(1) << 31, 0, 4, 4, 0, 4, &b, &e),
              "right: expected -1 (unbounded) or a width in [0, 2147483647], "
              "got 2147483648");
  expectError(sdpaBandKeyRange(0, 0, 2, 4, 4, 0, 4, &b, &e),
              "bottom_right: expected 0 or 1, got 2");
  expectError(sdpaBandKeyRange(0, 0, 0, -1, 4, 0, 0, &b, &e),
              "seq_q: expected a length in [0, 2147483647], got -1");
  expectError(sdpaBandQueryRange(0, 0, 0, 4, int64_t(1) << 40, 0, 0, &b, &e),
              "seq_kv: expected a length in [0, 2147483647], got "
              "1099511627776");
  expectError(sdpaBandKeyRange(0, 0, 0, 4, 4, 3, 2, &b, &e),
              "q_begin, q_end: expected 0 <= begin <= end <= 4, got [3, 2)");
  expectError(sdpaBandKeyRange(0, 0, 0, 4, 8, 0, 5, &b, &e),
              "q_begin, q_end: expected 0 <= begin <= end <= 4, got [0, 5)");
  expectError(sdpaBandQueryRange(0, 0, 0, 4, 8, -1, 5, &b, &e),
              "kv_begin, kv_end: expected 0 <= begin <= end <= 8, got [-1, 5)");
  expectError(sdpaBandKeyRange(0, 0, 0, 4, 4, 0, 4, nullptr, &e),
              "sdpaBandKeyRange: null output pointer");
  expectError(sdpaBandQueryRange(0, 0, 0, 4, 4, 0, 4, &b, nullptr),
              "sdpaBandQueryRange: null output pointer");
}

} // namespace
