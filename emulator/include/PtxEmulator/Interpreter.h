//===- Interpreter.h - Run a decoded kernel on the CPU ------------*- C++ -*-===//
//
// Threads run independently, round-robin in slices across all threads of all
// resident CTAs, so that CTAs which wait on each other through global memory
// make progress. Warp collectives execute when the whole warp waits at them;
// bar.sync releases when every live thread of the CTA waits at one.
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_INTERPRETER_H
#define PTXEMULATOR_INTERPRETER_H

#include "PtxEmulator/Memory.h"
#include "PtxEmulator/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sdpa::emu {

/// Grid and block shape of a launch.
struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {32, 1, 1};
  unsigned dynamicShared = 0;
};

/// Knobs, with defaults and the environment variables that set them.
struct EmulatorOptions {
  /// Thread-instructions a launch may execute (SDPA_EMU_MAX_INSTRUCTIONS).
  uint64_t maxInstructions = 4000000000ull;
  /// Shared-memory race checking (SDPA_EMU_RACECHECK=0 turns it off).
  bool racecheck = true;
  /// Most CTAs resident at once (SDPA_EMU_MAX_RESIDENT_CTAS); fewer when
  /// their register files would exceed residentBytes.
  unsigned maxResidentCtas = 128;
  size_t residentBytes = size_t(512) << 20;
  /// Instructions a thread runs before the next one gets its turn.
  unsigned slice = 512;
  /// Nonzero: every round visits the resident CTAs, and each CTA's warps, in
  /// an order shuffled from this seed, each CTA at a speed of its own (1 to
  /// 8 quarter slices a turn, drawn at admission) and each turn's slice
  /// between half and one and a half of that, so that two launches with
  /// different seeds interleave CTAs (their atomics, their relay)
  /// differently; 0: fixed round-robin (SDPA_EMU_SCHEDULE). The driver adds the launch's
  /// index to it, so a kernel run twice runs under two schedules, and a
  /// process's schedules repeat from run to run.
  uint64_t scheduleSeed = 1;
  /// Fill new allocations and shared memory with 0xff (NaN as f16, bf16
  /// and f32), as a GPU leaves them undefined: a kernel that reads memory
  /// nobody wrote shows. SDPA_EMU_POISON=0 fills them with zeros instead.
  bool poison = true;
  /// What the driver reports per launch (lib/Driver.cpp): thread-
  /// instructions and rate (SDPA_EMU_VERBOSE), the instruction mix
  /// (SDPA_EMU_PROFILE), a line profile appended to a file
  /// (SDPA_EMU_PROFILE_FILE).
  bool verbose = false;
  bool profile = false;
  std::string profileFile;

  static EmulatorOptions fromEnvironment();
};

/// What a launch did.
struct LaunchStats {
  uint64_t instructions = 0;
  double seconds = 0;
  /// Thread-instructions issued per instruction of the kernel, in code
  /// order (predicated-off ones included, as a GPU issues them; a warp
  /// collective once per lane).
  std::vector<uint64_t> perInstruction;
};

/// Runs `kernel` to completion. `params` holds kernel.paramBytes bytes laid
/// out as kernel.params says. Returns a fault with code 0 on success;
/// otherwise its message reads "kernel K block (x,y,z) thread (x,y,z) line L
/// 'instruction': reason" (or names the CTA only for CTA-wide faults).
Fault launchKernel(const Kernel &kernel, const LaunchConfig &config,
                   const uint8_t *params, GlobalMemory &memory,
                   const EmulatorOptions &options,
                   LaunchStats *stats = nullptr);

} // namespace sdpa::emu

#endif // PTXEMULATOR_INTERPRETER_H
