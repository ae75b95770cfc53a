//===- JsonSchema.cpp - Declarative checks of parsed JSON -----------------===//
//
// Walks a parsed value and its schema together; the first mismatch is the
// error.
//
//===----------------------------------------------------------------------===//

#include "JsonSchema.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::sdpa::import;
using json::Schema;
using json::Value;
using llvm::StringRef;

/// Whether `text` is `-? (0 | [1-9][0-9]*)`.
static bool isIntegerText(StringRef text) {
  StringRef digits = text;
  digits.consume_front("-");
  if (digits.empty() || !llvm::all_of(digits, llvm::isDigit))
    return false;
  return digits == "0" || digits.front() != '0';
}

/// The text of an integer value (a number or a string of digits), or null.
static const std::string *integerText(const Value &value) {
  if (value.kind != Value::Kind::Number && value.kind != Value::Kind::String)
    return nullptr;
  return isIntegerText(value.text) ? &value.text : nullptr;
}

int64_t json::getInteger(const Value &value) {
  int64_t result = 0;
  if (const std::string *text = integerText(value))
    (void)StringRef(*text).getAsInteger(10, result);
  return result;
}

double json::getNumber(const Value &value) {
  double result = 0;
  (void)StringRef(value.text).getAsDouble(result);
  return result;
}

namespace {

class Validator {
public:
  Validator(unsigned variant, StringRef root, StringRef variantName,
            std::string &error)
      : variant(variant), root(root), variantName(variantName),
        error(error) {}

  bool check(const Value &value, const Schema &schema, const std::string &path) {
    switch (schema.kind) {
    case Schema::Kind::Bool:
      if (value.kind != Value::Kind::Bool)
        return mismatch(path, "a bool", value);
      return true;
    case Schema::Kind::Integer:
      return checkInteger(value, schema, path);
    case Schema::Kind::Number: {
      double number;
      if (value.kind != Value::Kind::Number)
        return mismatch(path, "a number", value);
      if (StringRef(value.text).getAsDouble(number) || !std::isfinite(number))
        return fail("expected " + quote(path) + " to be a finite number, got " +
                    value.text);
      return true;
    }
    case Schema::Kind::Enum:
      return checkEnum(value, schema, path);
    case Schema::Kind::Object:
      return checkObject(value, schema, path);
    case Schema::Kind::Array:
      return checkArray(value, schema, path);
    case Schema::Kind::IntegerMap:
      return checkMap(value, schema, path);
    }
    return fail("unknown schema for " + quote(path));
  }

private:
  bool fail(const llvm::Twine &message) {
    error = message.str();
    return false;
  }

  std::string quote(const std::string &path) const {
    return "'" + (path.empty() ? root.str() : path) + "'";
  }

  /// `text` with quotes, backslashes and unprintable bytes escaped.
  static std::string escaped(StringRef text) {
    std::string result;
    llvm::raw_string_ostream os(result);
    llvm::printEscapedString(text, os);
    return result;
  }

  static std::string describe(const Value &value) {
    if (value.kind == Value::Kind::Number)
      return "the number " + value.text;
    if (value.kind == Value::Kind::String)
      return "the string \"" + escaped(value.text) + "\"";
    if (value.kind == Value::Kind::Bool)
      return value.boolean ? "true" : "false";
    return json::describeKind(value.kind).str();
  }

  bool mismatch(const std::string &path, StringRef expected,
                const Value &value) {
    return fail("expected " + quote(path) + " to be " + expected + ", got " +
                describe(value));
  }

  bool checkInteger(const Value &value, const Schema &schema,
                    const std::string &path) {
    bool fullRange = schema.min == std::numeric_limits<int64_t>::min() &&
                     schema.max == std::numeric_limits<int64_t>::max();
    std::string expected =
        fullRange ? std::string("a 64-bit integer")
                  : "an integer in [" + std::to_string(schema.min) + ", " +
                        std::to_string(schema.max) + "]";
    const std::string *text = integerText(value);
    if (!text)
      return mismatch(path, expected, value);
    int64_t number;
    if (StringRef(*text).getAsInteger(10, number) || number < schema.min ||
        number > schema.max)
      return fail("expected " + quote(path) + " to be " + expected +
                  ", got " + *text);
    return true;
  }

  bool checkEnum(const Value &value, const Schema &schema,
                 const std::string &path) {
    if (value.kind == Value::Kind::String &&
        llvm::is_contained(schema.names, value.text))
      return true;
    std::string names;
    for (auto [i, name] : llvm::enumerate(schema.names))
      names += (i ? ", " : "") + name.str();
    return mismatch(path, "one of " + names, value);
  }

  bool checkObject(const Value &value, const Schema &schema,
                   const std::string &path) {
    if (value.kind != Value::Kind::Object)
      return mismatch(path, "an object", value);
    std::string prefix = path.empty() ? "" : path + ".";
    for (const json::Member &member : value.members) {
      const json::Field *field = llvm::find_if(
          schema.fields, [&](const json::Field &f) { return f.key == member.key; });
      std::string name = prefix + escaped(member.key);
      if (field == schema.fields.end())
        return fail("unknown key '" + name + "'");
      if (!(field->allowed & variant))
        return fail("unexpected key '" + name + "' in " + variantName);
      if (!check(member.value, field->schema, name))
        return false;
    }
    for (const json::Field &field : schema.fields)
      if ((field.required & variant) && !value.find(field.key))
        return fail("missing key '" + prefix + field.key.str() + "'");
    return true;
  }

  bool checkArray(const Value &value, const Schema &schema,
                  const std::string &path) {
    if (value.kind != Value::Kind::Array)
      return mismatch(path, schema.element ? "an array" : "an empty array",
                      value);
    if (!schema.element && !value.elements.empty())
      return fail("expected " + quote(path) + " to be an empty array");
    for (auto [i, element] : llvm::enumerate(value.elements))
      if (!check(element, *schema.element,
                 path + "[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  bool checkMap(const Value &value, const Schema &schema,
                const std::string &path) {
    if (value.kind != Value::Kind::Object)
      return mismatch(path, "an object", value);
    for (const json::Member &member : value.members) {
      int64_t key;
      if (!isIntegerText(member.key) ||
          StringRef(member.key).getAsInteger(10, key))
        return fail("expected the keys of " + quote(path) +
                    " to be 64-bit integers, got '" + escaped(member.key) +
                    "'");
      if (!check(member.value, *schema.element,
                 path + "." + member.key))
        return false;
    }
    return true;
  }

  unsigned variant;
  StringRef root;
  StringRef variantName;
  std::string &error;
};

} // namespace

bool json::validate(const Value &value, const Schema &schema, unsigned variant,
                    StringRef root, StringRef variantName,
                    std::string &error) {
  return Validator(variant, root, variantName, error).check(value, schema, "");
}
