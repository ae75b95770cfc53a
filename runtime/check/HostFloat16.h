//===- HostFloat16.h - f16 and bf16 on the host, round to nearest even ----===//
//
// The 16-bit element formats of the kernels' tensors, converted on the host:
// what sdpa-kernel-check writes into a device buffer and reads back.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_CHECK_HOSTFLOAT16_H
#define SDPARUNTIME_CHECK_HOSTFLOAT16_H

#include <cstdint>

namespace sdpa::check {

/// IEEE binary16 bits of `x`, rounded to nearest even (overflow to infinity,
/// gradual underflow, NaN kept quiet).
uint16_t toHalfBits(float x);

/// The value of IEEE binary16 bits.
float fromHalfBits(uint16_t bits);

/// bfloat16 bits of `x` (the upper half of its f32 bits), rounded to nearest
/// even; NaN kept quiet.
uint16_t toBf16Bits(float x);

/// The value of bfloat16 bits.
float fromBf16Bits(uint16_t bits);

} // namespace sdpa::check

#endif // SDPARUNTIME_CHECK_HOSTFLOAT16_H
