//===- MmaSync.h - The m16n8k16 mma.sync of the SM80 kernels ----*- C++ -*-===//
//
// The tensor-core product both the forward and the backward kernels use,
// for f16 and bf16 multiplicands with f32 accumulation.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_MMASYNC_H
#define SDPADIALECT_CONVERSION_MMASYNC_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::sdpa {

/// Emits c + a * b as one m16n8k16 mma.sync: `a` is a vector<4x2xT>, `b` a
/// vector<2x2xT> and `c` the vector<2x2xf32> accumulator, T f16 or bf16.
/// f16 uses nvgpu.mma.sync; bf16 packs the fragments into 32-bit registers
/// and uses nvvm.mma.sync with bf16 multiplicand types (the upstream
/// nvgpu.mma.sync lowering cannot type bf16 operands).
Value createMmaSyncM16N8K16(ImplicitLocOpBuilder &b, Value a, Value bFrag,
                            Value c, bool isBF16);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_MMASYNC_H
