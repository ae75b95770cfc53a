//===- WriteArtifact.cpp - sdpa-write-artifact ----------------------------===//
//
// Writes each compiled kernel module as `<name>.ptx` plus `<name>.manifest`
// (docs/Artifact.md): the PTX comes from the gpu.binary's assembly object,
// the manifest from the `sdpa.artifacts` record the lowering left.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPAWRITEARTIFACT
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

/// Writes `text` to `path`; emits an error at `loc` on failure.
static LogicalResult writeFile(Location loc, StringRef path, StringRef text) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return emitError(loc) << "cannot write '" << path
                          << "': " << error.message();
  os << text;
  return success();
}

namespace {
struct WriteArtifactPass
    : public sdpa::impl::SdpaWriteArtifactBase<WriteArtifactPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto manifests =
        module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName());
    SmallVector<gpu::BinaryOp> binaries;
    module.walk([&](gpu::BinaryOp binary) {
      if (manifests && manifests.get(binary.getName()))
        binaries.push_back(binary);
    });
    if (!name.empty() && binaries.size() != 1) {
      module.emitError("expected exactly one kernel module with option "
                       "name, found ")
          << binaries.size();
      return signalPassFailure();
    }
    if (std::error_code error = llvm::sys::fs::create_directories(dir)) {
      module.emitError("cannot create directory '")
          << dir << "': " << error.message();
      return signalPassFailure();
    }
    for (gpu::BinaryOp binary : binaries) {
      gpu::ObjectAttr ptxObject;
      for (Attribute attr : binary.getObjects())
        if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
          if (object.getFormat() == gpu::CompilationTarget::Assembly)
            ptxObject = object;
      if (!ptxObject) {
        binary.emitError("expected a ptx object (format = isa) in binary ")
            << binary.getName();
        return signalPassFailure();
      }
      std::string stem = name.empty() ? binary.getName().str() : name;
      StringRef manifest =
          cast<StringAttr>(manifests.get(binary.getName())).getValue();
      auto [header, rest] = manifest.split('\n');
      std::string text =
          (header + "\nptx " + stem + ".ptx\n" + rest).str();
      SmallString<128> ptxPath(dir), manifestPath(dir);
      llvm::sys::path::append(ptxPath, stem + ".ptx");
      llvm::sys::path::append(manifestPath, stem + ".manifest");
      if (failed(writeFile(binary.getLoc(), ptxPath,
                           ptxObject.getObject().getValue())) ||
          failed(writeFile(binary.getLoc(), manifestPath, text)))
        return signalPassFailure();
    }
  }
};
} // namespace
