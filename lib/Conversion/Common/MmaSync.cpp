//===- MmaSync.cpp - The m16n8k16 mma.sync of the SM80 kernels ------------===//
//
// nvgpu.mma.sync for f16; for bf16, the fragments as 32-bit registers and
// nvvm.mma.sync with bf16 multiplicand types.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/MmaSync.h"
#include "SdpaDialect/Conversion/Sm80.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;

/// The 32-bit registers of a fragment vector<Nx2x(b)f16>, row by row.
static SmallVector<Value> toRegisters(ImplicitLocOpBuilder &b, Value frag) {
  auto type = cast<VectorType>(frag.getType());
  auto i32x1 = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> regs;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value pair = vector::ExtractOp::create(b, frag, ArrayRef<int64_t>{i});
    Value word = vector::BitCastOp::create(b, i32x1, pair);
    regs.push_back(vector::ExtractOp::create(b, word, ArrayRef<int64_t>{0}));
  }
  return regs;
}

Value mlir::sdpa::createMmaSyncM16N8K16(ImplicitLocOpBuilder &b, Value a,
                                        Value bFrag, Value c, bool isBF16) {
  int64_t shape[] = {sm80::kMmaM, sm80::kMmaN, sm80::kMmaK};
  if (!isBF16)
    return nvgpu::MmaSyncOp::create(b, a, bFrag, c, shape);

  // The accumulator's four f32 in register order c[i][e] = c(2i + e).
  SmallVector<Value> accs;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t e = 0; e < 2; ++e)
      accs.push_back(vector::ExtractOp::create(b, c, ArrayRef<int64_t>{i, e}));
  Type f32Type = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {f32Type, f32Type, f32Type, f32Type});
  // B's registers first: the order gcc evaluated the two arguments in.
  SmallVector<Value> bRegs = toRegisters(b, bFrag);
  SmallVector<Value> aRegs = toRegisters(b, a);
  Value result = NVVM::MmaOp::create(
      b, resultType, aRegs, bRegs, accs, shape,
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elems;
  for (int64_t i = 0; i < 4; ++i)
    elems.push_back(LLVM::ExtractValueOp::create(b, result, i));
  return vector::FromElementsOp::create(b, c.getType(), elems);
}
