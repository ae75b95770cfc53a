//===- RegionOps.cpp - The stablehlo ops with regions ---------------------===//
//
// The custom assembly of reduce and while (as StableHLO prints them), the
// verifiers of the bodies of reductions, sort, scatter and control flow,
// and the generated definitions.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

/// The terminator of the single block of `region`, if it is a return.
static ReturnOp returnOf(Region &region) {
  if (region.empty() || region.front().empty())
    return {};
  return dyn_cast<ReturnOp>(region.front().back());
}

/// A region taking `args` and returning `results` (types).
static LogicalResult verifyBody(Operation *op, Region &region, StringRef name,
                                TypeRange args, TypeRange results) {
  if (region.empty())
    return op->emitOpError("expected a ") << name << " region";
  if (TypeRange(region.front().getArgumentTypes()) != args)
    return op->emitOpError("expected the ")
           << name << " region to take " << args.size()
           << " arguments of types (" << args << ")";
  ReturnOp ret = returnOf(region);
  if (!ret)
    return op->emitOpError("expected the ")
           << name << " region to end in stablehlo.return";
  if (ret.getResults().getTypes() != results)
    return op->emitOpError("expected the ")
           << name << " region to return (" << results << ")";
  return success();
}

/// 0-d tensors of the element types of `values`, twice (accumulators then
/// elements, or lhs then rhs).
static SmallVector<Type> scalarPairs(ValueRange values, bool interleaved) {
  SmallVector<Type> first, second, all;
  for (Value v : values) {
    Type scalar = RankedTensorType::get({}, getElementTypeOrSelf(v));
    if (interleaved) {
      all.push_back(scalar);
      all.push_back(scalar);
    } else {
      first.push_back(scalar);
    }
  }
  if (interleaved)
    return all;
  llvm::append_range(all, first);
  llvm::append_range(all, first);
  return all;
}

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  int64_t rank = cast<RankedTensorType>(getInputs()[0].getType()).getRank();
  int64_t dim = getDimension();
  if (dim < -rank || dim >= std::max<int64_t>(rank, 1))
    return emitOpError("expected dimension ")
           << dim << " to be in [-rank, rank)";
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  return verifyBody(*this, getComparator(), "comparator",
                    scalarPairs(getInputs(), /*interleaved=*/true), {pred});
}

LogicalResult ReduceWindowOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getInitValues().size() != n || getNumResults() != n)
    return emitOpError("expected at least one input, and as many init "
                       "values and results");
  int64_t rank = cast<RankedTensorType>(getInputs()[0].getType()).getRank();
  auto hasRank = [&](std::optional<ArrayRef<int64_t>> values) {
    return !values || static_cast<int64_t>(values->size()) == rank;
  };
  if (!hasRank(getWindowDimensions()) || !hasRank(getWindowStrides()) ||
      !hasRank(getBaseDilations()) || !hasRank(getWindowDilations()))
    return emitOpError("expected window_dimensions, window_strides, "
                       "base_dilations and window_dilations to have one "
                       "entry per input dimension (")
           << rank << ")";
  if (std::optional<DenseIntElementsAttr> padding = getPadding()) {
    auto shape = padding->getType().getShape();
    if (shape.size() != 2 || shape[0] != rank || shape[1] != 2)
      return emitOpError("expected padding of shape [")
             << rank << ", 2]";
  }
  SmallVector<Type> scalars;
  for (Value init : getInitValues())
    scalars.push_back(init.getType());
  SmallVector<Type> args(scalars);
  args.append(scalars);
  return verifyBody(*this, getBody(), "body", args, scalars);
}

LogicalResult ScatterOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getUpdates().size() != n || getNumResults() != n)
    return emitOpError("expected at least one input, and as many updates "
                       "and results");
  for (size_t k = 0; k < n; ++k)
    if (getInputs()[k].getType() != getResult(k).getType())
      return emitOpError("expected result ")
             << k << " to have the type of input " << k;
  return verifyBody(*this, getUpdateComputation(), "update_computation",
                    scalarPairs(getInputs(), /*interleaved=*/false),
                    SmallVector<Type>(
                        llvm::drop_begin(scalarPairs(getInputs(), false), n)));
}

LogicalResult WhileOp::verifyRegions() {
  TypeRange types = getOperand().getTypes();
  if (TypeRange(getResultTypes()) != types)
    return emitOpError("expected the results to have the operand types");
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyBody(*this, getCond(), "cond", types, {pred})))
    return failure();
  return verifyBody(*this, getBody(), "body", types, types);
}

LogicalResult IfOp::verifyRegions() {
  for (Region *branch : {&getTrueBranch(), &getFalseBranch()})
    if (failed(verifyBody(*this, *branch, "branch", {}, getResultTypes())))
      return failure();
  return success();
}

LogicalResult CaseOp::verifyRegions() {
  if (getBranches().empty())
    return emitOpError("expected at least one branch");
  for (Region &branch : getBranches())
    if (failed(verifyBody(*this, branch, "branch", {}, getResultTypes())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Whether `name` is a commutative binary op of this dialect without regions:
/// what the compact `applies` form may name.
static bool isCompactBodyOp(OperationName name, Dialect *dialect) {
  return name.getDialect() == dialect &&
         name.hasTrait<OpTrait::NOperands<2>::Impl>() &&
         name.hasTrait<OpTrait::OneResult>() &&
         name.hasTrait<OpTrait::IsCommutative>() &&
         name.hasTrait<OpTrait::ZeroRegions>();
}

StringRef ReduceOp::getApplies() {
  if (getInputs().empty() || getBody().empty())
    return {};
  Block &block = getBody().front();
  if (block.getOperations().size() != 2)
    return {};
  Operation &inner = block.front();
  if (!isCompactBodyOp(inner.getName(), (*this)->getDialect()))
    return {};
  auto scalar = RankedTensorType::get(
      {}, cast<ShapedType>(getInputs().front().getType()).getElementType());
  if (!llvm::all_of(inner.getOperandTypes(),
                    [&](Type t) { return t == scalar; }) ||
      inner.getResult(0).getType() != scalar)
    return {};
  if (!llvm::equal(block.getArguments(), inner.getOperands()))
    return {};
  Operation *terminator = &block.back();
  if (!isa<ReturnOp>(terminator) ||
      !llvm::equal(inner.getResults(), terminator->getOperands()))
    return {};
  return inner.getName().getStringRef();
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        if (parser.parseLParen() || parser.parseOperand(inputs.emplace_back()) ||
            parser.parseKeyword("init") || parser.parseColon() ||
            parser.parseOperand(inits.emplace_back()) || parser.parseRParen())
          return failure();
        return success();
      }))
    return failure();
  std::optional<OperationName> applies;
  SMLoc appliesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    appliesLoc = parser.getCurrentLocation();
    FailureOr<OperationName> name = parser.parseCustomOperationName();
    if (failed(name))
      return failure();
    if (!isCompactBodyOp(*name, result.name.getDialect()))
      return parser.emitError(appliesLoc, "expected 'applies' to name a "
                                          "commutative binary op of the "
                                          "stablehlo dialect, got '")
             << name->getStringRef() << "'";
    applies = *name;
  }
  SmallVector<int64_t> dims;
  FunctionType type;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (type.getNumInputs() != inputs.size() + inits.size())
    return parser.emitError(typeLoc, "expected ")
           << inputs.size() + inits.size() << " operand types, got "
           << type.getNumInputs();
  SmallVector<OpAsmParser::UnresolvedOperand> operands(inputs);
  operands.append(inits);
  if (parser.resolveOperands(operands, type.getInputs(), loc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute("dimensions",
                      parser.getBuilder().getDenseI64ArrayAttr(dims));
  Region *body = result.addRegion();
  if (applies) {
    // The compact form: one block of two 0-d arguments of the first input's
    // element type, the named op on them, returned.
    Type scalar = RankedTensorType::get(
        {}, getElementTypeOrSelf(type.getInputs().front()));
    Location bodyLoc = parser.getEncodedSourceLoc(appliesLoc);
    Block &block = body->emplaceBlock();
    Value lhs = block.addArgument(scalar, bodyLoc);
    Value rhs = block.addArgument(scalar, bodyLoc);
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToStart(&block);
    OperationState state(bodyLoc, *applies);
    state.addOperands({lhs, rhs});
    state.addTypes(scalar);
    Operation *inner = builder.create(state);
    ReturnOp::create(builder, bodyLoc, inner->getResults());
    return success();
  }
  // The region form: `reducer` and one `(%x: type, %y: type)` pair per input;
  // pair k names block arguments k and N + k.
  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> firsts, seconds;
  while (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseArgument(firsts.emplace_back(), /*allowType=*/true) ||
        parser.parseComma() ||
        parser.parseArgument(seconds.emplace_back(), /*allowType=*/true) ||
        parser.parseRParen())
      return failure();
  }
  SmallVector<OpAsmParser::Argument> args(firsts);
  args.append(seconds);
  return parser.parseRegion(*body, args);
}

void ReduceOp::print(OpAsmPrinter &p) {
  size_t n = getInputs().size();
  for (size_t i = 0; i < n; ++i) {
    if (i)
      p << ", ";
    p << '(' << getInputs()[i] << " init: " << getInitValues()[i] << ')';
  }
  StringRef applies = getApplies();
  if (!applies.empty()) {
    p << " applies ";
    p.printKeywordOrString(applies);
  }
  p << " across dimensions = ";
  printIntList(p, getDimensions());
  p.printOptionalAttrDict((*this)->getAttrs(), {"dimensions"});
  p << " : ";
  p.printFunctionalType(*this);
  if (!applies.empty())
    return;
  p.printNewline();
  p << " reducer";
  Block &block = getBody().front();
  for (size_t i = 0; i < n && 2 * n <= block.getNumArguments(); ++i) {
    p << '(';
    p.printRegionArgument(block.getArgument(i));
    p << ", ";
    p.printRegionArgument(block.getArgument(n + i));
    p << ") ";
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ReduceOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("expected at least one input");
  if (getInitValues().size() != n || getNumResults() != n)
    return emitOpError("expected as many init values and results as inputs");
  auto inputType = cast<RankedTensorType>(getInputs().front().getType());
  int64_t rank = inputType.getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t d : getDimensions()) {
    if (d < 0 || d >= rank || reduced[d])
      return emitOpError("expected distinct dimensions less than the input "
                         "rank");
    reduced[d] = true;
  }
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i)
    if (!reduced[i])
      expected.push_back(inputType.getDimSize(i));
  for (size_t k = 0; k < n; ++k) {
    auto input = cast<RankedTensorType>(getInputs()[k].getType());
    auto init = cast<RankedTensorType>(getInitValues()[k].getType());
    auto res = cast<RankedTensorType>(getResult(k).getType());
    if (input.getShape() != inputType.getShape())
      return emitOpError("expected input ")
             << k << " to have the shape of input 0";
    if (init.getRank() != 0)
      return emitOpError("expected init value ") << k << " to be 0-d";
    if (res.getShape() != ArrayRef<int64_t>(expected))
      return emitOpError("expected result ")
             << k
             << " to have the input shape without the reduced dimensions";
    if (res.getElementType() != init.getElementType())
      return emitOpError("expected result ")
             << k << " to have the element type of init value " << k;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  size_t n = getInputs().size();
  Block &block = getBody().front();
  if (block.getNumArguments() != 2 * n)
    return emitOpError("expected the body to take ")
           << 2 * n << " arguments, got " << block.getNumArguments();
  for (size_t k = 0; k < n; ++k) {
    Type init = getInitValues()[k].getType();
    if (block.getArgument(k).getType() != init ||
        block.getArgument(n + k).getType() != init)
      return emitOpError("expected body arguments ")
             << k << " and " << n + k << " to have the type " << init
             << " of init value " << k;
  }
  if (block.empty() || !isa<ReturnOp>(block.back()))
    return emitOpError("expected the body to end in stablehlo.return");
  Operation *terminator = &block.back();
  if (TypeRange(terminator->getOperandTypes()) !=
      TypeRange(getInitValues().getTypes()))
    return emitOpError("expected the body to return the init values' types");
  return success();
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

void WhileOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  // Both regions name their arguments alike, so the names printed once in
  // `(%iterArg = %init, ...)` stand for both.
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, "iterArg");
}

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            if (parser.parseArgument(args.emplace_back()) ||
                parser.parseEqual() ||
                parser.parseOperand(operands.emplace_back()))
              return failure();
            return success();
          }))
    return failure();
  if (!operands.empty() &&
      (parser.parseColon() || parser.parseTypeList(result.types)))
    return failure();
  if (result.types.size() != operands.size())
    return parser.emitError(loc, "expected one type per loop value (")
           << operands.size() << "), got " << result.types.size();
  for (auto [arg, type] : llvm::zip_equal(args, result.types))
    arg.type = type;
  if (parser.resolveOperands(operands, result.types, loc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("cond") ||
      parser.parseRegion(*result.addRegion(), args) ||
      parser.parseKeyword("do") ||
      parser.parseRegion(*result.addRegion(), args))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  // Both regions' arguments get the same names (getAsmBlockArgumentNames),
  // so the cond region's stand for both.
  p << '(';
  Block *cond = getCond().empty() ? nullptr : &getCond().front();
  for (auto [i, operand] : llvm::enumerate(getOperand())) {
    if (i)
      p << ", ";
    if (cond && i < cond->getNumArguments())
      p.printOperand(cond->getArgument(i));
    p << " = ";
    p.printOperand(operand);
  }
  p << ')';
  if (!getOperand().empty()) {
    p << " : ";
    llvm::interleaveComma(getOperand().getTypes(), p);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p.printNewline();
  p << "cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloRegionOps.cpp.inc"
