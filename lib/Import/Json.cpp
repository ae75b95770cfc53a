//===- Json.cpp - A strict JSON reader for backend configs ----------------===//
//
// A recursive-descent parser of RFC 8259 JSON with a depth limit, duplicate
// key detection and exact error positions.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/JSON.h"

#include <tuple>

using namespace mlir::sdpa::import;
using json::Value;
using llvm::StringRef;

const Value *Value::find(StringRef key) const {
  for (const Member &member : members)
    if (member.key == key)
      return &member.value;
  return nullptr;
}

StringRef json::describeKind(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "a bool";
  case Value::Kind::Number:
    return "a number";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Array:
    return "an array";
  case Value::Kind::Object:
    return "an object";
  }
  return "a value";
}

std::string json::describeOffset(StringRef text, size_t offset) {
  StringRef before = text.take_front(offset);
  size_t line = before.count('\n') + 1;
  size_t lineStart = before.rfind('\n');
  size_t column = lineStart == StringRef::npos ? offset + 1
                                               : offset - lineStart;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

namespace {

class Parser {
public:
  explicit Parser(StringRef text) : text(text) {}

  std::optional<Value> run(std::string &error) {
    std::optional<Value> value = parseValue(0);
    if (value) {
      skipSpace();
      if (pos != text.size())
        fail("unexpected text after the JSON value");
    }
    if (!message.empty()) {
      error = json::describeOffset(text, errorOffset) + ": " + message;
      return std::nullopt;
    }
    return value;
  }

private:
  /// Records the first error (at the current position unless given).
  std::nullopt_t fail(const llvm::Twine &what) { return failAt(pos, what); }
  std::nullopt_t failAt(size_t offset, const llvm::Twine &what) {
    if (message.empty()) {
      message = what.str();
      errorOffset = offset;
    }
    return std::nullopt;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  /// RFC 8259 whitespace: space, tab, line feed, carriage return.
  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  std::optional<Value> parseValue(unsigned depth) {
    skipSpace();
    Value value;
    value.offset = pos;
    if (atEnd())
      return fail("expected a JSON value, got the end of the text");
    char c = text[pos];
    if (c == '{' || c == '[') {
      if (depth >= json::kMaxDepth)
        return fail("arrays and objects nested deeper than " +
                    llvm::Twine(json::kMaxDepth) + " levels");
      return c == '{' ? parseObject(std::move(value), depth + 1)
                      : parseArray(std::move(value), depth + 1);
    }
    if (c == '"') {
      value.kind = Value::Kind::String;
      if (!parseString(value.text))
        return std::nullopt;
      return value;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(std::move(value));
    for (auto [word, kind, flag] :
         {std::tuple{StringRef("true"), Value::Kind::Bool, true},
          std::tuple{StringRef("false"), Value::Kind::Bool, false},
          std::tuple{StringRef("null"), Value::Kind::Null, false}}) {
      if (text.substr(pos).starts_with(word)) {
        pos += word.size();
        value.kind = kind;
        value.boolean = flag;
        return value;
      }
    }
    return fail("expected a JSON value");
  }

  std::optional<Value> parseObject(Value value, unsigned depth) {
    value.kind = Value::Kind::Object;
    ++pos; // '{'
    llvm::StringSet<> keys;
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return value;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return fail("expected a string as object key");
      json::Member member;
      member.keyOffset = pos;
      if (!parseString(member.key))
        return std::nullopt;
      if (!keys.insert(member.key).second)
        return failAt(member.keyOffset, "duplicate key '" + member.key + "'");
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after an object key");
      ++pos;
      std::optional<Value> element = parseValue(depth);
      if (!element)
        return std::nullopt;
      member.value = std::move(*element);
      value.members.push_back(std::move(member));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return value;
      }
      return fail("expected ',' or '}' in an object");
    }
  }

  std::optional<Value> parseArray(Value value, unsigned depth) {
    value.kind = Value::Kind::Array;
    ++pos; // '['
    skipSpace();
    if (peek() == ']') {
      ++pos;
      return value;
    }
    while (true) {
      std::optional<Value> element = parseValue(depth);
      if (!element)
        return std::nullopt;
      value.elements.push_back(std::move(*element));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return value;
      }
      return fail("expected ',' or ']' in an array");
    }
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
  std::optional<Value> parseNumber(Value value) {
    value.kind = Value::Kind::Number;
    size_t start = pos;
    auto digits = [&] {
      size_t first = pos;
      while (!atEnd() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos > first;
    };
    if (peek() == '-')
      ++pos;
    if (peek() == '0') {
      ++pos;
      if (peek() >= '0' && peek() <= '9')
        return fail("leading zeros are not allowed in a number");
    } else if (!digits()) {
      return fail("expected a digit");
    }
    if (peek() == '.') {
      ++pos;
      if (!digits())
        return fail("expected a digit after the decimal point");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!digits())
        return fail("expected a digit in the exponent");
    }
    value.text = text.slice(start, pos).str();
    return value;
  }

  /// Four hex digits of a `\u` escape.
  std::optional<unsigned> parseHex4() {
    if (pos + 4 > text.size())
      return fail("expected four hex digits after \\u");
    unsigned code = 0;
    for (char c : text.substr(pos, 4)) {
      unsigned digit = llvm::hexDigitValue(c);
      if (digit == ~0U)
        return fail("expected four hex digits after \\u");
      code = code * 16 + digit;
    }
    pos += 4;
    return code;
  }

  /// A string at `pos` (the opening quote), decoded into `out`.
  bool parseString(std::string &out) {
    ++pos; // '"'
    while (true) {
      size_t chunk = pos;
      while (!atEnd() && text[pos] != '"' && text[pos] != '\\' &&
             static_cast<unsigned char>(text[pos]) >= 0x20)
        ++pos;
      StringRef raw = text.slice(chunk, pos);
      size_t bad;
      if (!llvm::json::isUTF8(raw, &bad)) {
        failAt(chunk + bad, "invalid UTF-8 in a string");
        return false;
      }
      out += raw;
      if (atEnd()) {
        fail("unterminated string");
        return false;
      }
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (c != '\\') {
        fail("unescaped control character in a string");
        return false;
      }
      size_t escape = pos++;
      char kind = peek();
      ++pos;
      switch (kind) {
      case '"':
      case '\\':
      case '/':
        out += kind;
        continue;
      case 'b':
        out += '\b';
        continue;
      case 'f':
        out += '\f';
        continue;
      case 'n':
        out += '\n';
        continue;
      case 'r':
        out += '\r';
        continue;
      case 't':
        out += '\t';
        continue;
      case 'u':
        if (!parseCodePoint(escape, out))
          return false;
        continue;
      default:
        failAt(escape, "invalid escape in a string");
        return false;
      }
    }
  }

  /// The code point of a `\uXXXX` escape (a surrogate pair for code points
  /// past U+FFFF) appended to `out` as UTF-8.
  bool parseCodePoint(size_t escape, std::string &out) {
    std::optional<unsigned> code = parseHex4();
    if (!code)
      return false;
    if (*code >= 0xDC00 && *code <= 0xDFFF) {
      failAt(escape, "unpaired low surrogate in a string");
      return false;
    }
    if (*code >= 0xD800 && *code <= 0xDBFF) {
      if (!text.substr(pos).starts_with("\\u")) {
        failAt(escape, "unpaired high surrogate in a string");
        return false;
      }
      pos += 2;
      std::optional<unsigned> low = parseHex4();
      if (!low)
        return false;
      if (*low < 0xDC00 || *low > 0xDFFF) {
        failAt(escape, "unpaired high surrogate in a string");
        return false;
      }
      *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
    }
    char buffer[UNI_MAX_UTF8_BYTES_PER_CODE_POINT];
    char *end = buffer;
    llvm::ConvertCodePointToUTF8(*code, end);
    out.append(buffer, end);
    return true;
  }

  StringRef text;
  size_t pos = 0;
  std::string message;
  size_t errorOffset = 0;
};

} // namespace

std::optional<Value> json::parse(StringRef text, std::string &error) {
  return Parser(text).run(error);
}
