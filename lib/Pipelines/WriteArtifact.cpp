//===- WriteArtifact.cpp - sdpa-write-artifact ----------------------------===//
//
// Writes each compiled kernel module as `<name>.ptx` plus `<name>.manifest`
// (docs/Artifact.md): the PTX comes from the gpu.binary's assembly object,
// the manifest from the `sdpa.artifacts` record the lowering left. Before
// anything is written, the manifest is parsed with the schema's parser (the
// runtime's) and its kernel records are matched against the PTX's entry
// points, so a record that does not describe the compiled kernels is refused.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelSchema.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

#include "llvm/ADT/StringMap.h"
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

std::string mlir::sdpa::getManifestWithPtx(StringRef record, StringRef stem) {
  auto [header, rest] = record.split('\n');
  return (header + "\nptx " + stem + ".ptx\n" + rest).str();
}

/// The `.entry` points of `ptx` and their parameter counts.
static llvm::StringMap<unsigned> getPtxEntries(StringRef ptx) {
  llvm::StringMap<unsigned> entries;
  StringRef rest = ptx;
  constexpr StringLiteral kEntry = ".entry ";
  while (true) {
    size_t at = rest.find(kEntry);
    if (at == StringRef::npos)
      break;
    rest = rest.drop_front(at + kEntry.size());
    size_t open = rest.find('(');
    size_t close = rest.find(')');
    if (open == StringRef::npos || close == StringRef::npos || close < open)
      break;
    StringRef name = rest.take_front(open).trim();
    entries[name] = rest.slice(open, close).count(".param ");
    rest = rest.drop_front(close);
  }
  return entries;
}

/// Checks that the kernel records of `manifest` are the entry points of
/// `ptx`, each with as many parameters as it lists.
static LogicalResult checkAgainstPtx(gpu::BinaryOp binary,
                                     const schema::Manifest &manifest,
                                     StringRef ptx) {
  llvm::StringMap<unsigned> entries = getPtxEntries(ptx);
  for (const schema::Kernel &kernel : manifest.kernels) {
    auto it = entries.find(kernel.name);
    if (it == entries.end())
      return binary.emitError("expected the manifest's kernel '")
             << kernel.name << "' to be an entry point of binary "
             << binary.getName() << "'s PTX";
    if (it->second != kernel.params.size())
      return binary.emitError("expected kernel '")
             << kernel.name << "' to take the manifest's "
             << kernel.params.size() << " parameters, its PTX takes "
             << it->second;
  }
  if (entries.size() != manifest.kernels.size())
    return binary.emitError("expected the manifest of binary ")
           << binary.getName() << " to list its " << entries.size()
           << " entry points, it lists " << manifest.kernels.size();
  return success();
}

namespace {
struct WriteArtifactPass
    : public sdpa::impl::SdpaWriteArtifactBase<WriteArtifactPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!name.empty() && !schema::isValidArtifactName(name)) {
      module.emitError("expected option name to be 1 to 128 characters of "
                       "[A-Za-z0-9_.-], not starting with '.' or '-', got '")
          << name << "'";
      return signalPassFailure();
    }
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
    // Everything is checked before the first file is written.
    struct Output {
      gpu::BinaryOp binary;
      std::string stem, ptx, manifest;
    };
    SmallVector<Output> outputs;
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
      if (!schema::isValidArtifactName(stem)) {
        binary.emitError("expected the binary's name to be a valid artifact "
                         "name (1 to 128 characters of [A-Za-z0-9_.-], not "
                         "starting with '.' or '-'), got '")
            << stem << "'; name the artifact with option name";
        return signalPassFailure();
      }
      auto record = dyn_cast<StringAttr>(manifests.get(binary.getName()));
      if (!record) {
        binary.emitError("expected the '")
            << getArtifactsAttrName() << "' entry of binary "
            << binary.getName() << " to be a string";
        return signalPassFailure();
      }
      std::string text = getManifestWithPtx(record.getValue(), stem);
      schema::Manifest parsed;
      std::string error;
      if (!schema::parseManifest(text, parsed, error)) {
        binary.emitError("expected the manifest of binary ")
            << binary.getName() << " to be one the runtime reads: " << error;
        return signalPassFailure();
      }
      StringRef ptx = ptxObject.getObject().getValue();
      if (failed(checkAgainstPtx(binary, parsed, ptx)))
        return signalPassFailure();
      outputs.push_back({binary, stem, ptx.str(), text});
    }
    if (std::error_code error = llvm::sys::fs::create_directories(dir)) {
      module.emitError("cannot create directory '")
          << dir << "': " << error.message();
      return signalPassFailure();
    }
    for (Output &output : outputs) {
      SmallString<128> ptxPath(dir), manifestPath(dir);
      llvm::sys::path::append(ptxPath, output.stem + ".ptx");
      llvm::sys::path::append(manifestPath, output.stem + ".manifest");
      if (failed(writeFile(output.binary.getLoc(), ptxPath, output.ptx)) ||
          failed(writeFile(output.binary.getLoc(), manifestPath,
                           output.manifest)))
        return signalPassFailure();
    }
  }
};
} // namespace
