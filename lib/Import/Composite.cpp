//===- Composite.cpp - Import stablehlo.composite "sdpa.attention" --------===//
//
// The composite convention of docs/Import.md: a frontend states attention
// losslessly as
//
//   stablehlo.composite "sdpa.attention" %q, %k, %v[, %lens_q, %lens_kv]
//     {composite_attributes = {left = 127 : i64, right = 0 : i64,
//      align = "top_left", scale = 0.125 : f64, layout = "bshd"},
//      decomposition = @impl, version = 1 : i32}
//
// (and "sdpa.attention_grad" with q, k, v, o, do, lse). Whatever does not
// follow the convention is kept, with its decomposition, and a remark.
//
//===----------------------------------------------------------------------===//

#include "Import.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

static constexpr StringLiteral kForwardName = "sdpa.attention";
static constexpr StringLiteral kBackwardName = "sdpa.attention_grad";

namespace {

/// The widest band edge #sdpa.band accepts (its verifier's limit).
constexpr int64_t kMaxWidth = std::numeric_limits<int32_t>::max();

/// Reads a band width: an integer attribute (not a bool, not an index) of
/// any width and signedness whose value lies in [0, kMaxWidth].
std::optional<int64_t> readWidth(StringRef name, Attribute value,
                                 std::string &why) {
  auto width = dyn_cast<IntegerAttr>(value);
  auto type = width ? dyn_cast<IntegerType>(width.getType()) : IntegerType();
  if (!type || type.getWidth() == 1) {
    why = "'" + name.str() + "' must be an integer";
    return std::nullopt;
  }
  const APInt &number = width.getValue();
  bool isUnsigned = type.isUnsigned();
  if ((!isUnsigned && number.isNegative()) ||
      (isUnsigned ? number.ugt(kMaxWidth) : number.sgt(kMaxWidth))) {
    SmallString<24> text;
    number.toString(text, 10, /*Signed=*/!isUnsigned);
    why = "'" + name.str() + "' must be an integer in [0, " +
          std::to_string(kMaxWidth) + "] (absent = unbounded), got " +
          text.str().str();
    return std::nullopt;
  }
  return static_cast<int64_t>(number.getZExtValue());
}

/// Reads the composite attributes into a spec, or says why it cannot.
FailureOr<AttentionSpec> readSpec(DictionaryAttr attrs, bool backward,
                                  std::string &why) {
  AttentionSpec spec;
  spec.band.align = Alignment::TopLeft;
  if (!attrs)
    return spec;
  for (NamedAttribute attr : attrs) {
    StringRef name = attr.getName().getValue();
    Attribute value = attr.getValue();
    if (name == "left" || name == "right") {
      std::optional<int64_t> width = readWidth(name, value, why);
      if (!width)
        return failure();
      (name == "left" ? spec.band.left : spec.band.right) = *width;
    } else if (name == "align") {
      auto text = dyn_cast<StringAttr>(value);
      std::optional<Alignment> align =
          text ? llvm::StringSwitch<std::optional<Alignment>>(text.getValue())
                     .Case("top_left", Alignment::TopLeft)
                     .Case("bottom_right", Alignment::BottomRight)
                     .Default(std::nullopt)
               : std::nullopt;
      if (!align) {
        why = "'align' must be \"top_left\" or \"bottom_right\"";
        return failure();
      }
      spec.band.align = *align;
    } else if (name == "scale") {
      auto scale = dyn_cast<FloatAttr>(value);
      if (!scale || !isRepresentableScale(scale.getValueAsDouble())) {
        why = "'scale' must be a positive float that f32 holds";
        if (scale)
          why += llvm::formatv(", got {0:e}", scale.getValueAsDouble()).str();
        return failure();
      }
      spec.scale = scale.getValueAsDouble();
    } else if (name == "layout") {
      auto text = dyn_cast<StringAttr>(value);
      std::optional<Layout> layout =
          text ? symbolizeLayout(text.getValue()) : std::nullopt;
      if (!layout) {
        why = "'layout' must be \"bhsd\", \"bshd\" or \"thd\"";
        return failure();
      }
      spec.layout = *layout;
    } else if (name == "deterministic" && backward) {
      auto flag = dyn_cast<BoolAttr>(value);
      if (!flag) {
        why = "'deterministic' must be a bool";
        return failure();
      }
      spec.deterministic = flag.getValue();
    } else {
      why = "unknown attribute '" + name.str() + "'";
      return failure();
    }
  }
  return spec;
}

/// Declines `op` with a remark.
LogicalResult decline(shlo::CompositeOp op, const Twine &why) {
  op.emitRemark("composite \"") << op.getName() << "\" kept: " << why;
  return failure();
}

} // namespace

LogicalResult import::importComposite(RewriterBase &rewriter,
                                      shlo::CompositeOp op) {
  StringRef name = op.getName();
  bool backward = name == kBackwardName;
  if (!backward && name != kForwardName)
    return failure();
  if (std::optional<uint32_t> version = op.getVersion())
    if (*version != 1)
      return decline(op, "unsupported version " + Twine(*version));

  std::string why;
  FailureOr<AttentionSpec> spec =
      readSpec(op.getCompositeAttributesAttr(), backward, why);
  if (failed(spec))
    return decline(op, why);

  unsigned tensors = backward ? 6 : 3;
  unsigned numInputs = op.getInputs().size();
  if (numInputs != tensors && numInputs != tensors + 2)
    return decline(op, "expected " + Twine(tensors) + " or " +
                           Twine(tensors + 2) + " operands, got " +
                           Twine(numInputs));
  unsigned numResults = op.getNumResults();
  if (backward ? numResults != 3 : (numResults != 1 && numResults != 2))
    return decline(op, backward ? "expected 3 results (dq, dk, dv)"
                                : "expected 1 or 2 results (output, lse)");
  for (Value input : op.getInputs().take_front(tensors))
    if (!isa<RankedTensorType>(input.getType()))
      return decline(op, "expected ranked tensor operands");
  if (std::optional<std::string> problem = checkOperandTypes(
          spec->layout, op.getInputs()[0].getType(),
          op.getInputs()[1].getType(), op.getInputs()[2].getType()))
    return decline(op, *problem);

  // Build the op, and keep it only if it verifies and its results have the
  // composite's types; the verifier's message becomes the remark.
  rewriter.setInsertionPoint(op);
  ValueRange inputs = op.getInputs();
  ValueRange seqlens = inputs.drop_front(tensors);
  Operation *built;
  if (backward)
    built = createAttentionGrad(rewriter, op.getLoc(), inputs[0], inputs[1],
                                inputs[2], inputs[3], inputs[4], inputs[5],
                                seqlens, *spec);
  else
    built = createAttention(rewriter, op.getLoc(), inputs[0], inputs[1],
                            inputs[2], seqlens, *spec);
  std::optional<std::string> problem = verifyQuietly(built);
  std::string message = problem.value_or("");
  LogicalResult verified = failure(problem.has_value());
  if (succeeded(verified))
    for (auto [mine, theirs] :
         llvm::zip(built->getResultTypes(), op.getResultTypes()))
      if (mine != theirs) {
        verified = failure();
        message = "result types do not match the sdpa op's";
      }
  if (failed(verified)) {
    rewriter.eraseOp(built);
    return decline(op, message);
  }
  rewriter.replaceOp(op, built->getResults().take_front(numResults));
  return success();
}
