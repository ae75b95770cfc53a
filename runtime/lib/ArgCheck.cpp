//===- ArgCheck.cpp - Check the caller's tensors against an artifact ------===//
//
// Every rule returns a message naming the tensor and the problem, e.g.
// "q: expected 4 dimensions for layout bhsd, got 3".
//
//===----------------------------------------------------------------------===//

#include "SdpaRuntime/ArgCheck.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

using namespace sdpa::runtime;

const char *sdpa::runtime::toString(Layout layout) {
  switch (layout) {
  case Layout::BHSD:
    return "bhsd";
  case Layout::BSHD:
    return "bshd";
  case Layout::THD:
    return "thd";
  }
  return "?";
}

bool sdpa::runtime::toLayout(int32_t code, Layout &layout) {
  switch (code) {
  case SDPA_LAYOUT_BHSD:
    layout = Layout::BHSD;
    return true;
  case SDPA_LAYOUT_BSHD:
    layout = Layout::BSHD;
    return true;
  case SDPA_LAYOUT_THD:
    layout = Layout::THD;
    return true;
  }
  return false;
}

int32_t sdpa::runtime::getDtypeCode(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return SDPA_DTYPE_F16;
  case ElementType::BF16:
    return SDPA_DTYPE_BF16;
  case ElementType::F32:
    return SDPA_DTYPE_F32;
  case ElementType::I32:
    return SDPA_DTYPE_I32;
  }
  return -1;
}

void sdpa::runtime::setContiguousStrides(SdpaTensor &tensor) {
  int64_t stride = 1;
  for (int i = std::min(tensor.rank, 4) - 1; i >= 0; --i) {
    tensor.strides[i] = stride;
    stride *= std::max<int64_t>(tensor.shape[i], 1);
  }
}

namespace {

/// Dimension indices of batch, heads, seq and head_dim per layout (-1: none).
struct DimIndex {
  int b, h, s, d;
};

DimIndex dimIndex(Layout layout) {
  switch (layout) {
  case Layout::BHSD:
    return {0, 1, 2, 3};
  case Layout::BSHD:
    return {0, 2, 1, 3};
  case Layout::THD:
    return {-1, 1, 0, 2};
  }
  return {0, 1, 2, 3};
}

} // namespace

BhsStrides sdpa::runtime::layoutStrides(Layout layout, const SdpaTensor &t) {
  DimIndex idx = dimIndex(layout);
  BhsStrides strides;
  strides.b = idx.b < 0 ? 0 : t.strides[idx.b];
  strides.h = t.strides[idx.h];
  strides.s = t.strides[idx.s];
  return strides;
}

namespace {

int64_t elementBytes(int32_t dtype) {
  switch (dtype) {
  case SDPA_DTYPE_F16:
  case SDPA_DTYPE_BF16:
    return 2;
  case SDPA_DTYPE_F32:
  case SDPA_DTYPE_I32:
    return 4;
  }
  return 0;
}

const char *dtypeName(int32_t dtype) {
  switch (dtype) {
  case SDPA_DTYPE_F16:
    return "f16";
  case SDPA_DTYPE_BF16:
    return "bf16";
  case SDPA_DTYPE_F32:
    return "f32";
  case SDPA_DTYPE_I32:
    return "i32";
  }
  return "unknown";
}

std::string shapeString(const int64_t *shape, int rank) {
  std::string s = "[";
  for (int i = 0; i < rank; ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Names of the dimensions of a q-like tensor per layout, for messages.
const char *dimName(Layout layout, int dim) {
  DimIndex idx = dimIndex(layout);
  if (dim == idx.b)
    return "batch";
  if (dim == idx.h)
    return "heads";
  if (dim == idx.s)
    return layout == Layout::THD ? "tokens" : "seq";
  return "head_dim";
}

/// One q-like tensor (q, k, v, o or a gradient, indexed as [B, H, S, D]) and,
/// where set, the tensor whose shape it must share.
struct QkvLike {
  const char *name;
  const SdpaTensor *tensor;
  const char *likeName = nullptr;
  const SdpaTensor *like = nullptr;
};

class Checker {
public:
  Checker(const Manifest &manifest, Layout layout, std::string &error)
      : manifest(manifest), layout(layout), error(error) {}

  bool fail(const std::string &message) {
    error = message;
    return false;
  }

  /// Element count, or -1 on overflow.
  static int64_t numel(const SdpaTensor &t) {
    int64_t n = 1;
    for (int i = 0; i < t.rank; ++i)
      if (__builtin_mul_overflow(n, t.shape[i], &n))
        return -1;
    return n;
  }

  static std::string hex(uint64_t v) {
    char buf[32];
    snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  /// The rules every tensor obeys, in this order: `rank` dimensions (`what`
  /// describes them), non-negative shape within 32-bit indexing and
  /// non-negative strides, a known dtype, offsets within 64 bits, a non-null
  /// `alignment`-aligned pointer unless the tensor is empty, and finally the
  /// dtype `dtype` (`why` says whose it is).
  bool checkTensor(const char *name, const SdpaTensor &t, int rank,
                   int64_t alignment, const char *what, int32_t dtype,
                   const char *why) {
    if (t.rank != rank)
      return fail(std::string(name) + ": expected " + std::to_string(rank) +
                  " dimensions " + what + ", got " + std::to_string(t.rank));
    for (int i = 0; i < rank; ++i) {
      if (t.shape[i] < 0)
        return fail(std::string(name) + ": negative size " +
                    std::to_string(t.shape[i]) + " in dimension " +
                    std::to_string(i));
      if (t.shape[i] > kMaxIndex)
        return fail(std::string(name) + ": dimension " + std::to_string(i) +
                    " has size " + std::to_string(t.shape[i]) +
                    ", beyond 32-bit index arithmetic (limit " +
                    std::to_string(kMaxIndex) + ")");
      if (t.strides[i] < 0)
        return fail(std::string(name) + ": negative stride " +
                    std::to_string(t.strides[i]) + " in dimension " +
                    std::to_string(i));
    }
    if (elementBytes(t.dtype) == 0)
      return fail(std::string(name) + ": unknown dtype code " +
                  std::to_string(t.dtype));
    int64_t n = numel(t);
    if (n < 0)
      return fail(std::string(name) + ": element count overflows 64 bits");
    // The last element's offset must fit too.
    int64_t span = 0;
    for (int i = 0; i < rank; ++i) {
      int64_t term;
      if (t.shape[i] == 0)
        break;
      if (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &term) ||
          __builtin_add_overflow(span, term, &span))
        return fail(std::string(name) + ": element offsets overflow 64 bits");
    }
    // Kernels address bytes: the last byte offset must fit too, which also
    // keeps every stride * element size below (a stride of 2^62 bf16
    // elements overflowed int64_t in the row-stride check, found while
    // writing sdpa-runtime-fuzzer).
    int64_t spanBytes;
    if (__builtin_mul_overflow(span, elementBytes(t.dtype), &spanBytes))
      return fail(std::string(name) + ": byte offsets overflow 64 bits");
    if (n != 0) {
      if (t.data == 0)
        return fail(std::string(name) + ": null data pointer");
      if (t.data % alignment != 0)
        return fail(std::string(name) + ": data pointer " + hex(t.data) +
                    " is not " + std::to_string(alignment) + "-byte aligned");
    }
    if (t.dtype != dtype)
      return fail(std::string(name) + ": expected dtype " + dtypeName(dtype) +
                  why + ", got " + dtypeName(t.dtype));
    return true;
  }

  /// One q-like tensor: the common rules for the layout's rank and the
  /// artifact's dtype, then head_dim, its unit stride and 16-byte rows.
  bool checkQkvLike(const char *name, const SdpaTensor &t) {
    int rank = layout == Layout::THD ? 3 : 4;
    std::string what = std::string("for layout ") + toString(layout);
    if (!checkTensor(name, t, rank, kPointerAlignment, what.c_str(),
                     getDtypeCode(manifest.dtype), " (the artifact's)"))
      return false;
    DimIndex idx = dimIndex(layout);
    if (t.shape[idx.d] != manifest.headDim)
      return fail(std::string(name) + ": head_dim (last dimension) is " +
                  std::to_string(t.shape[idx.d]) +
                  ", the artifact was compiled for " +
                  std::to_string(manifest.headDim));
    if (t.strides[idx.d] != 1)
      return fail(std::string(name) +
                  ": the head_dim stride must be 1 (contiguous rows), got " +
                  std::to_string(t.strides[idx.d]));
    int64_t bytes = elementBytes(t.dtype);
    for (int i = 0; i < rank; ++i) {
      if (i == idx.d || t.shape[i] <= 1)
        continue;
      // Reduced before the product: an empty tensor's strides are not bounded
      // by its (empty) span, and stride * bytes could overflow (found by
      // sdpa-runtime-fuzzer: a stride of 8.6e18 behind a zero batch).
      if ((t.strides[i] % kPointerAlignment) * bytes % kPointerAlignment != 0)
        return fail(std::string(name) + ": the " + dimName(layout, i) +
                    " stride (" + std::to_string(t.strides[i]) +
                    " elements) is not a multiple of " +
                    std::to_string(kPointerAlignment) + " bytes");
    }
    return true;
  }

  /// Every tensor's own rules first (in table order), then each shape
  /// against its reference.
  bool checkQkvLikes(std::initializer_list<QkvLike> tensors) {
    for (const QkvLike &t : tensors)
      if (!checkQkvLike(t.name, *t.tensor))
        return false;
    for (const QkvLike &t : tensors)
      if (t.like && !checkSameShape(t.name, *t.tensor, t.likeName, *t.like))
        return false;
    return true;
  }

  bool checkSameShape(const char *name, const SdpaTensor &t,
                      const char *refName, const SdpaTensor &ref) {
    if (!std::equal(t.shape, t.shape + t.rank, ref.shape))
      return fail(std::string(name) + ": shape " +
                  shapeString(t.shape, t.rank) + " differs from " + refName +
                  "'s " + shapeString(ref.shape, ref.rank));
    return true;
  }

  /// The pointer and b/h/s strides of a q-like tensor, as `<name>`,
  /// `<name>_stride_b`, `<name>_stride_h`, `<name>_stride_s`.
  void putQkvLike(ParamTable &params, const char *name,
                  const SdpaTensor &t) const {
    params[name] = ParamValue::pointer(t.data);
    BhsStrides s = layoutStrides(layout, t);
    params[std::string(name) + "_stride_b"] = ParamValue::int64(s.b);
    params[std::string(name) + "_stride_h"] = ParamValue::int64(s.h);
    params[std::string(name) + "_stride_s"] = ParamValue::int64(s.s);
  }

  /// lse: f32 of shape `expected` (dimensions named by `dimNames`), with a
  /// unit stride along the last one, the query rows (`rowName`).
  bool checkLse(const SdpaTensor &lse, const std::vector<int64_t> &expected,
                const char *dimNames, const char *rowName) {
    int rank = int(expected.size());
    std::string dims = dimNames;
    if (!checkTensor("lse", lse, rank, kPointerAlignment,
                     ("[" + dims + "]").c_str(), SDPA_DTYPE_F32, ""))
      return false;
    if (!std::equal(expected.begin(), expected.end(), lse.shape))
      return fail("lse: expected shape " + shapeString(expected.data(), rank) +
                  " (" + dims + "), got " + shapeString(lse.shape, rank));
    int rows = rank - 1;
    if (expected[rows] > 1 && lse.strides[rows] != 1)
      return fail(std::string("lse: the ") + rowName +
                  " stride must be 1, got " +
                  std::to_string(lse.strides[rows]));
    return true;
  }

  /// A densely packed workspace of `elements` elements of `dtype`.
  bool checkWorkspace(const char *name, const SdpaTensor &t, int32_t dtype,
                      int64_t elements) {
    if (t.rank < 1 || t.rank > 4)
      return fail(std::string(name) + ": expected 1 to 4 dimensions, got " +
                  std::to_string(t.rank));
    if (!checkTensor(name, t, t.rank, kPointerAlignment, "", dtype, ""))
      return false;
    if (numel(t) != elements)
      return fail(std::string(name) + ": holds " + std::to_string(numel(t)) +
                  " elements, expected " + std::to_string(elements));
    SdpaTensor packed = t;
    setContiguousStrides(packed);
    for (int i = 0; i < t.rank; ++i)
      if (t.shape[i] > 1 && t.strides[i] != packed.strides[i])
        return fail(std::string(name) + ": must be densely packed (stride " +
                    std::to_string(t.strides[i]) + " in dimension " +
                    std::to_string(i) + ", expected " +
                    std::to_string(packed.strides[i]) + ")");
    return true;
  }

  /// One value per query head, f32 [heads_q] (the sinks and their
  /// gradient): with `required` (an artifact with sinks) the tensor must be
  /// given, contiguous and 4-byte aligned; without it it must be absent
  /// (zero-initialized), since the kernels would ignore it.
  bool checkPerHead(const char *name, const SdpaTensor &t, int64_t headsQ,
                    bool required) {
    bool given = t.data != 0 || t.rank != 0;
    if (!required) {
      if (given)
        return fail(std::string(name) +
                    ": given, but the artifact was compiled without sinks "
                    "(its kernels would ignore them)");
      return true;
    }
    if (!given)
      return fail(std::string(name) +
                  ": missing, the artifact was compiled with sinks (f32 "
                  "[heads_q] = [" +
                  std::to_string(headsQ) + "])");
    if (!checkTensor(name, t, 1, 4, "[heads_q]", SDPA_DTYPE_F32, ""))
      return false;
    if (t.shape[0] != headsQ)
      return fail(std::string(name) + ": expected shape [" +
                  std::to_string(headsQ) + "] (heads_q), got " +
                  shapeString(t.shape, t.rank));
    if (t.shape[0] > 1 && t.strides[0] != 1)
      return fail(std::string(name) + ": the stride must be 1, got " +
                  std::to_string(t.strides[0]));
    return true;
  }

  bool checkOffsets(const char *name, const SdpaTensor &t) {
    if (!checkTensor(name, t, 1, 4, "(cumulative offsets)", SDPA_DTYPE_I32,
                     ""))
      return false;
    if (t.shape[0] < 1)
      return fail(std::string(name) +
                  ": expected at least one offset (one more than the number "
                  "of sequences), got none");
    if (t.shape[0] > 1 && t.strides[0] != 1)
      return fail(std::string(name) + ": the stride must be 1, got " +
                  std::to_string(t.strides[0]));
    if (t.data == 0)
      return fail(std::string(name) + ": null data pointer");
    return true;
  }

  bool checkHostOffsets(const char *name, const int32_t *offsets,
                        int64_t count, int64_t tokens, int64_t maxLen,
                        const char *maxName) {
    if (offsets[0] != 0)
      return fail(std::string(name) + ": the first offset is " +
                  std::to_string(offsets[0]) + ", expected 0");
    for (int64_t i = 1; i < count; ++i) {
      if (offsets[i] < offsets[i - 1])
        return fail(std::string(name) + ": offsets decrease at index " +
                    std::to_string(i) + " (" + std::to_string(offsets[i]) +
                    " after " + std::to_string(offsets[i - 1]) + ")");
      int64_t length = int64_t(offsets[i]) - offsets[i - 1];
      if (length > maxLen)
        return fail(std::string(name) + ": sequence " + std::to_string(i - 1) +
                    " has " + std::to_string(length) + " tokens, more than " +
                    maxName + " = " + std::to_string(maxLen));
    }
    if (offsets[count - 1] != tokens)
      return fail(std::string(name) + ": the last offset is " +
                  std::to_string(offsets[count - 1]) + ", but there are " +
                  std::to_string(tokens) + " tokens");
    return true;
  }

  /// The part shared by forward and backward: q, k, v, o, lse, offsets.
  bool checkCore(const SdpaTensor &q, const SdpaTensor &k, const SdpaTensor &v,
                 const SdpaTensor &o, const SdpaTensor &lse,
                 const SdpaTensor &cuQ, const SdpaTensor &cuKv, int64_t maxQ,
                 int64_t maxKv, const int32_t *hostQ, const int32_t *hostKv,
                 Problem &problem, ParamTable &params);

  const Manifest &manifest;
  Layout layout;
  std::string &error;
};

/// One side (query or key/value) of a packed-sequence (THD) problem.
struct PackedSide {
  const char *offsetsName;
  const SdpaTensor &offsets;
  const int32_t *hostOffsets;
  const char *maxName;
  int64_t maxLength;
  int64_t tokens;
};

bool Checker::checkCore(const SdpaTensor &q, const SdpaTensor &k,
                        const SdpaTensor &v, const SdpaTensor &o,
                        const SdpaTensor &lse, const SdpaTensor &cuQ,
                        const SdpaTensor &cuKv, int64_t maxQ, int64_t maxKv,
                        const int32_t *hostQ, const int32_t *hostKv,
                        Problem &problem, ParamTable &params) {
  bool thd = layout == Layout::THD;
  if (thd && !manifest.varlen)
    return fail("layout: thd needs an artifact compiled for packed sequences "
                "(varlen 1), this one is dense");
  if (!thd && manifest.varlen)
    return fail(std::string("layout: ") + toString(layout) +
                " given, but the artifact was compiled for packed sequences "
                "(varlen 1, layout thd)");
  if (!checkQkvLikes({{"q", &q}, {"k", &k}, {"v", &v, "k", &k},
                      {"o", &o, "q", &q}}))
    return false;

  DimIndex idx = dimIndex(layout);
  problem = Problem();
  problem.layout = layout;
  problem.headsQ = q.shape[idx.h];
  problem.headsKv = k.shape[idx.h];
  if (problem.headsKv == 0 && problem.headsQ != 0)
    return fail("k: zero heads");
  if (problem.headsKv != 0 && problem.headsQ % problem.headsKv != 0)
    return fail("heads: query heads (" + std::to_string(problem.headsQ) +
                ") are not a multiple of kv heads (" +
                std::to_string(problem.headsKv) + ")");

  if (!thd) {
    if (cuQ.data != 0 || cuKv.data != 0)
      return fail(std::string(cuQ.data ? "cu_seqlens_q" : "cu_seqlens_kv") +
                  ": given for the dense layout " + toString(layout));
    if (k.shape[idx.b] != q.shape[idx.b])
      return fail("k: batch is " + std::to_string(k.shape[idx.b]) +
                  ", q's is " + std::to_string(q.shape[idx.b]));
    problem.batch = q.shape[idx.b];
    problem.seqQ = q.shape[idx.s];
    problem.seqKv = k.shape[idx.s];
    problem.totalQ = problem.batch * problem.seqQ;
    problem.totalKv = problem.batch * problem.seqKv;
    if (!checkLse(lse, {problem.batch, problem.headsQ, problem.seqQ},
                  "batch, heads_q, seq_q", "seq"))
      return false;
  } else {
    const PackedSide sides[] = {
        {"cu_seqlens_q", cuQ, hostQ, "max_seqlen_q", maxQ, q.shape[idx.s]},
        {"cu_seqlens_kv", cuKv, hostKv, "max_seqlen_kv", maxKv,
         k.shape[idx.s]}};
    for (const PackedSide &side : sides)
      if (!checkOffsets(side.offsetsName, side.offsets))
        return false;
    if (cuKv.shape[0] != cuQ.shape[0])
      return fail("cu_seqlens_kv: " + std::to_string(cuKv.shape[0]) +
                  " offsets, but cu_seqlens_q has " +
                  std::to_string(cuQ.shape[0]) +
                  " (both hold one more than the number of sequences)");
    problem.batch = cuQ.shape[0] - 1;
    problem.totalQ = sides[0].tokens;
    problem.totalKv = sides[1].tokens;
    for (const PackedSide &side : sides) {
      if (side.maxLength < 0)
        return fail(std::string(side.maxName) + ": negative (" +
                    std::to_string(side.maxLength) + ")");
      if (side.maxLength > side.tokens)
        return fail(std::string(side.maxName) + ": " +
                    std::to_string(side.maxLength) + " is more than the " +
                    std::to_string(side.tokens) + " tokens given");
    }
    problem.seqQ = maxQ;
    problem.seqKv = maxKv;
    for (const PackedSide &side : sides)
      if (side.hostOffsets &&
          !checkHostOffsets(side.offsetsName, side.hostOffsets,
                            side.offsets.shape[0], side.tokens,
                            side.maxLength, side.maxName))
        return false;
    if (!checkLse(lse, {problem.headsQ, problem.totalQ}, "heads_q, tokens_q",
                  "token"))
      return false;
  }

  // 32-bit index arithmetic: tile-rounded positions plus the band's finite
  // edges must stay representable.
  GridValues &grid = problem.grid;
  grid.qTiles = sdpa_schema::getQueryTiles(problem.seqQ, manifest.tileQ);
  grid.kvTiles = ceilDiv(problem.seqKv, manifest.tileKv);
  grid.headsQ = problem.headsQ;
  grid.headsKv = problem.headsKv;
  grid.batch = problem.batch;
  int64_t reach = grid.qTiles * manifest.tileQ + grid.kvTiles * manifest.tileKv +
                  manifest.left.value_or(0) + manifest.right.value_or(0);
  if (reach > kMaxIndex)
    return fail("seq_q/seq_kv: " + std::to_string(problem.seqQ) + " and " +
                std::to_string(problem.seqKv) +
                " positions, rounded to tiles and widened by the band, "
                "overflow 32-bit index arithmetic (limit " +
                std::to_string(kMaxIndex) + ")");
  int64_t rows;
  if (__builtin_mul_overflow(problem.headsQ, problem.totalQ, &rows) ||
      rows > kMaxIndex)
    return fail("q: heads_q * query tokens = " +
                std::to_string(problem.headsQ) + " * " +
                std::to_string(problem.totalQ) +
                " rows overflow 32-bit index arithmetic (limit " +
                std::to_string(kMaxIndex) + ")");
  grid.totalRows = rows;

  params.clear();
  putQkvLike(params, "q", q);
  putQkvLike(params, "k", k);
  putQkvLike(params, "v", v);
  putQkvLike(params, "o", o);
  params["lse"] = ParamValue::pointer(lse.data);
  params["lse_stride_b"] = ParamValue::int64(thd ? 0 : lse.strides[0]);
  params["lse_stride_h"] = ParamValue::int64(thd ? lse.strides[0] : lse.strides[1]);
  if (thd) {
    params["cu_seqlens_q"] = ParamValue::pointer(cuQ.data);
    params["cu_seqlens_kv"] = ParamValue::pointer(cuKv.data);
  }
  params["seq_q"] = ParamValue::int32(static_cast<int32_t>(problem.seqQ));
  params["seq_kv"] = ParamValue::int32(static_cast<int32_t>(problem.seqKv));
  params["heads_q"] = ParamValue::int32(static_cast<int32_t>(problem.headsQ));
  params["heads_kv"] = ParamValue::int32(static_cast<int32_t>(problem.headsKv));
  params["batch"] = ParamValue::int32(static_cast<int32_t>(problem.batch));
  params["scale"] = ParamValue::float32(manifest.scaleF32());
  return true;
}

bool checkDirection(const Manifest &manifest, Direction direction,
                    std::string &error) {
  if (manifest.direction == direction)
    return true;
  error = std::string("artifact: compiled for the ") +
          (manifest.direction == Direction::Forward ? "forward" : "backward") +
          ", not the " +
          (direction == Direction::Forward ? "forward" : "backward");
  return false;
}

/// The start of every entry point: the artifact's direction, the layout
/// code, then what forward and backward arguments share (`Args` is
/// SdpaForwardArgs or SdpaBackwardArgs, whose common fields have the same
/// names). `withHostOffsets` false ignores the host copies of the offsets.
template <typename Args>
bool checkShared(const Manifest &manifest, Direction direction,
                 const Args &args, bool withHostOffsets, Layout &layout,
                 Problem &problem, ParamTable &params, std::string &error) {
  if (!checkDirection(manifest, direction, error))
    return false;
  if (!toLayout(args.layout, layout)) {
    error = "layout: unknown layout code " + std::to_string(args.layout);
    return false;
  }
  Checker checker(manifest, layout, error);
  return checker.checkCore(
      args.q, args.k, args.v, args.o, args.lse, args.cu_seqlens_q,
      args.cu_seqlens_kv, args.max_seqlen_q, args.max_seqlen_kv,
      withHostOffsets ? args.host_cu_seqlens_q : nullptr,
      withHostOffsets ? args.host_cu_seqlens_kv : nullptr, problem, params);
}

/// Workspace sizes for a checked problem.
SdpaWorkspaceSizes workspaceFor(const Manifest &manifest,
                                const Problem &problem) {
  SdpaWorkspaceSizes sizes;
  sizes.delta_elements = problem.grid.totalRows;
  // A backward that recomputes dQ (bwd_dq) has no dq_accum.
  sizes.dq_accum_elements = manifest.takesParam("dq_accum")
                                ? problem.grid.totalRows * manifest.headDim
                                : 0;
  // One relay counter and one partial dsink per (batch entry or sequence,
  // query head, query tile), the schema's shape the FFI export also uses.
  int64_t perTile = 1;
  for (int64_t extent : sdpa_schema::getQueryTileWorkspaceShape(
           problem.batch, problem.headsQ, problem.grid.qTiles))
    perTile *= extent;
  sizes.relay_counter_elements = manifest.usesRelay() ? perTile : 0;
  sizes.dsink_partial_elements = manifest.sinks ? perTile : 0;
  return sizes;
}

/// A tensor the kernels read or write, for the aliasing check.
struct Operand {
  const char *name;
  const SdpaTensor *tensor;
  /// Written by a kernel (an output or a workspace).
  bool written;
};

/// The offset, in elements, of an already checked tensor's last element;
/// -1 if it is empty.
int64_t lastElementOffset(const SdpaTensor &t) {
  int64_t span = 0;
  for (int i = 0; i < t.rank; ++i) {
    if (t.shape[i] == 0)
      return -1;
    span += (t.shape[i] - 1) * t.strides[i];
  }
  return span;
}

/// The bytes [first, last] an already checked tensor spans; false if empty.
bool byteRange(const SdpaTensor &t, uint64_t &first, uint64_t &last) {
  int64_t span = lastElementOffset(t);
  if (t.data == 0 || t.rank == 0 || span < 0)
    return false;
  first = t.data;
  last = t.data + uint64_t(span + 1) * uint64_t(elementBytes(t.dtype)) - 1;
  return true;
}

/// Refuses a written operand whose bytes overlap those of any other operand:
/// the kernels assume their outputs and workspaces private (relay counters
/// that alias delta would never reach their turns). Inputs may share memory
/// with each other (q, k, v sliced out of one buffer).
bool checkNoAliasing(std::initializer_list<Operand> operands,
                     std::string &error) {
  for (const Operand &a : operands) {
    uint64_t aFirst, aLast;
    if (!a.written || !byteRange(*a.tensor, aFirst, aLast))
      continue;
    for (const Operand &b : operands) {
      uint64_t bFirst, bLast;
      if (&a == &b || !byteRange(*b.tensor, bFirst, bLast))
        continue;
      if (aFirst <= bLast && bFirst <= aLast) {
        error = std::string(a.name) + ": its memory overlaps " + b.name +
                "'s (outputs and workspaces must not share memory with each "
                "other or with an input)";
        return false;
      }
    }
  }
  return true;
}

/// The last rules of a call, over every operand the kernels read or write:
/// no aliasing (checkNoAliasing), then, for an artifact lowered at a 32-bit
/// index (`index_bits 32`), every operand's last element within 2^31 - 1.
/// That rule runs after every other, so its status, SDPA_ERROR_INDEX_RANGE
/// in `*status`, says exactly that the artifact lowered at 64 bits takes
/// the call (the frontends' fallback, docs/Runtime.md).
bool checkOperands(const Manifest &manifest,
                   std::initializer_list<Operand> operands, std::string &error,
                   SdpaStatus *status) {
  if (!checkNoAliasing(operands, error))
    return false;
  if (manifest.indexBits != 32)
    return true;
  for (const Operand &operand : operands) {
    int64_t offset = lastElementOffset(*operand.tensor);
    if (offset > sdpa_schema::kMaxOffset32) {
      error = std::string(operand.name) + ": the last element's offset " +
              std::to_string(offset) +
              " does not fit the artifact's 32-bit index arithmetic (limit " +
              std::to_string(sdpa_schema::kMaxOffset32) +
              "; the artifact lowered with index-bitwidth=64 takes it)";
      if (status)
        *status = SDPA_ERROR_INDEX_RANGE;
      return false;
    }
  }
  return true;
}

/// One backward workspace and when the artifact needs it.
struct Workspace {
  const char *name;
  const SdpaTensor &tensor;
  int32_t dtype;
  int64_t elements;
  bool needed;
};

} // namespace

bool sdpa::runtime::checkForward(const Manifest &manifest,
                                 const SdpaForwardArgs &args, Problem &problem,
                                 ParamTable &params, std::string &error,
                                 SdpaStatus *status) {
  if (status)
    *status = SDPA_ERROR_INVALID_ARGUMENT;
  Layout layout;
  if (!checkShared(manifest, Direction::Forward, args,
                   /*withHostOffsets=*/true, layout, problem, params, error))
    return false;
  Checker checker(manifest, layout, error);
  if (!checker.checkPerHead("sinks", args.sinks, problem.headsQ,
                            manifest.sinks))
    return false;
  if (manifest.sinks)
    params["sinks"] = ParamValue::pointer(args.sinks.data);
  return checkOperands(manifest, {{"q", &args.q, false},
                          {"k", &args.k, false},
                          {"v", &args.v, false},
                          {"cu_seqlens_q", &args.cu_seqlens_q, false},
                          {"cu_seqlens_kv", &args.cu_seqlens_kv, false},
                          {"sinks", &args.sinks, false},
                          {"o", &args.o, true},
                          {"lse", &args.lse, true}},
                       error, status);
}

bool sdpa::runtime::backwardWorkspace(const Manifest &manifest,
                                      const SdpaBackwardArgs &args,
                                      SdpaWorkspaceSizes &sizes,
                                      std::string &error) {
  Layout layout;
  Problem problem;
  ParamTable params;
  if (!checkShared(manifest, Direction::Backward, args,
                   /*withHostOffsets=*/false, layout, problem, params, error))
    return false;
  sizes = workspaceFor(manifest, problem);
  return true;
}

bool sdpa::runtime::checkBackward(const Manifest &manifest,
                                  const SdpaBackwardArgs &args,
                                  Problem &problem, ParamTable &params,
                                  std::string &error, SdpaStatus *status) {
  if (status)
    *status = SDPA_ERROR_INVALID_ARGUMENT;
  Layout layout;
  if (!checkShared(manifest, Direction::Backward, args,
                   /*withHostOffsets=*/true, layout, problem, params, error))
    return false;
  Checker checker(manifest, layout, error);
  const QkvLike gradients[] = {{"do", &args.dout, "q", &args.q},
                               {"dq", &args.dq, "q", &args.q},
                               {"dk", &args.dk, "k", &args.k},
                               {"dv", &args.dv, "k", &args.k}};
  // One gradient at a time: each one's shape right after its own rules.
  for (const QkvLike &gradient : gradients)
    if (!checker.checkQkvLikes({gradient}))
      return false;
  for (const QkvLike &gradient : gradients)
    checker.putQkvLike(params, gradient.name, *gradient.tensor);

  SdpaWorkspaceSizes sizes = workspaceFor(manifest, problem);
  const Workspace workspaces[] = {
      {"dq_accum", args.dq_accum, SDPA_DTYPE_F32, sizes.dq_accum_elements,
       manifest.takesParam("dq_accum")},
      {"delta", args.delta, SDPA_DTYPE_F32, sizes.delta_elements,
       manifest.takesParam("delta")},
      {"relay_counters", args.relay_counters, SDPA_DTYPE_I32,
       sizes.relay_counter_elements,
       manifest.usesRelay()},
      {"dsink_partials", args.dsink_partials, SDPA_DTYPE_F32,
       sizes.dsink_partial_elements,
       manifest.sinks || manifest.takesParam("dsink_partials")}};
  // The sinks before the workspaces: the partials' size is only meaningful
  // where the artifact has sinks.
  for (auto [name, tensor] : {std::pair("sinks", &args.sinks),
                              std::pair("grad_sinks", &args.grad_sinks)}) {
    if (!checker.checkPerHead(name, *tensor, problem.headsQ, manifest.sinks))
      return false;
    if (manifest.sinks)
      params[name] = ParamValue::pointer(tensor->data);
  }

  SdpaTensor unused = {};
  const SdpaTensor *used[4];
  for (int i = 0; i < 4; ++i) {
    const Workspace &w = workspaces[i];
    used[i] = &unused;
    if (!w.needed)
      continue;
    if (!checker.checkWorkspace(w.name, w.tensor, w.dtype, w.elements))
      return false;
    params[w.name] = ParamValue::pointer(w.tensor.data);
    used[i] = &w.tensor;
  }
  return checkOperands(manifest, {{"q", &args.q, false},
                          {"k", &args.k, false},
                          {"v", &args.v, false},
                          {"o", &args.o, false},
                          {"lse", &args.lse, false},
                          {"do", &args.dout, false},
                          {"cu_seqlens_q", &args.cu_seqlens_q, false},
                          {"cu_seqlens_kv", &args.cu_seqlens_kv, false},
                          {"sinks", &args.sinks, false},
                          {"dq", &args.dq, true},
                          {"dk", &args.dk, true},
                          {"dv", &args.dv, true},
                          {"grad_sinks", &args.grad_sinks, true},
                          {"dq_accum", used[0], true},
                          {"delta", used[1], true},
                          {"relay_counters", used[2], true},
                          {"dsink_partials", used[3], true}},
                       error, status);
}
