//===- Interpreter.cpp - Run a decoded kernel on the CPU ------------------===//
//
// The scheduler admits CTAs in linear blockIdx order up to a residency cap
// and gives every warp of every resident CTA a slice per round; within a
// warp each ready lane runs on its own until it blocks (at a collective or a
// barrier), exits or uses up its slice. A whole round without one executed
// instruction is a deadlock; running past the instruction budget is a
// timeout (an endless spin).
//
// Registers are 64-bit slots holding a value's raw bits zero-extended from
// the register's width; an instruction reads its operands at its type's
// width and masks its result to the destination's width.
//
//===----------------------------------------------------------------------===//

#include "PtxEmulator/Interpreter.h"

#include "PtxEmulator/FloatBits.h"
#include "PtxEmulator/WarpCollectives.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>

using namespace sdpa::emu;

EmulatorOptions EmulatorOptions::fromEnvironment() {
  EmulatorOptions options;
  if (const char *v = std::getenv("SDPA_EMU_MAX_INSTRUCTIONS"))
    if (double n = std::strtod(v, nullptr); n > 0)
      options.maxInstructions = uint64_t(n);
  if (const char *v = std::getenv("SDPA_EMU_RACECHECK"))
    options.racecheck = std::strcmp(v, "0") != 0;
  if (const char *v = std::getenv("SDPA_EMU_MAX_RESIDENT_CTAS"))
    if (long n = std::strtol(v, nullptr, 10); n > 0)
      options.maxResidentCtas = unsigned(n);
  if (const char *v = std::getenv("SDPA_EMU_POISON"))
    options.poison = std::strcmp(v, "0") != 0;
  if (const char *v = std::getenv("SDPA_EMU_SCHEDULE"))
    options.scheduleSeed = std::strtoull(v, nullptr, 10);
  options.verbose = std::getenv("SDPA_EMU_VERBOSE") != nullptr;
  options.profile = std::getenv("SDPA_EMU_PROFILE") != nullptr;
  if (const char *v = std::getenv("SDPA_EMU_PROFILE_FILE"))
    options.profileFile = v;
  return options;
}

namespace {

/// Bits and value mask of each Ty, indexed by its enumerator.
constexpr unsigned kBits[] = {0,  1,  8,  16, 32, 64, 8,  16, 32,
                              64, 8,  16, 32, 64, 16, 16, 32, 64};
constexpr uint64_t mask(unsigned bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}
inline unsigned bitsOf(Ty ty) { return kBits[unsigned(ty)]; }
inline uint64_t maskOf(Ty ty) { return mask(kBits[unsigned(ty)]); }
inline int64_t sext(uint64_t v, unsigned bits) {
  unsigned shift = 64 - bits;
  return int64_t(v << shift) >> shift;
}

enum class Status : uint8_t { Ready, AtCollective, AtBarrier, Exited };

/// A cp.async copy, performed when its group completes.
struct PendingCopy {
  uint64_t src;
  uint32_t dst;
  uint32_t group;
  uint32_t line;
  uint8_t size;
  uint8_t srcSize;
};

struct Thread {
  uint64_t *regs = nullptr;
  uint32_t pc = 0;
  Status status = Status::Ready;
  /// cp.async.commit_group count; open copies carry this number.
  uint32_t committed = 0;
  std::vector<PendingCopy> pending;
};

struct Warp {
  unsigned first = 0; ///< Index of lane 0 in the CTA's threads.
  unsigned waiting = 0;
  uint32_t collectivePc = 0;
  unsigned exited = 0;
};

struct Cta {
  unsigned linear = 0;
  unsigned id[3] = {0, 0, 0};
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  /// Register files; initCta copies each thread's.
  std::vector<uint64_t> regs;
  std::vector<uint8_t> shared;
  RaceTracker race;
  unsigned live = 0;
  unsigned atBarrier = 0;
  uint32_t epoch = 0;
  /// Its warps' slices in quarters of EmulatorOptions::slice: 4 in the
  /// fixed schedule; 1 to 8, drawn at admission, in a shuffled one, so that
  /// CTAs run at different speeds, as on SMs that started them at different
  /// times or share them with others.
  unsigned speed = 4;
};

float ftz(float f, bool on) { return on ? flushSubnormal(f) : f; }

class Launch {
public:
  Launch(const Kernel &kernel, const LaunchConfig &config,
         const uint8_t *params, GlobalMemory &memory,
         const EmulatorOptions &options)
      : k(kernel), cfg(config), params(params), mem(memory), opt(options) {
    perInstruction.assign(kernel.code.size(), 0);
    schedule.seed(options.scheduleSeed);
  }

  Fault run();
  uint64_t executed = 0;
  std::vector<uint64_t> perInstruction;
  /// The shuffled schedule's generator (EmulatorOptions::scheduleSeed).
  std::mt19937_64 schedule;

private:
  void initCta(Cta &cta, unsigned linear);
  uint64_t runWarp(Cta &cta, Warp &warp, uint64_t budget);
  uint32_t runThread(Cta &cta, Warp &warp, Thread &t, uint32_t budget);
  bool arriveCollective(Cta &cta, Warp &warp, Thread &t, uint32_t pc);
  bool arriveBarrier(Cta &cta, Thread &t, uint32_t pc);
  void releaseBarrier(Cta &cta);
  void exitThread(Cta &cta, Warp &warp, Thread &t, uint32_t pc);
  bool completeCopies(Cta &cta, Thread &t, uint32_t keepNewest, bool all);
  std::string describeDeadlock(const Cta &cta) const;

  // Faults.
  std::string where(const Cta &cta) const;
  void threadFault(const Cta &cta, const Thread &t, uint32_t pc, int code,
                   const std::string &reason);
  void warpFault(const Cta &cta, const Warp &warp, uint32_t pc, int code,
                 const std::string &reason);
  bool globalFault(const Cta &cta, const Thread &t, uint32_t pc,
                   const char *what, uint64_t address, unsigned bytes);
  bool sharedFault(const Cta &cta, const Thread &t, uint32_t pc,
                   const char *what, uint64_t address, unsigned bytes);

  /// Checks a global access; faults and returns false when it is bad.
  bool checkGlobal(const Cta &cta, const Thread &t, uint32_t pc,
                   const char *what, uint64_t address, unsigned bytes) {
    if (__builtin_expect((address & (bytes - 1)) == 0 &&
                             mem.contains(address, bytes),
                         1))
      return true;
    return globalFault(cta, t, pc, what, address, bytes);
  }
  /// Checks a shared access and records it for the race check.
  bool checkShared(Cta &cta, const Thread &t, uint32_t pc, const char *what,
                   uint64_t address, unsigned bytes, bool write) {
    if (__builtin_expect(address >= sharedBytes ||
                             sharedBytes - address < bytes ||
                             (address & (bytes - 1)) != 0,
                         0))
      return sharedFault(cta, t, pc, what, address, bytes);
    if (opt.racecheck) {
      Fault f;
      unsigned warp = unsigned(&t - cta.threads.data()) / 32;
      if (!cta.race.access(uint32_t(address), bytes, uint16_t(warp), write,
                           k.code[pc].line, cta.epoch, f)) {
        threadFault(cta, t, pc, f.code, f.message);
        return false;
      }
    }
    return true;
  }

  const Kernel &k;
  LaunchConfig cfg;
  const uint8_t *params;
  GlobalMemory &mem;
  EmulatorOptions opt;
  Fault fault;
  unsigned threadsPerCta = 0;
  uint32_t sharedBytes = 0;
};

/// Race-tracker epochs, unique across the process so that trackers are
/// reused without clearing.
std::atomic<uint32_t> nextEpoch{1};

/// CTA storage kept across launches: first touches of fresh memory (page
/// faults) would otherwise dominate small launches.
struct CtaPool {
  std::mutex mutex;
  std::vector<std::unique_ptr<Cta>> free;

  std::unique_ptr<Cta> take() {
    std::lock_guard<std::mutex> lock(mutex);
    if (free.empty())
      return std::make_unique<Cta>();
    std::unique_ptr<Cta> cta = std::move(free.back());
    free.pop_back();
    return cta;
  }
  void give(std::vector<std::unique_ptr<Cta>> &ctas) {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &cta : ctas)
      free.push_back(std::move(cta));
    ctas.clear();
  }
};

CtaPool &ctaPool() {
  static CtaPool *pool = new CtaPool(); // Outlives every launch.
  return *pool;
}

std::string Launch::where(const Cta &cta) const {
  return "kernel " + k.name + " block (" + std::to_string(cta.id[0]) + "," +
         std::to_string(cta.id[1]) + "," + std::to_string(cta.id[2]) + ")";
}

void Launch::threadFault(const Cta &cta, const Thread &t, uint32_t pc,
                         int code, const std::string &reason) {
  if (fault)
    return;
  unsigned i = unsigned(&t - cta.threads.data());
  unsigned bx = cfg.block[0], by = cfg.block[1];
  fault.code = code;
  fault.message = where(cta) + " thread (" + std::to_string(i % bx) + "," +
                  std::to_string(i / bx % by) + "," +
                  std::to_string(i / (bx * by)) + ") line " +
                  std::to_string(k.code[pc].line) + " '" + k.text[pc] +
                  "': " + reason;
}

void Launch::warpFault(const Cta &cta, const Warp &warp, uint32_t pc,
                       int code, const std::string &reason) {
  if (fault)
    return;
  fault.code = code;
  fault.message = where(cta) + " warp " + std::to_string(warp.first / 32) +
                  " line " + std::to_string(k.code[pc].line) + " '" +
                  k.text[pc] + "': " + reason;
}

bool Launch::globalFault(const Cta &cta, const Thread &t, uint32_t pc,
                         const char *what, uint64_t address, unsigned bytes) {
  std::string access = std::string("global ") + what + " of " +
                       std::to_string(bytes) + " bytes at " + hex(address);
  if (address & (bytes - 1))
    threadFault(cta, t, pc, kErrMisalignedAddress,
                access + " is not " + std::to_string(bytes) +
                    "-byte aligned");
  else
    threadFault(cta, t, pc, kErrIllegalAddress,
                access + " outside every allocation");
  return false;
}

bool Launch::sharedFault(const Cta &cta, const Thread &t, uint32_t pc,
                         const char *what, uint64_t address, unsigned bytes) {
  std::string access = std::string("shared ") + what + " of " +
                       std::to_string(bytes) + " bytes at " + hex(address);
  if (address >= sharedBytes || sharedBytes - address < bytes)
    threadFault(cta, t, pc, kErrIllegalAddress,
                access + " outside the shared window of " +
                    std::to_string(sharedBytes) + " bytes");
  else
    threadFault(cta, t, pc, kErrMisalignedAddress,
                access + " is not " + std::to_string(bytes) +
                    "-byte aligned");
  return false;
}

void Launch::initCta(Cta &cta, unsigned linear) {
  unsigned gx = cfg.grid[0], gy = cfg.grid[1];
  cta.linear = linear;
  cta.id[0] = linear % gx;
  cta.id[1] = linear / gx % gy;
  cta.id[2] = linear / (gx * gy);
  unsigned slots = k.numSlots;
  // Storage is reused from launch to launch (CtaPool): it only grows.
  cta.threads.resize(threadsPerCta);
  cta.warps.resize(threadsPerCta / 32);
  if (cta.regs.size() < size_t(threadsPerCta) * slots)
    cta.regs.resize(size_t(threadsPerCta) * slots);
  cta.shared.resize(sharedBytes);
  if (opt.racecheck)
    cta.race.reserve(sharedBytes);
  for (unsigned w = 0; w < cta.warps.size(); ++w)
    cta.warps[w].first = w * 32;
  unsigned bx = cfg.block[0], by = cfg.block[1];
  for (unsigned i = 0; i < threadsPerCta; ++i) {
    Thread &t = cta.threads[i];
    t.regs = cta.regs.data() + size_t(i) * slots;
    std::memcpy(t.regs, k.initialRegs.data(), slots * sizeof(uint64_t));
    uint64_t *special = t.regs + k.specialBase;
    special[kTidX] = i % bx;
    special[kTidY] = i / bx % by;
    special[kTidZ] = i / (bx * by);
    special[kNtidX] = cfg.block[0];
    special[kNtidY] = cfg.block[1];
    special[kNtidZ] = cfg.block[2];
    special[kCtaidX] = cta.id[0];
    special[kCtaidY] = cta.id[1];
    special[kCtaidZ] = cta.id[2];
    special[kNctaidX] = cfg.grid[0];
    special[kNctaidY] = cfg.grid[1];
    special[kNctaidZ] = cfg.grid[2];
    special[kLaneId] = i % 32;
    special[kWarpId] = i / 32;
    t.pc = 0;
    t.status = Status::Ready;
    t.committed = 0;
    t.pending.clear();
  }
  for (Warp &w : cta.warps) {
    w.waiting = 0;
    w.exited = 0;
  }
  if (sharedBytes) // a kernel without shared memory has no buffer at all
    std::memset(cta.shared.data(), opt.poison ? 0xff : 0, sharedBytes);
  cta.live = threadsPerCta;
  cta.atBarrier = 0;
  // Epochs are unique across the launch, so a reused tracker needs no reset.
  cta.epoch = nextEpoch++;
}

bool Launch::completeCopies(Cta &cta, Thread &t, uint32_t keepNewest,
                            bool all) {
  if (t.pending.empty())
    return true;
  unsigned warp = unsigned(&t - cta.threads.data()) / 32;
  size_t kept = 0;
  for (size_t i = 0; i < t.pending.size(); ++i) {
    const PendingCopy &c = t.pending[i];
    bool complete = all || uint64_t(c.group) + keepNewest < t.committed;
    if (!complete) {
      t.pending[kept++] = c;
      continue;
    }
    if (opt.racecheck) {
      Fault f;
      if (!cta.race.access(c.dst, c.size, uint16_t(warp), true, c.line,
                           cta.epoch, f)) {
        fault.code = f.code;
        fault.message = where(cta) + " (cp.async completing at wait_group): " +
                        f.message;
        return false;
      }
    }
    uint8_t *dst = cta.shared.data() + c.dst;
    if (c.srcSize)
      std::memcpy(dst, reinterpret_cast<const void *>(c.src), c.srcSize);
    std::memset(dst + c.srcSize, 0, c.size - c.srcSize);
  }
  t.pending.resize(kept);
  return true;
}

void Launch::releaseBarrier(Cta &cta) {
  for (Thread &t : cta.threads)
    if (t.status == Status::AtBarrier) {
      t.status = Status::Ready;
      ++t.pc;
    }
  cta.atBarrier = 0;
  cta.epoch = nextEpoch++;
}

bool Launch::arriveBarrier(Cta &cta, Thread &t, uint32_t pc) {
  t.pc = pc;
  t.status = Status::AtBarrier;
  if (++cta.atBarrier < cta.live)
    return false;
  releaseBarrier(cta);
  return true;
}

bool Launch::arriveCollective(Cta &cta, Warp &warp, Thread &t, uint32_t pc) {
  t.pc = pc;
  if (warp.exited) {
    threadFault(cta, t, pc, kErrLaunchFailed,
                "warp collective reached with " +
                    std::to_string(warp.exited) +
                    " exited lanes (all 32 lanes must take part)");
    return false;
  }
  if (warp.waiting == 0) {
    warp.collectivePc = pc;
  } else if (warp.collectivePc != pc) {
    threadFault(cta, t, pc, kErrLaunchFailed,
                "divergent warp collective: lanes of this warp wait at line " +
                    std::to_string(k.code[warp.collectivePc].line) + " '" +
                    k.text[warp.collectivePc] + "' and at line " +
                    std::to_string(k.code[pc].line));
    return false;
  }
  t.status = Status::AtCollective;
  if (++warp.waiting < 32)
    return false;
  WarpContext ctx;
  for (unsigned lane = 0; lane < 32; ++lane)
    ctx.lanes[lane] = cta.threads[warp.first + lane].regs;
  ctx.shared = cta.shared.data();
  ctx.sharedBytes = sharedBytes;
  ctx.race = opt.racecheck ? &cta.race : nullptr;
  ctx.warp = uint16_t(warp.first / 32);
  ctx.epoch = cta.epoch;
  Fault f;
  if (!executeCollective(k.code[pc], ctx, f)) {
    warpFault(cta, warp, pc, f.code, f.message);
    return false;
  }
  for (unsigned lane = 0; lane < 32; ++lane) {
    Thread &l = cta.threads[warp.first + lane];
    l.status = Status::Ready;
    l.pc = pc + 1;
  }
  warp.waiting = 0;
  return true;
}

void Launch::exitThread(Cta &cta, Warp &warp, Thread &t, uint32_t pc) {
  t.pc = pc;
  if (!completeCopies(cta, t, 0, true))
    return;
  t.status = Status::Exited;
  ++warp.exited;
  --cta.live;
  if (warp.waiting) {
    threadFault(cta, t, pc, kErrLaunchFailed,
                "lane exited while " + std::to_string(warp.waiting) +
                    " lanes of its warp wait at the warp collective at "
                    "line " +
                    std::to_string(k.code[warp.collectivePc].line));
    return;
  }
  if (cta.live && cta.atBarrier == cta.live)
    releaseBarrier(cta);
}

uint32_t Launch::runThread(Cta &cta, Warp &warp, Thread &t, uint32_t budget) {
  uint64_t *const R = t.regs;
  const Inst *const code = k.code.data();
  uint32_t pc = t.pc;
  uint32_t n = 0;
  while (n < budget) {
    const Inst &I = code[pc];
    ++n;
    ++perInstruction[pc];
    if (R[I.guard] == I.guardSkip) {
      ++pc;
      continue;
    }
#define D0 R[I.o[0]]
#define D1 R[I.o[1]]
#define S1 R[I.o[1]]
#define S2 R[I.o[2]]
#define S3 R[I.o[3]]
#define F(i) bitsToF32(uint32_t(R[I.o[i]]))
    switch (I.op) {
    case Op::Add:
      D0 = (S1 + S2) & maskOf(I.ty);
      break;
    case Op::Sub:
      D0 = (S1 - S2) & maskOf(I.ty);
      break;
    case Op::MulLo:
      D0 = (S1 * S2) & maskOf(I.ty);
      break;
    case Op::MulHi: {
      unsigned bits = bitsOf(I.ty);
      uint64_t r;
      if (bits == 64) {
        if (isSignedInt(I.ty))
          r = uint64_t((__int128(int64_t(S1)) * __int128(int64_t(S2))) >> 64);
        else
          r = uint64_t(((unsigned __int128)S1 * S2) >> 64);
      } else if (isSignedInt(I.ty)) {
        r = uint64_t((sext(S1, bits) * sext(S2, bits)) >> bits);
      } else {
        r = (S1 * S2) >> bits;
      }
      D0 = r & maskOf(I.ty);
      break;
    }
    case Op::MulWide: {
      unsigned bits = bitsOf(I.ty);
      uint64_t r = isSignedInt(I.ty)
                       ? uint64_t(sext(S1, bits) * sext(S2, bits))
                       : S1 * S2;
      D0 = r & maskOf(I.ty2);
      break;
    }
    case Op::MadLo:
      D0 = (S1 * S2 + S3) & maskOf(I.ty);
      break;
    case Op::Div:
    case Op::Rem: {
      uint64_t a = S1, b = S2, r;
      if (__builtin_expect(b == 0, 0)) {
        t.pc = pc;
        threadFault(cta, t, pc, kErrLaunchFailed, "integer division by zero");
        return n;
      }
      bool div = I.op == Op::Div;
      if (isSignedInt(I.ty)) {
        unsigned bits = bitsOf(I.ty);
        int64_t sa = sext(a, bits), sb = sext(b, bits);
        if (sb == -1) // No overflow trap: MIN / -1 wraps to MIN.
          r = div ? 0 - uint64_t(sa) : 0;
        else
          r = uint64_t(div ? sa / sb : sa % sb);
      } else {
        r = div ? a / b : a % b;
      }
      D0 = r & maskOf(I.ty);
      break;
    }
    case Op::Neg:
      D0 = (0 - S1) & maskOf(I.ty);
      break;
    case Op::Abs: {
      int64_t a = sext(S1, bitsOf(I.ty));
      D0 = (a < 0 ? 0 - uint64_t(a) : uint64_t(a)) & maskOf(I.ty);
      break;
    }
    case Op::Min:
    case Op::Max: {
      uint64_t a = S1, b = S2;
      bool less;
      if (isSignedInt(I.ty))
        less = sext(a, bitsOf(I.ty)) < sext(b, bitsOf(I.ty));
      else
        less = a < b;
      D0 = (I.op == Op::Min) == less ? a : b;
      break;
    }
    case Op::And:
      D0 = S1 & S2;
      break;
    case Op::Or:
      D0 = S1 | S2;
      break;
    case Op::Xor:
      D0 = S1 ^ S2;
      break;
    case Op::Not:
      D0 = ~S1 & maskOf(I.ty);
      break;
    case Op::Shl: {
      uint64_t amount = S2 & 0xffffffffu;
      D0 = amount >= bitsOf(I.ty) ? 0 : (S1 << amount) & maskOf(I.ty);
      break;
    }
    case Op::Shr: {
      uint64_t amount = S2 & 0xffffffffu;
      unsigned bits = bitsOf(I.ty);
      if (isSignedInt(I.ty))
        D0 = uint64_t(sext(S1, bits) >> std::min<uint64_t>(amount, 63)) &
             maskOf(I.ty);
      else
        D0 = amount >= bits ? 0 : S1 >> amount;
      break;
    }
    case Op::Bfe: {
      // The ISA's definition, bit by bit in effect.
      unsigned msb = bitsOf(I.ty) - 1;
      uint64_t a = S1;
      unsigned pos = unsigned(S2 & 0xff), len = unsigned(S3 & 0xff);
      uint64_t sbit = 0;
      if (isSignedInt(I.ty) && len != 0)
        sbit = (a >> std::min(pos + len - 1, msb)) & 1;
      uint64_t r = 0;
      for (unsigned i = 0; i <= msb; ++i) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1
                                                   : sbit;
        r |= bit << i;
      }
      D0 = r;
      break;
    }
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::FMin:
    case Op::FMax: {
      bool z = I.flags & kFtz;
      float a = ftz(F(1), z), b = ftz(F(2), z), r;
      switch (I.op) {
      case Op::FAdd:
        r = a + b;
        break;
      case Op::FSub:
        r = a - b;
        break;
      case Op::FMul:
        r = a * b;
        break;
      case Op::FDiv:
        r = a / b;
        break;
      default: {
        bool isMin = I.op == Op::FMin;
        if (std::isnan(a) && std::isnan(b)) {
          D0 = 0x7fffffffu;
          goto next;
        }
        if (std::isnan(a))
          r = b;
        else if (std::isnan(b))
          r = a;
        else if (a == b) // Equal, or zeros of either sign: -0 < +0.
          r = bitsToF32(isMin ? (f32ToBits(a) | f32ToBits(b))
                              : (f32ToBits(a) & f32ToBits(b)));
        else
          r = (a < b) == isMin ? a : b;
        break;
      }
      }
      D0 = f32ToBits(ftz(r, z));
      break;
    }
    case Op::FFma: {
      bool z = I.flags & kFtz;
      D0 = f32ToBits(
          ftz(std::fmaf(ftz(F(1), z), ftz(F(2), z), ftz(F(3), z)), z));
      break;
    }
    case Op::FNeg:
      D0 = f32ToBits(ftz(F(1), I.flags & kFtz)) ^ 0x80000000u;
      break;
    case Op::FAbs:
      D0 = f32ToBits(ftz(F(1), I.flags & kFtz)) & 0x7fffffffu;
      break;
    case Op::FCopysign:
      D0 = (S2 & 0x7fffffffu) | (S1 & 0x80000000u);
      break;
    case Op::FEx2: {
      bool z = I.flags & kFtz;
      D0 = f32ToBits(ftz(std::exp2(ftz(F(1), z)), z));
      break;
    }
    case Op::FLg2: {
      bool z = I.flags & kFtz;
      D0 = f32ToBits(std::log2(ftz(F(1), z)));
      break;
    }
    case Op::FRcp: {
      bool z = I.flags & kFtz;
      D0 = f32ToBits(ftz(1.0f / ftz(F(1), z), z));
      break;
    }
    case Op::SetpS:
    case Op::SetpU:
    case Op::SetpF: {
      bool r = false;
      CmpKind kind = CmpKind(I.sub);
      if (I.op == Op::SetpF) {
        bool z = I.flags & kFtz;
        float a = ftz(F(2), z), b = ftz(F(3), z);
        bool unordered = std::isnan(a) || std::isnan(b);
        switch (kind) {
        case CmpKind::Eq: r = a == b; break;
        case CmpKind::Ne: r = !unordered && a != b; break;
        case CmpKind::Lt: r = a < b; break;
        case CmpKind::Le: r = a <= b; break;
        case CmpKind::Gt: r = a > b; break;
        case CmpKind::Ge: r = a >= b; break;
        case CmpKind::Equ: r = unordered || a == b; break;
        case CmpKind::Neu: r = unordered || a != b; break;
        case CmpKind::Ltu: r = unordered || a < b; break;
        case CmpKind::Leu: r = unordered || a <= b; break;
        case CmpKind::Gtu: r = unordered || a > b; break;
        case CmpKind::Geu: r = unordered || a >= b; break;
        case CmpKind::Num: r = !unordered; break;
        case CmpKind::Nan: r = unordered; break;
        }
      } else {
        bool eq, lt;
        if (I.op == Op::SetpS) {
          unsigned bits = bitsOf(I.ty);
          int64_t a = sext(S2, bits), b = sext(S3, bits);
          eq = a == b;
          lt = a < b;
        } else {
          eq = S2 == S3;
          lt = S2 < S3;
        }
        switch (kind) {
        case CmpKind::Eq: r = eq; break;
        case CmpKind::Ne: r = !eq; break;
        case CmpKind::Lt: r = lt; break;
        case CmpKind::Le: r = lt || eq; break;
        case CmpKind::Gt: r = !lt && !eq; break;
        default: r = !lt; break; // Ge
        }
      }
      BoolOp bop = BoolOp(I.sub2);
      if (bop == BoolOp::None) {
        D0 = r;
        if (I.o[1] != kNoSlot)
          D1 = !r;
      } else {
        bool c = (R[I.o[4]] & 1) ^ ((I.flags & kNegC) ? 1 : 0);
        auto combine = [bop, c](bool v) {
          return bop == BoolOp::And ? v && c : bop == BoolOp::Or ? v || c
                                                                 : v != c;
        };
        bool p = combine(r), q = combine(!r);
        D0 = p;
        if (I.o[1] != kNoSlot)
          D1 = q;
      }
      break;
    }
    case Op::Selp:
      D0 = R[I.o[3]] ? S1 : S2;
      break;
    case Op::Mov:
      D0 = S1;
      break;
    case Op::Pack: {
      unsigned half = bitsOf(I.ty) / 2;
      D0 = S1 | (S2 << half);
      break;
    }
    case Op::Unpack: {
      unsigned half = bitsOf(I.ty) / 2;
      uint64_t a = S2;
      D0 = a & mask(half);
      D1 = a >> half;
      break;
    }
    case Op::CvtInt: {
      uint64_t v = S1;
      if (isSignedInt(I.ty2))
        v = uint64_t(sext(v, bitsOf(I.ty2)));
      D0 = v & maskOf(I.ty);
      break;
    }
    case Op::CvtF32F16:
      D0 = f32ToBits(f16ToF32(uint16_t(S1)));
      break;
    case Op::CvtF32BF16:
      D0 = (S1 & 0xffffu) << 16;
      break;
    case Op::CvtF16F32:
      D0 = f32ToF16(F(1));
      break;
    case Op::CvtBF16F32:
      D0 = f32ToBF16(F(1));
      break;
    case Op::CvtF16x2F32:
      D0 = (uint32_t(f32ToF16(F(1))) << 16) | f32ToF16(F(2));
      break;
    case Op::CvtBF16x2F32:
      D0 = (uint32_t(f32ToBF16(F(1))) << 16) | f32ToBF16(F(2));
      break;
    case Op::CvtF32Int: {
      unsigned bits = bitsOf(I.ty2);
      float f = isSignedInt(I.ty2) ? float(sext(S1, bits)) : float(S1);
      D0 = f32ToBits(f);
      break;
    }
    case Op::LdParam: {
      unsigned bits = bitsOf(I.ty);
      uint64_t v = 0;
      std::memcpy(&v, params + I.imm, bits / 8);
      if (isSignedInt(I.ty))
        v = uint64_t(sext(v, bits));
      D0 = v & maskOf(I.ty2);
      break;
    }
    case Op::LdGlobal:
    case Op::LdShared: {
      unsigned bits = bitsOf(I.ty), elem = bits / 8, count = I.sub;
      uint64_t address = R[I.o[4]] + uint64_t(I.imm);
      const uint8_t *p;
      if (I.op == Op::LdGlobal) {
        if (!checkGlobal(cta, t, pc, "load", address, elem * count)) {
          t.pc = pc;
          return n;
        }
        p = reinterpret_cast<const uint8_t *>(address);
      } else {
        if (!checkShared(cta, t, pc, "load", address, elem * count, false)) {
          t.pc = pc;
          return n;
        }
        p = cta.shared.data() + address;
      }
      bool sign = isSignedInt(I.ty);
      uint64_t regMask = maskOf(I.ty2);
      for (unsigned e = 0; e < count; ++e) {
        uint64_t v = 0;
        std::memcpy(&v, p + e * elem, elem);
        if (sign)
          v = uint64_t(sext(v, bits));
        R[I.o[e]] = v & regMask;
      }
      break;
    }
    case Op::StGlobal:
    case Op::StShared: {
      unsigned elem = bitsOf(I.ty) / 8, count = I.sub;
      uint64_t address = R[I.o[0]] + uint64_t(I.imm);
      uint8_t *p;
      if (I.op == Op::StGlobal) {
        if (!checkGlobal(cta, t, pc, "store", address, elem * count)) {
          t.pc = pc;
          return n;
        }
        p = reinterpret_cast<uint8_t *>(address);
      } else {
        if (!checkShared(cta, t, pc, "store", address, elem * count, true)) {
          t.pc = pc;
          return n;
        }
        p = cta.shared.data() + address;
      }
      for (unsigned e = 0; e < count; ++e) {
        uint64_t v = R[I.o[1 + e]];
        std::memcpy(p + e * elem, &v, elem); // Little endian: low bytes.
      }
      break;
    }
    case Op::AtomAddF32: {
      uint64_t address = R[I.o[1]] + uint64_t(I.imm);
      if (!checkGlobal(cta, t, pc, "atomic add", address, 4)) {
        t.pc = pc;
        return n;
      }
      uint32_t old;
      std::memcpy(&old, reinterpret_cast<const void *>(address), 4);
      // atom.add.f32 rounds to nearest even and flushes subnormal inputs and
      // results to sign-preserving zero.
      float sum = flushSubnormal(flushSubnormal(bitsToF32(old)) +
                                 flushSubnormal(F(2)));
      uint32_t bits = f32ToBits(sum);
      std::memcpy(reinterpret_cast<void *>(address), &bits, 4);
      D0 = old;
      break;
    }
    case Op::CpAsync: {
      unsigned size = I.sub2;
      uint64_t dst = R[I.o[0]] + uint64_t(I.imm);
      uint64_t src = R[I.o[1]] + uint64_t(I.imm2);
      uint64_t srcSize = R[I.o[2]] & 0xffffffffu;
      if (srcSize > size) {
        threadFault(cta, t, pc, kErrLaunchFailed,
                    "cp.async source size " + std::to_string(srcSize) +
                        " exceeds the copy size " + std::to_string(size));
        t.pc = pc;
        return n;
      }
      if (dst >= sharedBytes || sharedBytes - dst < size || dst % size) {
        sharedFault(cta, t, pc, "cp.async destination", dst, size);
        t.pc = pc;
        return n;
      }
      // Only the bytes actually read are checked: a zero-size source reads
      // nothing.
      if (srcSize && ((src % size) || !mem.contains(src, srcSize))) {
        if (src % size)
          threadFault(cta, t, pc, kErrMisalignedAddress,
                      "cp.async source " + hex(src) + " is not " +
                          std::to_string(size) + "-byte aligned");
        else
          threadFault(cta, t, pc, kErrIllegalAddress,
                      "cp.async global read of " + std::to_string(srcSize) +
                          " bytes at " + hex(src) +
                          " outside every allocation");
        t.pc = pc;
        return n;
      }
      PendingCopy copy;
      copy.src = src;
      copy.dst = uint32_t(dst);
      copy.group = t.committed;
      copy.line = I.line;
      copy.size = uint8_t(size);
      copy.srcSize = uint8_t(srcSize);
      t.pending.push_back(copy);
      break;
    }
    case Op::CpAsyncCommit:
      ++t.committed;
      break;
    case Op::CpAsyncWait:
      if (!completeCopies(cta, t, uint32_t(I.imm), false)) {
        t.pc = pc;
        return n;
      }
      break;
    case Op::BarSync:
      if (!arriveBarrier(cta, t, pc))
        return n;
      pc = t.pc;
      continue;
    case Op::Nop:
      break;
    case Op::Mma:
    case Op::Ldmatrix:
    case Op::Shfl:
    case Op::Vote:
      if (!arriveCollective(cta, warp, t, pc))
        return n;
      pc = t.pc;
      continue;
    case Op::Bra:
      pc = uint32_t(I.imm);
      continue;
    case Op::Exit:
      exitThread(cta, warp, t, pc);
      return n;
    }
  next:
    ++pc;
#undef D0
#undef D1
#undef S1
#undef S2
#undef S3
#undef F
  }
  t.pc = pc;
  return n;
}

uint64_t Launch::runWarp(Cta &cta, Warp &warp, uint64_t budget) {
  uint64_t total = 0;
  for (;;) {
    bool ran = false;
    for (unsigned lane = 0; lane < 32; ++lane) {
      Thread &t = cta.threads[warp.first + lane];
      if (t.status != Status::Ready)
        continue;
      total += runThread(cta, warp, t, opt.slice);
      ran = true;
      if (fault)
        return total;
    }
    if (!ran || total >= budget)
      return total;
  }
}

std::string Launch::describeDeadlock(const Cta &cta) const {
  unsigned barrier = 0, collective = 0, exited = 0;
  uint32_t barrierLine = 0, collectiveLine = 0;
  for (const Thread &t : cta.threads) {
    if (t.status == Status::AtBarrier) {
      ++barrier;
      barrierLine = k.code[t.pc].line;
    } else if (t.status == Status::AtCollective) {
      ++collective;
      collectiveLine = k.code[t.pc].line;
    } else if (t.status == Status::Exited) {
      ++exited;
    }
  }
  std::string s = where(cta) + ": deadlock, no thread can make progress: " +
                  std::to_string(barrier) + " threads wait at bar.sync";
  if (barrier)
    s += " (e.g. line " + std::to_string(barrierLine) + ")";
  s += ", " + std::to_string(collective) + " at a warp collective";
  if (collective)
    s += " (e.g. line " + std::to_string(collectiveLine) + ")";
  s += ", " + std::to_string(exited) + " exited";
  return s;
}

Fault Launch::run() {
  threadsPerCta = cfg.block[0] * cfg.block[1] * cfg.block[2];
  uint64_t total = uint64_t(cfg.grid[0]) * cfg.grid[1] * cfg.grid[2];
  if (threadsPerCta == 0 || threadsPerCta % 32 || threadsPerCta > 1024 ||
      total == 0) {
    fault.code = kErrInvalidValue;
    fault.message = "kernel " + k.name +
                    ": block size must be a nonzero multiple of 32 up to "
                    "1024 and the grid nonempty";
    return fault;
  }
  uint64_t window =
      cfg.dynamicShared ? uint64_t(k.dynamicBase) + cfg.dynamicShared
                        : k.staticShared;
  sharedBytes = uint32_t(window);
  size_t perCta = size_t(threadsPerCta) * k.numSlots * 8 + sharedBytes +
                  (opt.racecheck ? sharedBytes * 8 : 0);
  uint64_t cap = std::min<uint64_t>(opt.maxResidentCtas, total);
  cap = std::max<uint64_t>(1, std::min<uint64_t>(cap, opt.residentBytes /
                                                          std::max<size_t>(
                                                              perCta, 1)));

  std::vector<std::unique_ptr<Cta>> pool;
  struct GiveBack {
    std::vector<std::unique_ptr<Cta>> &pool;
    ~GiveBack() { ctaPool().give(pool); }
  } giveBack{pool};
  std::vector<Cta *> spare, resident;
  uint64_t next = 0, done = 0;
  const uint64_t warpBudget = uint64_t(opt.slice) * 32;
  while (done < total) {
    while (resident.size() < cap && next < total) {
      if (spare.empty()) {
        pool.push_back(ctaPool().take());
        spare.push_back(pool.back().get());
      }
      Cta *cta = spare.back();
      spare.pop_back();
      initCta(*cta, unsigned(next++));
      cta->speed = opt.scheduleSeed ? 1 + unsigned(schedule() % 8) : 4;
      resident.push_back(cta);
    }
    uint64_t progress = 0;
    bool finished = false;
    std::vector<size_t> ctaOrder(resident.size());
    std::iota(ctaOrder.begin(), ctaOrder.end(), 0);
    if (opt.scheduleSeed)
      std::shuffle(ctaOrder.begin(), ctaOrder.end(), schedule);
    for (size_t index : ctaOrder) {
      Cta &cta = *resident[index];
      std::vector<unsigned> warpOrder(cta.warps.size());
      std::iota(warpOrder.begin(), warpOrder.end(), 0u);
      if (opt.scheduleSeed)
        std::shuffle(warpOrder.begin(), warpOrder.end(), schedule);
      for (unsigned w : warpOrder) {
        uint64_t budget = warpBudget * cta.speed / 4;
        if (opt.scheduleSeed)
          budget = budget / 2 + schedule() % budget;
        uint64_t n = runWarp(cta, cta.warps[w], budget);
        progress += n;
        executed += n;
        if (fault)
          return fault;
      }
      if (executed > opt.maxInstructions) {
        fault.code = kErrLaunchTimeout;
        fault.message =
            where(cta) + ": instruction budget of " +
            std::to_string(opt.maxInstructions) +
            " thread-instructions exhausted (an endless spin? "
            "SDPA_EMU_MAX_INSTRUCTIONS raises it)";
        return fault;
      }
      if (cta.live == 0) {
        spare.push_back(&cta);
        ++done;
        finished = true;
      }
    }
    resident.erase(std::remove_if(resident.begin(), resident.end(),
                                  [](Cta *cta) { return cta->live == 0; }),
                   resident.end());
    if (!progress && !finished) {
      fault.code = kErrLaunchFailed;
      fault.message = describeDeadlock(*resident.front());
      return fault;
    }
  }
  return fault;
}

} // namespace

Fault sdpa::emu::launchKernel(const Kernel &kernel, const LaunchConfig &config,
                              const uint8_t *params, GlobalMemory &memory,
                              const EmulatorOptions &options,
                              LaunchStats *stats) {
  auto start = std::chrono::steady_clock::now();
  Launch launch(kernel, config, params, memory, options);
  Fault fault = launch.run();
  if (stats) {
    stats->instructions = launch.executed;
    stats->perInstruction = std::move(launch.perInstruction);
    stats->seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  }
  return fault;
}
