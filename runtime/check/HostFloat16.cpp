//===- HostFloat16.cpp - f16 and bf16 on the host -------------------------===//

#include "HostFloat16.h"

#include <cstring>

namespace sdpa::check {
namespace {

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float floatOf(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// `value >> shift`, rounded to nearest even on the bits shifted out.
uint32_t shiftRoundEven(uint32_t value, unsigned shift) {
  uint32_t kept = value >> shift;
  uint32_t rest = value & ((uint32_t(1) << shift) - 1);
  uint32_t half = uint32_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  return kept;
}

} // namespace

uint16_t toHalfBits(float x) {
  uint32_t bits = bitsOf(x);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  int exponent = int((bits >> 23) & 0xff);
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff)
    return sign | 0x7c00 | (mantissa ? 0x200 | (mantissa >> 13) : 0);
  if (exponent == 0) // f32 zero or subnormal: far below half's smallest
    return sign;
  int halfExponent = exponent - 127 + 15;
  uint32_t significand = mantissa | 0x800000; // 24 bits
  if (halfExponent >= 1) {
    // 11 significant bits; a carry out of them moves to the next exponent,
    // which the plain addition below does (and reaches 0x7c00 = infinity).
    uint32_t rounded = shiftRoundEven(significand, 13);
    uint32_t value = (uint32_t(halfExponent) << 10) + (rounded - 0x400);
    return value >= 0x7c00 ? sign | 0x7c00 : uint16_t(sign | value);
  }
  // Subnormal half: units of 2^-24.
  unsigned shift = unsigned(14 - halfExponent);
  if (shift > 24)
    return sign;
  return uint16_t(sign | shiftRoundEven(significand, shift));
}

float fromHalfBits(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return floatOf(sign | 0x7f800000 | (mantissa << 13));
  if (exponent == 0) {
    float magnitude = float(mantissa) * (1.0f / 16777216.0f); // 2^-24
    return sign ? -magnitude : magnitude;
  }
  return floatOf(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t toBf16Bits(float x) {
  uint32_t bits = bitsOf(x);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t((bits >> 16) | 0x40);
  return uint16_t(shiftRoundEven(bits, 16));
}

float fromBf16Bits(uint16_t bits) { return floatOf(uint32_t(bits) << 16); }

} // namespace sdpa::check
