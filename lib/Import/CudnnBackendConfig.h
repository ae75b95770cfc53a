//===- CudnnBackendConfig.h - The backend_config of cuDNN attention -*- C++ -*-===//
//
// Reads the JSON backend_config of JAX's cuDNN attention calls against one
// schema of every key JAX prints (docs/Import.md §1): each key is known,
// typed, in range, unique, and either turned into the sdpa op's attributes
// or checked to have no effect on the result; anything else declines.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_LIB_IMPORT_CUDNNBACKENDCONFIG_H
#define SDPADIALECT_LIB_IMPORT_CUDNNBACKENDCONFIG_H

#include "Import.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::sdpa::import {

/// `intermediate_tensor_shape`: cuDNN's S = Q K^T, which JAX gives as
/// [B, Hq, Sq, Skv] of the query's element type (static, dense).
struct CudnnIntermediateShape {
  /// `BF16` or `F16`.
  std::string elementType;
  SmallVector<int64_t, 4> dims;
};

/// What a cuDNN attention call's backend_config says.
struct CudnnConfig {
  /// The `mask_type` as written.
  std::string maskType;
  /// PADDING / PADDING_CAUSAL: per-batch length operands follow.
  bool padding = false;
  /// The band, scale and layout of the sdpa op.
  AttentionSpec spec;
  std::optional<CudnnIntermediateShape> intermediate;
};

namespace json {
struct Schema;
} // namespace json

/// The schema of the whole backend_config (its root object), for tools that
/// generate or mutate configs.
const json::Schema &getCudnnBackendConfigSchema();

/// Parses and checks `op`'s backend_config for a forward or backward call.
/// Emits an error on `op` naming the key (or the JSON position) and fails
/// when the config is malformed or asks for something sdpa does not compute.
FailureOr<CudnnConfig> readCudnnBackendConfig(shlo::CustomCallOp op,
                                              bool backward);

} // namespace mlir::sdpa::import

#endif // SDPADIALECT_LIB_IMPORT_CUDNNBACKENDCONFIG_H
