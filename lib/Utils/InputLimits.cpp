//===- InputLimits.cpp - Limits checked on textual IR before parsing ------===//
//
// One pass over the text with a small lexer of its own: it only needs to
// know what holds no brackets (string literals, comments), which `>` closes
// none (`->`, `>=`), where an alias is defined and used, and where an affine
// map or set begins and ends. It never fails on text MLIR would reject: it
// only measures, and MLIR's parser gives the diagnostics for the rest.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Utils/InputLimits.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <algorithm>

namespace mlir::sdpa {
namespace {

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/// The characters of a bare identifier after its first.
bool isBareIdentifierChar(char c) {
  return isIdentifierStart(c) || (c >= '0' && c <= '9') || c == '$' ||
         c == '.';
}

/// The characters of a suffix identifier after `#`, `!`, `%`, `@` or `^`
/// (the MLIR language reference's `suffix-id`).
bool isSuffixIdentifierChar(char c) {
  return isBareIdentifierChar(c) || c == '-';
}

class Scanner {
public:
  Scanner(llvm::StringRef text, const InputLimits &limits)
      : text(text), limits(limits) {}

  std::optional<InputLimitViolation> run() {
    while (pos < text.size() && !violation) {
      char c = text[pos];
      if (c == '"') {
        skipString();
      } else if (c == '/' && peek(1) == '/') {
        skipLine();
      } else if (c == '\n') {
        endOfLine();
        ++pos;
      } else if (c == '(' || c == '[' || c == '{' || c == '<') {
        open();
      } else if (c == ')' || c == ']' || c == '}') {
        close();
      } else if (c == '>') {
        // `->` is the arrow and `>=` a comparison (affine sets): neither
        // closes an angle bracket.
        if ((pos > 0 && text[pos - 1] == '-') || peek(1) == '=')
          ++pos;
        else
          close();
      } else if (c == '#' || c == '!') {
        aliasToken();
      } else if (c == '%' || c == '@' || c == '^') {
        ++pos;
        skipSuffixIdentifier();
      } else if (isIdentifierStart(c)) {
        bareIdentifier();
      } else {
        if (insideAffine() && (c == '+' || c == '*' ||
                               (c == '-' && peek(1) != '>')))
          countAffineOperator();
        ++pos;
      }
    }
    endOfLine();
    return std::move(violation);
  }

private:
  char peek(size_t ahead) const {
    return pos + ahead < text.size() ? text[pos + ahead] : '\0';
  }

  void fail(size_t at, const llvm::Twine &message) {
    violation = InputLimitViolation{at, message.str()};
  }

  /// Records the nesting depth `depth` reached at `at`.
  void reach(unsigned depth, size_t at, llvm::StringRef through) {
    if (defining)
      definitionDepth = std::max(definitionDepth, depth);
    if (depth <= limits.maxNestingDepth)
      return;
    fail(at, llvm::Twine("IR nested deeper than ") +
                 llvm::Twine(limits.maxNestingDepth) + " levels" + through +
                 " (the limit keeps MLIR's recursive parser within its "
                 "stack)");
  }

  void open() {
    ++depth;
    reach(depth, pos, "");
    ++pos;
  }

  void close() {
    if (depth > 0)
      --depth;
    if (affineDepth && depth <= *affineDepth)
      affineDepth.reset();
    ++pos;
  }

  /// A string literal: up to the closing quote, `\` escaping the next
  /// character; MLIR ends an unterminated one at the line's end.
  void skipString() {
    for (++pos; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c == '\\') {
        ++pos;
      } else if (c == '"') {
        ++pos;
        return;
      } else if (c == '\n') {
        return;
      }
    }
  }

  void skipLine() {
    while (pos < text.size() && text[pos] != '\n')
      ++pos;
  }

  void skipSuffixIdentifier() {
    while (pos < text.size() && isSuffixIdentifierChar(text[pos]))
      ++pos;
  }

  /// A top-level alias definition ends with the line its brackets close on.
  void endOfLine() {
    if (defining && depth == 0) {
      aliasDepths[*defining] = definitionDepth;
      defining.reset();
    }
  }

  /// `#name` or `!name`: at the top level followed by `=`, an alias
  /// definition; elsewhere a use, nesting as deep as its definition.
  void aliasToken() {
    size_t start = pos;
    ++pos;
    if (peek(0) == '"') {
      skipString();
      return;
    }
    skipSuffixIdentifier();
    llvm::StringRef name = text.slice(start, pos);
    if (name.size() == 1)
      return;
    size_t next = pos;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t'))
      ++next;
    if (depth == 0 && !defining && next < text.size() && text[next] == '=' &&
        (next + 1 >= text.size() || text[next + 1] != '=')) {
      defining = name.str();
      definitionDepth = 0;
      return;
    }
    auto it = aliasDepths.find(name);
    if (it != aliasDepths.end())
      reach(depth + it->second, start,
            (llvm::Twine(" through alias '") + name + "'").str());
  }

  void bareIdentifier() {
    size_t start = pos;
    while (pos < text.size() && isBareIdentifierChar(text[pos]))
      ++pos;
    llvm::StringRef word = text.slice(start, pos);
    if (insideAffine()) {
      if (word == "floordiv" || word == "ceildiv" || word == "mod")
        countAffineOperator();
      return;
    }
    if (word != "affine_map" && word != "affine_set")
      return;
    size_t next = pos;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t'))
      ++next;
    if (next < text.size() && text[next] == '<') {
      affineDepth = depth;
      affineOperators = 0;
      affineStart = start;
    }
  }

  bool insideAffine() const { return affineDepth && depth > *affineDepth; }

  void countAffineOperator() {
    if (++affineOperators <= limits.maxAffineOperators)
      return;
    fail(affineStart, llvm::Twine("affine map or set with more than ") +
                          llvm::Twine(limits.maxAffineOperators) +
                          " operators (the limit keeps MLIR's recursive "
                          "affine simplifier within its stack)");
  }

  llvm::StringRef text;
  const InputLimits &limits;
  size_t pos = 0;
  unsigned depth = 0;
  std::optional<InputLimitViolation> violation;
  /// The deepest nesting of each alias defined so far, 0 for one without
  /// brackets.
  llvm::StringMap<unsigned> aliasDepths;
  /// The alias whose definition is being read, and its deepest nesting.
  std::optional<std::string> defining;
  unsigned definitionDepth = 0;
  /// Inside an affine map or set: the depth outside its `<`, where it
  /// starts, and the operators seen.
  std::optional<unsigned> affineDepth;
  size_t affineStart = 0;
  unsigned affineOperators = 0;
};

} // namespace

std::optional<InputLimitViolation>
findInputLimitViolation(llvm::StringRef text, const InputLimits &limits) {
  return Scanner(text, limits).run();
}

std::optional<InputLimitViolation>
findInputLimitViolation(llvm::MemoryBufferRef buffer,
                        const InputLimits &limits) {
  if (isBytecode(buffer))
    return std::nullopt;
  return findInputLimitViolation(buffer.getBuffer(), limits);
}

} // namespace mlir::sdpa
