//===- CheckIndexRange.cpp - sdpa-check-index-range -----------------------===//
//
// Kernels lowered at a 32-bit index address at most 2^31 elements of each
// operand, result and workspace. Static shapes beyond that are refused when
// the pipeline starts, rather than compiled into an artifact the runtime
// would refuse at every call.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaDialect/SdpaOps.h"
#include "SdpaSchema/Schema.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPACHECKINDEXRANGE
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

/// The elements a 32-bit index addresses: offsets 0 .. kMaxOffset32.
static constexpr int64_t kElements32 = sdpa_schema::kMaxOffset32 + 1;

/// The element count of a static shape, saturated at INT64_MAX; nullopt if
/// some dimension is dynamic.
static std::optional<int64_t> staticElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  int64_t count = 1;
  for (int64_t size : shaped.getShape())
    if (__builtin_mul_overflow(count, size, &count))
      return INT64_MAX;
  return count;
}

/// Why `types` (the operands or results of an op, named `what`) are past a
/// 32-bit index: the first one whose static shape holds more than 2^31
/// elements, named by its position; nullopt if none.
static std::optional<std::string> firstPastIndexRange(StringRef what,
                                                      TypeRange types) {
  for (auto [index, type] : llvm::enumerate(types)) {
    std::optional<int64_t> count = staticElements(type);
    if (!count || *count <= kElements32)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << what << " #" << index << " (" << type << ") holds " << *count
       << " elements, more than a 32-bit index addresses (2^31; "
          "index-bitwidth=64 lowers it)";
    return text;
  }
  return std::nullopt;
}

std::optional<std::string> mlir::sdpa::getIndexRangeProblem(Operation *op) {
  if (std::optional<std::string> problem =
          firstPastIndexRange("operand", op->getOperandTypes()))
    return problem;
  return firstPastIndexRange("result", op->getResultTypes());
}

namespace {
struct CheckIndexRangePass
    : public sdpa::impl::SdpaCheckIndexRangeBase<CheckIndexRangePass> {
  void runOnOperation() override {
    bool refused = false;
    getOperation()->walk([&](AttentionOpInterface op) {
      if (std::optional<std::string> problem = getIndexRangeProblem(op)) {
        op->emitOpError(*problem);
        refused = true;
      }
    });
    if (refused)
      signalPassFailure();
  }
};
} // namespace
