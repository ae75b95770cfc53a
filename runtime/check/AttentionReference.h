//===- AttentionReference.h - Attention in float64, from the formulas -----===//
//
// The forward and backward of docs/Semantics.md in float64, written from its
// formulas (band §1, gradients §2, sinks and softcap §7), one sequence and
// query head at a time, for sdpa-kernel-check to compare the kernels with.
// Tensors are canonical: per sequence, [heads][rows][head_dim] row-major,
// sequences back to back; LSE is [sequence][heads_q][rows].
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_CHECK_ATTENTIONREFERENCE_H
#define SDPARUNTIME_CHECK_ATTENTIONREFERENCE_H

#include <cstdint>
#include <vector>

namespace sdpa::check {

/// The mask and logit transform an artifact bakes in.
struct BandSpec {
  /// Keys left / right of a row's diagonal; -1 is unbounded.
  int64_t left = -1, right = -1;
  /// Diagonal a(q) = q + s_kv - s_q instead of a(q) = q.
  bool bottomRight = false;
  double scale = 1;
  /// The cap c of c * tanh(s / c); 0 for none.
  double softcap = 0;

  /// Is key `k` visible to query row `q` of a sequence of lengths sq, skv?
  bool visible(int64_t q, int64_t k, int64_t sq, int64_t skv) const;
};

/// Sizes of a problem: heads, head dim and each sequence's lengths.
struct ProblemShape {
  int64_t headsQ = 1, headsKv = 1, headDim = 1;
  std::vector<int64_t> seqQ, seqKv;

  /// Offset of sequence `b`'s first row among all query (key) rows.
  int64_t firstRowQ(int64_t b) const;
  int64_t firstRowKv(int64_t b) const;
  int64_t totalQ() const { return firstRowQ(int64_t(seqQ.size())); }
  int64_t totalKv() const { return firstRowKv(int64_t(seqKv.size())); }
  /// Canonical element offset of (b, h, row, 0) in a q-like (kv-like) tensor.
  int64_t offsetQ(int64_t b, int64_t h, int64_t row) const;
  int64_t offsetKv(int64_t b, int64_t h, int64_t row) const;
  /// Offset of LSE (b, h, row).
  int64_t offsetLse(int64_t b, int64_t h, int64_t row) const;
};

/// O and LSE: LSE = log(sum over visible keys of exp(s) [+ exp(sink[h])]),
/// -inf for a row that sees no key and has no sink; O = sum of
/// exp(s - LSE) v (0 for such a row). `sinks` empty means none.
void referenceForward(const ProblemShape &shape, const BandSpec &band,
                      const std::vector<double> &sinks,
                      const std::vector<double> &q,
                      const std::vector<double> &k,
                      const std::vector<double> &v, std::vector<double> &o,
                      std::vector<double> &lse);

/// Gradients of the forward for output gradient `dout`, given the O the
/// kernels are handed (`o`, rounded as they see it: Delta = rowsum(dO * O)
/// is formed from it) and the exact LSE. dS = P (dP - Delta), times
/// 1 - (S / c)^2 with a softcap; dQ = scale dS K, dK = scale dS^T Q summed
/// over a kv head's query heads, dV = P^T dO likewise; dsink[h] = -sum
/// exp(sink[h] - LSE) Delta. `dqTerms` / `dkTerms`, if given, receive dQ and
/// dK with every dS replaced by P (|dP| + |Delta|): the size of the terms
/// whose difference dS is, which bounds what rounding in them can leave
/// where dP and Delta cancel.
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
                       std::vector<double> *dqTerms = nullptr,
                       std::vector<double> *dkTerms = nullptr);

} // namespace sdpa::check

#endif // SDPARUNTIME_CHECK_ATTENTIONREFERENCE_H
