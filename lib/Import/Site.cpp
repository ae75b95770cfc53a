//===- Site.cpp - Values seen through calls to private helpers ------------===//
//
// Resolution of values across func.call boundaries for the matcher.
//
//===----------------------------------------------------------------------===//

#include "Site.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sdpa::import;

/// The single-block body's return of `call`'s callee, or null.
static func::ReturnOp calleeReturn(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
    return {};
  return dyn_cast<func::ReturnOp>(callee.getBody().front().getTerminator());
}

Site Site::resolve() const {
  Site site = *this;
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(site.value)) {
      if (site.calls.empty())
        return site;
      func::CallOp call = site.calls.pop_back_val();
      site.value = call.getOperand(arg.getArgNumber());
      continue;
    }
    auto call = site.value.getDefiningOp<func::CallOp>();
    if (!call)
      return site;
    func::ReturnOp ret = calleeReturn(call);
    if (!ret)
      return site;
    if (site.calls.size() >= kMaxCallDepth) {
      site.truncated = true;
      return site;
    }
    unsigned index = cast<OpResult>(site.value).getResultNumber();
    site.calls.push_back(call);
    site.value = ret.getOperand(index);
  }
}

Site Site::operand(unsigned i) const {
  return Site{value.getDefiningOp()->getOperand(i), calls}.resolve();
}

SmallVector<const void *, 4> Site::key() const {
  SmallVector<const void *, 4> key{value.getAsOpaquePointer()};
  for (func::CallOp call : calls)
    key.push_back(call.getOperation());
  return key;
}
