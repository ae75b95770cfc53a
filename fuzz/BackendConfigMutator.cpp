//===- BackendConfigMutator.cpp - Structure-aware backend_config mutations -===//
//
// libFuzzer's custom mutator for sdpa-import-fuzzer. Byte mutations of the
// StableHLO text rarely keep a cuDNN backend_config valid JSON, so they
// seldom reach the schema's checks. Half of the mutations here instead
// decode one `backend_config = "..."` string, parse it with the importer's
// own JSON parser, change the tree (a value replaced by an edge case, a key
// of the schema added, misspelt, duplicated or removed, a value nested deep,
// a subtree copied elsewhere) and write it back; the other half, and every
// input without a parseable config, get libFuzzer's own mutations.
//
//===----------------------------------------------------------------------===//

#include "CudnnBackendConfig.h"
#include "Json.h"
#include "JsonSchema.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace mlir::sdpa::import;
using json::Value;
using llvm::StringRef;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

constexpr StringRef kAttribute = "backend_config = \"";

/// The body of an MLIR string literal, decoded (`\22`, `\"`, `\\`, `\n`,
/// `\t`); `end` receives the offset of the closing quote.
std::optional<std::string> decodeMlirString(StringRef text, size_t begin,
                                            size_t &end) {
  std::string out;
  for (size_t i = begin; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      end = i;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= text.size())
      return std::nullopt;
    char next = text[++i];
    if (next == 'n' || next == 't' || next == '"' || next == '\\') {
      out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
      continue;
    }
    if (i + 1 >= text.size() || !llvm::isHexDigit(next) ||
        !llvm::isHexDigit(text[i + 1]))
      return std::nullopt;
    out += static_cast<char>(llvm::hexDigitValue(next) * 16 +
                             llvm::hexDigitValue(text[i + 1]));
    ++i;
  }
  return std::nullopt;
}

/// `bytes` as the body of an MLIR string literal (JAX's `\22` for quotes).
std::string encodeMlirString(StringRef bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
      out += '\\';
      out += llvm::hexdigit(c >> 4);
      out += llvm::hexdigit(c & 15);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

void writeString(StringRef text, std::string &out) {
  out += '"';
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += "\\u00";
      out += llvm::hexdigit(c >> 4, /*LowerCase=*/true);
      out += llvm::hexdigit(c & 15, /*LowerCase=*/true);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

/// JSON text of `value`; duplicate keys, if the mutation made any, stay.
void write(const Value &value, std::string &out) {
  switch (value.kind) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += value.boolean ? "true" : "false";
    return;
  case Value::Kind::Number:
    out += value.text;
    return;
  case Value::Kind::String:
    writeString(value.text, out);
    return;
  case Value::Kind::Array:
    out += '[';
    for (size_t i = 0; i < value.elements.size(); ++i) {
      if (i)
        out += ", ";
      write(value.elements[i], out);
    }
    out += ']';
    return;
  case Value::Kind::Object:
    out += '{';
    for (size_t i = 0; i < value.members.size(); ++i) {
      if (i)
        out += ", ";
      writeString(value.members[i].key, out);
      out += ": ";
      write(value.members[i].value, out);
    }
    out += '}';
    return;
  }
}

/// Every key and enum name of the schema, for insertions and renames.
void collectNames(const json::Schema &schema, std::vector<std::string> &keys,
                  std::vector<std::string> &names, unsigned depth = 0) {
  if (depth > 8)
    return;
  for (const json::Field &field : schema.fields) {
    keys.push_back(field.key.str());
    collectNames(field.schema, keys, names, depth + 1);
  }
  for (StringRef name : schema.names)
    names.push_back(name.str());
  if (schema.element)
    collectNames(*schema.element, keys, names, depth + 1);
}

struct Mutator {
  std::mt19937_64 rng;
  std::vector<std::string> keys, names;

  explicit Mutator(unsigned seed) : rng(seed) {
    collectNames(getCudnnBackendConfigSchema(), keys, names);
  }

  size_t pick(size_t n) { return n ? rng() % n : 0; }

  /// A value at an edge of some check: integer ranges of int32 and int64,
  /// integers as strings, non-integers, non-finite numbers, other kinds.
  Value edgeCase() {
    static const char *const numbers[] = {
        "0",           "1",          "-1",
        "2",           "127",        "2147483647",
        "2147483648",  "-2147483649", "4294967296",
        "1099511627776", "9223372036854775807", "9223372036854775808",
        "18446744073709551621", "0.5", "1.5", "-0.0", "1e400", "1e-50",
        "1e300",       "0.125"};
    Value value;
    switch (pick(5)) {
    case 0:
      value.kind = Value::Kind::Number;
      value.text = numbers[pick(std::size(numbers))];
      break;
    case 1:
      value.kind = Value::Kind::String;
      value.text = pick(2) ? numbers[pick(std::size(numbers))]
                           : names[pick(names.size())];
      break;
    case 2:
      value.kind = Value::Kind::Bool;
      value.boolean = pick(2);
      break;
    case 3:
      value.kind = pick(2) ? Value::Kind::Array : Value::Kind::Object;
      break;
    default:
      value.kind = Value::Kind::Null;
      break;
    }
    return value;
  }

  /// A key of the schema, sometimes misspelt by one character.
  std::string key() {
    std::string k = keys[pick(keys.size())];
    if (pick(4) == 0 && !k.empty())
      k.erase(pick(k.size()), 1);
    return k;
  }

  void collect(Value &value, std::vector<Value *> &all) {
    all.push_back(&value);
    for (Value &element : value.elements)
      collect(element, all);
    for (json::Member &member : value.members)
      collect(member.value, all);
  }

  void mutate(Value &root) {
    std::vector<Value *> all;
    collect(root, all);
    Value &target = *all[pick(all.size())];
    // Replace, add a key, remove, duplicate, copy a subtree: alike; deep
    // nesting (which stops the parse at the limit) in 1 of 16.
    constexpr size_t kNest = 5;
    switch (pick(16) == 0 ? kNest : pick(5)) {
    case 0:
      target = edgeCase();
      return;
    case 1: // add a schema key (or a misspelling), maybe one already there
      if (target.kind == Value::Kind::Object) {
        json::Member member;
        member.key = key();
        member.value = edgeCase();
        target.members.insert(
            target.members.begin() + pick(target.members.size() + 1),
            std::move(member));
      } else {
        target = edgeCase();
      }
      return;
    case 2: // remove a member or an element
      if (!target.members.empty())
        target.members.erase(target.members.begin() +
                             pick(target.members.size()));
      else if (!target.elements.empty())
        target.elements.erase(target.elements.begin() +
                              pick(target.elements.size()));
      return;
    case 3: // duplicate a member (the same key twice) or an element
      if (!target.members.empty()) {
        json::Member copy = target.members[pick(target.members.size())];
        target.members.push_back(std::move(copy));
      } else if (!target.elements.empty()) {
        Value copy = target.elements[pick(target.elements.size())];
        target.elements.push_back(std::move(copy));
      }
      return;
    case kNest: { // nest the value in arrays, around the depth limit
      size_t depth = pick(2) ? json::kMaxDepth - 8 + pick(16) : pick(2000);
      for (size_t i = 0; i < depth; ++i) {
        Value wrapper;
        wrapper.kind = Value::Kind::Array;
        wrapper.elements.push_back(std::move(target));
        target = std::move(wrapper);
      }
      return;
    }
    default: { // copy one subtree over another
      Value copy = *all[pick(all.size())];
      target = std::move(copy);
      return;
    }
    }
  }
};

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  Mutator mutator(seed);
  StringRef text(reinterpret_cast<const char *>(data), size);
  std::vector<size_t> starts;
  for (size_t at = text.find(kAttribute); at != StringRef::npos;
       at = text.find(kAttribute, at + 1))
    starts.push_back(at + kAttribute.size());
  if (starts.empty() || mutator.pick(2))
    return LLVMFuzzerMutate(data, size, maxSize);

  size_t begin = starts[mutator.pick(starts.size())], end = 0;
  std::optional<std::string> config = decodeMlirString(text, begin, end);
  std::string error;
  std::optional<Value> root =
      config ? json::parse(*config, error) : std::nullopt;
  if (!root)
    return LLVMFuzzerMutate(data, size, maxSize);
  for (size_t rounds = 1 + mutator.pick(3); rounds > 0; --rounds)
    mutator.mutate(*root);
  std::string json;
  write(*root, json);
  std::string result = text.take_front(begin).str() + encodeMlirString(json) +
                       text.drop_front(end).str();
  if (result.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, result.data(), result.size());
  return result.size();
}
