//===- ReferenceTest.cpp - The float64 reference of sdpa-kernel-check -----===//
//
// The reference's gradients against central differences of its own forward
// (band, GQA, softcap, sinks, an empty row) and rows derived by hand.
//
//===----------------------------------------------------------------------===//

#include "AttentionReference.h"
#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace sdpa::check;

namespace {

TEST(AttentionReference, BandByHand) {
  BandSpec band;
  band.left = 1;
  band.right = 0;
  band.bottomRight = true;
  // s_q 2, s_kv 5: row 0's diagonal is key 3, row 1's key 4.
  EXPECT_FALSE(band.visible(0, 1, 2, 5));
  EXPECT_TRUE(band.visible(0, 2, 2, 5));
  EXPECT_TRUE(band.visible(0, 3, 2, 5));
  EXPECT_FALSE(band.visible(0, 4, 2, 5));
  EXPECT_TRUE(band.visible(1, 4, 2, 5));
  band.bottomRight = false;
  EXPECT_TRUE(band.visible(0, 0, 2, 5));
  EXPECT_FALSE(band.visible(0, 1, 2, 5));
  EXPECT_FALSE(band.visible(1, 5, 2, 5)); // past s_kv
}

TEST(AttentionReference, RowsByHand) {
  // One head, d 2, causal top-left, s 2: row 0 sees key 0 only (O = v0,
  // LSE = s00); row 1 sees keys 0 and 1 with equal scores (O = mean,
  // LSE = s + log 2). With a sink of -inf-like -1e30, nothing changes.
  ProblemShape shape{1, 1, 2, {2}, {2}};
  BandSpec band;
  band.right = 0;
  band.scale = 0.5;
  std::vector<double> q = {1, 2, 2, 0};
  std::vector<double> k = {1, 0, 1, 0};
  std::vector<double> v = {3, 5, 7, -1};
  std::vector<double> o, lse;
  referenceForward(shape, band, {}, q, k, v, o, lse);
  EXPECT_DOUBLE_EQ(lse[0], 0.5);
  EXPECT_DOUBLE_EQ(o[0], 3);
  EXPECT_DOUBLE_EQ(o[1], 5);
  EXPECT_DOUBLE_EQ(lse[1], 1 + std::log(2.0));
  EXPECT_DOUBLE_EQ(o[2], 5);
  EXPECT_DOUBLE_EQ(o[3], 2);
  // A sink equal to row 0's score takes half of it.
  referenceForward(shape, band, {0.5}, q, k, v, o, lse);
  EXPECT_DOUBLE_EQ(lse[0], 0.5 + std::log(2.0));
  EXPECT_DOUBLE_EQ(o[0], 1.5);
  // A row that sees nothing: LSE -inf and O 0, or LSE = sink with one.
  band.left = -1;
  band.right = 0;
  band.bottomRight = true; // s_q 3, s_kv 1: rows 0 and 1 end before key 0
  ProblemShape tall{1, 1, 2, {3}, {1}};
  std::vector<double> q3 = {1, 2, 2, 0, 1, 1};
  referenceForward(tall, band, {}, q3, {1, 0}, {3, 5}, o, lse);
  EXPECT_TRUE(std::isinf(lse[0]) && lse[0] < 0);
  EXPECT_EQ(o[0], 0);
  EXPECT_DOUBLE_EQ(o[4], 3); // row 2 sees key 0
  referenceForward(tall, band, {-2}, q3, {1, 0}, {3, 5}, o, lse);
  EXPECT_EQ(lse[0], -2);
}

/// L = sum dO * O, and its gradient by central differences.
double loss(const ProblemShape &shape, const BandSpec &band,
            const std::vector<double> &sinks, const std::vector<double> &q,
            const std::vector<double> &k, const std::vector<double> &v,
            const std::vector<double> &dout) {
  std::vector<double> o, lse;
  referenceForward(shape, band, sinks, q, k, v, o, lse);
  double sum = 0;
  for (size_t i = 0; i < o.size(); ++i)
    sum += o[i] * dout[i];
  return sum;
}

void expectGradientsMatchDifferences(const BandSpec &band, bool withSinks) {
  // Two sequences (THD-like), GQA 4/2, d 3; the band leaves row 0 of the
  // second sequence without keys when bottom-right.
  ProblemShape shape{4, 2, 3, {5, 3}, {4, 2}};
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  auto random = [&](size_t n) {
    std::vector<double> x(n);
    for (double &e : x)
      e = normal(rng);
    return x;
  };
  std::vector<double> q = random(shape.totalQ() * 4 * 3);
  std::vector<double> k = random(shape.totalKv() * 2 * 3);
  std::vector<double> v = random(shape.totalKv() * 2 * 3);
  std::vector<double> dout = random(q.size());
  std::vector<double> sinks = withSinks ? random(4) : std::vector<double>{};
  std::vector<double> o, lse, dq, dk, dv, dsinks;
  referenceForward(shape, band, sinks, q, k, v, o, lse);
  referenceBackward(shape, band, sinks, q, k, v, o, lse, dout, dq, dk, dv,
                    dsinks);
  const double h = 1e-5;
  auto differences = [&](std::vector<double> &x,
                         const std::vector<double> &analytic,
                         const char *name) {
    for (size_t i = 0; i < x.size(); ++i) {
      double saved = x[i];
      x[i] = saved + h;
      double up = loss(shape, band, sinks, q, k, v, dout);
      x[i] = saved - h;
      double down = loss(shape, band, sinks, q, k, v, dout);
      x[i] = saved;
      EXPECT_NEAR(analytic[i], (up - down) / (2 * h), 1e-6)
          << name << "[" << i << "]";
    }
  };
  differences(q, dq, "dq");
  differences(k, dk, "dk");
  differences(v, dv, "dv");
  if (withSinks)
    differences(sinks, dsinks, "dsinks");
}

TEST(AttentionReference, GradientsAreTheForwardsDerivatives) {
  BandSpec band;
  band.left = 1;
  band.right = 0;
  band.bottomRight = true;
  band.scale = 0.7;
  expectGradientsMatchDifferences(band, false);
  expectGradientsMatchDifferences(band, true);
  band.softcap = 1.5;
  expectGradientsMatchDifferences(band, true);
  band = BandSpec();
  band.left = 2;
  band.right = 1;
  band.scale = 0.3;
  expectGradientsMatchDifferences(band, false);
}

} // namespace
