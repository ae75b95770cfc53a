//===- WarpCollectives.h - Whole-warp instructions ----------------*- C++ -*-===//
//
// mma.sync, ldmatrix, shfl.sync and vote.sync execute once all 32 lanes of a
// warp wait at the same instruction; these functions then compute every
// lane's result from the lanes' register files.
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_WARPCOLLECTIVES_H
#define PTXEMULATOR_WARPCOLLECTIVES_H

#include "PtxEmulator/Memory.h"
#include "PtxEmulator/Program.h"

#include <cstdint>

namespace sdpa::emu {

/// What a collective sees of its warp.
struct WarpContext {
  /// The register files of lanes 0..31.
  uint64_t *lanes[32] = {};
  /// The CTA's shared window.
  uint8_t *shared = nullptr;
  uint32_t sharedBytes = 0;
  /// Race tracking (null when off), the warp's index in its CTA and the
  /// CTA's barrier epoch.
  RaceTracker *race = nullptr;
  uint16_t warp = 0;
  uint32_t epoch = 0;
};

/// True for the opcodes executed by executeCollective.
inline bool isCollective(Op op) {
  return op == Op::Mma || op == Op::Ldmatrix || op == Op::Shfl ||
         op == Op::Vote;
}

/// Executes `inst` for all 32 lanes. On an error (a shared access out of
/// bounds, a partial member mask, a race) returns false and sets `fault`
/// with the reason; the lanes' registers are then unspecified.
bool executeCollective(const Inst &inst, WarpContext &warp, Fault &fault);

} // namespace sdpa::emu

#endif // PTXEMULATOR_WARPCOLLECTIVES_H
