//===- PtxParser.cpp - PTX text to a decoded module -----------------------===//
//
// A two-level parser: the module level splits the text into directives and
// .entry bodies; a body is split into statements (up to ';') and labels,
// its .reg and .shared declarations are laid out first, and then every
// instruction is decoded by the opcode's own rule, which checks the
// modifiers, the operand count and kinds and the register widths. Whatever a
// rule does not accept exactly is an error naming the instruction and line.
//
//===----------------------------------------------------------------------===//

#include "PtxParserImpl.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <unordered_map>

using namespace sdpa::emu;
using namespace sdpa::emu::detail;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

unsigned sdpa::emu::bitWidth(Ty ty) {
  switch (ty) {
  case Ty::None:
    return 0;
  case Ty::Pred:
    return 1;
  case Ty::B8:
  case Ty::U8:
  case Ty::S8:
    return 8;
  case Ty::B16:
  case Ty::U16:
  case Ty::S16:
  case Ty::F16:
  case Ty::BF16:
    return 16;
  case Ty::B32:
  case Ty::U32:
  case Ty::S32:
  case Ty::F32:
    return 32;
  case Ty::B64:
  case Ty::U64:
  case Ty::S64:
  case Ty::F64:
    return 64;
  }
  return 0;
}

bool sdpa::emu::isSignedInt(Ty ty) {
  return ty == Ty::S8 || ty == Ty::S16 || ty == Ty::S32 || ty == Ty::S64;
}

bool sdpa::emu::isFloat(Ty ty) {
  return ty == Ty::F16 || ty == Ty::BF16 || ty == Ty::F32 || ty == Ty::F64;
}

static const struct {
  const char *name;
  Ty ty;
} kTypeNames[] = {
    {"pred", Ty::Pred}, {"b8", Ty::B8},   {"b16", Ty::B16},
    {"b32", Ty::B32},   {"b64", Ty::B64}, {"u8", Ty::U8},
    {"u16", Ty::U16},   {"u32", Ty::U32}, {"u64", Ty::U64},
    {"s8", Ty::S8},     {"s16", Ty::S16}, {"s32", Ty::S32},
    {"s64", Ty::S64},   {"f16", Ty::F16}, {"bf16", Ty::BF16},
    {"f32", Ty::F32},   {"f64", Ty::F64},
};

const char *sdpa::emu::toString(Ty ty) {
  for (const auto &entry : kTypeNames)
    if (entry.ty == ty)
      return entry.name;
  return "none";
}

bool detail::typeFromName(std::string_view name, Ty &ty) {
  for (const auto &entry : kTypeNames)
    if (name == entry.name) {
      ty = entry.ty;
      return true;
    }
  return false;
}

bool detail::isIntTy(Ty ty) {
  switch (ty) {
  case Ty::B16: case Ty::B32: case Ty::B64:
  case Ty::U16: case Ty::U32: case Ty::U64:
  case Ty::S16: case Ty::S32: case Ty::S64:
    return true;
  default:
    return false;
  }
}

bool detail::isArithIntTy(Ty ty) {
  return isIntTy(ty) && ty != Ty::B16 && ty != Ty::B32 && ty != Ty::B64;
}

bool detail::isBitTy(Ty ty) {
  return ty == Ty::B16 || ty == Ty::B32 || ty == Ty::B64;
}

/// The .bN type of `bits`.
Ty detail::bitsTy(unsigned bits) {
  switch (bits) {
  case 1:
    return Ty::Pred;
  case 8:
    return Ty::B8;
  case 16:
    return Ty::B16;
  case 32:
    return Ty::B32;
  default:
    return Ty::B64;
  }
}

/// The integer type of twice the width of `ty`, with its signedness.
Ty detail::wideTy(Ty ty) {
  switch (ty) {
  case Ty::U16: return Ty::U32;
  case Ty::S16: return Ty::S32;
  case Ty::U32: return Ty::U64;
  case Ty::S32: return Ty::S64;
  default: return Ty::None;
  }
}

const Kernel *Module::find(const std::string &name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace((unsigned char)s.front()))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace((unsigned char)s.back()))
    s.remove_suffix(1);
  return s;
}

/// Splits at top-level commas (outside [] and {}).
std::vector<std::string_view> splitOperands(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  std::string_view last = trim(s.substr(start));
  if (!last.empty() || !out.empty())
    out.push_back(last);
  return out;
}

bool isIdentChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/// Parses a decimal or 0x integer with an optional sign.
bool parseInteger(std::string_view s, int64_t &value) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty())
    return false;
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (!s.empty() && (s.back() == 'U' || s.back() == 'u'))
    s.remove_suffix(1);
  if (s.empty())
    return false;
  uint64_t v = 0;
  for (char c : s) {
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (base == 16 && std::isxdigit((unsigned char)c))
      digit = std::tolower(c) - 'a' + 10;
    else
      return false;
    if (v > (~uint64_t(0) - digit) / base)
      return false;
    v = v * base + digit;
  }
  value = negative ? int64_t(0 - v) : int64_t(v);
  return true;
}

bool parseHexBits(std::string_view s, unsigned digits, uint64_t &bits) {
  if (s.size() != digits)
    return false;
  bits = 0;
  for (char c : s) {
    if (!std::isxdigit((unsigned char)c))
      return false;
    bits = bits * 16 +
           unsigned(std::isdigit((unsigned char)c) ? c - '0'
                                                   : std::tolower(c) - 'a' + 10);
  }
  return true;
}

struct SpecialName {
  const char *name;
  unsigned index;
};
const SpecialName kSpecials[] = {
    {"%tid.x", kTidX},       {"%tid.y", kTidY},       {"%tid.z", kTidZ},
    {"%ntid.x", kNtidX},     {"%ntid.y", kNtidY},     {"%ntid.z", kNtidZ},
    {"%ctaid.x", kCtaidX},   {"%ctaid.y", kCtaidY},   {"%ctaid.z", kCtaidZ},
    {"%nctaid.x", kNctaidX}, {"%nctaid.y", kNctaidY}, {"%nctaid.z", kNctaidZ},
    {"%laneid", kLaneId},    {"%warpid", kWarpId},
};

} // namespace

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

void PtxParser::skipSpace() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '\n') {
      ++line;
      ++pos;
    } else if (std::isspace((unsigned char)c)) {
      ++pos;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
      pos += 2;
      while (pos + 1 < text.size() &&
             !(text[pos] == '*' && text[pos + 1] == '/')) {
        if (text[pos] == '\n')
          ++line;
        ++pos;
      }
      pos = std::min(text.size(), pos + 2);
    } else {
      break;
    }
  }
}

std::string_view PtxParser::word() {
  skipSpace();
  size_t start = pos;
  while (pos < text.size() && isIdentChar(text[pos]))
    ++pos;
  return text.substr(start, pos - start);
}

bool PtxParser::run() {
  module.kernels.clear();
  for (;;) {
    skipSpace();
    if (pos >= text.size())
      break;
    unsigned at = line;
    std::string_view w = word();
    if (w.empty())
      return fail(at, std::string("unexpected character '") + text[pos] +
                          "'");
    if (w == ".version" || w == ".target" || w == ".address_size") {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
      continue;
    }
    if (w == ".visible") {
      at = line;
      w = word();
    }
    if (w == ".entry") {
      if (!parseEntry(at))
        return false;
      continue;
    }
    if (w == ".shared") {
      size_t end = text.find(';', pos);
      if (end == std::string_view::npos)
        return fail(at, "unterminated .shared declaration");
      SharedDecl decl;
      if (!parseSharedDecl(text.substr(pos, end - pos), at, decl))
        return false;
      moduleShared.push_back(decl);
      pos = end + 1;
      continue;
    }
    return fail(at, "unsupported directive '" + std::string(w) + "'");
  }
  if (module.kernels.empty())
    return fail(line, "no .entry in the module");
  return true;
}

bool PtxParser::parseSharedDecl(std::string_view s, unsigned at,
                                SharedDecl &decl) {
  // .shared [.align A] .b8 name[N]   (or no [N]: the dynamic window)
  size_t i = 0;
  auto next = [&]() {
    while (i < s.size() && std::isspace((unsigned char)s[i]))
      ++i;
    size_t start = i;
    while (i < s.size() && (isIdentChar(s[i]) || s[i] == '[' || s[i] == ']'))
      ++i;
    return s.substr(start, i - start);
  };
  std::string_view w = next();
  if (w == ".align") {
    int64_t align;
    if (!parseInteger(next(), align) || align <= 0 || (align & (align - 1)))
      return fail(at, "bad .align in .shared declaration");
    decl.align = unsigned(align);
    w = next();
  }
  Ty ty;
  if (w.empty() || w[0] != '.' || !typeFromName(w.substr(1), ty) ||
      ty == Ty::Pred)
    return fail(at, "unsupported .shared declaration '" + std::string(s) +
                        "'");
  unsigned elem = bitWidth(ty) / 8;
  decl.align = std::max(decl.align, elem);
  std::string_view name = next();
  if (!trim(s.substr(i)).empty())
    return fail(at, "unsupported .shared declaration '" + std::string(s) +
                        "'");
  size_t bracket = name.find('[');
  if (bracket == std::string_view::npos) {
    decl.dynamic = true;
    decl.name = std::string(name);
    return true;
  }
  int64_t n;
  if (name.back() != ']' ||
      !parseInteger(name.substr(bracket + 1, name.size() - bracket - 2), n) ||
      n <= 0)
    return fail(at, "bad array size in .shared declaration");
  decl.name = std::string(name.substr(0, bracket));
  decl.size = unsigned(n) * elem;
  return true;
}

bool PtxParser::parseParams(Kernel &k) {
  skipSpace();
  if (pos >= text.size() || text[pos] != '(')
    return fail(line, "expected '(' after the kernel name");
  ++pos;
  size_t end = text.find(')', pos);
  if (end == std::string_view::npos)
    return fail(line, "unterminated parameter list");
  std::string_view list = text.substr(pos, end - pos);
  unsigned at = line;
  for (char c : list)
    if (c == '\n')
      ++line;
  pos = end + 1;
  if (trim(list).empty())
    return true;
  unsigned offset = 0;
  for (std::string_view p : splitOperands(list)) {
    // .param .u64 [.ptr [.space] [.align A]] name  |  .param [.align A] .b8 name[N]
    std::vector<std::string_view> tokens;
    size_t i = 0;
    while (i < p.size()) {
      while (i < p.size() && std::isspace((unsigned char)p[i]))
        ++i;
      size_t start = i;
      while (i < p.size() && !std::isspace((unsigned char)p[i]))
        ++i;
      if (i > start)
        tokens.push_back(p.substr(start, i - start));
    }
    if (tokens.size() < 3 || tokens[0] != ".param")
      return fail(at, "unsupported parameter '" + std::string(p) + "'");
    unsigned align = 0, elem = 0;
    std::string_view name;
    for (size_t t = 1; t < tokens.size(); ++t) {
      std::string_view tok = tokens[t];
      Ty ty;
      int64_t a;
      if (tok == ".align" && t + 1 < tokens.size() &&
          parseInteger(tokens[t + 1], a) && a > 0 && !(a & (a - 1))) {
        align = unsigned(a);
        ++t;
      } else if (tok == ".ptr" || tok == ".global" || tok == ".shared" ||
                 tok == ".const" || tok == ".local") {
        // Pointer attributes: no effect on the layout.
      } else if (tok[0] == '.' && typeFromName(tok.substr(1), ty) &&
                 ty != Ty::Pred && !elem) {
        elem = bitWidth(ty) / 8;
      } else if (t + 1 == tokens.size() && tok[0] != '.') {
        name = tok;
      } else {
        return fail(at, "unsupported parameter '" + std::string(p) + "'");
      }
    }
    if (!elem || name.empty())
      return fail(at, "unsupported parameter '" + std::string(p) + "'");
    unsigned count = 1;
    size_t bracket = name.find('[');
    if (bracket != std::string_view::npos) {
      int64_t n;
      if (name.back() != ']' ||
          !parseInteger(name.substr(bracket + 1, name.size() - bracket - 2),
                        n) ||
          n <= 0)
        return fail(at, "bad parameter array '" + std::string(name) + "'");
      count = unsigned(n);
      name = name.substr(0, bracket);
      // The .ptr .align of a pointer is the pointee's; an array's .align is
      // its own.
    } else {
      align = 0;
    }
    align = std::max(align, elem);
    offset = (offset + align - 1) / align * align;
    Param param;
    param.name = std::string(name);
    param.offset = offset;
    param.size = elem * count;
    offset += param.size;
    k.params.push_back(param);
  }
  k.paramBytes = offset;
  return true;
}

bool PtxParser::collectBody(std::vector<Statement> &body) {
  for (;;) {
    skipSpace();
    if (pos >= text.size())
      return fail(line, "unterminated kernel body");
    if (text[pos] == '}') {
      ++pos;
      return true;
    }
    if (text[pos] == '{')
      return fail(line, "nested scope blocks are not supported");
    Statement st;
    st.line = line;
    // A label: identifier followed by ':'.
    size_t i = pos;
    while (i < text.size() && isIdentChar(text[i]) && text[i] != '.')
      ++i;
    if (i > pos && i < text.size() && text[i] == ':' &&
        (i + 1 >= text.size() || text[i + 1] != ':') && text[pos] != '@') {
      st.label = true;
      st.text = std::string(text.substr(pos, i - pos));
      pos = i + 1;
      body.push_back(std::move(st));
      continue;
    }
    // A statement up to ';', comments removed and whitespace collapsed.
    std::string s;
    bool space = false;
    int depth = 0;
    for (;;) {
      if (pos >= text.size())
        return fail(st.line, "statement without ';'");
      char c = text[pos];
      if (c == ';') {
        ++pos;
        break;
      }
      if (c == '/' && pos + 1 < text.size() &&
          (text[pos + 1] == '/' || text[pos + 1] == '*')) {
        skipSpace();
        space = true;
        continue;
      }
      if (c == '{')
        ++depth;
      if (c == '}' && --depth < 0)
        return fail(st.line, "statement without ';'");
      if (c == '\n')
        ++line;
      if (std::isspace((unsigned char)c)) {
        space = true;
      } else {
        if (space && !s.empty())
          s += ' ';
        space = false;
        s += c;
      }
      ++pos;
    }
    st.text = std::move(s);
    body.push_back(std::move(st));
  }
}

bool PtxParser::parseEntry(unsigned at) {
  std::string_view name = word();
  if (name.empty())
    return fail(at, "expected a kernel name after .entry");
  Kernel &k = module.kernels.emplace_back();
  k.name = std::string(name);
  if (!parseParams(k))
    return false;
  // Performance directives up to '{'.
  for (;;) {
    skipSpace();
    if (pos >= text.size())
      return fail(line, "missing kernel body");
    if (text[pos] == '{') {
      ++pos;
      break;
    }
    unsigned dirLine = line;
    std::string_view d = word();
    if (d == ".maxntid" || d == ".reqntid" || d == ".minnctapersm" ||
        d == ".maxnreg" || d == ".maxnctapersm") {
      unsigned values[3] = {1, 1, 1};
      for (unsigned v = 0; v < 3; ++v) {
        std::string_view num = word();
        int64_t n;
        if (!parseInteger(num, n) || n <= 0)
          return fail(dirLine, "bad " + std::string(d) + " value");
        values[v] = unsigned(n);
        skipSpace();
        if (pos < text.size() && text[pos] == ',')
          ++pos;
        else
          break;
      }
      if (d == ".maxntid" || d == ".reqntid")
        std::memcpy(k.maxntid, values, sizeof(values));
      continue;
    }
    return fail(dirLine, "unsupported kernel directive '" + std::string(d) +
                             "'");
  }
  std::vector<Statement> body;
  if (!collectBody(body))
    return false;
  return parseBody(k, body);
}

//===----------------------------------------------------------------------===//
// Body level
//===----------------------------------------------------------------------===//

bool PtxParser::declareRegs(std::string_view s, unsigned at) {
  // .reg .b32 %r<917>   |   .reg .pred %p, %q
  s = trim(s.substr(4));
  size_t sp = s.find(' ');
  Ty ty;
  if (sp == std::string_view::npos || s[0] != '.' ||
      !typeFromName(s.substr(1, sp - 1), ty))
    return fail(at, "unsupported .reg declaration");
  unsigned width = bitWidth(ty);
  for (std::string_view name : splitOperands(s.substr(sp + 1))) {
    if (name.size() < 2 || name[0] != '%')
      return fail(at, "bad register name '" + std::string(name) + "'");
    size_t lt = name.find('<');
    RegRange range;
    range.width = width;
    range.base = numRegs;
    if (lt == std::string_view::npos) {
      range.count = 1;
      if (singles.count(std::string(name)) || ranges.count(std::string(name)))
        return fail(at, "register '" + std::string(name) + "' redeclared");
      singles[std::string(name)] = range;
    } else {
      int64_t n;
      if (name.back() != '>' ||
          !parseInteger(name.substr(lt + 1, name.size() - lt - 2), n) ||
          n <= 0 || n > (1 << 20))
        return fail(at, "bad register range '" + std::string(name) + "'");
      std::string prefix(name.substr(0, lt));
      if (ranges.count(prefix))
        return fail(at, "registers '" + prefix + "' redeclared");
      range.count = uint32_t(n);
      ranges[prefix] = range;
    }
    numRegs += range.count;
  }
  return true;
}

bool PtxParser::parseOperand(std::string_view s, Operand &out) {
  s = trim(s);
  if (s.empty())
    return bad("empty operand");
  if (s.front() == '{') {
    if (s.back() != '}')
      return bad("bad vector operand");
    out.kind = Operand::Vector;
    for (std::string_view e : splitOperands(s.substr(1, s.size() - 2))) {
      Operand element;
      if (!parseOperand(e, element))
        return false;
      out.elements.push_back(std::move(element));
    }
    return true;
  }
  if (s.front() == '[') {
    if (s.back() != ']')
      return bad("bad address operand");
    out.kind = Operand::Address;
    std::string_view inner = trim(s.substr(1, s.size() - 2));
    size_t plus = inner.find_first_of("+-", 1);
    std::string_view base = trim(inner.substr(0, plus));
    if (plus != std::string_view::npos) {
      std::string_view off = trim(inner.substr(plus + 1));
      if (!parseInteger(off, out.value))
        return bad("bad address offset");
      if (inner[plus] == '-')
        out.value = -out.value;
    }
    if (!base.empty() && base[0] == '%') {
      Operand reg;
      if (!parseOperand(base, reg))
        return false;
      if (reg.kind != Operand::Reg)
        return bad("bad address base");
      out.hasBase = true;
      out.slot = reg.slot;
      out.width = reg.width;
    } else if (!base.empty() && (std::isalpha((unsigned char)base[0]) ||
                                 base[0] == '_' || base[0] == '$')) {
      out.symbol = std::string(base);
    } else {
      int64_t v;
      if (!parseInteger(base, v))
        return bad("bad address");
      out.value += v;
    }
    return true;
  }
  if (s.front() == '!') {
    if (!parseOperand(s.substr(1), out))
      return false;
    if (out.kind != Operand::Reg || out.width != 1)
      return bad("'!' on a non-predicate operand");
    out.negated = true;
    return true;
  }
  if (s.front() == '%') {
    size_t bar = s.find('|');
    if (bar != std::string_view::npos) {
      Operand first, second;
      if (!parseOperand(s.substr(0, bar), first) ||
          !parseOperand(s.substr(bar + 1), second))
        return false;
      if (first.kind != Operand::Reg || second.kind != Operand::Reg)
        return bad("bad register pair");
      out = first;
      out.kind = Operand::Pair;
      out.slot2 = second.slot;
      out.width2 = second.width;
      return true;
    }
    for (const SpecialName &special : kSpecials)
      if (s == special.name) {
        out.kind = Operand::Special;
        out.slot = special.index;
        out.width = 32;
        return true;
      }
    std::string name(s);
    auto single = singles.find(name);
    if (single != singles.end()) {
      out.kind = Operand::Reg;
      out.slot = single->second.base;
      out.width = single->second.width;
      return true;
    }
    size_t digits = name.size();
    while (digits > 1 && std::isdigit((unsigned char)name[digits - 1]))
      --digits;
    auto range = ranges.find(name.substr(0, digits));
    int64_t index;
    if (digits == name.size() || range == ranges.end() ||
        !parseInteger(name.substr(digits), index) ||
        index >= int64_t(range->second.count))
      return bad("undeclared register '" + name + "'");
    out.kind = Operand::Reg;
    out.slot = range->second.base + uint32_t(index);
    out.width = range->second.width;
    return true;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
    uint64_t bits;
    if (!parseHexBits(s.substr(2), 8, bits))
      return bad("bad f32 literal '" + std::string(s) + "'");
    out.kind = Operand::F32Bits;
    out.value = int64_t(bits);
    return true;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
    uint64_t bits;
    if (!parseHexBits(s.substr(2), 16, bits))
      return bad("bad f64 literal '" + std::string(s) + "'");
    out.kind = Operand::F64Bits;
    out.value = int64_t(bits);
    return true;
  }
  if (std::isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+') {
    if (!parseInteger(s, out.value))
      return bad("bad literal '" + std::string(s) + "'");
    out.kind = Operand::Int;
    return true;
  }
  for (char c : s)
    if (!isIdentChar(c))
      return bad("bad operand '" + std::string(s) + "'");
  out.kind = Operand::Symbol;
  out.symbol = std::string(s);
  return true;
}

uint32_t PtxParser::constant(uint64_t value) {
  auto it = constants.find(value);
  if (it != constants.end())
    return it->second;
  uint32_t slot = uint32_t(kernel->initialRegs.size());
  kernel->initialRegs.push_back(value);
  constants[value] = slot;
  return slot;
}

static uint64_t maskTo(unsigned bits, uint64_t v) {
  return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}

bool PtxParser::src(const Operand &op, Ty ty, uint32_t &slot, bool atLeast) {
  unsigned bits = bitWidth(ty);
  switch (op.kind) {
  case Operand::Reg:
    if (op.negated)
      return bad("unexpected '!'");
    if (op.width != bits && !(atLeast && op.width > bits && bits > 1))
      return bad("a " + std::to_string(op.width) +
                 "-bit register where ." + toString(ty) +
                 " is expected");
    slot = op.slot;
    return true;
  case Operand::Special:
    if (bits != 32 || isFloat(ty))
      return bad("a special register where ." + std::string(toString(ty)) +
                 " is expected");
    slot = numRegs + op.slot;
    return true;
  case Operand::Int: {
    if (isFloat(ty) || ty == Ty::Pred)
      return bad("an integer literal where ." + std::string(toString(ty)) +
                 " is expected");
    int64_t v = op.value;
    if (bits < 64 && (v < -(int64_t(1) << (bits - 1)) ||
                      v > int64_t((uint64_t(1) << bits) - 1)))
      return bad("literal out of range for ." + std::string(toString(ty)));
    slot = constant(maskTo(bits, uint64_t(v)));
    return true;
  }
  case Operand::F32Bits:
    if (bits != 32 || (isFloat(ty) && ty != Ty::F32))
      return bad("an f32 literal where ." + std::string(toString(ty)) +
                 " is expected");
    slot = constant(uint64_t(op.value));
    return true;
  case Operand::F64Bits:
    if (bits != 64 || (isFloat(ty) && ty != Ty::F64))
      return bad("an f64 literal where ." + std::string(toString(ty)) +
                 " is expected");
    slot = constant(uint64_t(op.value));
    return true;
  case Operand::Symbol: {
    auto it = sharedSymbols.find(op.symbol);
    if (it == sharedSymbols.end())
      return bad("unknown symbol '" + op.symbol + "'");
    if (bits != 64 && bits != 32)
      return bad("a symbol where ." + std::string(toString(ty)) +
                 " is expected");
    slot = constant(it->second);
    return true;
  }
  default:
    return bad("unexpected operand kind");
  }
}

bool PtxParser::dst(const Operand &op, Ty ty, uint32_t &slot, bool atLeast) {
  if (op.kind != Operand::Reg || op.negated)
    return bad("destination is not a register");
  unsigned bits = bitWidth(ty);
  if (op.width != bits && !(atLeast && op.width > bits && bits > 1))
    return bad("a " + std::to_string(op.width) + "-bit register where ." +
               toString(ty) + " is expected");
  slot = op.slot;
  return true;
}

bool PtxParser::pred(const Operand &op, uint32_t &slot, bool allowNegation) {
  if (op.kind != Operand::Reg || op.width != 1)
    return bad("expected a predicate register");
  if (op.negated && !allowNegation)
    return bad("unexpected '!'");
  slot = op.slot;
  return true;
}

bool PtxParser::address(const Operand &op, bool shared, uint32_t &slot,
                        int64_t &off) {
  if (op.kind != Operand::Address)
    return bad("expected an address operand");
  off = op.value;
  if (op.hasBase) {
    if (op.width != 64 && !(shared && op.width == 32))
      return bad("address register of " + std::to_string(op.width) + " bits");
    slot = op.slot;
    return true;
  }
  if (!op.symbol.empty()) {
    auto it = sharedSymbols.find(op.symbol);
    if (!shared || it == sharedSymbols.end())
      return bad("unsupported address symbol '" + op.symbol + "'");
    slot = constant(it->second);
    return true;
  }
  slot = constant(0);
  return true;
}

bool PtxParser::parseBody(Kernel &k, const std::vector<Statement> &body) {
  kernel = &k;
  ranges.clear();
  singles.clear();
  sharedSymbols.clear();
  constants.clear();
  params.clear();
  branchFixups.clear();
  numRegs = 0;
  for (const Param &p : k.params)
    params[p.name] = p.offset;

  // Pass 1: declarations.
  std::vector<SharedDecl> shared = moduleShared;
  for (const Statement &st : body) {
    if (st.label || st.text.empty() || st.text[0] != '.')
      continue;
    std::string_view t = st.text;
    if (t.compare(0, 5, ".reg ") == 0) {
      if (!declareRegs(t, st.line))
        return false;
    } else if (t.compare(0, 8, ".shared ") == 0) {
      SharedDecl decl;
      if (!parseSharedDecl(t.substr(8), st.line, decl))
        return false;
      shared.push_back(decl);
    } else if (t.compare(0, 8, ".pragma ") == 0) {
      // Hints only.
    } else {
      return fail(st.line, "unsupported declaration '" + st.text + "'");
    }
  }
  unsigned offset = 0, dynamicAlign = 16;
  for (const SharedDecl &decl : shared) {
    if (sharedSymbols.count(decl.name))
      return fail(body.empty() ? line : body[0].line,
                  "shared symbol '" + decl.name + "' declared twice");
    if (decl.dynamic) {
      dynamicAlign = std::max(dynamicAlign, decl.align);
      continue;
    }
    offset = (offset + decl.align - 1) / decl.align * decl.align;
    sharedSymbols[decl.name] = offset;
    offset += decl.size;
  }
  k.staticShared = offset;
  k.dynamicBase = (offset + dynamicAlign - 1) / dynamicAlign * dynamicAlign;
  for (const SharedDecl &decl : shared)
    if (decl.dynamic)
      sharedSymbols[decl.name] = k.dynamicBase;

  k.numDeclaredRegs = numRegs;
  k.specialBase = numRegs;
  k.initialRegs.assign(numRegs + kNumSpecialRegs, 0);
  constant(1); // The guard of unguarded instructions.

  // Pass 2: instructions and labels.
  std::unordered_map<std::string, size_t> labels;
  for (const Statement &st : body) {
    if (st.label) {
      if (!labels.emplace(st.text, k.code.size()).second)
        return fail(st.line, "label '" + st.text + "' defined twice");
      continue;
    }
    if (st.text.empty() || st.text[0] == '.')
      continue;
    curLine = st.line;
    curText = st.text;
    Inst inst;
    inst.line = st.line;
    if (!decode(st.text, inst))
      return false;
    k.code.push_back(inst);
    k.text.push_back(st.text);
  }
  // Running off the end exits.
  Inst exit;
  exit.op = Op::Exit;
  exit.guard = constant(1);
  exit.line = line;
  k.code.push_back(exit);
  k.text.push_back("<end of kernel>");
  for (auto &[index, label] : branchFixups) {
    auto it = labels.find(label);
    if (it == labels.end())
      return fail(k.code[index].line, "unknown label '" + label + "'");
    k.code[index].imm = int64_t(it->second);
  }
  k.numSlots = uint32_t(k.initialRegs.size());
  return true;
}

bool PtxParser::decode(std::string_view s, Inst &inst) {
  inst.guard = constant(1);
  if (s[0] == '@') {
    size_t sp = s.find(' ');
    if (sp == std::string_view::npos)
      return bad("guard without instruction");
    std::string_view g = s.substr(1, sp - 1);
    Operand p;
    if (!parseOperand(g, p))
      return false;
    if (!pred(p, inst.guard, true))
      return false;
    inst.guardSkip = p.negated ? 1 : 0;
    s = trim(s.substr(sp + 1));
  }
  size_t sp = s.find(' ');
  std::string_view opcode = s.substr(0, sp);
  curOpcode = std::string(opcode);
  static const char *const kBases[] = {
      "add",  "sub",      "mul",     "mad",  "fma",    "div",      "rem",
      "neg",  "abs",      "min",     "max",  "and",    "or",       "xor",
      "not",  "shl",      "shr",     "bfe",  "copysign", "ex2",    "lg2",   "rcp",
      "setp", "selp",     "mov",     "cvta", "cvt",    "ld",       "st",
      "atom", "cp",       "bar",     "barrier", "fence", "membar", "mma",
      "ldmatrix", "shfl", "vote",    "bra",  "ret",    "exit"};
  std::string_view base = opcode.substr(0, opcode.find('.'));
  if (std::find(std::begin(kBases), std::end(kBases), base) ==
      std::end(kBases))
    return unsupported();
  std::vector<Operand> ops;
  if (sp != std::string_view::npos)
    for (std::string_view o : splitOperands(s.substr(sp + 1))) {
      Operand op;
      if (!parseOperand(o, op))
        return false;
      ops.push_back(std::move(op));
    }
  Mods mods(opcode);
  return decodeOp(mods, ops, inst);
}

bool sdpa::emu::parsePtx(std::string_view text, Module &module,
                         std::string &error) {
  module = Module();
  PtxParser parser(text, module, error);
  if (!parser.run()) {
    module = Module();
    return false;
  }
  return true;
}
