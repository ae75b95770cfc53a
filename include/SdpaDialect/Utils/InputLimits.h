//===- InputLimits.h - Limits checked on textual IR before parsing -*- C++ -*-===//
//
// MLIR's parser, printer and affine simplifier recurse once per nesting
// level of the IR: a function type, tuple or array nested some 20,000
// levels deep, the same depth reached through a chain of type or attribute
// aliases, or an affine expression of some 100,000 terms overflows the
// stack of `sdpa-opt` (and of upstream `mlir-opt`). These limits are checked
// on the text before MLIR sees it, by a scan linear in its length, so that
// such input gets a diagnostic with its position instead of a crash
// (docs/Robustness.md, "Limits on textual input"). They sit far above what
// any real module needs (JAX's deepest modules nest about 20 levels) and
// far below where the stack runs out.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_UTILS_INPUTLIMITS_H
#define SDPADIALECT_UTILS_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace llvm {
class MemoryBufferRef;
} // namespace llvm

namespace mlir::sdpa {

/// The limits `findInputLimitViolation` checks.
struct InputLimits {
  /// Brackets `(`, `[`, `{`, `<` open inside each other at most this deep,
  /// counting through aliases: a use of `#a` or `!a` nests as deep as the
  /// definition of the alias does, below the brackets around the use.
  unsigned maxNestingDepth = 256;
  /// An `affine_map<...>` or `affine_set<...>` holds at most this many
  /// operators (`+`, `-`, `*`, `floordiv`, `ceildiv`, `mod`).
  unsigned maxAffineOperators = 4096;
};

/// Where textual IR first exceeds a limit: the byte offset of the token that
/// does, and what it exceeds.
struct InputLimitViolation {
  size_t offset;
  std::string message;
};

/// Scans `text` as MLIR's lexer splits it (string literals and `//`
/// comments hold no brackets; `->` and `>=` close none) and returns the first
/// place where it exceeds `limits`, or nothing.
std::optional<InputLimitViolation>
findInputLimitViolation(llvm::StringRef text, const InputLimits &limits = {});

/// `findInputLimitViolation` on a buffer `sdpa-opt` reads: MLIR bytecode
/// (which is not text) is not scanned.
std::optional<InputLimitViolation>
findInputLimitViolation(llvm::MemoryBufferRef buffer,
                        const InputLimits &limits = {});

} // namespace mlir::sdpa

#endif // SDPADIALECT_UTILS_INPUTLIMITS_H
