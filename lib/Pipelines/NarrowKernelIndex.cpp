//===- NarrowKernelIndex.cpp - sdpa-narrow-kernel-index -------------------===//
//
// The first step of the kernel lowering at a 32-bit index: the flat global
// memrefs shrink to what an i32 index holds, each manifest says
// `index_bits 32`, and the NVGPU ops are converted to NVVM under a 32-bit
// LLVM type converter (the upstream pass converts at 64 bits only).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelParam.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaSchema/Manifest.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPANARROWKERNELINDEX
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// The index width this pass lowers the kernels to.
constexpr unsigned kIndexBits = 32;

/// `func` with each flat global memref argument (kFlatExtent elements)
/// retyped to kFlatExtent32 elements; its uses (loads, stores, copies) take
/// any extent. The entry block's arguments past the function's inputs are
/// workgroup attributions, which keep their types.
void shrinkFlatMemrefs(gpu::GPUFuncOp func) {
  SmallVector<Type> inputs;
  for (unsigned i = 0, e = func.getFunctionType().getNumInputs(); i < e; ++i) {
    BlockArgument arg = func.getArgument(i);
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (memref && memref.getShape() == ArrayRef<int64_t>{kFlatExtent})
      arg.setType(MemRefType::get({kFlatExtent32}, memref.getElementType()));
    inputs.push_back(arg.getType());
  }
  func.setFunctionTypeAttr(TypeAttr::get(
      FunctionType::get(func.getContext(), inputs, func.getResultTypes())));
}

/// The manifest record `text` of kernel module `name` with
/// `index_bits 32`; failure if it does not parse. The record has no `ptx`
/// key, so it parses with one (getManifestWithPtx) and prints without it.
FailureOr<std::string> narrowManifest(StringRef name, StringRef text,
                                      std::string &error) {
  sdpa_schema::Manifest manifest;
  if (!sdpa_schema::parseManifest(getManifestWithPtx(text, name), manifest,
                                  error))
    return failure();
  manifest.ptxFile.clear();
  manifest.indexBits = kIndexBits;
  return sdpa_schema::printManifest(manifest);
}

/// An `index` of 32 bits cannot hold a pointer. Each element pointer the
/// backward forms as `inttoptr(index_cast(extract_aligned_pointer_as_index
/// %m))` (lib/Conversion/SdpaGradToGPU/Relay.cpp) takes %m's aligned pointer
/// from its LLVM descriptor instead, through an unrealized cast that the GPU
/// to NVVM conversion of the kernel's arguments resolves. Any other use of
/// a pointer as an index is refused.
LogicalResult widenPointerBases(gpu::GPUModuleOp kernels,
                                const LLVMTypeConverter &converter) {
  SmallVector<LLVM::IntToPtrOp> bases;
  kernels.walk([&](LLVM::IntToPtrOp op) { bases.push_back(op); });
  for (LLVM::IntToPtrOp op : bases) {
    auto cast = op.getArg().getDefiningOp<arith::IndexCastOp>();
    auto extract =
        cast ? cast.getIn().getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>()
             : nullptr;
    if (!extract)
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value memref = extract.getSource();
    Value descriptor =
        UnrealizedConversionCastOp::create(
            b, loc, converter.convertType(memref.getType()), memref)
            .getResult(0);
    Value aligned = MemRefDescriptor(descriptor).alignedPtr(b, loc);
    if (aligned.getType() != op.getType())
      aligned = LLVM::AddrSpaceCastOp::create(b, loc, op.getType(), aligned);
    op.replaceAllUsesWith(aligned);
    op.erase();
    if (cast->use_empty())
      cast.erase();
    if (extract->use_empty())
      extract.erase();
  }
  WalkResult refused = kernels.walk([](memref::ExtractAlignedPointerAsIndexOp op) {
    op.emitError("a pointer held in an index, which a 32-bit index cannot "
                 "hold (sdpa-narrow-kernel-index widens only "
                 "inttoptr(index_cast(this)))");
    return WalkResult::interrupt();
  });
  return failure(refused.wasInterrupted());
}

struct NarrowKernelIndexPass
    : public sdpa::impl::SdpaNarrowKernelIndexBase<NarrowKernelIndexPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto records = module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName());
    NamedAttrList narrowed(records ? records.getValue()
                                   : ArrayRef<NamedAttribute>{});
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      auto text = dyn_cast_or_null<StringAttr>(narrowed.get(kernels.getName()));
      if (!text) {
        emitError(kernels.getLoc(), "kernel module '")
            << kernels.getName() << "' has no manifest in '"
            << getArtifactsAttrName() << "' to record its 32-bit index in";
        return signalPassFailure();
      }
      std::string error;
      FailureOr<std::string> manifest =
          narrowManifest(kernels.getName(), text.getValue(), error);
      if (failed(manifest)) {
        emitError(kernels.getLoc(), "the manifest of kernel module '")
            << kernels.getName() << "' does not parse: " << error;
        return signalPassFailure();
      }
      narrowed.set(kernels.getName(), StringAttr::get(ctx, *manifest));
      for (auto func : kernels.getOps<gpu::GPUFuncOp>())
        shrinkFlatMemrefs(func);
    }
    module->setAttr(getArtifactsAttrName(), narrowed.getDictionary(ctx));

    // NVGPU to NVVM at a 32-bit index, as the upstream pass converts at 64.
    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(kIndexBits);
    options.useBarePtrCallConv = true;
    LLVMTypeConverter converter(ctx, options);
    nvgpu::populateCommonGPUTypeAndAttributeConversions(converter);
    converter.addConversion([&](nvgpu::DeviceAsyncTokenType type) -> Type {
      return converter.convertType(IntegerType::get(type.getContext(), 32));
    });
    RewritePatternSet patterns(ctx);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<nvgpu::NVGPUDialect>();
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (auto kernels : module.getOps<gpu::GPUModuleOp>())
      if (failed(widenPointerBases(kernels, converter)) ||
          failed(applyPartialConversion(kernels, target, frozen)))
        return signalPassFailure();
  }
};

} // namespace
