//===- Schema.h - What the lowering and the runtime agree on ----*- C++ -*-===//
//
// The facts of the kernel artifact (docs/Artifact.md) written once, for the
// lowering that writes artifacts and the runtime that reads them: kernel
// roles, parameter names, types and order, grid terms, element types, the
// head dims the kernels are generated for, tile and band ranges, the scale
// rule, artifact names and PTX paths. Pure C++: no MLIR, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SDPASCHEMA_SCHEMA_H
#define SDPASCHEMA_SCHEMA_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sdpa_schema {

/// The artifact (manifest) version both sides read and write.
constexpr int kArtifactVersion = 1;

enum class Direction { Forward, Backward };
enum class ElementType { F16, BF16, F32, I32 };
enum class Alignment { TopLeft, BottomRight };
enum class KernelRole { Forward, BwdPreprocess, BwdMain, BwdDqConvert, BwdDq };
/// How a backward forms dQ (docs/Artifact.md, "Backward kernels"):
/// Accumulate: bwd_main adds each key tile's partial into the f32 workspace
/// dq_accum (atomics, or the relay when deterministic) and bwd_dq_convert
/// rounds it; Recompute: bwd_dq, one program per query tile, recomputes P
/// and dS over its key tiles and sums dQ in registers (no workspace, no
/// atomics: deterministic at any setting), and bwd_main forms only dK, dV.
enum class DqMode { Accumulate, Recompute };
enum class ParamType { Ptr, I32, I64, F32 };
/// How one grid dimension is formed (docs/Artifact.md, "Grid terms").
enum class GridTerm { QTiles, KvTiles, HeadsQ, HeadsKv, Batch, One, Rows };

/// The manifest spelling of each value.
const char *toString(Direction direction);
const char *toString(ElementType type);
const char *toString(Alignment align);
const char *toString(KernelRole role);
const char *toString(ParamType type);
const char *toString(GridTerm term);
const char *toString(DqMode mode);

/// The value spelt `text` in a manifest, or nullopt.
std::optional<Direction> parseDirection(std::string_view text);
/// Only the element types of q, k, v (f16, bf16).
std::optional<ElementType> parseElementType(std::string_view text);
std::optional<Alignment> parseAlignment(std::string_view text);
std::optional<KernelRole> parseKernelRole(std::string_view text);
std::optional<ParamType> parseParamType(std::string_view text);
std::optional<GridTerm> parseGridTerm(std::string_view text);
/// `accumulate` or `recompute` (the pass options' spelling).
std::optional<DqMode> parseDqMode(std::string_view text);

/// One kernel parameter, in launch order.
struct Param {
  std::string name;
  ParamType type;
};

/// The parameters of the kernel of `role`, in order (docs/Artifact.md):
/// pointers first (the THD offsets after the other pointers of a `varlen`
/// kernel, the relay counters last of a `deterministic` backward kernel that
/// takes them), then the i32 sizes, then the i64 strides. With `sinks`
/// (docs/Semantics.md §7) the forward also takes `sinks`, bwd_preprocess
/// `lse`, `sinks`, `dsink_partials` and the lse strides, bwd_dq_convert
/// `dsink_partials` and `grad_sinks`; bwd_main is unchanged (the LSE holds
/// the sink). With DqMode::Recompute no kernel takes dq_accum or the relay
/// counters, and bwd_dq (which takes `dsink_partials` and `grad_sinks`
/// with sinks, in place of bwd_dq_convert) writes dq.
std::vector<Param> getKernelParams(KernelRole role, bool varlen,
                                   bool deterministic, bool sinks,
                                   DqMode dq = DqMode::Accumulate);

/// The backward kernels of `dq` mode, in launch order.
std::vector<KernelRole> getBackwardRoles(DqMode dq);

/// The grid terms of the kernel of `role` (x, y, z): one program per query
/// tile (per key tile for bwd_main), head and batch entry.
std::array<GridTerm, 3> getKernelGrid(KernelRole role);

/// The type every parameter name the runtime can fill must have, or nullopt
/// for a name it does not know. `scale f32` is the manifest's scale.
std::optional<ParamType> getParamType(std::string_view name);

/// True for the gradients, the backward workspaces and their strides, which
/// a forward kernel cannot take.
bool isBackwardOnlyParam(std::string_view name);

/// The element type pointer parameter `name` points to: f32 for lse, delta,
/// dq_accum, sinks, grad_sinks and dsink_partials, i32 for relay_counters and the THD offsets, else `element`
/// (the artifact's dtype).
ElementType getPointeeType(std::string_view name, ElementType element);

/// The XLA FFI target of a call (docs/Export.md): `sdpa_forward`,
/// `sdpa_backward`, and for an artifact compiled with sinks
/// `sdpa_forward_sinks`, `sdpa_backward_sinks` (which take the sinks and, in
/// the backward, return their gradient).
const char *getFfiTarget(Direction direction, bool sinks);

/// The shape of a backward workspace with one entry per (batch entry or
/// sequence, query head, query tile): the relay counters of a deterministic
/// artifact and the dsink partials of one with sinks, [batch, headsQ, qTiles].
constexpr std::array<int64_t, 3> getQueryTileWorkspaceShape(int64_t batch,
                                                            int64_t headsQ,
                                                            int64_t qTiles) {
  return {batch, headsQ, qTiles};
}

/// The query tiles of `seqQ` rows in tiles of `tileQ` (> 0): ceil(seqQ / tileQ).
constexpr int64_t getQueryTiles(int64_t seqQ, int64_t tileQ) {
  return (seqQ + tileQ - 1) / tileQ;
}

/// The head dims are the multiples of kHeadDimStep up to kMaxHeadDim, in
/// both directions: rows move in 16-byte copies of 8 elements. The kernels
/// reduce over the head dim in mma.sync steps of 16 and compute at a width of
/// their own (a multiple of 16, lib/Conversion getMmaHeadDim) whose columns
/// past the head dim are zero in shared memory and never stored; what the
/// runtime sees is the head dim alone.
constexpr int64_t kHeadDimStep = 8;
constexpr int64_t kMaxHeadDim = 256;

/// Head dims the kernels of `direction` are generated for, ascending (the
/// same table in both directions today; callers still name theirs).
const std::vector<int64_t> &getSupportedHeadDims(Direction direction);
bool isSupportedHeadDim(Direction direction, int64_t headDim);
/// "a multiple of 8 from 8 to 256" (a table of one step), else the list
/// ("64 or 128"): for messages.
std::string describeHeadDims(Direction direction);

/// Tile sizes (tile_q, tile_kv) are in [1, kMaxTile].
constexpr int64_t kMaxTile = 65536;
/// Finite band edges are in [0, kMaxBandEdge].
constexpr int64_t kMaxBandEdge = 2147483647;
/// The largest element offset the kernels of an `index_bits 32` artifact
/// address (in every tensor and workspace), the largest value of 32-bit
/// index arithmetic: the compiler refuses static shapes past it, the
/// runtime calls past it (SDPA_ERROR_INDEX_RANGE), and the frontends take
/// the 64-bit twin. Every artifact's i32 lengths and row counts stop there
/// too (the runtime's kMaxIndex).
constexpr int64_t kMaxOffset32 = 2147483647;

/// True if the softmax scale `scale` is positive and rounds to a normal f32
/// (the kernels multiply in f32: 1e-50 would become 0, 1e300 +inf).
bool isRepresentableScale(double scale);
/// The range isRepresentableScale accepts, for messages.
const char *describeScaleRange();

/// True if `name` may name an artifact (`<name>.ptx`, `<name>.manifest` in
/// the artifact directory): 1 to 128 characters of [A-Za-z0-9_.-], not
/// starting with '.' or '-'.
bool isValidArtifactName(std::string_view name);

/// Checks the manifest's `ptx` value: a relative path whose components are
/// artifact names (so no empty, `.` or `..` component, no leading '/', no
/// NUL, space or control character). On failure returns false and sets `why`.
bool checkPtxPath(std::string_view path, std::string &why);

} // namespace sdpa_schema

#endif // SDPASCHEMA_SCHEMA_H
