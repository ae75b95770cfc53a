//===- KernelParam.cpp - Kernel parameters of the artifacts ---------------===//
//
// Kernel parameters as the schema lists them (lib/Schema, shared with the
// runtime), and their MLIR types.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelParam.h"
#include "SdpaDialect/Conversion/KernelSchema.h"
#include "SdpaDialect/Conversion/Sm80.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::sdpa;

namespace {
KernelParam::Kind toKind(schema::ParamType type) {
  switch (type) {
  case schema::ParamType::Ptr:
    return KernelParam::Kind::Ptr;
  case schema::ParamType::I32:
    return KernelParam::Kind::I32;
  case schema::ParamType::I64:
  case schema::ParamType::F32:
    break;
  }
  // The lowering's kernels take no f32 scalar: the scale is baked in.
  assert(type == schema::ParamType::I64 && "the kernels take no f32 scalar");
  return KernelParam::Kind::I64;
}

schema::ParamType toSchemaType(KernelParam::Kind kind) {
  switch (kind) {
  case KernelParam::Kind::Ptr:
    return schema::ParamType::Ptr;
  case KernelParam::Kind::I32:
    return schema::ParamType::I32;
  case KernelParam::Kind::I64:
    return schema::ParamType::I64;
  }
  llvm_unreachable("unknown kernel parameter kind");
}
} // namespace

StringRef mlir::sdpa::getKernelParamTypeName(KernelParam::Kind kind) {
  return schema::toString(toSchemaType(kind));
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

SmallVector<KernelParam>
mlir::sdpa::getSchemaKernelParams(schema::KernelRole role, bool varlen,
                                  bool deterministic, bool sinks,
                                  schema::DqMode dq) {
  SmallVector<KernelParam> params;
  for (const schema::Param &param :
       schema::getKernelParams(role, varlen, deterministic, sinks, dq))
    params.push_back({param.name, toKind(param.type)});
  return params;
}

std::vector<schema::Param>
mlir::sdpa::toSchemaParams(ArrayRef<KernelParam> params) {
  std::vector<schema::Param> result;
  for (const KernelParam &param : params)
    result.push_back({param.name, toSchemaType(param.kind)});
  return result;
}

Type mlir::sdpa::getKernelParamPointee(StringRef name, Type element) {
  MLIRContext *ctx = element.getContext();
  switch (schema::getPointeeType(name, getSchemaElementType(element))) {
  case schema::ElementType::F32:
    return Float32Type::get(ctx);
  case schema::ElementType::I32:
    return IntegerType::get(ctx, 32);
  case schema::ElementType::F16:
  case schema::ElementType::BF16:
    break;
  }
  return element;
}

schema::ElementType mlir::sdpa::getSchemaElementType(Type type) {
  if (type.isBF16())
    return schema::ElementType::BF16;
  if (type.isF32())
    return schema::ElementType::F32;
  if (type.isInteger(32))
    return schema::ElementType::I32;
  return schema::ElementType::F16;
}

bool mlir::sdpa::checkKernelHeadDim(schema::Direction direction,
                                    int64_t headDim, std::string &why) {
  if (!ShapedType::isDynamic(headDim) &&
      schema::isSupportedHeadDim(direction, headDim))
    return true;
  why = "expected a static head_dim, " + schema::describeHeadDims(direction) +
        ", got " +
        (ShapedType::isDynamic(headDim) ? std::string("?")
                                        : std::to_string(headDim));
  if (ShapedType::isDynamic(headDim))
    return false;
  if (headDim > schema::kMaxHeadDim)
    why += " (no tile of it fits the registers and shared memory of one "
           "SM80 block)";
  else
    why += " (rows are copied in 16-byte chunks of 8 elements)";
  return false;
}

int64_t mlir::sdpa::getMmaHeadDim(schema::Direction direction,
                                  int64_t headDim, bool recomputesDq) {
  assert(schema::isSupportedHeadDim(direction, headDim) &&
         "head dim outside the schema's table");
  int64_t width = llvm::alignTo(headDim, sm80::kMmaK);
  // The width at which the forward spills at every tile shape.
  if (direction == schema::Direction::Forward && width == 240)
    return schema::kMaxHeadDim;
  // The widths at which bwd_dq spills on a banded window at its 32 x 32
  // tiles (ptxas 13.0, sm_80 and sm_90: 4-8 bytes at 208, 56-64 at 224,
  // 124-132 at 240; none at 256; 2026-12-06).
  bool dqSpills = width == 208 || width == 224 || width == 240;
  if (direction == schema::Direction::Backward && recomputesDq && dqSpills)
    return schema::kMaxHeadDim;
  return width;
}
