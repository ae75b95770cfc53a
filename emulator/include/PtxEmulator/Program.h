//===- Program.h - A decoded PTX module ---------------------------*- C++ -*-===//
//
// The form the parser produces and the interpreter runs: every instruction is
// decoded once into a dense opcode, its types and modifiers, and operand slot
// indices into a per-thread register file of 64-bit slots. The register file
// of a kernel holds, in order, the declared registers, the special registers
// (%tid.x, ...) and the distinct immediates of the kernel, so that every
// source operand is a plain slot read.
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_PROGRAM_H
#define PTXEMULATOR_PROGRAM_H

#include <cstdint>
#include <string>
#include <vector>

namespace sdpa::emu {

/// PTX fundamental types.
enum class Ty : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  BF16,
  F32,
  F64,
};

/// Width of `ty` in bits (1 for .pred).
unsigned bitWidth(Ty ty);
/// True for .s8 ... .s64.
bool isSignedInt(Ty ty);
/// True for .f16, .bf16, .f32, .f64.
bool isFloat(Ty ty);
/// The PTX spelling without the dot ("s32").
const char *toString(Ty ty);

/// Decoded opcodes. Operand conventions (o[] holds slot indices, `imm` an
/// immediate offset or target) are given per opcode.
enum class Op : uint8_t {
  // Integer arithmetic, o = {d, a, b[, c]}, type `ty`.
  Add,
  Sub,
  MulLo,
  MulHi,
  MulWide, ///< d has twice the width of `ty`.
  MadLo,   ///< d = a * b + c.
  Div,
  Rem,
  Neg,
  Abs,
  Min,
  Max,
  And, ///< Also .pred (values 0/1).
  Or,
  Xor,
  Not,
  Shl, ///< o = {d, a, amount(u32)}.
  Shr,
  Bfe, ///< o = {d, a, pos(u32), len(u32)}.
  // f32 arithmetic, o = {d, a, b[, c]}; flag kFtz.
  FAdd,
  FSub,
  FMul,
  FFma,
  FDiv,
  FNeg,
  FAbs,
  FMin,
  FMax,
  FCopysign, ///< d = |b| with the sign of a.
  FEx2,
  FLg2,
  FRcp,
  // Comparison and selection. Setp: o = {p, q or kNoSlot, a, b, c or
  // kNoSlot}, `sub` = CmpKind, `sub2` = BoolOp, flag kNegC negates c.
  SetpS,
  SetpU,
  SetpF,
  Selp, ///< o = {d, a, b, p}.
  Mov,
  Pack,   ///< o = {d, e0, e1}: d = e1 << half | e0; `ty` = d's type.
  Unpack, ///< o = {e0, e1, a}.
  // Conversions, o = {d, a}; `ty` = destination, `ty2` = source type.
  CvtInt,
  CvtF32F16,
  CvtF32BF16,
  CvtF16F32,
  CvtBF16F32,
  CvtF16x2F32,  ///< o = {d, a, b}: a -> upper half, b -> lower half.
  CvtBF16x2F32, ///< as CvtF16x2F32.
  CvtF32Int,
  // Memory. Addresses are o[addrSlot] + imm. `sub` = vector length.
  LdParam,  ///< o = {d...}; imm = byte offset in the parameter buffer.
  LdGlobal, ///< o = {d..., addr}; addr at o[sub].
  LdShared,
  StGlobal, ///< o = {addr, s...}.
  StShared,
  AtomAddF32, ///< o = {d, addr, b}.
  CpAsync,    ///< o = {dst, src, srcSize}; `sub2` = copy size; imm = dst
              ///< offset, imm2 = src offset.
  CpAsyncCommit,
  CpAsyncWait, ///< imm = N.
  BarSync,
  Nop, ///< fence.*, membar: the emulator is sequentially consistent.
  // Warp collectives.
  Mma,      ///< o = {d0..d3, a0..a3, b0, b1, c0..c3}; ty = f16 or bf16.
  Ldmatrix, ///< o = {d0..d(n-1), addr at o[4]}; sub = n; flag kTrans.
  Shfl,     ///< o = {d, p or kNoSlot, a, b, c, membermask}; sub = mode.
  Vote,     ///< o = {d, a, membermask}; sub = mode; flag kNegA.
  // Control.
  Bra, ///< imm = target instruction index.
  Exit,
};

/// Number of opcodes (the size of a per-opcode table).
constexpr unsigned kOpCount = unsigned(Op::Exit) + 1;

/// The class an opcode is counted in by the instruction-mix profile
/// (SDPA_EMU_PROFILE): "mma", "ldmatrix", "shared", "global", "f32",
/// "convert", "integer", "compare", "control", "sync", "other".
const char *opClass(Op op);

/// Comparison operators of setp.
enum class CmpKind : uint8_t {
  Eq, Ne, Lt, Le, Gt, Ge,
  Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
};
/// The combining operator of setp.<cmp>.<bop>.
enum class BoolOp : uint8_t { None, And, Or, Xor };
/// shfl modes.
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
/// vote modes.
enum class VoteMode : uint8_t { Any, All, Uni, Ballot };

/// Instruction flags.
enum : uint8_t {
  kFtz = 1,
  kTrans = 2,
  kNegC = 4,
  kNegA = 8,
  kSat = 16,
};

/// Marks an absent operand.
constexpr uint32_t kNoSlot = 0xffffffffu;

/// One decoded instruction.
struct Inst {
  Op op = Op::Nop;
  Ty ty = Ty::None;
  Ty ty2 = Ty::None;
  uint8_t sub = 0;
  uint8_t sub2 = 0;
  uint8_t flags = 0;
  /// Skipped when slot `guard` (0 or 1) equals `guardSkip`: 0 for `@%p`, 1
  /// for `@!%p`; unguarded instructions name the constant-1 slot.
  uint8_t guardSkip = 0;
  uint32_t guard = 0;
  uint32_t o[14] = {kNoSlot, kNoSlot, kNoSlot, kNoSlot, kNoSlot,
                    kNoSlot, kNoSlot, kNoSlot, kNoSlot, kNoSlot,
                    kNoSlot, kNoSlot, kNoSlot, kNoSlot};
  int64_t imm = 0;
  int64_t imm2 = 0;
  /// 1-based line of the instruction in the PTX text.
  uint32_t line = 0;
};

/// A kernel parameter.
struct Param {
  std::string name;
  unsigned offset = 0;
  unsigned size = 0;
};

/// Special registers, in their slot order after the declared registers.
enum SpecialReg : unsigned {
  kTidX, kTidY, kTidZ,
  kNtidX, kNtidY, kNtidZ,
  kCtaidX, kCtaidY, kCtaidZ,
  kNctaidX, kNctaidY, kNctaidZ,
  kLaneId, kWarpId,
  kNumSpecialRegs
};

/// A decoded .entry.
struct Kernel {
  std::string name;
  std::vector<Param> params;
  unsigned paramBytes = 0;
  /// Static shared bytes; the dynamic window starts at dynamicBase.
  unsigned staticShared = 0;
  unsigned dynamicBase = 0;
  /// .maxntid, or zeros.
  unsigned maxntid[3] = {0, 0, 0};
  std::vector<Inst> code;
  /// The statement text of each instruction, for diagnostics.
  std::vector<std::string> text;
  /// Slots of the register file; the first slot of the special registers.
  unsigned numSlots = 0;
  unsigned specialBase = 0;
  unsigned numDeclaredRegs = 0;
  /// Initial register file: zeros, then constants.
  std::vector<uint64_t> initialRegs;
};

/// A decoded module.
struct Module {
  std::vector<Kernel> kernels;
  const Kernel *find(const std::string &name) const;
};

} // namespace sdpa::emu

#endif // PTXEMULATOR_PROGRAM_H
