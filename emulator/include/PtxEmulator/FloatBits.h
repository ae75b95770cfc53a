//===- FloatBits.h - f32/f16/bf16 bit conversions -----------------*- C++ -*-===//
//
// Exact conversions between the bit patterns of f16, bf16 and f32 as PTX's
// cvt defines them: widening is exact; narrowing rounds to nearest even,
// overflows to infinity, keeps subnormals, and turns any NaN into the
// canonical NaN 0x7fff.
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_FLOATBITS_H
#define PTXEMULATOR_FLOATBITS_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace sdpa::emu {

inline float bitsToF32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint32_t f32ToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

/// Flushes a subnormal f32 to zero of the same sign (.ftz).
inline float flushSubnormal(float f) {
  uint32_t bits = f32ToBits(f);
  if ((bits & 0x7f800000u) == 0)
    bits &= 0x80000000u;
  return bitsToF32(bits);
}

/// f16 bits -> f32 (exact).
inline float f16ToF32(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ff;
  if (exp == 0) {
    // Zero or subnormal: man * 2^-24, exact in f32.
    float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31)
    return bitsToF32(sign | 0x7f800000u | (man << 13));
  return bitsToF32(sign | ((exp + 112) << 23) | (man << 13));
}

/// bf16 bits -> f32 (exact).
inline float bf16ToF32(uint16_t b) { return bitsToF32(uint32_t(b) << 16); }

/// f32 -> f16 bits, round to nearest even (cvt.rn.f16.f32).
inline uint16_t f32ToF16(float f) {
  uint32_t bits = f32ToBits(f);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t mag = bits & 0x7fffffffu;
  if (mag > 0x7f800000u)
    return 0x7fff; // NaN
  if (mag >= 0x477ff000u) // >= 65520: rounds to infinity (or is infinite).
    return sign | 0x7c00;
  if (mag < 0x38800000u) {
    // Below 2^-14: an f16 subnormal (or the smallest normal after rounding),
    // in units of 2^-24. The scaling is exact; nearbyint rounds to even.
    float scaled = bitsToF32(mag) * 16777216.0f;
    return sign | uint16_t(std::nearbyint(scaled));
  }
  uint32_t exp = (mag >> 23) - 112;
  uint32_t man = mag & 0x7fffff;
  uint32_t h = (exp << 10) | (man >> 13);
  uint32_t rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return sign | uint16_t(h);
}

/// f32 -> bf16 bits, round to nearest even (cvt.rn.bf16.f32).
inline uint16_t f32ToBF16(float f) {
  uint32_t bits = f32ToBits(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return 0x7fff; // NaN
  bits += 0x7fffu + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

} // namespace sdpa::emu

#endif // PTXEMULATOR_FLOATBITS_H
