//===- Site.h - Values seen through calls to private helpers ----*- C++ -*-===//
//
// JAX outlines pieces of a graph into private functions (`@_where`,
// `@tril`). The decomposed-graph matcher reads through them: a Site is a
// value together with the calls that lead into the body that defines it.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_SITE_H
#define SDPADIALECT_LIB_IMPORT_SITE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sdpa::import {

/// `value` as defined inside the body reached by `calls` (outermost first);
/// with no calls, a value of the function being imported.
struct Site {
  Value value;
  SmallVector<func::CallOp, 2> calls;
  /// Set by resolve() when the calls nest deeper than kMaxCallDepth (a
  /// recursive helper): the value is then the call's result, unresolved.
  bool truncated = false;

  /// How deep calls may nest before resolve() gives up.
  static constexpr unsigned kMaxCallDepth = 64;

  /// Follows block arguments of callees out to the call's operand and call
  /// results into the callee's `func.return` operand, until the value is
  /// defined by an op that is not a call (or is an argument of the root
  /// function). Calls to functions without a single-block body stay as
  /// they are.
  Site resolve() const;

  /// The site of operand `i` of the op defining this site's value.
  Site operand(unsigned i) const;

  /// The op defining the resolved value, or null for a root argument.
  Operation *getDefiningOp() const { return value.getDefiningOp(); }

  bool operator==(const Site &other) const {
    return value == other.value && calls == other.calls;
  }

  /// Identifies the site (value and call path) as a map key.
  SmallVector<const void *, 4> key() const;
};

/// How deep the analyses of a graph recurse before they decline.
constexpr unsigned kMaxGraphDepth = 512;

} // namespace mlir::sdpa::import

#endif // SDPADIALECT_LIB_IMPORT_SITE_H
