//===- BackwardModule.cpp - The gpu.module of the backward kernels --------===//
//
// Builds the gpu.module of the three backward kernels of the spec's dQ mode:
// each gpu.func with its parameters (BackwardSpec.cpp) and block size, its
// body from its builder (PreprocessKernel.cpp, MainKernel.cpp and
// DqConvertKernel.cpp or DqKernel.cpp). The top of the
// backward's call graph: nothing below calls back into it.
//
//===----------------------------------------------------------------------===//

#include "BackwardKernel.h"
#include "SdpaDialect/Conversion/KernelSchema.h"

using namespace mlir;
using namespace mlir::sdpa;

static gpu::GPUFuncOp buildKernel(OpBuilder &builder, Location loc,
                                  const BackwardKernelSpec &spec,
                                  BackwardRole role) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Type> types = getKernelParamTypes(
      ctx, getBackwardKernelParams(spec, role),
      [&](StringRef name) {
        return getKernelParamPointee(name, spec.elementType);
      });
  auto func = gpu::GPUFuncOp::create(builder, loc, getBackwardKernelName(role),
                                     FunctionType::get(ctx, types, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  int64_t threads = getBackwardKernelShape(spec, role).threads;
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  OpBuilder::InsertionGuard guard(builder);
  ImplicitLocOpBuilder b(loc, builder);
  b.setInsertionPointToStart(&func.getBody().front());
  switch (role) {
  case BackwardRole::Preprocess:
    sdpa::detail::buildPreprocessKernel(b, spec, func);
    break;
  case BackwardRole::Main:
    sdpa::detail::buildMainKernel(b, spec, func);
    break;
  case BackwardRole::DqConvert:
    sdpa::detail::buildDqConvertKernel(b, spec, func);
    break;
  case BackwardRole::Dq:
    sdpa::detail::buildDqKernel(b, spec, func);
    break;
  }
  return func;
}

gpu::GPUModuleOp
mlir::sdpa::buildBackwardKernelModule(OpBuilder &builder, Location loc,
                                      StringRef moduleName,
                                      const BackwardKernelSpec &spec) {
  auto module = gpu::GPUModuleOp::create(builder, loc, moduleName);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  for (BackwardRole role : getBackwardRoles(spec))
    buildKernel(builder, loc, spec, role);
  return module;
}
