//===- PtxParserImpl.h - The PTX parser's internals -----------*- C++ -*-===//
//
// Shared by the parser's two translation units: PtxParser.cpp (module and
// body structure, operands, registers) and PtxOpcodeRules.cpp (one decoding
// rule per opcode). Not part of the emulator's interface (Parser.h is).
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_LIB_PTXPARSERIMPL_H
#define PTXEMULATOR_LIB_PTXPARSERIMPL_H

#include "PtxEmulator/Parser.h"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sdpa::emu::detail {

/// The type a modifier names ("s32" -> S32); false if it names none.
bool typeFromName(std::string_view name, Ty &ty);
/// .bN, .uN and .sN of 16 to 64 bits.
bool isIntTy(Ty ty);
/// .uN and .sN (the types integer arithmetic takes).
bool isArithIntTy(Ty ty);
/// .b16, .b32, .b64.
bool isBitTy(Ty ty);
/// The .bN type of `bits`.
Ty bitsTy(unsigned bits);
/// The integer type of twice the width of `ty`, with its signedness.
Ty wideTy(Ty ty);

/// A parsed, not yet typed operand.
struct Operand {
  enum Kind { Reg, Special, Int, F32Bits, F64Bits, Symbol, Vector, Address,
              Pair } kind = Int;
  /// Reg/Pair: slot and width of the (first) register; Special: its index.
  uint32_t slot = 0;
  unsigned width = 0;
  /// Pair: the second register.
  uint32_t slot2 = 0;
  unsigned width2 = 0;
  /// `!%p`.
  bool negated = false;
  /// Int / F32Bits / F64Bits value; Address offset.
  int64_t value = 0;
  /// Symbol name; Address symbol base (empty for a register base).
  std::string symbol;
  /// Address: base register (when no symbol) and whether there is one.
  bool hasBase = false;
  std::vector<Operand> elements;
};

/// A statement of a body, its line and whether it is a label.
struct Statement {
  std::string text;
  unsigned line = 0;
  bool label = false;
};

struct SharedDecl {
  std::string name;
  unsigned align = 1;
  unsigned size = 0;
  bool dynamic = false;
};

struct RegRange {
  uint32_t base = 0;
  uint32_t count = 0;
  unsigned width = 0;
};

/// Decodes the modifiers of an opcode, "setp.lt.s64" -> {"setp","lt","s64"}.
struct Mods {
  std::vector<std::string_view> parts;
  size_t next = 1;

  explicit Mods(std::string_view opcode) {
    size_t start = 0;
    for (size_t i = 0; i <= opcode.size(); ++i)
      if (i == opcode.size() || opcode[i] == '.') {
        parts.push_back(opcode.substr(start, i - start));
        start = i + 1;
      }
  }
  std::string_view base() const { return parts[0]; }
  bool take(std::string_view s) {
    if (next < parts.size() && parts[next] == s) {
      ++next;
      return true;
    }
    return false;
  }
  bool takeType(Ty &ty) {
    if (next < parts.size() && typeFromName(parts[next], ty)) {
      ++next;
      return true;
    }
    return false;
  }
  /// Takes one of `options`; returns its index or -1.
  int takeOneOf(std::initializer_list<const char *> options) {
    if (next >= parts.size())
      return -1;
    int i = 0;
    for (const char *option : options) {
      if (parts[next] == option) {
        ++next;
        return i;
      }
      ++i;
    }
    return -1;
  }
  bool done() const { return next == parts.size(); }
};

/// Parses one module.
class PtxParser {
public:
  PtxParser(std::string_view text, Module &module, std::string &error)
      : text(text), module(module), error(error) {}

  bool run();

private:
  // Module level.
  bool fail(unsigned line, const std::string &message) {
    error = "line " + std::to_string(line) + ": " + message;
    return false;
  }
  void skipSpace();
  std::string_view word();
  bool parseEntry(unsigned line);
  bool parseParams(Kernel &kernel);
  bool parseSharedDecl(std::string_view text, unsigned line, SharedDecl &decl);
  bool collectBody(std::vector<Statement> &body);
  bool parseBody(Kernel &kernel, const std::vector<Statement> &body);

  // Body level.
  bool declareRegs(std::string_view text, unsigned line);
  bool parseOperand(std::string_view s, Operand &out);
  bool decode(std::string_view statement, Inst &inst);
  bool decodeOp(Mods &mods, std::vector<Operand> &ops, Inst &inst);
  bool bad(const std::string &why) {
    return fail(curLine, why + " in '" + curText + "'");
  }
  bool unsupported() {
    return fail(curLine, "unsupported instruction '" + curOpcode + "'");
  }
  uint32_t constant(uint64_t value);
  bool src(const Operand &op, Ty ty, uint32_t &slot, bool atLeast = false);
  bool dst(const Operand &op, Ty ty, uint32_t &slot, bool atLeast = false);
  bool pred(const Operand &op, uint32_t &slot, bool allowNegation = false);
  bool address(const Operand &op, bool shared, uint32_t &slot, int64_t &off);
  bool count(const std::vector<Operand> &ops, size_t n) {
    if (ops.size() == n)
      return true;
    return bad("expected " + std::to_string(n) + " operands, got " +
               std::to_string(ops.size()));
  }

  std::string_view text;
  size_t pos = 0;
  unsigned line = 1;
  Module &module;
  std::string &error;

  std::vector<SharedDecl> moduleShared;

  // Per kernel.
  Kernel *kernel = nullptr;
  std::unordered_map<std::string, RegRange> ranges;
  std::unordered_map<std::string, RegRange> singles;
  std::unordered_map<std::string, uint64_t> sharedSymbols;
  std::unordered_map<uint64_t, uint32_t> constants;
  std::map<std::string, unsigned> params;
  std::vector<std::pair<size_t, std::string>> branchFixups;
  uint32_t numRegs = 0;
  unsigned curLine = 0;
  std::string curText;
  std::string curOpcode;
};

} // namespace sdpa::emu::detail

#endif // PTXEMULATOR_LIB_PTXPARSERIMPL_H
