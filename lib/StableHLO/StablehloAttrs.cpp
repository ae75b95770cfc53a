//===- StablehloAttrs.cpp - Printed forms of the stablehlo attributes -----===//
//
// The struct-like attributes (`#stablehlo.dot<...>`, `gather`, `scatter`,
// `conv`, `result_accuracy`, `bounds`), printed as StableHLO prints them
// and parsed with their fields in any order.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include <variant>

using namespace mlir;
using namespace mlir::sdpa::shlo;

//===----------------------------------------------------------------------===//
// Dimension lists and struct fields
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
mlir::sdpa::shlo::parseDimList(AsmParser &parser) {
  SmallVector<int64_t> dims;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            if (succeeded(parser.parseOptionalQuestion())) {
              dims.push_back(ShapedType::kDynamic);
              return success();
            }
            return parser.parseInteger(dims.emplace_back());
          }))
    return failure();
  return dims;
}

void mlir::sdpa::shlo::printDimList(AsmPrinter &printer,
                                    ArrayRef<int64_t> dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      printer << '?';
    else
      printer << d;
  });
  printer << ']';
}

namespace {
/// One `name = value` field of a struct-like attribute.
struct Field {
  StringRef name;
  llvm::function_ref<ParseResult()> parse;
  bool seen = false;
};
} // namespace

/// Parses `<name = value, ...>` with the fields in any order, each at most
/// once.
static ParseResult parseFields(AsmParser &parser,
                               MutableArrayRef<Field> fields) {
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalGreater()))
    return success();
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    auto *field = llvm::find_if(fields, [&](Field &f) { return f.name == key; });
    if (field == fields.end())
      return parser.emitError(loc, "unknown field '") << key << "'";
    if (field->seen)
      return parser.emitError(loc, "duplicate field '") << key << "'";
    field->seen = true;
    if (parser.parseEqual() || field->parse())
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseGreater();
}

/// Prints `<name = [dims], ...>`, leaving out empty lists and zero integers.
static void printFields(
    AsmPrinter &printer,
    ArrayRef<std::pair<StringRef, std::variant<ArrayRef<int64_t>, int64_t>>>
        fields) {
  printer << '<';
  StringRef separator = "";
  for (auto &[name, value] : fields) {
    if (auto *dims = std::get_if<ArrayRef<int64_t>>(&value)) {
      if (dims->empty())
        continue;
      printer << separator << name << " = ";
      printDimList(printer, *dims);
    } else {
      int64_t v = std::get<int64_t>(value);
      if (v == 0)
        continue;
      printer << separator << name << " = " << v;
    }
    separator = ", ";
  }
  printer << '>';
}

/// A field parser that fills `dims`.
static auto dimsField(AsmParser &parser, SmallVector<int64_t> &dims) {
  return [&parser, &dims]() -> ParseResult {
    FailureOr<SmallVector<int64_t>> parsed = parseDimList(parser);
    if (failed(parsed))
      return failure();
    dims = std::move(*parsed);
    return success();
  };
}

//===----------------------------------------------------------------------===//
// DotDimensionNumbersAttr, GatherDimensionNumbersAttr,
// ScatterDimensionNumbersAttr
//===----------------------------------------------------------------------===//

Attribute DotDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lb, rb, lc, rc;
  auto a = dimsField(parser, lb), b = dimsField(parser, rb),
       c = dimsField(parser, lc), d = dimsField(parser, rc);
  Field fields[] = {{"lhs_batching_dimensions", a},
                    {"rhs_batching_dimensions", b},
                    {"lhs_contracting_dimensions", c},
                    {"rhs_contracting_dimensions", d}};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), lb, rb, lc, rc);
}

void DotDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printFields(printer,
              {{"lhs_batching_dimensions", getLhsBatchingDimensions()},
               {"rhs_batching_dimensions", getRhsBatchingDimensions()},
               {"lhs_contracting_dimensions", getLhsContractingDimensions()},
               {"rhs_contracting_dimensions", getRhsContractingDimensions()}});
}

Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> offset, collapsed, operandBatch, indicesBatch, map;
  int64_t indexVectorDim = 0;
  auto a = dimsField(parser, offset), b = dimsField(parser, collapsed),
       c = dimsField(parser, operandBatch), d = dimsField(parser, indicesBatch),
       e = dimsField(parser, map);
  auto f = [&]() { return parser.parseInteger(indexVectorDim); };
  Field fields[] = {{"offset_dims", a},
                    {"collapsed_slice_dims", b},
                    {"operand_batching_dims", c},
                    {"start_indices_batching_dims", d},
                    {"start_index_map", e},
                    {"index_vector_dim", f}};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), offset, collapsed, operandBatch,
             indicesBatch, map, indexVectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printFields(printer,
              {{"offset_dims", getOffsetDims()},
               {"collapsed_slice_dims", getCollapsedSliceDims()},
               {"operand_batching_dims", getOperandBatchingDims()},
               {"start_indices_batching_dims", getStartIndicesBatchingDims()},
               {"start_index_map", getStartIndexMap()},
               {"index_vector_dim", getIndexVectorDim()}});
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> window, inserted, inputBatch, indicesBatch, map;
  int64_t indexVectorDim = 0;
  auto a = dimsField(parser, window), b = dimsField(parser, inserted),
       c = dimsField(parser, inputBatch), d = dimsField(parser, indicesBatch),
       e = dimsField(parser, map);
  auto f = [&]() { return parser.parseInteger(indexVectorDim); };
  Field fields[] = {{"update_window_dims", a},
                    {"inserted_window_dims", b},
                    {"input_batching_dims", c},
                    {"scatter_indices_batching_dims", d},
                    {"scatter_dims_to_operand_dims", e},
                    {"index_vector_dim", f}};
  if (parseFields(parser, fields))
    return {};
  return get(parser.getContext(), window, inserted, inputBatch, indicesBatch,
             map, indexVectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printFields(
      printer,
      {{"update_window_dims", getUpdateWindowDims()},
       {"inserted_window_dims", getInsertedWindowDims()},
       {"input_batching_dims", getInputBatchingDims()},
       {"scatter_indices_batching_dims", getScatterIndicesBatchingDims()},
       {"scatter_dims_to_operand_dims", getScatterDimsToOperandDims()},
       {"index_vector_dim", getIndexVectorDim()}});
}

//===----------------------------------------------------------------------===//
// ConvDimensionNumbersAttr: `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
//===----------------------------------------------------------------------===//

namespace {
/// One of the three dimension lists: the positions of the two named
/// dimensions and of each spatial dimension.
struct ConvLayout {
  int64_t first = -1, second = -1;
  SmallVector<int64_t> spatial;
};
} // namespace

/// The most spatial dimensions a convolution layout may name.
static constexpr int64_t kMaxConvSpatialDims = 64;

/// Parses `[x, 0, 1, y]` where `x`/`y` are the letters `names`.
static ParseResult parseConvLayout(AsmParser &parser, char firstName,
                                   char secondName, ConvLayout &layout) {
  SmallVector<int64_t> spatialAt; // spatial index -> position
  int64_t position = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc at = parser.getCurrentLocation();
            int64_t index;
            OptionalParseResult number = parser.parseOptionalInteger(index);
            if (number.has_value()) {
              if (failed(*number))
                return failure();
              // A layout lists each spatial dimension once, so the largest
              // number is below the number of entries; bounding it keeps a
              // huge number from allocating.
              if (index < 0 || index >= kMaxConvSpatialDims)
                return parser.emitError(at, "expected a spatial dimension "
                                            "number in [0, ")
                       << kMaxConvSpatialDims << ")";
              if (static_cast<int64_t>(spatialAt.size()) <= index)
                spatialAt.resize(index + 1, -1);
              if (spatialAt[index] != -1)
                return parser.emitError(at, "duplicate spatial dimension ")
                       << index;
              spatialAt[index] = position++;
              return success();
            }
            StringRef key;
            if (parser.parseKeyword(&key))
              return failure();
            int64_t *slot = nullptr;
            if (key.size() == 1 && key[0] == firstName)
              slot = &layout.first;
            else if (key.size() == 1 && key[0] == secondName)
              slot = &layout.second;
            if (!slot)
              return parser.emitError(at, "expected '")
                     << firstName << "', '" << secondName
                     << "' or a spatial dimension number, got '" << key
                     << "'";
            if (*slot != -1)
              return parser.emitError(at, "duplicate '") << key << "'";
            *slot = position++;
            return success();
          }))
    return failure();
  if (layout.first == -1 || layout.second == -1)
    return parser.emitError(loc, "expected both '")
           << firstName << "' and '" << secondName << "'";
  if (llvm::is_contained(spatialAt, -1))
    return parser.emitError(loc, "expected spatial dimensions 0 to ")
           << static_cast<int64_t>(spatialAt.size()) - 1 << " each once";
  layout.spatial = std::move(spatialAt);
  return success();
}

ParseResult mlir::sdpa::shlo::parseConvolutionDimensions(
    AsmParser &parser, ConvDimensionNumbersAttr &dims) {
  ConvLayout input, kernel, output;
  SMLoc loc = parser.getCurrentLocation();
  if (parseConvLayout(parser, 'b', 'f', input) || parser.parseKeyword("x") ||
      parseConvLayout(parser, 'i', 'o', kernel) || parser.parseArrow() ||
      parseConvLayout(parser, 'b', 'f', output))
    return failure();
  if (input.spatial.size() != kernel.spatial.size() ||
      input.spatial.size() != output.spatial.size())
    return parser.emitError(loc, "expected the input, kernel and output to "
                                 "have the same number of spatial "
                                 "dimensions");
  dims = ConvDimensionNumbersAttr::get(
      parser.getContext(), input.first, input.second, input.spatial,
      kernel.first, kernel.second, kernel.spatial, output.first,
      output.second, output.spatial);
  return success();
}

/// Prints one layout; positions out of range (invalid attributes, which the
/// op verifier rejects) print as `?`.
static void printConvLayout(AsmPrinter &printer, char firstName,
                            char secondName, int64_t first, int64_t second,
                            ArrayRef<int64_t> spatial) {
  int64_t rank = 2 + spatial.size();
  SmallVector<std::string> names(rank, "?");
  auto place = [&](int64_t position, std::string name) {
    if (position >= 0 && position < rank)
      names[position] = std::move(name);
  };
  place(first, std::string(1, firstName));
  place(second, std::string(1, secondName));
  for (auto [k, position] : llvm::enumerate(spatial))
    place(position, std::to_string(k));
  printer << '[';
  llvm::interleaveComma(names, printer);
  printer << ']';
}

void mlir::sdpa::shlo::printConvolutionDimensions(
    AsmPrinter &printer, Operation *, ConvDimensionNumbersAttr dims) {
  printConvLayout(printer, 'b', 'f', dims.getInputBatchDimension(),
                  dims.getInputFeatureDimension(),
                  dims.getInputSpatialDimensions());
  printer << 'x';
  printConvLayout(printer, 'i', 'o', dims.getKernelInputFeatureDimension(),
                  dims.getKernelOutputFeatureDimension(),
                  dims.getKernelSpatialDimensions());
  printer << "->";
  printConvLayout(printer, 'b', 'f', dims.getOutputBatchDimension(),
                  dims.getOutputFeatureDimension(),
                  dims.getOutputSpatialDimensions());
}

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  ConvDimensionNumbersAttr dims;
  if (parser.parseLess() || parseConvolutionDimensions(parser, dims) ||
      parser.parseGreater())
    return {};
  return dims;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printConvolutionDimensions(printer, nullptr, *this);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ResultAccuracyAttr
//===----------------------------------------------------------------------===//

Attribute ResultAccuracyAttr::parse(AsmParser &parser, Type) {
  double atol = 0, rtol = 0;
  int64_t ulps = 0;
  Attribute mode;
  SMLoc loc = parser.getCurrentLocation();
  auto a = [&]() { return parser.parseFloat(atol); };
  auto b = [&]() { return parser.parseFloat(rtol); };
  auto c = [&]() { return parser.parseInteger(ulps); };
  auto d = [&]() { return parser.parseAttribute(mode); };
  Field fields[] = {{"atol", a}, {"rtol", b}, {"ulps", c}, {"mode", d}};
  if (parseFields(parser, fields))
    return {};
  MLIRContext *context = parser.getContext();
  if (!mode)
    mode = ResultAccuracyModeAttr::get(context, ResultAccuracyMode::DEFAULT);
  auto modeAttr = dyn_cast<ResultAccuracyModeAttr>(mode);
  if (!modeAttr) {
    parser.emitError(loc, "expected mode to be a "
                          "#stablehlo.result_accuracy_mode");
    return {};
  }
  return get(context, APFloat(atol), APFloat(rtol), ulps, modeAttr);
}

void ResultAccuracyAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (!getAtol().isZero()) {
    printer << "atol = ";
    printer.printFloat(getAtol());
    printer << ", ";
  }
  if (!getRtol().isZero()) {
    printer << "rtol = ";
    printer.printFloat(getRtol());
    printer << ", ";
  }
  if (getUlps() != 0)
    printer << "ulps = " << getUlps() << ", ";
  printer << "mode = ";
  printer.printAttribute(getMode());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TypeExtensionsAttr: `#stablehlo.bounds<16, ?>`
//===----------------------------------------------------------------------===//

/// Parses `<16, ?>`.
static FailureOr<SmallVector<int64_t>> parseBounds(AsmParser &parser) {
  SmallVector<int64_t> bounds;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::LessGreater, [&]() -> ParseResult {
            if (succeeded(parser.parseOptionalQuestion())) {
              bounds.push_back(ShapedType::kDynamic);
              return success();
            }
            return parser.parseInteger(bounds.emplace_back());
          }))
    return failure();
  return bounds;
}

Attribute TypeExtensionsAttr::parse(AsmParser &parser, Type) {
  // `<bounds = [16, ?]>`
  SmallVector<int64_t> bounds;
  if (parser.parseLess() || parser.parseKeyword("bounds") ||
      parser.parseEqual())
    return {};
  FailureOr<SmallVector<int64_t>> dims = parseDimList(parser);
  if (failed(dims) || parser.parseGreater())
    return {};
  return get(parser.getContext(), *dims);
}

void TypeExtensionsAttr::print(AsmPrinter &printer) const {
  printer << "<bounds = ";
  printDimList(printer, getBounds());
  printer << '>';
}

LogicalResult TypeExtensionsAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  ArrayRef<int64_t> bounds = getBounds();
  if (bounds.size() != shape.size())
    return emitError() << "expected one bound per dimension (" << shape.size()
                       << "), got " << bounds.size();
  for (auto [d, bound] : llvm::enumerate(bounds)) {
    if (ShapedType::isDynamic(bound))
      continue;
    if (!ShapedType::isDynamic(shape[d]))
      return emitError() << "expected bound " << d
                         << " to be '?' for a static dimension";
    if (bound < 0)
      return emitError() << "expected bound " << d << " to be non-negative";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Dialect hooks
//===----------------------------------------------------------------------===//

#define GET_ATTRDEF_CLASSES
#include "SdpaDialect/StableHLO/StablehloAttrs.cpp.inc"

Attribute StablehloDialect::parseAttribute(DialectAsmParser &parser,
                                           Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Attribute attr;
  OptionalParseResult parsed =
      generatedAttributeParser(parser, &mnemonic, type, attr);
  if (parsed.has_value())
    return succeeded(*parsed) ? attr : Attribute();
  if (mnemonic == "bounds") {
    FailureOr<SmallVector<int64_t>> bounds = parseBounds(parser);
    if (failed(bounds))
      return {};
    return TypeExtensionsAttr::get(getContext(), *bounds);
  }
  parser.emitError(loc, "unknown stablehlo attribute '") << mnemonic << "'";
  return {};
}

void StablehloDialect::printAttribute(Attribute attr,
                                      DialectAsmPrinter &printer) const {
  if (auto bounds = dyn_cast<TypeExtensionsAttr>(attr)) {
    printer << "bounds<";
    llvm::interleaveComma(bounds.getBounds(), printer, [&](int64_t b) {
      if (ShapedType::isDynamic(b))
        printer << '?';
      else
        printer << b;
    });
    printer << '>';
    return;
  }
  (void)generatedAttributePrinter(attr, printer);
}

void StablehloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "SdpaDialect/StableHLO/StablehloAttrs.cpp.inc"
      >();
}
