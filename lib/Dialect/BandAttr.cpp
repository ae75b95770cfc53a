//===- BandAttr.cpp - #sdpa.band parsing, printing, verification ----------===//
//
// #sdpa.band<left = L, right = R, align = top_left|bottom_right>, with L and
// R non-negative integers or `inf`.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/SdpaAttrs.h"
#include "SdpaDialect/SdpaDialect.h"

using namespace mlir;
using namespace mlir::sdpa;

/// Parses `name = <integer>|inf`.
static ParseResult parseEdge(AsmParser &parser, StringRef name,
                             std::optional<int64_t> &edge) {
  if (parser.parseKeyword(name) || parser.parseEqual())
    return failure();
  if (succeeded(parser.parseOptionalKeyword("inf"))) {
    edge.reset();
    return success();
  }
  int64_t value;
  if (parser.parseInteger(value))
    return failure();
  edge = value;
  return success();
}

Attribute BandAttr::parse(AsmParser &parser, Type) {
  std::optional<int64_t> left, right;
  StringRef alignName;
  SMLoc alignLoc;
  if (parser.parseLess() || parseEdge(parser, "left", left) ||
      parser.parseComma() || parseEdge(parser, "right", right) ||
      parser.parseComma() || parser.parseKeyword("align") ||
      parser.parseEqual())
    return {};
  alignLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&alignName) || parser.parseGreater())
    return {};
  Alignment align;
  if (alignName == "top_left") {
    align = Alignment::TopLeft;
  } else if (alignName == "bottom_right") {
    align = Alignment::BottomRight;
  } else {
    parser.emitError(alignLoc,
                     "expected align to be top_left or bottom_right, got '")
        << alignName << "'";
    return {};
  }
  return parser.getChecked<BandAttr>(parser.getContext(), left, right, align);
}

static void printEdge(AsmPrinter &printer, std::optional<int64_t> edge) {
  if (edge)
    printer << *edge;
  else
    printer << "inf";
}

void BandAttr::print(AsmPrinter &printer) const {
  printer << "<left = ";
  printEdge(printer, getLeft());
  printer << ", right = ";
  printEdge(printer, getRight());
  printer << ", align = "
          << (getAlign() == Alignment::TopLeft ? "top_left" : "bottom_right")
          << ">";
}

/// Widths must stay far from overflow in 32-bit index arithmetic; an
/// unbounded edge is written `inf`, never as a huge integer.
static constexpr int64_t kMaxBandWidth = (int64_t(1) << 31) - 1;

static LogicalResult verifyEdge(function_ref<InFlightDiagnostic()> emitError,
                                StringRef name, std::optional<int64_t> edge) {
  if (edge && *edge < 0)
    return emitError() << "expected " << name
                       << " to be non-negative or inf, got " << *edge;
  if (edge && *edge > kMaxBandWidth)
    return emitError() << "expected " << name << " to be at most "
                       << kMaxBandWidth << " (use inf for an unbounded edge)";
  return success();
}

LogicalResult BandAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               std::optional<int64_t> left,
                               std::optional<int64_t> right, Alignment) {
  if (failed(verifyEdge(emitError, "left", left)) ||
      failed(verifyEdge(emitError, "right", right)))
    return failure();
  return success();
}
