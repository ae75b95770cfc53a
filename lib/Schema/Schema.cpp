//===- Schema.cpp - What the lowering and the runtime agree on ------------===//
//
// The tables behind Schema.h: names, parameter lists, head dims and the
// checks of scales, names and paths.
//
//===----------------------------------------------------------------------===//

#include "SdpaSchema/Schema.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sdpa_schema;

namespace {

/// A value and its manifest spelling.
template <typename T>
struct Spelling {
  T value;
  const char *text;
};

constexpr Spelling<Direction> kDirections[] = {
    {Direction::Forward, "forward"}, {Direction::Backward, "backward"}};
constexpr Spelling<ElementType> kElementTypes[] = {
    {ElementType::F16, "f16"},
    {ElementType::BF16, "bf16"},
    {ElementType::F32, "f32"},
    {ElementType::I32, "i32"}};
constexpr Spelling<Alignment> kAlignments[] = {
    {Alignment::TopLeft, "top_left"}, {Alignment::BottomRight, "bottom_right"}};
constexpr Spelling<KernelRole> kRoles[] = {
    {KernelRole::Forward, "forward"},
    {KernelRole::BwdPreprocess, "bwd_preprocess"},
    {KernelRole::BwdMain, "bwd_main"},
    {KernelRole::BwdDqConvert, "bwd_dq_convert"},
    {KernelRole::BwdDq, "bwd_dq"}};
constexpr Spelling<DqMode> kDqModes[] = {{DqMode::Accumulate, "accumulate"},
                                         {DqMode::Recompute, "recompute"}};
constexpr Spelling<ParamType> kParamTypes[] = {{ParamType::Ptr, "ptr"},
                                               {ParamType::I32, "i32"},
                                               {ParamType::I64, "i64"},
                                               {ParamType::F32, "f32"}};
constexpr Spelling<GridTerm> kGridTerms[] = {
    {GridTerm::QTiles, "q_tiles"}, {GridTerm::KvTiles, "kv_tiles"},
    {GridTerm::HeadsQ, "heads_q"}, {GridTerm::HeadsKv, "heads_kv"},
    {GridTerm::Batch, "batch"},    {GridTerm::One, "1"},
    {GridTerm::Rows, "rows"}};

template <typename T, size_t N>
const char *spell(const Spelling<T> (&table)[N], T value) {
  for (const Spelling<T> &s : table)
    if (s.value == value)
      return s.text;
  return "?";
}

template <typename T, size_t N>
std::optional<T> lookup(const Spelling<T> (&table)[N], std::string_view text) {
  for (const Spelling<T> &s : table)
    if (text == s.text)
      return s.value;
  return std::nullopt;
}

/// Tensors whose b/h/s strides a kernel may take; the first four are the
/// forward's.
constexpr const char *kStridedTensors[] = {"q",  "k",  "v",  "o",
                                           "do", "dq", "dk", "dv"};
constexpr const char *kStrideDims[] = {"b", "h", "s"};
constexpr const char *kPointers[] = {
    "q",  "k",  "v",        "o",     "lse",            "do",
    "dq", "dk", "dv",       "dq_accum", "delta", "relay_counters",
    "cu_seqlens_q", "cu_seqlens_kv", "sinks", "grad_sinks", "dsink_partials"};
constexpr const char *kSizes[] = {"seq_q", "seq_kv", "heads_q", "heads_kv",
                                  "batch"};
constexpr const char *kBackwardOnlyPointers[] = {
    "do", "dq", "dk", "dv", "dq_accum", "delta", "relay_counters",
    "grad_sinks", "dsink_partials"};

bool isOneOf(std::initializer_list<const char *> names,
             std::string_view name) {
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

template <size_t N>
bool contains(const char *const (&names)[N], std::string_view name) {
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

/// Builds one parameter list in the order of docs/Artifact.md.
class ParamList {
public:
  ParamList(bool varlen, bool relay, bool sinks)
      : varlen(varlen), relay(relay), sinks(sinks) {}

  /// Leaves dq_accum out of pointers() (a backward that recomputes dQ).
  ParamList &withoutDqAccum(bool omit) {
    omitDqAccum = omit;
    return *this;
  }
  /// The pointers, then those of the sinks (`sinkNames`) where the kernel
  /// has sinks, then the relay counters where the kernel takes them.
  ParamList &pointers(std::initializer_list<const char *> names,
                      std::initializer_list<const char *> sinkNames = {}) {
    for (const char *name : names)
      if (!(omitDqAccum && std::string_view(name) == "dq_accum"))
        add(name, ParamType::Ptr);
    if (sinks)
      for (const char *name : sinkNames)
        add(name, ParamType::Ptr);
    if (relay)
      add("relay_counters", ParamType::Ptr);
    return *this;
  }
  /// THD only: the cumulative offsets.
  ParamList &offsets(std::initializer_list<const char *> names) {
    if (varlen)
      for (const char *name : names)
        add(name, ParamType::Ptr);
    return *this;
  }
  ParamList &sizes(std::initializer_list<const char *> names) {
    for (const char *name : names)
      add(name, ParamType::I32);
    return *this;
  }
  /// THD only: the number of sequences.
  ParamList &batch() {
    if (varlen)
      add("batch", ParamType::I32);
    return *this;
  }
  ParamList &strides(std::initializer_list<const char *> tensors) {
    for (const char *tensor : tensors)
      for (const char *dim : kStrideDims)
        add(std::string(tensor) + "_stride_" + dim, ParamType::I64);
    return *this;
  }
  ParamList &lseStrides() {
    add("lse_stride_b", ParamType::I64);
    add("lse_stride_h", ParamType::I64);
    return *this;
  }
  /// The lse strides where the kernel reads lse only for the sinks.
  ParamList &sinkLseStrides() {
    return sinks ? lseStrides() : *this;
  }
  std::vector<Param> take() { return std::move(params); }

private:
  void add(std::string name, ParamType type) {
    params.push_back({std::move(name), type});
  }

  bool varlen, relay, sinks;
  bool omitDqAccum = false;
  std::vector<Param> params;
};

/// Every multiple of kHeadDimStep up to kMaxHeadDim, in ascending order.
std::vector<int64_t> headDimsUpToMax() {
  std::vector<int64_t> dims;
  for (int64_t d = kHeadDimStep; d <= kMaxHeadDim; d += kHeadDimStep)
    dims.push_back(d);
  return dims;
}

/// Both directions take every multiple of 8 up to 256.
const std::vector<int64_t> kHeadDims = headDimsUpToMax();

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

} // namespace

const char *sdpa_schema::toString(Direction direction) {
  return spell(kDirections, direction);
}
const char *sdpa_schema::toString(ElementType type) {
  return spell(kElementTypes, type);
}
const char *sdpa_schema::toString(Alignment align) {
  return spell(kAlignments, align);
}
const char *sdpa_schema::toString(KernelRole role) {
  return spell(kRoles, role);
}
const char *sdpa_schema::toString(ParamType type) {
  return spell(kParamTypes, type);
}
const char *sdpa_schema::toString(GridTerm term) {
  return spell(kGridTerms, term);
}

std::optional<Direction> sdpa_schema::parseDirection(std::string_view text) {
  return lookup(kDirections, text);
}
std::optional<ElementType>
sdpa_schema::parseElementType(std::string_view text) {
  std::optional<ElementType> type = lookup(kElementTypes, text);
  if (type == ElementType::F16 || type == ElementType::BF16)
    return type;
  return std::nullopt;
}
std::optional<Alignment> sdpa_schema::parseAlignment(std::string_view text) {
  return lookup(kAlignments, text);
}
std::optional<KernelRole> sdpa_schema::parseKernelRole(std::string_view text) {
  return lookup(kRoles, text);
}
std::optional<ParamType> sdpa_schema::parseParamType(std::string_view text) {
  return lookup(kParamTypes, text);
}
std::optional<GridTerm> sdpa_schema::parseGridTerm(std::string_view text) {
  return lookup(kGridTerms, text);
}

const char *sdpa_schema::toString(DqMode mode) { return spell(kDqModes, mode); }

std::optional<DqMode> sdpa_schema::parseDqMode(std::string_view text) {
  return lookup(kDqModes, text);
}

std::vector<Param> sdpa_schema::getKernelParams(KernelRole role, bool varlen,
                                                 bool deterministic, bool sinks,
                                                 DqMode dq) {
  // Only an accumulating backward has the dQ workspace and the relay.
  bool accumulate = dq == DqMode::Accumulate;
  bool relay = deterministic && accumulate;
  switch (role) {
  case KernelRole::Forward:
    // THD: seq_q and seq_kv stay (the maximum lengths, which form the grid);
    // the kernel reads its own lengths from the offsets.
    return ParamList(varlen, /*relay=*/false, sinks)
        .pointers({"q", "k", "v", "o", "lse"}, {"sinks"})
        .offsets({"cu_seqlens_q", "cu_seqlens_kv"})
        .sizes({"seq_q", "seq_kv", "heads_q", "heads_kv"})
        .strides({"q", "k", "v", "o"})
        .lseStrides()
        .take();
  case KernelRole::BwdPreprocess:
    return ParamList(varlen, relay, sinks)
        .withoutDqAccum(!accumulate)
        .pointers({"o", "do", "delta", "dq_accum"},
                  {"lse", "sinks", "dsink_partials"})
        .offsets({"cu_seqlens_q"})
        .sizes({"seq_q", "heads_q"})
        .batch()
        .strides({"o", "do"})
        .sinkLseStrides()
        .take();
  case KernelRole::BwdMain:
    return ParamList(varlen, relay, /*sinks=*/false)
        .withoutDqAccum(!accumulate)
        .pointers({"q", "k", "v", "do", "lse", "delta", "dq_accum", "dk", "dv"})
        .offsets({"cu_seqlens_q", "cu_seqlens_kv"})
        .sizes({"seq_q", "seq_kv", "heads_q", "heads_kv"})
        .batch()
        .strides({"q", "k", "v", "do", "dk", "dv"})
        .lseStrides()
        .take();
  case KernelRole::BwdDqConvert:
    return ParamList(varlen, /*relay=*/false, sinks)
        .pointers({"dq_accum", "dq"}, {"dsink_partials", "grad_sinks"})
        .offsets({"cu_seqlens_q"})
        .sizes({"seq_q", "heads_q"})
        .batch()
        .strides({"dq"})
        .take();
  case KernelRole::BwdDq:
    return ParamList(varlen, /*relay=*/false, sinks)
        .pointers({"q", "k", "v", "do", "lse", "delta", "dq"},
                  {"dsink_partials", "grad_sinks"})
        .offsets({"cu_seqlens_q", "cu_seqlens_kv"})
        .sizes({"seq_q", "seq_kv", "heads_q", "heads_kv"})
        .batch()
        .strides({"q", "k", "v", "do", "dq"})
        .lseStrides()
        .take();
  }
  return {};
}

std::vector<KernelRole> sdpa_schema::getBackwardRoles(DqMode dq) {
  if (dq == DqMode::Recompute)
    return {KernelRole::BwdPreprocess, KernelRole::BwdMain, KernelRole::BwdDq};
  return {KernelRole::BwdPreprocess, KernelRole::BwdMain,
          KernelRole::BwdDqConvert};
}

std::array<GridTerm, 3> sdpa_schema::getKernelGrid(KernelRole role) {
  if (role == KernelRole::BwdMain)
    return {GridTerm::KvTiles, GridTerm::HeadsKv, GridTerm::Batch};
  return {GridTerm::QTiles, GridTerm::HeadsQ, GridTerm::Batch};
}

std::optional<ParamType> sdpa_schema::getParamType(std::string_view name) {
  if (contains(kPointers, name))
    return ParamType::Ptr;
  if (contains(kSizes, name))
    return ParamType::I32;
  if (name == "scale")
    return ParamType::F32;
  if (name == "lse_stride_b" || name == "lse_stride_h")
    return ParamType::I64;
  for (const char *tensor : kStridedTensors)
    for (const char *dim : kStrideDims)
      if (name == std::string(tensor) + "_stride_" + dim)
        return ParamType::I64;
  return std::nullopt;
}

bool sdpa_schema::isBackwardOnlyParam(std::string_view name) {
  if (contains(kBackwardOnlyPointers, name))
    return true;
  for (const char *tensor : {"do", "dq", "dk", "dv"})
    for (const char *dim : kStrideDims)
      if (name == std::string(tensor) + "_stride_" + dim)
        return true;
  return false;
}

ElementType sdpa_schema::getPointeeType(std::string_view name,
                                         ElementType element) {
  if (isOneOf({"lse", "delta", "dq_accum", "sinks", "grad_sinks",
               "dsink_partials"},
              name))
    return ElementType::F32;
  if (isOneOf({"relay_counters", "cu_seqlens_q", "cu_seqlens_kv"}, name))
    return ElementType::I32;
  return element;
}

const std::vector<int64_t> &
sdpa_schema::getSupportedHeadDims(Direction direction) {
  (void)direction;
  return kHeadDims;
}

bool sdpa_schema::isSupportedHeadDim(Direction direction, int64_t headDim) {
  const std::vector<int64_t> &dims = getSupportedHeadDims(direction);
  return std::find(dims.begin(), dims.end(), headDim) != dims.end();
}

std::string sdpa_schema::describeHeadDims(Direction direction) {
  const std::vector<int64_t> &dims = getSupportedHeadDims(direction);
  // An arithmetic progression from its step is described by its rule.
  bool progression = dims.size() > 2 && dims[0] == dims[1] - dims[0];
  for (size_t i = 1; progression && i < dims.size(); ++i)
    progression = dims[i] - dims[i - 1] == dims[0];
  if (progression)
    return "a multiple of " + std::to_string(dims[0]) + " from " +
           std::to_string(dims[0]) + " to " + std::to_string(dims.back());
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      text += i + 1 == dims.size() ? " or " : ", ";
    text += std::to_string(dims[i]);
  }
  return text;
}

bool sdpa_schema::isRepresentableScale(double scale) {
  if (!(scale > 0) || !std::isfinite(scale))
    return false;
  // Rounded as the kernels and the runtime round it.
  float rounded = static_cast<float>(scale);
  return std::isnormal(rounded);
}

const char *sdpa_schema::describeScaleRange() {
  return "a positive normal f32, 1.17549435e-38 to 3.40282347e+38";
}

bool sdpa_schema::isValidArtifactName(std::string_view name) {
  if (name.empty() || name.size() > 128 || name[0] == '.' || name[0] == '-')
    return false;
  return std::all_of(name.begin(), name.end(), isNameChar);
}

bool sdpa_schema::checkPtxPath(std::string_view path, std::string &why) {
  if (path.empty()) {
    why = "an empty path";
    return false;
  }
  if (path[0] == '/') {
    why = "an absolute path";
    return false;
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string_view component = path.substr(
        start, slash == std::string_view::npos ? slash : slash - start);
    if (component == "..") {
      why = "a '..' component";
      return false;
    }
    if (!isValidArtifactName(component)) {
      why = "the component '" + std::string(component) +
            "' (components are 1 to 128 characters of [A-Za-z0-9_.-], not "
            "starting with '.' or '-')";
      return false;
    }
    if (slash == std::string_view::npos)
      break;
    start = slash + 1;
  }
  return true;
}

const char *sdpa_schema::getFfiTarget(Direction direction, bool sinks) {
  if (direction == Direction::Forward)
    return sinks ? "sdpa_forward_sinks" : "sdpa_forward";
  return sinks ? "sdpa_backward_sinks" : "sdpa_backward";
}
