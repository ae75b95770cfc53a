//===- Band.h - The band mask of windowed attention -------------*- C++ -*-===//
//
// The one mask form of the project (docs/Semantics.md §1): cell (q, k) of a
// sequence with Sq query rows and Skv key rows is visible iff
//   0 <= q < Sq, 0 <= k < Skv and a(q) - L <= k <= a(q) + R,
// where a(q) = q + delta is the anchor of row q, delta = 0 for top-left and
// Skv - Sq for bottom-right alignment, and an unbounded edge drops its term.
//
// Pure C++: no IR. Everything that reasons about the mask starts here.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_ANALYSIS_BAND_H
#define SDPADIALECT_ANALYSIS_BAND_H

#include <cstdint>
#include <optional>

namespace mlir::sdpa {

/// Which diagonal the band is anchored to.
enum class Alignment : uint32_t {
  /// delta = 0: row q is anchored at key q.
  TopLeft = 0,
  /// delta = Skv - Sq: the last row is anchored at the last key.
  BottomRight = 1,
};

/// A band of visible keys around each row's anchor. An edge that is
/// `std::nullopt` is unbounded: it is absent, never a huge integer.
struct Band {
  /// Past keys visible to the left of the anchor (L >= 0), or unbounded.
  std::optional<int64_t> left;
  /// Future keys visible to the right of the anchor (R >= 0), or unbounded.
  std::optional<int64_t> right;
  Alignment align = Alignment::TopLeft;

  /// The diagonal offset delta for a sequence of the given lengths.
  int64_t diagonalOffset(int64_t seqQ, int64_t seqKv) const {
    return align == Alignment::BottomRight ? seqKv - seqQ : 0;
  }

  /// The definition of the mask, cell by cell. This is the brute-force
  /// reference every derived bound is tested against.
  bool isVisible(int64_t q, int64_t k, int64_t seqQ, int64_t seqKv) const {
    if (q < 0 || q >= seqQ || k < 0 || k >= seqKv)
      return false;
    int64_t anchor = q + diagonalOffset(seqQ, seqKv);
    if (left && k < anchor - *left)
      return false;
    if (right && k > anchor + *right)
      return false;
    return true;
  }

  bool operator==(const Band &other) const {
    return left == other.left && right == other.right && align == other.align;
  }
  bool operator!=(const Band &other) const { return !(*this == other); }
};

/// The canonical form of `band` for the given lengths (either may be unknown):
/// an edge that cannot mask any cell of the Sq x Skv rectangle becomes
/// unbounded, and a bottom-right band becomes the equal top-left band
/// (L - delta, R + delta) where both widths stay non-negative (always when
/// Sq == Skv or both edges are unbounded). Equal masks get one form.
///
/// The left edge bites iff some row has a(q) - L > 0, i.e. L < Sq - 1 + delta;
/// the right edge bites iff some row has a(q) + R < Skv - 1, i.e.
/// R < Skv - 1 - delta (for Sq, Skv >= 1).
Band canonicalizeBand(Band band, std::optional<int64_t> seqQ,
                      std::optional<int64_t> seqKv);

} // namespace mlir::sdpa

#endif // SDPADIALECT_ANALYSIS_BAND_H
