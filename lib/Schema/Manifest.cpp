//===- Manifest.cpp - Parse and validate the artifact manifest ------------===//
//
// Strict by design: unknown keys, missing keys, repeated keys and malformed
// values are errors naming the line and the key, so that an artifact from a
// newer generator is refused rather than misread. The printer writes what
// the parser reads, in one order.
//
//===----------------------------------------------------------------------===//

#include "SdpaSchema/Manifest.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

using namespace sdpa_schema;

const Kernel *Manifest::findKernel(KernelRole role) const {
  for (const Kernel &kernel : kernels)
    if (kernel.role == role)
      return &kernel;
  return nullptr;
}

const Kernel *Manifest::findKernel(std::string_view name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

bool Manifest::takesParam(std::string_view name) const {
  for (const Kernel &kernel : kernels)
    for (const Param &param : kernel.params)
      if (param.name == name)
        return true;
  return false;
}

DqMode Manifest::dqMode() const {
  return findKernel(KernelRole::BwdDq) ? DqMode::Recompute
                                       : DqMode::Accumulate;
}

bool Manifest::usesRelay() const {
  return takesParam("relay_counters") ||
         (deterministic && dqMode() == DqMode::Accumulate);
}

namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

/// Parses a non-negative decimal integer no larger than `max`.
bool parseUnsigned(std::string_view text, int64_t max, int64_t &value) {
  if (text.empty() || text.size() > 19)
    return false;
  int64_t result = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    // Stop past `max` before the next digit can overflow int64_t: 19 digits
    // such as 9999999999999999999 did (found by sdpa-runtime-fuzzer).
    if (result > (max - (c - '0')) / 10)
      return false;
    result = result * 10 + (c - '0');
  }
  if (text.size() > 1 && text[0] == '0')
    return false;
  if (result > max)
    return false;
  value = result;
  return true;
}

bool isIdentifier(std::string_view name) {
  if (name.empty())
    return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 c == '_' || c == '$';
    bool digit = (c >= '0' && c <= '9') || c == '.';
    if (!alpha && !(digit && i > 0))
      return false;
  }
  return true;
}

/// Number of values each key takes, and whether it belongs to a kernel record.
struct KeyInfo {
  size_t arity;
  bool perKernel;
  const char *usage;
};

const std::map<std::string_view, KeyInfo> &keyTable() {
  static const std::map<std::string_view, KeyInfo> table = {
      {"sdpa-artifact", {1, false, "version"}},
      {"ptx", {1, false, "file"}},
      {"direction", {1, false, "forward|backward"}},
      {"dtype", {1, false, "f16|bf16"}},
      {"head_dim", {1, false, "D"}},
      {"tile_q", {1, false, "Tq"}},
      {"tile_kv", {1, false, "Tk"}},
      {"band", {3, false, "L R align"}},
      {"scale", {1, false, "float"}},
      {"softcap", {1, false, "float"}},
      {"sinks", {1, false, "0|1"}},
      {"varlen", {1, false, "0|1"}},
      {"deterministic", {1, false, "0|1"}},
      {"index_bits", {1, false, "32|64"}},
      {"kernel", {2, false, "name role"}},
      {"block", {3, true, "x y z"}},
      {"shared_bytes", {1, true, "bytes"}},
      {"grid", {3, true, "term term term"}},
      {"param", {2, true, "name type"}},
  };
  return table;
}

class Parser {
public:
  Parser(Manifest &out, std::string &error) : out(out), error(error) {}

  bool run(std::string_view text);

private:
  bool fail(int line, const std::string &message) {
    error = "line " + std::to_string(line) + ": " + message;
    return false;
  }
  bool failValue(int line, std::string_view key, const std::string &what,
                 std::string_view got) {
    return fail(line, "key " + quote(key) + ": expected " + what + ", got " +
                          quote(got));
  }
  bool parseLine(int line, std::string_view key,
                 const std::vector<std::string_view> &values);
  bool parseHeader(int line, std::string_view key,
                   const std::vector<std::string_view> &values);
  bool parseKernelKey(int line, std::string_view key,
                      const std::vector<std::string_view> &values);
  bool parseEdge(int line, std::string_view value, const char *which,
                 std::optional<int64_t> &edge);
  bool finishKernel();
  bool finish(int lastLine);

  Manifest &out;
  std::string &error;
  /// Line on which each header key was seen.
  std::map<std::string, int> seen;
  /// Per-kernel keys seen in the current record.
  std::map<std::string, int> kernelSeen;
  Kernel *current = nullptr;
};

bool Parser::run(std::string_view text) {
  out = Manifest();
  int line = 0;
  size_t pos = 0;
  bool sawHeader = false;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view content = text.substr(pos, end - pos);
    ++line;
    bool last = end == text.size();
    pos = end + 1;
    if (last && content.empty() && line > 1)
      break; // The newline that ends the final line.

    // A CRLF file would read as version '1\r' on line 1; a NUL would cut a
    // value short wherever it is handed on as a C string.
    if (!content.empty() && content.back() == '\r')
      return fail(line, "the line ends in a carriage return: manifests have "
                        "LF line endings, not CRLF");
    for (char c : content) {
      auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
        char code[8];
        std::snprintf(code, sizeof(code), "0x%02x", byte);
        return fail(line, std::string("control character ") + code +
                              (byte == 0 ? " (NUL)" : "") +
                              " in the line");
      }
    }

    if (line == 1) {
      if (content != "sdpa-artifact 1") {
        if (content.substr(0, 14) == "sdpa-artifact ")
          return fail(1, "key 'sdpa-artifact': unsupported artifact version " +
                             quote(content.substr(14)) +
                             " (this runtime reads version 1)");
        return fail(1, "expected 'sdpa-artifact 1' as the first line, got " +
                           quote(content));
      }
      seen["sdpa-artifact"] = 1;
      sawHeader = true;
      continue;
    }
    if (content.find_first_not_of(' ') == std::string_view::npos)
      continue; // Blank line.
    if (content[0] == '#')
      continue;
    if (content.find('\t') != std::string_view::npos)
      return fail(line, "fields must be separated by single spaces (found a "
                        "tab)");

    std::vector<std::string_view> fields;
    size_t start = 0;
    while (true) {
      size_t space = content.find(' ', start);
      std::string_view field = content.substr(
          start, space == std::string_view::npos ? std::string_view::npos
                                                 : space - start);
      if (field.empty())
        return fail(line, "empty field: fields must be separated by single "
                          "spaces, with none leading or trailing");
      fields.push_back(field);
      if (space == std::string_view::npos)
        break;
      start = space + 1;
    }
    std::string_view key = fields[0];
    fields.erase(fields.begin());
    if (!parseLine(line, key, fields))
      return false;
  }
  if (!sawHeader)
    return fail(1, "empty manifest (expected 'sdpa-artifact 1')");
  return finish(line);
}

bool Parser::parseLine(int line, std::string_view key,
                       const std::vector<std::string_view> &values) {
  auto it = keyTable().find(key);
  if (it == keyTable().end())
    return fail(line, "unknown key " + quote(key));
  const KeyInfo &info = it->second;
  if (key == "sdpa-artifact")
    return fail(line, "key 'sdpa-artifact' may only appear on line 1");
  if (values.size() != info.arity)
    return fail(line, "key " + quote(key) + " expects " +
                          std::to_string(info.arity) + " value" +
                          (info.arity == 1 ? "" : "s") + " (" + info.usage +
                          "), got " + std::to_string(values.size()));
  if (info.perKernel)
    return parseKernelKey(line, key, values);
  if (key == "kernel") {
    if (current && !finishKernel())
      return false;
    Kernel kernel;
    kernel.line = line;
    if (!isIdentifier(values[0]))
      return failValue(line, key, "a kernel name (a PTX identifier)",
                       values[0]);
    if (const Kernel *other = out.findKernel(values[0]))
      return fail(line, "key 'kernel': duplicate kernel name " +
                            quote(values[0]) + " (first on line " +
                            std::to_string(other->line) + ")");
    kernel.name = std::string(values[0]);
    std::optional<KernelRole> role = parseKernelRole(values[1]);
    if (!role)
      return failValue(line, key,
                       "a role (forward, bwd_preprocess, bwd_main, "
                       "bwd_dq_convert, bwd_dq)",
                       values[1]);
    kernel.role = *role;
    if (const Kernel *other = out.findKernel(kernel.role))
      return fail(line, "key 'kernel': a second kernel of role " +
                            quote(values[1]) + " (first is " +
                            quote(other->name) + " on line " +
                            std::to_string(other->line) + ")");
    out.kernels.push_back(std::move(kernel));
    current = &out.kernels.back();
    kernelSeen.clear();
    return true;
  }
  return parseHeader(line, key, values);
}

bool Parser::parseEdge(int line, std::string_view value, const char *which,
                       std::optional<int64_t> &edge) {
  if (value == "inf") {
    edge = std::nullopt;
    return true;
  }
  int64_t parsed;
  if (!parseUnsigned(value, kMaxBandEdge, parsed))
    return failValue(line, "band",
                     std::string(which) +
                         " as a non-negative integer below 2^31 or 'inf'",
                     value);
  edge = parsed;
  return true;
}

bool Parser::parseHeader(int line, std::string_view key,
                         const std::vector<std::string_view> &values) {
  auto [it, inserted] = seen.emplace(std::string(key), line);
  if (!inserted)
    return fail(line, "duplicate key " + quote(key) + " (first on line " +
                          std::to_string(it->second) + ")");
  std::string_view value = values[0];
  int64_t number;
  if (key == "ptx") {
    std::string why;
    if (!checkPtxPath(value, why))
      return fail(line, "key 'ptx': expected a file in the manifest's "
                        "directory or below it, got " +
                            quote(value) + ": " + why);
    out.ptxFile = std::string(value);
  } else if (key == "direction") {
    std::optional<Direction> direction = parseDirection(value);
    if (!direction)
      return failValue(line, key, "'forward' or 'backward'", value);
    out.direction = *direction;
  } else if (key == "dtype") {
    std::optional<ElementType> dtype = parseElementType(value);
    if (!dtype)
      return failValue(line, key, "'f16' or 'bf16'", value);
    out.dtype = *dtype;
  } else if (key == "head_dim") {
    // Which head dims the kernels support depends on the direction, which
    // may come later: finish() checks the value against the schema.
    if (!parseUnsigned(value, 1 << 20, number) || number == 0)
      return failValue(line, key, "a positive integer", value);
    out.headDim = number;
  } else if (key == "tile_q" || key == "tile_kv") {
    if (!parseUnsigned(value, kMaxTile, number) || number == 0)
      return failValue(line, key,
                       "a positive integer up to " + std::to_string(kMaxTile),
                       value);
    (key == "tile_q" ? out.tileQ : out.tileKv) = number;
  } else if (key == "band") {
    if (!parseEdge(line, values[0], "L", out.left) ||
        !parseEdge(line, values[1], "R", out.right))
      return false;
    std::optional<Alignment> align = parseAlignment(values[2]);
    if (!align)
      return failValue(line, key, "align 'top_left' or 'bottom_right'",
                       values[2]);
    out.align = *align;
  } else if (key == "softcap") {
    std::string copy(value);
    char *end = nullptr;
    errno = 0;
    double parsed = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || errno != 0 ||
        !std::isfinite(parsed) || parsed <= 0 ||
        !std::isfinite(static_cast<float>(parsed)))
      return failValue(line, key, "a positive finite float", value);
    out.softcap = static_cast<float>(parsed);
  } else if (key == "scale") {
    std::string copy(value);
    char *end = nullptr;
    errno = 0;
    double parsed = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || errno != 0 ||
        !isRepresentableScale(parsed))
      return failValue(line, key, describeScaleRange(), value);
    out.scale = parsed;
  } else if (key == "varlen" || key == "deterministic" || key == "sinks") {
    if (value != "0" && value != "1")
      return failValue(line, key, "0 or 1", value);
    bool &flag = key == "varlen"  ? out.varlen
                 : key == "sinks" ? out.sinks
                                  : out.deterministic;
    flag = value == "1";
  } else if (key == "index_bits") {
    if (value != "32" && value != "64")
      return failValue(line, key, "32 or 64", value);
    out.indexBits = value == "32" ? 32 : 64;
  }
  return true;
}

bool Parser::parseKernelKey(int line, std::string_view key,
                            const std::vector<std::string_view> &values) {
  if (!current)
    return fail(line, "key " + quote(key) +
                          " before any 'kernel' record (it describes a kernel)");
  if (key != "param") {
    auto [it, inserted] = kernelSeen.emplace(std::string(key), line);
    if (!inserted)
      return fail(line, "duplicate key " + quote(key) + " in kernel " +
                            quote(current->name) + " (first on line " +
                            std::to_string(it->second) + ")");
  }
  int64_t number;
  if (key == "block") {
    int64_t threads = 1;
    for (int i = 0; i < 3; ++i) {
      if (!parseUnsigned(values[i], 1024, number) || number == 0)
        return failValue(line, key, "three integers in [1, 1024]", values[i]);
      current->block[i] = static_cast<unsigned>(number);
      threads *= number;
    }
    if (current->block[2] > 64)
      return fail(line, "key 'block': z is " + std::to_string(current->block[2]) +
                            ", the limit is 64");
    if (threads > 1024)
      return fail(line, "key 'block': " + std::to_string(threads) +
                            " threads per block, the limit is 1024");
  } else if (key == "shared_bytes") {
    if (!parseUnsigned(values[0], 1 << 30, number))
      return failValue(line, key, "a non-negative integer", values[0]);
    current->sharedBytes = static_cast<unsigned>(number);
  } else if (key == "grid") {
    for (int i = 0; i < 3; ++i) {
      std::optional<GridTerm> term = parseGridTerm(values[i]);
      if (!term)
        return failValue(line, key,
                         "a grid term (q_tiles, kv_tiles, heads_q, heads_kv, "
                         "batch, 1, rows)",
                         values[i]);
      current->grid[i] = *term;
    }
  } else if (key == "param") {
    std::string_view name = values[0];
    std::optional<ParamType> expected = getParamType(name);
    if (!expected)
      return fail(line, "key 'param': unknown parameter name " + quote(name) +
                            " (the runtime cannot fill it)");
    std::optional<ParamType> type = parseParamType(values[1]);
    if (!type)
      return failValue(line, key, "a type (ptr, i32, i64, f32)", values[1]);
    if (*type != *expected)
      return fail(line, "key 'param': parameter " + quote(name) +
                            " must have type " + toString(*expected) +
                            ", got " + quote(values[1]));
    if (current->role == KernelRole::Forward && isBackwardOnlyParam(name))
      return fail(line, "key 'param': parameter " + quote(name) +
                            " is not available to a forward kernel");
    for (const Param &param : current->params)
      if (param.name == name)
        return fail(line, "key 'param': parameter " + quote(name) +
                              " listed twice in kernel " +
                              quote(current->name));
    current->params.push_back({std::string(name), *type});
  }
  return true;
}

bool Parser::finishKernel() {
  for (const char *key : {"block", "shared_bytes", "grid"})
    if (!kernelSeen.count(key))
      return fail(current->line, "kernel " + quote(current->name) +
                                     " has no " + quote(key) + " key");
  return true;
}

bool Parser::finish(int lastLine) {
  if (current && !finishKernel())
    return false;
  for (const char *key : {"ptx", "direction", "dtype", "head_dim", "tile_q",
                          "tile_kv", "band", "scale", "varlen"})
    if (!seen.count(key))
      return fail(lastLine, std::string("missing key ") + quote(key));
  if (!isSupportedHeadDim(out.direction, out.headDim))
    return fail(seen["head_dim"],
                "key 'head_dim': expected " + describeHeadDims(out.direction) +
                    " for a " + toString(out.direction) + " artifact, got " +
                    quote(std::to_string(out.headDim)));
  if (out.direction == Direction::Forward) {
    if (out.deterministic)
      return fail(seen["deterministic"],
                  "key 'deterministic': 1 is only meaningful for a backward "
                  "artifact");
    for (const Kernel &kernel : out.kernels)
      if (kernel.role != KernelRole::Forward)
        return fail(kernel.line, "kernel " + quote(kernel.name) + " has role " +
                                     quote(toString(kernel.role)) +
                                     " but the direction is forward");
    if (!out.findKernel(KernelRole::Forward))
      return fail(lastLine, "missing key 'kernel': no kernel of role "
                            "'forward'");
  } else {
    for (const Kernel &kernel : out.kernels)
      if (kernel.role == KernelRole::Forward)
        return fail(kernel.line, "kernel " + quote(kernel.name) +
                                     " has role 'forward' but the direction "
                                     "is backward");
    if (!out.findKernel(KernelRole::BwdMain))
      return fail(lastLine, "missing key 'kernel': no kernel of role "
                            "'bwd_main'");
    // bwd_dq recomputes dQ; bwd_dq_convert rounds an accumulated one: one
    // artifact forms dQ one way.
    if (const Kernel *dq = out.findKernel(KernelRole::BwdDq))
      if (const Kernel *convert = out.findKernel(KernelRole::BwdDqConvert))
        return fail(convert->line,
                    "kernel " + quote(convert->name) +
                        " has role 'bwd_dq_convert', but kernel " +
                        quote(dq->name) + " (line " + std::to_string(dq->line) +
                        ") recomputes dQ (role 'bwd_dq'): an artifact has "
                        "one or the other");
  }
  return true;
}

} // namespace

bool sdpa_schema::parseManifest(std::string_view text, Manifest &out,
                                 std::string &error) {
  return Parser(out, error).run(text);
}

namespace {
std::string formatEdge(const std::optional<int64_t> &edge) {
  return edge ? std::to_string(*edge) : std::string("inf");
}
} // namespace

std::string sdpa_schema::printManifest(const Manifest &m) {
  std::string text = "sdpa-artifact " + std::to_string(m.version) + "\n";
  auto line = [&](const std::string &key, const std::string &values) {
    text += key + " " + values + "\n";
  };
  if (!m.ptxFile.empty())
    line("ptx", m.ptxFile);
  line("direction", toString(m.direction));
  line("dtype", toString(m.dtype));
  line("head_dim", std::to_string(m.headDim));
  line("tile_q", std::to_string(m.tileQ));
  line("tile_kv", std::to_string(m.tileKv));
  line("band", formatEdge(m.left) + " " + formatEdge(m.right) + " " +
                   toString(m.align));
  char scale[32];
  std::snprintf(scale, sizeof(scale), "%.17g", m.scale);
  line("scale", scale);
  line("varlen", m.varlen ? "1" : "0");
  // Only where set, so that the manifests of other kernels do not change.
  if (m.softcap) {
    char softcap[32];
    std::snprintf(softcap, sizeof(softcap), "%.9g", double(*m.softcap));
    line("softcap", softcap);
  }
  if (m.sinks)
    line("sinks", "1");
  if (m.direction == Direction::Backward)
    line("deterministic", m.deterministic ? "1" : "0");
  if (m.indexBits != 64)
    line("index_bits", std::to_string(m.indexBits));
  for (const Kernel &kernel : m.kernels) {
    line("kernel", kernel.name + " " + toString(kernel.role));
    line("block", std::to_string(kernel.block[0]) + " " +
                      std::to_string(kernel.block[1]) + " " +
                      std::to_string(kernel.block[2]));
    line("shared_bytes", std::to_string(kernel.sharedBytes));
    line("grid", std::string(toString(kernel.grid[0])) + " " +
                     toString(kernel.grid[1]) + " " + toString(kernel.grid[2]));
    for (const Param &param : kernel.params)
      line("param", param.name + " " + toString(param.type));
  }
  return text;
}
