//===- InstructionMix.cpp - Opcode classes of the instruction profile -----===//

#include "PtxEmulator/Program.h"

const char *sdpa::emu::opClass(Op op) {
  switch (op) {
  case Op::Mma:
    return "mma";
  case Op::Ldmatrix:
    return "ldmatrix";
  case Op::LdShared:
  case Op::StShared:
    return "shared";
  case Op::LdGlobal:
  case Op::StGlobal:
  case Op::AtomAddF32:
  case Op::CpAsync:
  case Op::CpAsyncCommit:
  case Op::CpAsyncWait:
    return "global";
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FFma:
  case Op::FDiv:
  case Op::FNeg:
  case Op::FAbs:
  case Op::FMin:
  case Op::FMax:
  case Op::FCopysign:
  case Op::FEx2:
  case Op::FLg2:
  case Op::FRcp:
    return "f32";
  case Op::CvtInt:
  case Op::CvtF32F16:
  case Op::CvtF32BF16:
  case Op::CvtF16F32:
  case Op::CvtBF16F32:
  case Op::CvtF16x2F32:
  case Op::CvtBF16x2F32:
  case Op::CvtF32Int:
  case Op::Pack:
  case Op::Unpack:
    return "convert";
  case Op::SetpS:
  case Op::SetpU:
  case Op::SetpF:
  case Op::Selp:
    return "compare";
  case Op::Bra:
  case Op::Exit:
    return "control";
  case Op::BarSync:
  case Op::Shfl:
  case Op::Vote:
    return "sync";
  case Op::LdParam:
  case Op::Nop:
    return "other";
  default: // Add .. Bfe, Mov
    return "integer";
  }
}
