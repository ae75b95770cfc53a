//===- KernelParam.cpp - Kernel parameters of the artifacts ---------------===//

#include "SdpaDialect/Conversion/KernelParam.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::sdpa;

StringRef mlir::sdpa::getKernelParamTypeName(KernelParam::Kind kind) {
  switch (kind) {
  case KernelParam::Kind::Ptr:
    return "ptr";
  case KernelParam::Kind::I32:
    return "i32";
  case KernelParam::Kind::I64:
    return "i64";
  }
  llvm_unreachable("unknown kernel parameter kind");
}

SmallVector<Type>
mlir::sdpa::getKernelParamTypes(MLIRContext *ctx, ArrayRef<KernelParam> params,
                                function_ref<Type(StringRef name)> pointee) {
  SmallVector<Type> types;
  for (const KernelParam &param : params) {
    switch (param.kind) {
    case KernelParam::Kind::Ptr:
      types.push_back(MemRefType::get({kFlatExtent}, pointee(param.name)));
      break;
    case KernelParam::Kind::I32:
      types.push_back(IntegerType::get(ctx, 32));
      break;
    case KernelParam::Kind::I64:
      types.push_back(IntegerType::get(ctx, 64));
      break;
    }
  }
  return types;
}
