//===- CommOps.cpp - Tokens, I/O and collectives of stablehlo -------------===//
//
// The verifiers of the token-returning ops and of async_start/async_done,
// and the generated definitions of the token, I/O, collective and
// asynchronous ops.
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

/// The values then a token, as infeed and recv return them.
static LogicalResult verifyValuesThenToken(Operation *op) {
  if (op->getNumResults() == 0 ||
      !isa<TokenType>(op->getResults().back().getType()))
    return op->emitOpError("expected the last result to be a "
                           "!stablehlo.token");
  for (Value value : op->getResults().drop_back())
    if (isa<TokenType>(value.getType()))
      return op->emitOpError("expected only the last result to be a token");
  return success();
}

LogicalResult InfeedOp::verify() { return verifyValuesThenToken(*this); }
LogicalResult RecvOp::verify() { return verifyValuesThenToken(*this); }

//===----------------------------------------------------------------------===//
// AsyncStartOp, AsyncDoneOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncStartOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getOperations().size() != 2 || !isa<ReturnOp>(block.back()))
    return emitOpError("expected the body to hold one op and a "
                       "stablehlo.return");
  Operation &inner = block.front();
  if (!isa<AllGatherOp, AllReduceOp, AllToAllOp, CollectiveBroadcastOp,
           CollectivePermuteOp, ReduceScatterOp, SliceOp, DynamicSliceOp,
           DynamicUpdateSliceOp>(inner))
    return emitOpError("expected the body's op to be a collective or a "
                       "slice, got '")
           << inner.getName() << "'";
  if (!llvm::equal(inner.getOperands(), getOperands()))
    return emitOpError("expected the body's op to take the operands of "
                       "stablehlo.async_start");
  if (!llvm::equal(block.back().getOperands(), inner.getResults()))
    return emitOpError("expected the body to return the results of its op");
  if (TypeRange(cast<FutureType>(getType()).getTypes()) !=
      TypeRange(inner.getResultTypes()))
    return emitOpError("expected the result to be a future of the body op's "
                       "result types");
  return success();
}

LogicalResult AsyncDoneOp::verify() {
  if (TypeRange(cast<FutureType>(getOperand().getType()).getTypes()) !=
      getResultTypes())
    return emitOpError("expected the results to have the types of the "
                       "operand future");
  return success();
}

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloCommOps.cpp.inc"
