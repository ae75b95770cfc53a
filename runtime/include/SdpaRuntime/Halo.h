//===- Halo.h - Key and query ranges of a band over row ranges --*- C++ -*-===//
//
// The context-parallel halo (docs/ContextParallel.md): which keys the rows
// [q0, q1) of one sequence see under a band, and which rows see the keys
// [k0, k1). These are the forward and backward tile bounds of
// docs/Semantics.md §3.2-3.3 with one tile spanning the whole range on one
// side and tiles of one element on the other, written over integers so that
// the runtime and its Python wrapper need no MLIR. Pure C++, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_HALO_H
#define SDPARUNTIME_HALO_H

#include <cstdint>
#include <string>

namespace sdpa::runtime {

/// The largest length or width accepted (the kernels index in 32 bits).
constexpr int64_t kMaxHaloExtent = (int64_t(1) << 31) - 1;

/// A band as the C API passes it: an edge of -1 is unbounded.
struct BandEdges {
  int64_t left = -1;
  int64_t right = -1;
  bool bottomRight = false;
};

/// A half-open range of indices; an empty one is [0, 0).
struct IndexRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool empty() const { return begin == end; }
  bool operator==(const IndexRange &o) const {
    return begin == o.begin && end == o.end;
  }
};

/// Checks a band, the lengths and a range [begin, end) of one side
/// (`rangeName` is "q" or "kv", `side` its length); returns "" or the
/// problem, naming the argument.
std::string checkHaloArgs(const BandEdges &band, int64_t seqQ, int64_t seqKv,
                          const char *rangeName, int64_t begin, int64_t end,
                          int64_t side);

/// The keys the rows `rows` see (docs/Semantics.md §3.2):
///   [max(0, q0 + delta - L), min(Skv - 1, q1 - 1 + delta + R)],
/// the union of the rows' intervals, which is one interval; [0, 0) if no row
/// sees a key. Arguments must pass checkHaloArgs.
IndexRange keysSeenBy(const BandEdges &band, int64_t seqQ, int64_t seqKv,
                      IndexRange rows);

/// The rows that see a key of `keys` (docs/Semantics.md §3.3):
///   [max(0, k0 - delta - R), min(Sq - 1, k1 - 1 - delta + L)],
/// or [0, 0). The transpose of keysSeenBy: rows r see a key of keys iff
/// keysSeenBy(r) meets keys.
IndexRange rowsSeeing(const BandEdges &band, int64_t seqQ, int64_t seqKv,
                      IndexRange keys);

} // namespace sdpa::runtime

#endif // SDPARUNTIME_HALO_H
