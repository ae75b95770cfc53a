//===- AttentionShape.h - Sizes of an attention op --------------*- C++ -*-===//
//
// Reads batch, heads, sequence lengths and head dimension off the operand
// types of an attention op, for any layout.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_ATTENTIONSHAPE_H
#define SDPADIALECT_ATTENTIONSHAPE_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include <optional>

#include "SdpaDialect/SdpaEnums.h"

namespace mlir::sdpa {

/// Sizes of an attention op; ShapedType::kDynamic where unknown. THD has no
/// batch dimension: `batch` is 1 and the lengths are the packed token counts.
struct AttentionShape {
  int64_t batch, headsQ, headsKv, seqQ, seqKv, headDim;

  /// Rank of query/key/value tensors in `layout`.
  static unsigned rankOf(Layout layout) { return layout == Layout::thd ? 3 : 4; }
  /// Reads the sizes from the query and key types (ranks already verified).
  static AttentionShape get(Layout layout, ShapedType query, ShapedType key);

  /// A static length, or nullopt when dynamic.
  static std::optional<int64_t> known(int64_t size) {
    if (ShapedType::isDynamic(size))
      return std::nullopt;
    return size;
  }
};

} // namespace mlir::sdpa

#endif // SDPADIALECT_ATTENTIONSHAPE_H
