//===- Json.h - A strict JSON reader for backend configs --------*- C++ -*-===//
//
// The importer's JSON parser (RFC 8259, nothing more): a tree that keeps
// where each value starts, numbers exactly as written, and object members in
// text order. Duplicate keys, nesting deeper than kMaxDepth, invalid UTF-8,
// control characters in strings and text after the value are errors with
// their line and column; no input crashes it or exhausts the stack.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_JSON_H
#define SDPADIALECT_LIB_IMPORT_JSON_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace mlir::sdpa::import::json {

/// Arrays and objects nest at most this deep (JAX's backend configs: 4).
constexpr unsigned kMaxDepth = 64;

struct Member;

/// One JSON value and the byte offset of its first character.
struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  size_t offset = 0;
  bool boolean = false;
  /// A number's token as written (`-12`, `1.5e3`), or a string's decoded
  /// UTF-8 text.
  std::string text;
  std::vector<Value> elements;
  /// In text order; the keys are unique.
  std::vector<Member> members;

  /// The member `key` of an object, or null.
  const Value *find(llvm::StringRef key) const;
};

/// One member of an object.
struct Member {
  std::string key;
  size_t keyOffset = 0;
  Value value;
};

/// "a bool", "a number", ... for diagnostics.
llvm::StringRef describeKind(Value::Kind kind);

/// "line L, column C" of byte `offset` of `text` (1-based; columns count
/// bytes).
std::string describeOffset(llvm::StringRef text, size_t offset);

/// Parses `text` as exactly one JSON value. On failure returns nullopt and
/// sets `error` to "line L, column C: what was expected".
std::optional<Value> parse(llvm::StringRef text, std::string &error);

} // namespace mlir::sdpa::import::json

#endif // SDPADIALECT_LIB_IMPORT_JSON_H
