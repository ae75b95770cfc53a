//===- MmaTiles.cpp - mma.sync products S = Q K^T and O += P V ------------===//
//
// Every product is a sequence of m16n8k16 mma.sync with f32 accumulation:
// nvgpu.mma.sync for f16; for bf16, nvvm.mma.sync with bf16 multiplicand
// types (the upstream nvgpu.mma.sync lowering cannot type bf16 operands).
// B fragments are loaded once per key (or value) block and reused by every
// row tile of the warp.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

/// The 32-bit registers of a fragment vector<Nx2x(b)f16>.
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

Value ForwardKernelBuilder::mma(Value a, Value bFrag, Value c) {
  int64_t shape[] = {sm80::kMmaM, sm80::kMmaN, sm80::kMmaK};
  if (!spec.isBF16())
    return nvgpu::MmaSyncOp::create(b, a, bFrag, c, shape);

  SmallVector<Value> accs;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t e = 0; e < 2; ++e)
      accs.push_back(vector::ExtractOp::create(b, c, ArrayRef<int64_t>{i, e}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value result = NVVM::MmaOp::create(
      b, resultType, toRegisters(b, a), toRegisters(b, bFrag), accs, shape,
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                    NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elems;
  for (int64_t i = 0; i < 4; ++i)
    elems.push_back(LLVM::ExtractValueOp::create(b, result, i));
  return vector::FromElementsOp::create(b, c.getType(), elems);
}

Scores ForwardKernelBuilder::computeScores(Value stage) {
  int64_t rowTiles = spec.rowTilesPerWarp();
  int64_t colBlocks = spec.tiles.kv / sm80::kMmaN;
  int64_t kBlocks = spec.headDim / sm80::kMmaK;
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  Value zero = arith::ConstantOp::create(
      b, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));

  Scores scores(rowTiles * 2 * colBlocks * 2);
  for (int64_t j = 0; j < colBlocks; ++j) {
    SmallVector<Value> accs(rowTiles, zero);
    for (int64_t kk2 = 0; kk2 < kBlocks / 2; ++kk2) {
      auto [b0, b1] = loadKeyFragmentPair(stage, j, kk2);
      for (int64_t mt = 0; mt < rowTiles; ++mt) {
        accs[mt] = mma(qFrags[mt * kBlocks + 2 * kk2], b0, accs[mt]);
        accs[mt] = mma(qFrags[mt * kBlocks + 2 * kk2 + 1], b1, accs[mt]);
      }
    }
    for (int64_t mt = 0; mt < rowTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half)
        for (int64_t e = 0; e < 2; ++e)
          scores[scoreIndex(mt, half, j, e)] = vector::ExtractOp::create(
              b, accs[mt], ArrayRef<int64_t>{half, e});
  }
  return scores;
}

void ForwardKernelBuilder::accumulateValues(ArrayRef<Value> pFrags,
                                            Value stage,
                                            SoftmaxState &state) {
  int64_t rowTiles = spec.rowTilesPerWarp();
  int64_t keyBlocks = spec.tiles.kv / sm80::kMmaK;
  int64_t dimBlocks = spec.headDim / sm80::kMmaN;
  for (int64_t kc = 0; kc < keyBlocks; ++kc) {
    for (int64_t dn2 = 0; dn2 < dimBlocks / 2; ++dn2) {
      auto [b0, b1] = loadValueFragmentPair(stage, kc, dn2);
      for (int64_t mt = 0; mt < rowTiles; ++mt) {
        Value p = pFrags[mt * keyBlocks + kc];
        Value &acc0 = state.acc[mt * dimBlocks + 2 * dn2];
        Value &acc1 = state.acc[mt * dimBlocks + 2 * dn2 + 1];
        acc0 = mma(p, b0, acc0);
        acc1 = mma(p, b1, acc1);
      }
    }
  }
}
