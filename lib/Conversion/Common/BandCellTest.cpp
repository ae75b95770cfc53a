//===- BandCellTest.cpp - The band test of one thread's cells -------------===//

#include "SdpaDialect/Conversion/BandCellTest.h"

#include <cassert>
#include <cstdlib>

using namespace mlir;
using namespace mlir::sdpa;

/// The saturation bound: far above every compile-time offset (tiles are at
/// most 2^16), far below the i32 limit.
static constexpr int64_t kSaturation = int64_t(1) << 20;

BandCellTest::BandCellTest(KernelArith &arith, const Band &band,
                           Value threadQuery, Value threadKey, Value delta,
                           Value seqKv, bool narrow, bool wrap)
    : arith(arith), narrow(narrow || wrap), wrap(wrap) {
  if (seqKv)
    keyRoom = saturate(arith.sub(seqKv, threadKey));
  Value diff = arith.sub(arith.sub(threadKey, threadQuery), delta);
  if (band.left)
    leftRoom = saturate(arith.add(diff, arith.idx(*band.left)));
  // Both edges bounded: one unsigned compare of leftRoom + keyOff - queryOff
  // with L + R, where the saturation cannot reach [0, L + R].
  if (band.left && band.right && *band.left + *band.right >= 0 &&
      *band.left + *band.right < kSaturation / 2)
    width = *band.left + *band.right;
  else if (band.right)
    rightRoom = saturate(arith.sub(arith.idx(*band.right), diff));
  assert((!wrap || (width && !seqKv)) &&
         "a wrapped room needs the one-compare band test and no key test");
}

Value BandCellTest::constant(int64_t value) {
  ImplicitLocOpBuilder &b = arith.b;
  return narrow ? Value(arith::ConstantIntOp::create(b, b.getI32Type(), value))
                : arith.idx(value);
}

Value BandCellTest::saturate(Value x) {
  if (!narrow)
    return x;
  ImplicitLocOpBuilder &b = arith.b;
  if (wrap)
    return arith::IndexCastOp::create(b, b.getI32Type(), x);
  x = arith::MinSIOp::create(b, x, arith.idx(kSaturation));
  x = arith::MaxSIOp::create(b, x, arith.idx(-kSaturation));
  return arith::IndexCastOp::create(b, b.getI32Type(), x);
}

Value BandCellTest::atLeast(Value x, int64_t bound) {
  return arith.cmp(arith::CmpIPredicate::sge, x, constant(bound));
}

Value BandCellTest::visible(int64_t queryOff, int64_t keyOff) {
  assert(std::abs(queryOff) < kSaturation / 2 &&
         std::abs(keyOff) < kSaturation / 2 && "cell offset too large");
  ImplicitLocOpBuilder &b = arith.b;
  // keyOff < keyRoom  <=>  keyRoom >= keyOff + 1.
  Value visible;
  auto conjoin = [&](Value test) {
    visible = visible ? Value(arith::AndIOp::create(b, visible, test)) : test;
  };
  if (keyRoom)
    conjoin(atLeast(keyRoom, keyOff + 1));
  if (width) {
    // 0 <= diff + L + keyOff - queryOff <= L + R, as one unsigned compare.
    Value room = leftRoom;
    if (keyOff != queryOff)
      room = arith.add(room, constant(keyOff - queryOff));
    conjoin(arith.cmp(arith::CmpIPredicate::ule, room, constant(*width)));
  } else if (leftRoom)
    conjoin(atLeast(leftRoom, queryOff - keyOff));
  if (rightRoom)
    conjoin(atLeast(rightRoom, keyOff - queryOff));
  if (!visible)
    visible = arith::ConstantIntOp::create(b, b.getI1Type(), 1);
  return visible;
}
