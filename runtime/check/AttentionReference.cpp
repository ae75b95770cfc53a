//===- AttentionReference.cpp - Attention in float64, from the formulas ---===//

#include "AttentionReference.h"

#include <cmath>
#include <limits>

namespace sdpa::check {

bool BandSpec::visible(int64_t q, int64_t k, int64_t sq, int64_t skv) const {
  if (k < 0 || k >= skv || q < 0 || q >= sq)
    return false;
  int64_t diagonal = q + (bottomRight ? skv - sq : 0);
  return (left < 0 || k >= diagonal - left) &&
         (right < 0 || k <= diagonal + right);
}

int64_t ProblemShape::firstRowQ(int64_t b) const {
  int64_t rows = 0;
  for (int64_t i = 0; i < b; ++i)
    rows += seqQ[i];
  return rows;
}

int64_t ProblemShape::firstRowKv(int64_t b) const {
  int64_t rows = 0;
  for (int64_t i = 0; i < b; ++i)
    rows += seqKv[i];
  return rows;
}

int64_t ProblemShape::offsetQ(int64_t b, int64_t h, int64_t row) const {
  return (firstRowQ(b) * headsQ + h * seqQ[b] + row) * headDim;
}

int64_t ProblemShape::offsetKv(int64_t b, int64_t h, int64_t row) const {
  return (firstRowKv(b) * headsKv + h * seqKv[b] + row) * headDim;
}

int64_t ProblemShape::offsetLse(int64_t b, int64_t h, int64_t row) const {
  return firstRowQ(b) * headsQ + h * seqQ[b] + row;
}

namespace {

double dot(const double *a, const double *b, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += a[i] * b[i];
  return sum;
}

/// One query row's view of its sequence: the visible keys, their capped
/// scores and the row's LSE.
struct RowScores {
  std::vector<int64_t> keys;
  std::vector<double> capped;
  double lse = -std::numeric_limits<double>::infinity();
};

RowScores scoreRow(const ProblemShape &shape, const BandSpec &band,
                   const std::vector<double> &sinks,
                   const std::vector<double> &q, const std::vector<double> &k,
                   int64_t b, int64_t h, int64_t row) {
  RowScores scores;
  int64_t d = shape.headDim;
  int64_t kvHead = h / (shape.headsQ / shape.headsKv);
  const double *qRow = &q[shape.offsetQ(b, h, row)];
  double max = -std::numeric_limits<double>::infinity();
  for (int64_t key = 0; key < shape.seqKv[b]; ++key) {
    if (!band.visible(row, key, shape.seqQ[b], shape.seqKv[b]))
      continue;
    double s = band.scale * dot(qRow, &k[shape.offsetKv(b, kvHead, key)], d);
    if (band.softcap > 0)
      s = band.softcap * std::tanh(s / band.softcap);
    scores.keys.push_back(key);
    scores.capped.push_back(s);
    max = std::max(max, s);
  }
  if (!sinks.empty())
    max = std::max(max, sinks[h]);
  if (std::isinf(max))
    return scores;
  double sum = sinks.empty() ? 0 : std::exp(sinks[h] - max);
  for (double s : scores.capped)
    sum += std::exp(s - max);
  scores.lse = max + std::log(sum);
  return scores;
}

} // namespace

void referenceForward(const ProblemShape &shape, const BandSpec &band,
                      const std::vector<double> &sinks,
                      const std::vector<double> &q,
                      const std::vector<double> &k,
                      const std::vector<double> &v, std::vector<double> &o,
                      std::vector<double> &lse) {
  int64_t d = shape.headDim;
  o.assign(q.size(), 0);
  lse.assign(shape.totalQ() * shape.headsQ, 0);
  for (int64_t b = 0; b < int64_t(shape.seqQ.size()); ++b)
    for (int64_t h = 0; h < shape.headsQ; ++h) {
      int64_t kvHead = h / (shape.headsQ / shape.headsKv);
      for (int64_t row = 0; row < shape.seqQ[b]; ++row) {
        RowScores scores = scoreRow(shape, band, sinks, q, k, b, h, row);
        lse[shape.offsetLse(b, h, row)] = scores.lse;
        double *out = &o[shape.offsetQ(b, h, row)];
        for (size_t j = 0; j < scores.keys.size(); ++j) {
          double p = std::exp(scores.capped[j] - scores.lse);
          const double *vRow = &v[shape.offsetKv(b, kvHead, scores.keys[j])];
          for (int64_t c = 0; c < d; ++c)
            out[c] += p * vRow[c];
        }
      }
    }
}

void referenceBackward(const ProblemShape &shape, const BandSpec &band,
                       const std::vector<double> &sinks,
                       const std::vector<double> &q,
                       const std::vector<double> &k,
                       const std::vector<double> &v,
                       const std::vector<double> &o,
                       const std::vector<double> &lse,
                       const std::vector<double> &dout,
                       std::vector<double> &dq, std::vector<double> &dk,
                       std::vector<double> &dv, std::vector<double> &dsinks,
                       std::vector<double> *dqTerms,
                       std::vector<double> *dkTerms) {
  int64_t d = shape.headDim;
  if (dqTerms)
    dqTerms->assign(q.size(), 0);
  if (dkTerms)
    dkTerms->assign(k.size(), 0);
  dq.assign(q.size(), 0);
  dk.assign(k.size(), 0);
  dv.assign(v.size(), 0);
  dsinks.assign(sinks.empty() ? 0 : shape.headsQ, 0);
  for (int64_t b = 0; b < int64_t(shape.seqQ.size()); ++b)
    for (int64_t h = 0; h < shape.headsQ; ++h) {
      int64_t kvHead = h / (shape.headsQ / shape.headsKv);
      for (int64_t row = 0; row < shape.seqQ[b]; ++row) {
        RowScores scores = scoreRow(shape, band, sinks, q, k, b, h, row);
        double rowLse = lse[shape.offsetLse(b, h, row)];
        const double *qRow = &q[shape.offsetQ(b, h, row)];
        const double *doRow = &dout[shape.offsetQ(b, h, row)];
        double delta = dot(doRow, &o[shape.offsetQ(b, h, row)], d);
        if (!sinks.empty())
          dsinks[h] -= std::exp(sinks[h] - rowLse) * delta;
        double *dqRow = &dq[shape.offsetQ(b, h, row)];
        for (size_t j = 0; j < scores.keys.size(); ++j) {
          int64_t kvRow = shape.offsetKv(b, kvHead, scores.keys[j]);
          double p = std::exp(scores.capped[j] - rowLse);
          double dp = dot(doRow, &v[kvRow], d);
          double ds = p * (dp - delta);
          if (band.softcap > 0) {
            double ratio = scores.capped[j] / band.softcap;
            ds *= 1 - ratio * ratio;
          }
          double terms = p * (std::fabs(dp) + std::fabs(delta));
          for (int64_t c = 0; c < d; ++c) {
            dqRow[c] += band.scale * ds * k[kvRow + c];
            dk[kvRow + c] += band.scale * ds * qRow[c];
            dv[kvRow + c] += p * doRow[c];
            if (dqTerms)
              (*dqTerms)[shape.offsetQ(b, h, row) + c] +=
                  band.scale * terms * std::fabs(k[kvRow + c]);
            if (dkTerms)
              (*dkTerms)[kvRow + c] +=
                  band.scale * terms * std::fabs(qRow[c]);
          }
        }
      }
    }
}

} // namespace sdpa::check
