//===- AttentionShape.cpp - Sizes of an attention op ----------------------===//

#include "SdpaDialect/AttentionShape.h"

using namespace mlir;
using namespace mlir::sdpa;

AttentionShape AttentionShape::get(Layout layout, ShapedType query,
                                   ShapedType key) {
  ArrayRef<int64_t> q = query.getShape(), k = key.getShape();
  switch (layout) {
  case Layout::bhsd:
    return {q[0], q[1], k[1], q[2], k[2], q[3]};
  case Layout::bshd:
    return {q[0], q[2], k[2], q[1], k[1], q[3]};
  case Layout::thd:
    return {1, q[1], k[1], q[0], k[0], q[2]};
  }
  llvm_unreachable("unknown layout");
}
