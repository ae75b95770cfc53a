//===- KernelModuleDriver.cpp - One gpu.module per lowered op -------------===//
//
// Names, builds and records the gpu.module of every op a convert pass
// lowers; the pass supplies only the per-op builder.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelModuleDriver.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sdpa;

LogicalResult mlir::sdpa::buildKernelModules(ModuleOp module,
                                             ArrayRef<Operation *> ops,
                                             StringRef namePrefix,
                                             KernelModuleBuilderFn build) {
  if (ops.empty())
    return success();

  MLIRContext *ctx = module.getContext();
  SmallVector<NamedAttribute> manifests;
  if (auto existing =
          module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName()))
    llvm::append_range(manifests, existing.getValue());
  SymbolTable symbols(module);
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  unsigned index = 0;
  for (Operation *op : ops) {
    std::string name;
    do {
      name = (namePrefix + Twine(index++)).str();
    } while (symbols.lookup(name));
    FailureOr<LoweredKernelModule> lowered = build(builder, op, name);
    if (failed(lowered))
      return failure();
    symbols.insert(lowered->module);
    op->setAttr(getKernelAttrName(), lowered->kernel);
    manifests.emplace_back(StringAttr::get(ctx, name),
                           StringAttr::get(ctx, lowered->manifest));
  }
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  module->setAttr(getArtifactsAttrName(), DictionaryAttr::get(ctx, manifests));
  return success();
}
