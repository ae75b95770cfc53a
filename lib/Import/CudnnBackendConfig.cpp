//===- CudnnBackendConfig.cpp - The backend_config of cuDNN attention -----===//
//
// The schema of every key JAX 0.11 prints in the backend_config of
// `__cudnn$fmhaSoftmax` and `__cudnn$fmhaSoftmaxBackward` (XLA's
// GpuBackendConfig with its CudnnfMHABackendConfig, in protobuf's JSON
// form: int64 as strings, int32 as numbers, enums by name), plus cuDNN's
// band keys, and what each means for the sdpa op (docs/Import.md §1).
//
//===----------------------------------------------------------------------===//

#include "CudnnBackendConfig.h"
#include "Json.h"
#include "JsonSchema.h"

#include "llvm/ADT/Sequence.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;
using json::Field;
using json::Schema;

namespace {

/// The variants of the schema: which call a key belongs to.
constexpr unsigned kForward = 1, kBackward = 2, kBoth = kForward | kBackward;
constexpr unsigned kAll = ~0u;

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

//===----------------------------------------------------------------------===//
// The schema
//===----------------------------------------------------------------------===//

constexpr Schema kBool = Schema::boolean();
constexpr Schema kInt64 = Schema::integer();
constexpr Schema kZero = Schema::integer(0, 0);
constexpr Schema kEmpty = Schema::emptyArray();
constexpr Schema kInt64List = Schema::arrayOf(&kInt64);

/// stream_executor's AlgorithmProto: which cuDNN engine and its knobs. Any
/// engine computes the same function (up to rounding): accepted as is.
constexpr llvm::StringLiteral kMathTypes[] = {"DEFAULT_MATH", "TENSOR_OP_MATH"};
constexpr Field kAlgorithmFields[] = {
    {"algo_id", kInt64},
    {"math_type", Schema::oneOf(kMathTypes)},
    {"tuning_knobs", Schema::integerMap(&kInt64)},
    {"is_cudnn_frontend", kBool},
    {"workspace_size", Schema::integer(0)},
};

/// xla's LayoutProto of the intermediate tensor. Dense, in the default
/// memory space: any other value is a layout sdpa does not model.
constexpr llvm::StringLiteral kInvalidType[] = {"PRIMITIVE_TYPE_INVALID"};
constexpr Field kLayoutFields[] = {
    {"dim_level_types", kEmpty},
    {"dim_unique", kEmpty},
    {"dim_ordered", kEmpty},
    {"minor_to_major", kInt64List},
    {"tiles", kEmpty},
    {"element_size_in_bits", kZero},
    {"memory_space", kZero},
    {"index_primitive_type", Schema::oneOf(kInvalidType)},
    {"pointer_primitive_type", Schema::oneOf(kInvalidType)},
    {"dynamic_shape_metadata_prefix_bytes", kZero},
};

/// xla's ShapeProto of cuDNN's S = Q K^T; checked against the operands.
constexpr llvm::StringLiteral kElementTypes[] = {"BF16", "F16"};
constexpr Schema kBoolList = Schema::arrayOf(&kBool);
constexpr Field kShapeFields[] = {
    {"element_type", Schema::oneOf(kElementTypes), kAll, kAll},
    {"dimensions", kInt64List, kAll, kAll},
    {"tuple_shapes", kEmpty},
    {"layout", Schema::object(kLayoutFields)},
    {"is_dynamic_dimension", kBoolList},
};

/// xla's DotDimensionNumbers of one product; compared with the layouts.
constexpr Field kDotFields[] = {
    {"lhs_contracting_dimensions", kInt64List, kAll, kAll},
    {"rhs_contracting_dimensions", kInt64List, kAll, kAll},
    {"lhs_batch_dimensions", kInt64List, kAll, kAll},
    {"rhs_batch_dimensions", kInt64List, kAll, kAll},
};
constexpr Schema kDot = Schema::object(kDotFields);

constexpr llvm::StringLiteral kMaskTypes[] = {"NO_MASK", "PADDING", "CAUSAL",
                                              "PADDING_CAUSAL", "ALIBI"};
constexpr llvm::StringLiteral kAlignments[] = {"TOP_LEFT", "BOTTOM_RIGHT"};

/// xla's CudnnfMHABackendConfig.
constexpr Field kFmhaFields[] = {
    {"algorithm", Schema::object(kAlgorithmFields)},
    {"fmha_scale", Schema::number(), kBoth, kBoth},
    {"intermediate_tensor_shape", Schema::object(kShapeFields)},
    {"is_flash_attention", kBool},
    {"mask_type", Schema::oneOf(kMaskTypes), kBoth, kBoth},
    {"bmm1_dot_dimension_numbers", kDot, kForward, kForward},
    {"bmm2_dot_dimension_numbers", kDot, kForward, kForward},
    {"bmm1_grad_gemm1_dot_dimension_numbers", kDot, kBackward, kBackward},
    {"bmm1_grad_gemm2_dot_dimension_numbers", kDot, kBackward, kBackward},
    {"bmm2_grad_gemm1_dot_dimension_numbers", kDot, kBackward, kBackward},
    {"bmm2_grad_gemm2_dot_dimension_numbers", kDot, kBackward, kBackward},
    {"dropout_rate", Schema::number()},
    {"seed", kInt64},
    {"sliding_window_length", Schema::integer(0, kInt32Max)},
    {"max_seg_per_batch", Schema::integer(0, kInt32Max)},
    {"is_paged_attention", kBool},
    {"diagonal_band_left_bound", Schema::integer(1, kInt32Max)},
    {"diagonal_band_right_bound", Schema::integer(0, kInt32Max)},
    {"diagonal_alignment", Schema::oneOf(kAlignments)},
};

/// xla's GpuBackendConfig around it: the stream it runs on and the streams
/// it waits for only order the work.
constexpr Field kRootFields[] = {
    {"operation_queue_id", Schema::integer(0)},
    {"wait_on_operation_queues", kInt64List},
    {"cudnn_fmha_backend_config", Schema::object(kFmhaFields), kBoth, kBoth},
};
constexpr Schema kRoot = Schema::object(kRootFields);

//===----------------------------------------------------------------------===//
// The layouts
//===----------------------------------------------------------------------===//

/// One `*_dot_dimension_numbers` entry: ((lhs contracting, rhs contracting),
/// (lhs batch, rhs batch)).
struct DotDims {
  int64_t lhsContract, rhsContract;
  std::array<int64_t, 2> lhsBatch, rhsBatch;
};

/// The dot dimension numbers JAX writes for each layout.
struct LayoutDims {
  Layout layout;
  DotDims bmm1, bmm2, grad11, grad12, grad21, grad22;
};

constexpr LayoutDims kLayoutDims[] = {
    // BNTH: [B, H, S, D].
    {Layout::bhsd,
     {3, 3, {0, 1}, {0, 1}},
     {3, 2, {0, 1}, {0, 1}},
     {2, 2, {0, 1}, {0, 1}},
     {3, 2, {0, 1}, {0, 1}},
     {2, 2, {0, 1}, {0, 1}},
     {3, 3, {0, 1}, {0, 1}}},
    // BTNH: [B, S, H, D].
    {Layout::bshd,
     {3, 3, {0, 2}, {0, 2}},
     {3, 1, {0, 1}, {0, 2}},
     {2, 1, {0, 1}, {0, 2}},
     {3, 1, {0, 1}, {0, 2}},
     {2, 1, {0, 1}, {0, 2}},
     {3, 3, {0, 2}, {0, 2}}},
};

/// The integers of a validated integer list.
SmallVector<int64_t, 4> integers(const json::Value &list) {
  SmallVector<int64_t, 4> values;
  for (const json::Value &element : list.elements)
    values.push_back(json::getInteger(element));
  return values;
}

/// The first product key of the call's direction whose dimension numbers
/// are not those of `dims`, or an empty string if all match.
StringRef mismatchedProduct(const json::Value &config, const LayoutDims &dims,
                            bool backward) {
  auto matches = [&](StringRef key, const DotDims &expected) {
    const json::Value &dot = *config.find(key);
    return integers(*dot.find("lhs_contracting_dimensions")) ==
               ArrayRef<int64_t>{expected.lhsContract} &&
           integers(*dot.find("rhs_contracting_dimensions")) ==
               ArrayRef<int64_t>{expected.rhsContract} &&
           integers(*dot.find("lhs_batch_dimensions")) ==
               ArrayRef<int64_t>(expected.lhsBatch) &&
           integers(*dot.find("rhs_batch_dimensions")) ==
               ArrayRef<int64_t>(expected.rhsBatch);
  };
  std::pair<StringRef, const DotDims *> products[] = {
      {"bmm1_dot_dimension_numbers", &dims.bmm1},
      {"bmm2_dot_dimension_numbers", &dims.bmm2},
      {"bmm1_grad_gemm1_dot_dimension_numbers", &dims.grad11},
      {"bmm1_grad_gemm2_dot_dimension_numbers", &dims.grad12},
      {"bmm2_grad_gemm1_dot_dimension_numbers", &dims.grad21},
      {"bmm2_grad_gemm2_dot_dimension_numbers", &dims.grad22}};
  ArrayRef<std::pair<StringRef, const DotDims *>> all(products);
  ArrayRef<std::pair<StringRef, const DotDims *>> direction =
      backward ? all.slice(2, 4) : all.take_front(2);
  for (auto [key, expected] : direction)
    if (!matches(key, *expected))
      return key;
  return "";
}

/// The layout of the call: the one whose first product batches over the
/// same dimensions, if all its products match; otherwise names the first
/// product that does not.
FailureOr<Layout> readLayout(shlo::CustomCallOp op, const json::Value &config,
                             bool backward) {
  StringRef first = backward ? "bmm2_grad_gemm2_dot_dimension_numbers"
                             : "bmm1_dot_dimension_numbers";
  SmallVector<int64_t, 4> batch =
      integers(*config.find(first)->find("lhs_batch_dimensions"));
  StringRef mismatch = first;
  for (const LayoutDims &dims : kLayoutDims) {
    const DotDims &probe = backward ? dims.grad22 : dims.bmm1;
    if (batch != ArrayRef<int64_t>(probe.lhsBatch))
      continue;
    mismatch = mismatchedProduct(config, dims, backward);
    if (mismatch.empty())
      return dims.layout;
    break;
  }
  return op.emitOpError("unsupported ")
         << mismatch << " (not a BTNH or BNTH attention layout)";
}

/// The integer at `key`, if present.
std::optional<int64_t> optionalInteger(const json::Value &object,
                                       StringRef key) {
  if (const json::Value *value = object.find(key))
    return json::getInteger(*value);
  return std::nullopt;
}

} // namespace

const Schema &import::getCudnnBackendConfigSchema() { return kRoot; }

FailureOr<CudnnConfig> import::readCudnnBackendConfig(shlo::CustomCallOp op,
                                                      bool backward) {
  auto malformed = [&] { return op.emitOpError("malformed backend_config: "); };
  auto text = dyn_cast_or_null<StringAttr>(op.getBackendConfigAttr());
  if (!text)
    return op.emitOpError("expected backend_config to be a JSON string");
  std::string error;
  std::optional<json::Value> root = json::parse(text.getValue(), error);
  if (!root)
    return malformed() << error;
  if (!json::validate(*root, kRoot, backward ? kBackward : kForward,
                      "backend_config",
                      backward ? "a backward call" : "a forward call", error))
    return malformed() << error;
  const json::Value &fmha = *root->find("cudnn_fmha_backend_config");

  // What sdpa does not compute.
  if (const json::Value *rate = fmha.find("dropout_rate");
      rate && json::getNumber(*rate) != 0)
    return op.emitOpError("unsupported dropout (dropout_rate = ")
           << json::getNumber(*rate) << ")";
  if (const json::Value *paged = fmha.find("is_paged_attention");
      paged && paged->boolean)
    return op.emitOpError("unsupported paged attention");
  if (std::optional<int64_t> segments =
          optionalInteger(fmha, "max_seg_per_batch");
      segments && *segments != 1)
    return op.emitOpError("unsupported packed segments (max_seg_per_batch = ")
           << *segments << ")";

  CudnnConfig config;
  config.maskType = fmha.find("mask_type")->text;
  bool causal = config.maskType == "CAUSAL" ||
                config.maskType == "PADDING_CAUSAL";
  config.padding =
      config.maskType == "PADDING" || config.maskType == "PADDING_CAUSAL";
  if (!causal && !config.padding && config.maskType != "NO_MASK")
    return op.emitOpError("unsupported mask_type ") << config.maskType;

  // The scale multiplies f32 scores in the kernels.
  double scale = json::getNumber(*fmha.find("fmha_scale"));
  if (!isRepresentableScale(scale))
    return malformed() << "expected 'cudnn_fmha_backend_config.fmha_scale' "
                          "to be positive and finite in f32, got "
                       << scale;
  config.spec.scale = scale;

  // The band. The left edge counts keys with the diagonal (cuDNN's left
  // bound is exclusive): L = n - 1, where sliding_window_length = 0 means
  // none. The right bound is inclusive; causal is right bound 0.
  Band &band = config.spec.band;
  std::optional<int64_t> window =
      optionalInteger(fmha, "sliding_window_length");
  std::optional<int64_t> leftBound =
      optionalInteger(fmha, "diagonal_band_left_bound");
  if (window && leftBound && *window != *leftBound)
    return malformed() << "conflicting sliding_window_length (" << *window
                       << ") and diagonal_band_left_bound (" << *leftBound
                       << ")";
  if (std::optional<int64_t> keys = leftBound ? leftBound : window;
      keys && *keys > 0)
    band.left = *keys - 1;
  if (causal)
    band.right = 0;
  if (std::optional<int64_t> rightBound =
          optionalInteger(fmha, "diagonal_band_right_bound")) {
    if (causal && *rightBound != 0)
      return malformed() << "conflicting mask_type " << config.maskType
                         << " and diagonal_band_right_bound (" << *rightBound
                         << ")";
    band.right = *rightBound;
  }
  band.align = Alignment::TopLeft;
  if (const json::Value *align = fmha.find("diagonal_alignment");
      align && align->text == "BOTTOM_RIGHT")
    band.align = Alignment::BottomRight;

  FailureOr<Layout> layout = readLayout(op, fmha, backward);
  if (failed(layout))
    return failure();
  config.spec.layout = *layout;

  // cuDNN's S = Q K^T: dense, static, with the rank it names.
  if (const json::Value *shape = fmha.find("intermediate_tensor_shape")) {
    CudnnIntermediateShape &intermediate = config.intermediate.emplace();
    intermediate.elementType = shape->find("element_type")->text;
    intermediate.dims = integers(*shape->find("dimensions"));
    size_t rank = intermediate.dims.size();
    if (const json::Value *dynamic = shape->find("is_dynamic_dimension")) {
      if (dynamic->elements.size() != rank)
        return malformed() << "expected 'cudnn_fmha_backend_config."
                              "intermediate_tensor_shape.is_dynamic_dimension'"
                              " to have "
                           << rank << " entries, got "
                           << dynamic->elements.size();
      if (llvm::any_of(dynamic->elements,
                       [](const json::Value &v) { return v.boolean; }))
        return op.emitOpError("unsupported dynamic dimension in "
                              "intermediate_tensor_shape");
    }
    if (const json::Value *layoutProto = shape->find("layout"))
      if (const json::Value *order = layoutProto->find("minor_to_major")) {
        SmallVector<int64_t, 4> sorted = integers(*order);
        llvm::sort(sorted);
        if (!llvm::equal(sorted, llvm::seq<int64_t>(0, rank)))
          return malformed()
                 << "expected 'cudnn_fmha_backend_config."
                    "intermediate_tensor_shape.layout.minor_to_major' to be a "
                    "permutation of the "
                 << rank << " dimensions";
      }
  }
  return config;
}
