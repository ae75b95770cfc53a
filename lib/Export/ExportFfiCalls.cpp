//===- ExportFfiCalls.cpp - sdpa-export-ffi-calls, sdpa-drop-kernels ------===//
//
// The host side of a lowered module, back to StableHLO: every tagged
// attention site becomes an XLA FFI call to its artifact, and the kernel
// modules are set apart in a nested module for the kernel pipeline, which
// sdpa-drop-kernels removes once the artifacts are written.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Export/ExportPasses.h"
#include "SdpaDialect/Export/FfiCall.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Path.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPAEXPORTFFICALLS
#define GEN_PASS_DEF_SDPADROPKERNELS
#include "SdpaDialect/Export/ExportPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

/// The nested module that holds the kernels between the two passes.
static constexpr llvm::StringLiteral kKernelsModuleName = "sdpa_kernels";

namespace {
struct Site {
  Operation *op;
  FfiArtifact artifact;
};

struct ExportFfiCallsPass
    : public sdpa::impl::SdpaExportFfiCallsBase<ExportFfiCallsPass> {
  using Base::Base;

  /// Reads what the call of `op` names; failure after a diagnostic.
  LogicalResult collect(AttentionOpInterface op, DictionaryAttr manifests,
                        SmallVectorImpl<Site> &sites) {
    std::string why = whyNotExportable(op);
    if (!why.empty())
      return op.emitError("cannot export to an FFI call: ") << why;
    auto tag = op->getAttrOfType<SymbolRefAttr>(getKernelAttrName());
    if (!tag)
      return op.emitError("expected the kernel tag '")
             << getKernelAttrName()
             << "' (run convert-sdpa-to-gpu / convert-sdpa-grad-to-gpu first)";
    StringRef moduleName = tag.getRootReference().getValue();
    auto manifest =
        manifests ? manifests.getAs<StringAttr>(moduleName) : StringAttr();
    if (!manifest)
      return op.emitError("no manifest for kernel module '")
             << moduleName << "' in '" << getArtifactsAttrName() << "'";
    Site site{op, {}};
    StringRef role = isa<AttentionOp>(op) ? "forward" : "bwd_main";
    std::string error;
    if (failed(readFfiArtifact(manifest.getValue(), role, site.artifact,
                               error)))
      return op.emitError("kernel module '") << moduleName << "': " << error;
    SmallString<128> path(artifactDir);
    llvm::sys::path::append(path, artifactName.empty() ? moduleName
                                                        : StringRef(artifactName));
    site.artifact.path = path.str().str();
    sites.push_back(std::move(site));
    return success();
  }

  /// Moves the gpu.modules and their records into `@sdpa_kernels`.
  LogicalResult nestKernels(ModuleOp module) {
    SmallVector<gpu::GPUModuleOp> kernels(module.getOps<gpu::GPUModuleOp>());
    if (kernels.empty())
      return success();
    if (SymbolTable::lookupSymbolIn(module, kKernelsModuleName))
      return module.emitError("a symbol named '")
             << kKernelsModuleName << "' already exists";
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto nested = ModuleOp::create(builder, module.getLoc(),
                                   StringRef(kKernelsModuleName));
    for (gpu::GPUModuleOp kernel : kernels)
      kernel->moveBefore(nested.getBody(), nested.getBody()->end());
    for (StringRef name : {getArtifactsAttrName(),
                           gpu::GPUDialect::getContainerModuleAttrName()})
      if (Attribute attr = module->removeAttr(name))
        nested->setAttr(name, attr);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto manifests =
        module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName());
    // Every site is checked before any is rewritten.
    SmallVector<Site> sites;
    bool ok = true;
    module.walk([&](AttentionOpInterface op) {
      ok &= succeeded(collect(op, manifests, sites));
    });
    if (!ok)
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (Site &site : sites) {
      rewriter.setInsertionPoint(site.op);
      if (auto forward = dyn_cast<AttentionOp>(site.op))
        exportForwardSite(rewriter, forward, site.artifact);
      else
        exportBackwardSite(rewriter, cast<AttentionGradOp>(site.op),
                           site.artifact);
    }
    if (failed(nestKernels(module)))
      signalPassFailure();
  }
};

struct DropKernelsPass
    : public sdpa::impl::SdpaDropKernelsBase<DropKernelsPass> {
  void runOnOperation() override {
    for (ModuleOp nested :
         llvm::make_early_inc_range(getOperation().getOps<ModuleOp>()))
      if (nested.getSymName() == kKernelsModuleName)
        nested.erase();
  }
};
} // namespace
