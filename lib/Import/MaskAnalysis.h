//===- MaskAnalysis.h - Recover and verify a band from a mask graph -*- C++ -*-===//
//
// The mask of a decomposed attention graph is a boolean tensor built from
// iota / index constants, adds and compares. Two independent readings of it:
//
// * symbolic: every integer value is affine in the indices of its tensor,
//   every compare a half-plane, `and` a conjunction; on the (q, k) plane a
//   conjunction of half-planes `q - k <= c`, `q - k >= c` is a band;
// * concrete: the graph evaluated cell by cell over its static shape.
//
// The importer accepts a band only when both agree on every cell.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_MASKANALYSIS_H
#define SDPADIALECT_LIB_IMPORT_MASKANALYSIS_H

#include "Site.h"
#include "SdpaDialect/Analysis/Band.h"

#include <string>
#include <vector>

namespace mlir::sdpa::import {

/// An integer tensor with its values, row-major.
struct IntTensor {
  SmallVector<int64_t, 4> shape;
  std::vector<int64_t> data;
};

/// Evaluates the integer/boolean subgraph defining `site` (following calls)
/// over its static shape. Fails with `why` on an op it does not evaluate or
/// a tensor larger than `maxElements`.
FailureOr<IntTensor> evaluateMask(const Site &site, std::string &why,
                                  int64_t maxElements = int64_t(1) << 26);

/// Recovers the band of the boolean `site`, a tensor whose dimension `qDim`
/// indexes query rows (`seqQ` of them) and `kDim` keys (`seqKv`); every other
/// dimension must not matter. Fails with `why` if the predicate is not a
/// conjunction of diagonal half-planes.
FailureOr<Band> recoverBand(const Site &site, unsigned qDim, unsigned kDim,
                            std::string &why);

/// Checks `mask` (the evaluated predicate) against `band` cell by cell.
/// Returns the number of cells checked, or fails with the first differing
/// cell in `why`.
FailureOr<int64_t> verifyBand(const IntTensor &mask, const Band &band,
                              unsigned qDim, unsigned kDim, std::string &why);

} // namespace mlir::sdpa::import

#endif // SDPADIALECT_LIB_IMPORT_MASKANALYSIS_H
