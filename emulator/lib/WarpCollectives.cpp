//===- WarpCollectives.cpp - mma.sync, ldmatrix, shfl.sync, vote.sync -----===//
//
// Each collective first gathers every lane's inputs and then writes every
// lane's outputs, so destinations may alias sources.
//
//===----------------------------------------------------------------------===//

#include "PtxEmulator/WarpCollectives.h"

#include "PtxEmulator/FloatBits.h"

#include <cstring>

using namespace sdpa::emu;

namespace {

/// Checks the member mask of every lane: only full-warp collectives.
bool checkFullMask(const WarpContext &warp, uint32_t slot, Fault &fault) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    uint32_t mask = uint32_t(warp.lanes[lane][slot]);
    if (mask != 0xffffffffu) {
      fault.code = kErrLaunchFailed;
      fault.message = "lane " + std::to_string(lane) + " passes member mask " +
                      hex(mask) +
                      "; only full-warp masks (0xffffffff) are supported";
      return false;
    }
  }
  return true;
}

/// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32.
///
/// Every product of two f16/bf16 values is exact (in float and in double).
/// D is accumulated in double, k in increasing order starting from C, and
/// rounded to f32 once: for the operand ranges of attention that sum is
/// exact or within an ulp of double, so D is the correctly rounded A*B + C.
/// Tensor cores round their internal sums differently (and may truncate), so
/// results can differ from hardware in the last f32 bits.
void mma(const Inst &in, WarpContext &warp) {
  float a[16][16], b[16][8], c[16][8];
  bool bf16 = in.ty == Ty::BF16;
  auto half = [bf16](uint32_t bits) {
    return bf16 ? bf16ToF32(uint16_t(bits)) : f16ToF32(uint16_t(bits));
  };
  for (unsigned lane = 0; lane < 32; ++lane) {
    const uint64_t *r = warp.lanes[lane];
    unsigned g = lane >> 2, t = lane & 3;
    uint32_t a0 = uint32_t(r[in.o[4]]), a1 = uint32_t(r[in.o[5]]);
    uint32_t a2 = uint32_t(r[in.o[6]]), a3 = uint32_t(r[in.o[7]]);
    uint32_t b0 = uint32_t(r[in.o[8]]), b1 = uint32_t(r[in.o[9]]);
    a[g][2 * t] = half(a0), a[g][2 * t + 1] = half(a0 >> 16);
    a[g + 8][2 * t] = half(a1), a[g + 8][2 * t + 1] = half(a1 >> 16);
    a[g][2 * t + 8] = half(a2), a[g][2 * t + 9] = half(a2 >> 16);
    a[g + 8][2 * t + 8] = half(a3), a[g + 8][2 * t + 9] = half(a3 >> 16);
    b[2 * t][g] = half(b0), b[2 * t + 1][g] = half(b0 >> 16);
    b[2 * t + 8][g] = half(b1), b[2 * t + 9][g] = half(b1 >> 16);
    c[g][2 * t] = bitsToF32(uint32_t(r[in.o[10]]));
    c[g][2 * t + 1] = bitsToF32(uint32_t(r[in.o[11]]));
    c[g + 8][2 * t] = bitsToF32(uint32_t(r[in.o[12]]));
    c[g + 8][2 * t + 1] = bitsToF32(uint32_t(r[in.o[13]]));
  }
  float d[16][8];
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 8; ++j) {
      double sum = c[i][j];
      for (unsigned k = 0; k < 16; ++k)
        sum += double(a[i][k]) * double(b[k][j]);
      d[i][j] = float(sum);
    }
  for (unsigned lane = 0; lane < 32; ++lane) {
    uint64_t *r = warp.lanes[lane];
    unsigned g = lane >> 2, t = lane & 3;
    r[in.o[0]] = f32ToBits(d[g][2 * t]);
    r[in.o[1]] = f32ToBits(d[g][2 * t + 1]);
    r[in.o[2]] = f32ToBits(d[g + 8][2 * t]);
    r[in.o[3]] = f32ToBits(d[g + 8][2 * t + 1]);
  }
}

/// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16: matrix i's
/// row j comes from the address of lane 8i+j.
bool ldmatrix(const Inst &in, WarpContext &warp, Fault &fault) {
  unsigned n = in.sub;
  uint16_t m[4][8][8];
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < 8; ++j) {
      unsigned lane = 8 * i + j;
      uint64_t address = warp.lanes[lane][in.o[4]] + uint64_t(in.imm);
      if (address >= warp.sharedBytes || warp.sharedBytes - address < 16) {
        fault.code = kErrIllegalAddress;
        fault.message = "ldmatrix row address " + hex(address) + " of lane " +
                        std::to_string(lane) +
                        " is outside the shared window of " +
                        std::to_string(warp.sharedBytes) + " bytes";
        return false;
      }
      if (address % 16) {
        fault.code = kErrMisalignedAddress;
        fault.message = "ldmatrix row address " + hex(address) + " of lane " +
                        std::to_string(lane) + " is not 16-byte aligned";
        return false;
      }
      if (warp.race && !warp.race->access(uint32_t(address), 16, warp.warp,
                                          false, in.line, warp.epoch, fault))
        return false;
      std::memcpy(m[i][j], warp.shared + address, 16);
    }
  bool trans = in.flags & kTrans;
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned row = lane / 4, col = 2 * (lane % 4);
    for (unsigned i = 0; i < n; ++i) {
      uint32_t lo, hi;
      if (trans) {
        lo = m[i][col][row];
        hi = m[i][col + 1][row];
      } else {
        lo = m[i][row][col];
        hi = m[i][row][col + 1];
      }
      warp.lanes[lane][in.o[i]] = lo | (hi << 16);
    }
  }
  return true;
}

/// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask, by the
/// ISA's formula (c packs the clamp in bits 0..4 and the segment mask in
/// bits 8..12).
void shfl(const Inst &in, WarpContext &warp) {
  uint32_t a[32];
  for (unsigned lane = 0; lane < 32; ++lane)
    a[lane] = uint32_t(warp.lanes[lane][in.o[2]]);
  for (int lane = 0; lane < 32; ++lane) {
    uint64_t *r = warp.lanes[lane];
    int b = int(r[in.o[3]] & 0x1f);
    uint32_t c = uint32_t(r[in.o[4]]);
    int clamp = int(c & 0x1f), segmask = int((c >> 8) & 0x1f);
    int maxLane = (lane & segmask) | (clamp & ~segmask);
    int minLane = lane & segmask;
    int j = lane;
    bool valid = false;
    switch (ShflMode(in.sub)) {
    case ShflMode::Up:
      j = lane - b;
      valid = j >= maxLane;
      break;
    case ShflMode::Down:
      j = lane + b;
      valid = j <= maxLane;
      break;
    case ShflMode::Bfly:
      j = lane ^ b;
      valid = j <= maxLane;
      break;
    case ShflMode::Idx:
      j = minLane | (b & ~segmask);
      valid = j <= maxLane;
      break;
    }
    if (!valid)
      j = lane;
    r[in.o[0]] = a[j];
    if (in.o[1] != kNoSlot)
      r[in.o[1]] = valid;
  }
}

/// vote.sync.{any,all,uni}.pred and vote.sync.ballot.b32.
void vote(const Inst &in, WarpContext &warp) {
  uint32_t ballot = 0;
  unsigned negate = in.flags & kNegA ? 1 : 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((warp.lanes[lane][in.o[1]] ^ negate) & 1)
      ballot |= 1u << lane;
  uint64_t result = 0;
  switch (VoteMode(in.sub)) {
  case VoteMode::Any:
    result = ballot != 0;
    break;
  case VoteMode::All:
    result = ballot == 0xffffffffu;
    break;
  case VoteMode::Uni:
    result = ballot == 0 || ballot == 0xffffffffu;
    break;
  case VoteMode::Ballot:
    result = ballot;
    break;
  }
  for (unsigned lane = 0; lane < 32; ++lane)
    warp.lanes[lane][in.o[0]] = result;
}

} // namespace

bool sdpa::emu::executeCollective(const Inst &in, WarpContext &warp,
                                  Fault &fault) {
  switch (in.op) {
  case Op::Mma:
    mma(in, warp);
    return true;
  case Op::Ldmatrix:
    return ldmatrix(in, warp, fault);
  case Op::Shfl:
    if (!checkFullMask(warp, in.o[5], fault))
      return false;
    shfl(in, warp);
    return true;
  case Op::Vote:
    if (!checkFullMask(warp, in.o[2], fault))
      return false;
    vote(in, warp);
    return true;
  default:
    fault.code = kErrLaunchFailed;
    fault.message = "not a warp collective";
    return false;
  }
}
