//===- Band.cpp - Canonical form of a band mask ---------------------------===//
//
// Implements canonicalizeBand: equal masks get one form (docs/Semantics.md §1).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/Band.h"

namespace mlir::sdpa {

Band canonicalizeBand(Band band, std::optional<int64_t> seqQ,
                      std::optional<int64_t> seqKv) {
  if (seqQ && seqKv && *seqQ >= 1 && *seqKv >= 1) {
    int64_t delta = band.diagonalOffset(*seqQ, *seqKv);
    // Largest anchor minus L must exceed the first key for the left edge to
    // mask anything; smallest anchor plus R must fall short of the last key
    // for the right edge to.
    if (band.left && *band.left >= *seqQ - 1 + delta)
      band.left.reset();
    if (band.right && *band.right >= *seqKv - 1 - delta)
      band.right.reset();
    // A bottom-right band is the top-left band shifted by delta; prefer
    // top-left whenever the shifted widths stay non-negative.
    if (band.align == Alignment::BottomRight &&
        (!band.left || *band.left >= delta) &&
        (!band.right || *band.right >= -delta)) {
      if (band.left)
        *band.left -= delta;
      if (band.right)
        *band.right += delta;
      band.align = Alignment::TopLeft;
    }
  }
  if (!band.left && !band.right)
    band.align = Alignment::TopLeft;
  return band;
}

} // namespace mlir::sdpa
