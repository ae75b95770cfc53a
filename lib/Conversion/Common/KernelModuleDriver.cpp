//===- KernelModuleDriver.cpp - One gpu.module per lowered op -------------===//
//
// Names, builds and records the gpu.module of every op a convert pass
// lowers; the pass supplies only the per-op builder. Manifests are printed
// by the schema and parsed back by it before they are recorded, so the
// lowering never records one the runtime would refuse.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelModuleDriver.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::sdpa;

schema::Manifest mlir::sdpa::getManifestHeader(
    schema::Direction direction, Type element, int64_t headDim,
    TileShape tiles, const Band &band, double scale,
    std::optional<double> softcap, bool sinks, bool varlen,
    bool deterministic) {
  schema::Manifest manifest;
  manifest.direction = direction;
  manifest.dtype = getSchemaElementType(element);
  manifest.headDim = headDim;
  manifest.tileQ = tiles.q;
  manifest.tileKv = tiles.kv;
  manifest.left = band.left;
  manifest.right = band.right;
  manifest.align = band.align == Alignment::BottomRight
                       ? schema::Alignment::BottomRight
                       : schema::Alignment::TopLeft;
  manifest.scale = scale;
  if (softcap)
    manifest.softcap = float(*softcap);
  manifest.sinks = sinks;
  manifest.varlen = varlen;
  manifest.deterministic = deterministic;
  return manifest;
}

LogicalResult mlir::sdpa::checkKernelScale(Operation *op, double scale) {
  if (schema::isRepresentableScale(scale))
    return success();
  return op->emitOpError("expected scale to be ")
         << schema::describeScaleRange() << " (the kernels compute in f32), got "
         << scale;
}

/// The manifest text of `manifest`, or an error at `loc` when the schema's
/// parser refuses it (a lowering bug: the runtime would refuse the artifact).
static FailureOr<std::string> printCheckedManifest(Location loc,
                                                   StringRef name,
                                                   schema::Manifest manifest) {
  std::string text = schema::printManifest(manifest);
  // The writer adds the ptx key; the parser needs one.
  manifest.ptxFile = name.str() + ".ptx";
  schema::Manifest parsed;
  std::string error;
  if (!schema::parseManifest(schema::printManifest(manifest), parsed, error))
    return emitError(loc) << "internal error: the manifest of kernel module '"
                          << name << "' is one the runtime refuses: " << error;
  return text;
}

LogicalResult mlir::sdpa::buildKernelModules(ModuleOp module,
                                             ArrayRef<Operation *> ops,
                                             StringRef namePrefix,
                                             KernelModuleBuilderFn build) {
  if (ops.empty())
    return success();

  MLIRContext *ctx = module.getContext();
  SymbolTable symbols(module);
  llvm::StringMap<Attribute> manifests;
  if (auto existing =
          module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName())) {
    for (NamedAttribute entry : existing) {
      // Only the records of modules lowered before (by the other direction's
      // pass, say) stay; anything else did not come from a compilation.
      if (!isa<StringAttr>(entry.getValue()) ||
          !isa_and_nonnull<gpu::GPUModuleOp>(
              symbols.lookup(entry.getName().getValue())))
        return module.emitError("expected every '")
               << getArtifactsAttrName() << "' entry to name a gpu.module "
               << "this lowering built, but '" << entry.getName().getValue()
               << "' names none (the artifacts are written from what is "
                  "compiled, never from an input record)";
      manifests[entry.getName().getValue()] = entry.getValue();
    }
  }
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  // The module's records of what has been built so far. Also written when a
  // later op fails: the ops before it are lowered already (their host
  // programs launch the kernels), and the IR a failed pass leaves must still
  // verify (a gpu.launch_func needs a container module).
  auto recordBuilt = [&] {
    SmallVector<NamedAttribute> entries;
    for (const auto &entry : manifests)
      entries.emplace_back(StringAttr::get(ctx, entry.getKey()),
                           entry.getValue());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    module->setAttr(getArtifactsAttrName(), DictionaryAttr::get(ctx, entries));
  };
  unsigned index = 0;
  bool built = false;
  for (Operation *op : ops) {
    std::string name;
    do {
      name = (namePrefix + Twine(index++)).str();
    } while (symbols.lookup(name));
    Location loc = op->getLoc();
    FailureOr<LoweredKernelModule> lowered = build(builder, op, name);
    if (failed(lowered)) {
      if (built)
        recordBuilt();
      return failure();
    }
    built = true;
    FailureOr<std::string> text =
        printCheckedManifest(loc, name, lowered->manifest);
    if (failed(text)) {
      recordBuilt();
      return failure();
    }
    symbols.insert(lowered->module);
    manifests[name] = StringAttr::get(ctx, *text);
  }
  recordBuilt();
  return success();
}
