//===- ArgCheck.h - Check the caller's tensors against an artifact -*- C++ -*-===//
//
// Validates forward and backward arguments (docs/Runtime.md lists every
// rule) and turns them into the named kernel parameter values and grid term
// values of docs/Artifact.md. Pure C++, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_ARGCHECK_H
#define SDPARUNTIME_ARGCHECK_H

#include "SdpaRuntime/Manifest.h"
#include "SdpaRuntime/SdpaRuntime.h"
#include "SdpaSchema/Schema.h"

#include <map>
#include <string>

namespace sdpa::runtime {

/// Required alignment of tensor data pointers and of row strides, in bytes
/// (16-byte cp.async copies and ldmatrix rows).
constexpr int64_t kPointerAlignment = 16;
/// Largest value 32-bit index arithmetic in the kernels can hold (their i32
/// lengths and row counts, at any index width): the schema's kMaxOffset32.
constexpr int64_t kMaxIndex = sdpa_schema::kMaxOffset32;

enum class Layout { BHSD, BSHD, THD };

const char *toString(Layout layout);

/// The C API's code (SDPA_DTYPE_*) of element type `type`.
int32_t getDtypeCode(ElementType type);

/// The value of one named kernel parameter.
struct ParamValue {
  ParamType type = ParamType::Ptr;
  uint64_t ptr = 0;
  int32_t i32 = 0;
  int64_t i64 = 0;
  float f32 = 0;

  static ParamValue pointer(uint64_t v) { return {ParamType::Ptr, v, 0, 0, 0}; }
  static ParamValue int32(int32_t v) { return {ParamType::I32, 0, v, 0, 0}; }
  static ParamValue int64(int64_t v) { return {ParamType::I64, 0, 0, v, 0}; }
  static ParamValue float32(float v) { return {ParamType::F32, 0, 0, 0, v}; }
};

using ParamTable = std::map<std::string, ParamValue>;

/// The values the grid terms take (docs/Artifact.md).
struct GridValues {
  int64_t qTiles = 0, kvTiles = 0, headsQ = 0, headsKv = 0, batch = 0;
  /// Total query rows, B * Hq * Sq (THD: Hq * Tq); the `rows` term divides it
  /// by the kernel's block.x.
  int64_t totalRows = 0;
};

/// Sizes derived from checked arguments.
struct Problem {
  Layout layout = Layout::BHSD;
  /// Dense: B; THD: the number of sequences.
  int64_t batch = 0;
  int64_t headsQ = 0, headsKv = 0;
  /// Dense: the lengths; THD: the maximum segment lengths.
  int64_t seqQ = 0, seqKv = 0;
  /// Token counts (dense: B * S).
  int64_t totalQ = 0, totalKv = 0;
  GridValues grid;
};

/// The b/h/s strides, in elements, of a q-like tensor in `layout` (THD: b is
/// 0 and s is the token stride).
struct BhsStrides {
  int64_t b = 0, h = 0, s = 0;
};
BhsStrides layoutStrides(Layout layout, const SdpaTensor &tensor);

/// Fills `tensor.strides` for a densely packed row-major tensor.
void setContiguousStrides(SdpaTensor &tensor);

/// Converts the C API's layout code; false if unknown.
bool toLayout(int32_t code, Layout &layout);

/// Checks forward arguments; on success fills `problem` and `params` with
/// every name a forward kernel may take. On failure `*status` (when given)
/// is SDPA_ERROR_INDEX_RANGE where the call breaks only the 32-bit index
/// arithmetic of an `index_bits 32` artifact, else
/// SDPA_ERROR_INVALID_ARGUMENT.
bool checkForward(const Manifest &manifest, const SdpaForwardArgs &args,
                  Problem &problem, ParamTable &params, std::string &error,
                  SdpaStatus *status = nullptr);

/// Workspace element counts of the backward; only shapes are read.
bool backwardWorkspace(const Manifest &manifest, const SdpaBackwardArgs &args,
                       SdpaWorkspaceSizes &sizes, std::string &error);

/// Checks backward arguments; on success fills `problem` and `params`;
/// `*status` as for checkForward.
bool checkBackward(const Manifest &manifest, const SdpaBackwardArgs &args,
                   Problem &problem, ParamTable &params, std::string &error,
                   SdpaStatus *status = nullptr);

} // namespace sdpa::runtime

#endif // SDPARUNTIME_ARGCHECK_H
