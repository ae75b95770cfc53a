//===- JsonSchema.h - Declarative checks of parsed JSON ---------*- C++ -*-===//
//
// A schema says what every key of a JSON document must be: its kind, its
// range or allowed names, whether it must be present. Validation rejects
// any key the schema does not list, so a misspelt or new key never passes
// unread. Errors name the key by its path ("a.b[2].c").
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_JSONSCHEMA_H
#define SDPADIALECT_LIB_IMPORT_JSONSCHEMA_H

#include "Json.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <limits>

namespace mlir::sdpa::import::json {

struct Field;

/// What one JSON value must be.
struct Schema {
  enum class Kind {
    Bool,
    /// An integer in [min, max], as a number or as a string of digits (the
    /// two JSON forms protobuf reads for int32 and int64).
    Integer,
    /// A finite number.
    Number,
    /// A string, one of `names`.
    Enum,
    /// An object with keys from `fields` only.
    Object,
    /// An array of `element`s; with no `element`, an empty array.
    Array,
    /// An object whose keys are integers (protobuf's `map<int64, ...>`) and
    /// whose values are `element`s.
    IntegerMap,
  };

  Kind kind;
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
  llvm::ArrayRef<llvm::StringLiteral> names = {};
  llvm::ArrayRef<Field> fields = {};
  const Schema *element = nullptr;

  static constexpr Schema boolean() { return {Kind::Bool}; }
  static constexpr Schema
  integer(int64_t min = std::numeric_limits<int64_t>::min(),
          int64_t max = std::numeric_limits<int64_t>::max()) {
    return {Kind::Integer, min, max};
  }
  static constexpr Schema number() { return {Kind::Number}; }
  static constexpr Schema oneOf(llvm::ArrayRef<llvm::StringLiteral> names) {
    Schema schema{Kind::Enum};
    schema.names = names;
    return schema;
  }
  static constexpr Schema object(llvm::ArrayRef<Field> fields) {
    Schema schema{Kind::Object};
    schema.fields = fields;
    return schema;
  }
  static constexpr Schema arrayOf(const Schema *element) {
    Schema schema{Kind::Array};
    schema.element = element;
    return schema;
  }
  static constexpr Schema emptyArray() { return {Kind::Array}; }
  static constexpr Schema integerMap(const Schema *element) {
    Schema schema{Kind::IntegerMap};
    schema.element = element;
    return schema;
  }
};

/// One key of an object schema. `allowed` and `required` are sets of
/// variant bits (e.g. forward and backward calls of one config).
struct Field {
  llvm::StringLiteral key;
  Schema schema;
  unsigned allowed = ~0u;
  unsigned required = 0;
};

/// Checks `value` against `schema` in variant `variant` (one bit). On
/// failure returns false and sets `error`, naming the key by its path;
/// `root` names the document itself, `variantName` the variant ("a
/// backward call").
bool validate(const Value &value, const Schema &schema, unsigned variant,
              llvm::StringRef root, llvm::StringRef variantName,
              std::string &error);

/// The integer a value that passed an Integer schema holds.
int64_t getInteger(const Value &value);

/// The number a value that passed a Number schema holds.
double getNumber(const Value &value);

} // namespace mlir::sdpa::import::json

#endif // SDPADIALECT_LIB_IMPORT_JSONSCHEMA_H
