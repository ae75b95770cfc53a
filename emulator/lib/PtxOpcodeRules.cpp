//===- PtxOpcodeRules.cpp - One decoding rule per PTX opcode --------------===//
//
// PtxParser::decodeOp: the opcode's modifiers, operand count and kinds and
// register widths, checked exactly and turned into an Inst; anything a rule
// does not accept is an error naming the instruction and line.
//
//===----------------------------------------------------------------------===//

#include "PtxParserImpl.h"

using namespace sdpa::emu;
using namespace sdpa::emu::detail;

bool PtxParser::decodeOp(Mods &m, std::vector<Operand> &ops, Inst &in) {
  std::string_view base = m.base();
  Ty ty = Ty::None;

  auto finish = [&]() { return m.done() ? true : unsupported(); };
  // d, a, b[, c] all of type `t`.
  auto simple = [&](Op op, Ty t, size_t n) {
    if (!finish() || !count(ops, n))
      return false;
    in.op = op;
    in.ty = t;
    if (!dst(ops[0], t, in.o[0]))
      return false;
    for (size_t i = 1; i < n; ++i)
      if (!src(ops[i], t, in.o[i]))
        return false;
    return true;
  };
  auto floatMods = [&]() {
    if (m.take("ftz"))
      in.flags |= kFtz;
  };

  if (base == "add" || base == "sub" || base == "mul" || base == "mad" ||
      base == "fma" || base == "div" || base == "rem") {
    bool rn = m.take("rn");
    bool lo = false, hi = false, wide = false;
    if (!rn) {
      lo = m.take("lo");
      hi = !lo && m.take("hi");
      wide = !lo && !hi && m.take("wide");
    }
    floatMods();
    if (m.take("sat"))
      return unsupported();
    if (!m.takeType(ty))
      return unsupported();
    if (ty == Ty::F32) {
      if (lo || hi || wide)
        return unsupported();
      if (base == "add")
        return simple(Op::FAdd, ty, 3);
      if (base == "sub")
        return simple(Op::FSub, ty, 3);
      if (base == "mul")
        return simple(Op::FMul, ty, 3);
      if (base == "fma" && rn)
        return simple(Op::FFma, ty, 4);
      if (base == "div" && rn)
        return simple(Op::FDiv, ty, 3);
      return unsupported();
    }
    if (!isArithIntTy(ty) || rn || (in.flags & kFtz))
      return unsupported();
    if (base == "add" && !lo && !hi && !wide)
      return simple(Op::Add, ty, 3);
    if (base == "sub" && !lo && !hi && !wide)
      return simple(Op::Sub, ty, 3);
    if (base == "mul" && lo)
      return simple(Op::MulLo, ty, 3);
    if (base == "mul" && hi)
      return simple(Op::MulHi, ty, 3);
    if (base == "mad" && lo)
      return simple(Op::MadLo, ty, 4);
    if (base == "div" && !lo && !hi && !wide)
      return simple(Op::Div, ty, 3);
    if (base == "rem" && !lo && !hi && !wide)
      return simple(Op::Rem, ty, 3);
    if (base == "mul" && wide && bitWidth(ty) <= 32) {
      if (!finish() || !count(ops, 3))
        return false;
      in.op = Op::MulWide;
      in.ty = ty;
      in.ty2 = wideTy(ty);
      return dst(ops[0], in.ty2, in.o[0]) && src(ops[1], ty, in.o[1]) &&
             src(ops[2], ty, in.o[2]);
    }
    return unsupported();
  }

  if (base == "neg" || base == "abs" || base == "min" || base == "max") {
    floatMods();
    if (!m.takeType(ty))
      return unsupported();
    bool unary = base == "neg" || base == "abs";
    if (ty == Ty::F32) {
      Op op = base == "neg"   ? Op::FNeg
              : base == "abs" ? Op::FAbs
              : base == "min" ? Op::FMin
                              : Op::FMax;
      return simple(op, ty, unary ? 2 : 3);
    }
    if (!isArithIntTy(ty) || (in.flags & kFtz) ||
        (unary && !isSignedInt(ty)))
      return unsupported();
    Op op = base == "neg"   ? Op::Neg
            : base == "abs" ? Op::Abs
            : base == "min" ? Op::Min
                            : Op::Max;
    return simple(op, ty, unary ? 2 : 3);
  }

  if (base == "and" || base == "or" || base == "xor" || base == "not") {
    if (!m.takeType(ty) || !(isBitTy(ty) || ty == Ty::Pred))
      return unsupported();
    Op op = base == "and"  ? Op::And
            : base == "or" ? Op::Or
            : base == "xor" ? Op::Xor
                            : Op::Not;
    size_t n = op == Op::Not ? 2 : 3;
    if (ty != Ty::Pred)
      return simple(op, ty, n);
    if (!finish() || !count(ops, n))
      return false;
    in.op = op;
    in.ty = ty;
    for (size_t i = 0; i < n; ++i)
      if (!pred(ops[i], in.o[i]))
        return false;
    return true;
  }

  if (base == "shl" || base == "shr") {
    if (!m.takeType(ty) || !isIntTy(ty) || !finish() || !count(ops, 3))
      return unsupported();
    if (base == "shl" && !isBitTy(ty))
      return unsupported();
    in.op = base == "shl" ? Op::Shl : Op::Shr;
    in.ty = ty;
    return dst(ops[0], ty, in.o[0]) && src(ops[1], ty, in.o[1]) &&
           src(ops[2], Ty::U32, in.o[2]);
  }

  if (base == "bfe") {
    if (!m.takeType(ty) ||
        !(ty == Ty::U32 || ty == Ty::U64 || ty == Ty::S32 || ty == Ty::S64) ||
        !finish() || !count(ops, 4))
      return unsupported();
    in.op = Op::Bfe;
    in.ty = ty;
    return dst(ops[0], ty, in.o[0]) && src(ops[1], ty, in.o[1]) &&
           src(ops[2], Ty::U32, in.o[2]) && src(ops[3], Ty::U32, in.o[3]);
  }

  if (base == "copysign") {
    if (!m.takeType(ty) || ty != Ty::F32)
      return unsupported();
    return simple(Op::FCopysign, ty, 3);
  }
  if (base == "ex2" || base == "lg2" || base == "rcp") {
    bool approx = m.take("approx");
    bool rn = !approx && m.take("rn");
    floatMods();
    if (!m.takeType(ty) || ty != Ty::F32 || (!approx && !rn) ||
        (base != "rcp" && !approx))
      return unsupported();
    Op op = base == "ex2" ? Op::FEx2 : base == "lg2" ? Op::FLg2 : Op::FRcp;
    return simple(op, ty, 2);
  }

  if (base == "setp") {
    int cmp = m.takeOneOf({"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                           "ltu", "leu", "gtu", "geu", "num", "nan", "lo",
                           "ls", "hi", "hs"});
    if (cmp < 0)
      return unsupported();
    static const CmpKind kAlias[] = {CmpKind::Lt, CmpKind::Le, CmpKind::Gt,
                                     CmpKind::Ge};
    bool unsignedAlias = cmp >= 14;
    CmpKind kind = unsignedAlias ? kAlias[cmp - 14] : CmpKind(cmp);
    int bop = m.takeOneOf({"and", "or", "xor"});
    floatMods();
    if (!m.takeType(ty) || !finish())
      return unsupported();
    if (ty == Ty::F32) {
      if (unsignedAlias)
        return unsupported();
      in.op = Op::SetpF;
    } else if (isIntTy(ty) && !(in.flags & kFtz)) {
      if (kind > CmpKind::Ge)
        return unsupported();
      if (isBitTy(ty) && kind != CmpKind::Eq && kind != CmpKind::Ne)
        return unsupported();
      if (unsignedAlias && !(ty == Ty::U16 || ty == Ty::U32 || ty == Ty::U64))
        return unsupported();
      in.op = isSignedInt(ty) ? Op::SetpS : Op::SetpU;
    } else {
      return unsupported();
    }
    in.ty = ty;
    in.sub = uint8_t(kind);
    in.sub2 = uint8_t(bop < 0 ? BoolOp::None : BoolOp(bop + 1));
    if (!count(ops, bop < 0 ? 3 : 4))
      return false;
    if (ops[0].kind == Operand::Pair) {
      if (ops[0].width != 1 || ops[0].width2 != 1)
        return bad("expected predicate destinations");
      in.o[0] = ops[0].slot;
      in.o[1] = ops[0].slot2;
    } else if (!pred(ops[0], in.o[0])) {
      return false;
    }
    if (!src(ops[1], ty, in.o[2]) || !src(ops[2], ty, in.o[3]))
      return false;
    if (bop >= 0) {
      if (!pred(ops[3], in.o[4], true))
        return false;
      if (ops[3].negated)
        in.flags |= kNegC;
    }
    return true;
  }

  if (base == "selp") {
    if (!m.takeType(ty) || ty == Ty::Pred || ty == Ty::F16 ||
        ty == Ty::BF16 || bitWidth(ty) < 16 || !finish() || !count(ops, 4))
      return unsupported();
    in.op = Op::Selp;
    in.ty = ty;
    return dst(ops[0], ty, in.o[0]) && src(ops[1], ty, in.o[1]) &&
           src(ops[2], ty, in.o[2]) && pred(ops[3], in.o[3]);
  }

  if (base == "mov") {
    if (!m.takeType(ty) || !finish() || !count(ops, 2))
      return unsupported();
    if (ops[0].kind == Operand::Vector || ops[1].kind == Operand::Vector) {
      if (!(ty == Ty::B32 || ty == Ty::B64))
        return unsupported();
      bool unpack = ops[0].kind == Operand::Vector;
      const Operand &vec = unpack ? ops[0] : ops[1];
      const Operand &whole = unpack ? ops[1] : ops[0];
      if (vec.elements.size() != 2)
        return bad("only two-element vectors are supported by mov");
      Ty half = bitsTy(bitWidth(ty) / 2);
      in.ty = ty;
      if (unpack) {
        in.op = Op::Unpack;
        return dst(vec.elements[0], half, in.o[0]) &&
               dst(vec.elements[1], half, in.o[1]) &&
               src(whole, ty, in.o[2]);
      }
      in.op = Op::Pack;
      return dst(whole, ty, in.o[0]) && src(vec.elements[0], half, in.o[1]) &&
             src(vec.elements[1], half, in.o[2]);
    }
    in.op = Op::Mov;
    in.ty = ty;
    if (ty == Ty::Pred) {
      // A literal source is a constant predicate (LLVM's NVPTX writes
      // `mov.pred %p, -1` for true): any nonzero value is true.
      if (ops[1].kind == Operand::Int) {
        in.o[1] = constant(ops[1].value != 0 ? 1 : 0);
        return pred(ops[0], in.o[0]);
      }
      return pred(ops[0], in.o[0]) && pred(ops[1], in.o[1]);
    }
    if (ty == Ty::F16 || ty == Ty::BF16)
      return unsupported();
    return dst(ops[0], ty, in.o[0]) && src(ops[1], ty, in.o[1]);
  }

  if (base == "cvta") {
    // cvta.to.global.u64 / cvta.global.u64: global addresses are generic.
    bool to = m.take("to");
    (void)to;
    if (!m.take("global") || !m.takeType(ty) || ty != Ty::U64 || !finish() ||
        !count(ops, 2))
      return unsupported();
    in.op = Op::Mov;
    in.ty = Ty::U64;
    return dst(ops[0], ty, in.o[0]) && src(ops[1], ty, in.o[1]);
  }

  if (base == "cvt") {
    int round = m.takeOneOf({"rn", "rz", "rm", "rp", "rni", "rzi", "rmi",
                             "rpi"});
    floatMods();
    if (m.take("sat"))
      return unsupported();
    Ty dty, sty;
    bool x2 = false;
    if (m.take("f16x2"))
      dty = Ty::F16, x2 = true;
    else if (m.take("bf16x2"))
      dty = Ty::BF16, x2 = true;
    else if (!m.takeType(dty))
      return unsupported();
    if (!m.takeType(sty) || !finish())
      return unsupported();
    in.ty = dty;
    in.ty2 = sty;
    bool ftz = in.flags & kFtz;
    if (x2) {
      if (sty != Ty::F32 || round != 0 || ftz || !count(ops, 3))
        return unsupported();
      in.op = dty == Ty::F16 ? Op::CvtF16x2F32 : Op::CvtBF16x2F32;
      return dst(ops[0], Ty::B32, in.o[0]) && src(ops[1], Ty::F32, in.o[1]) &&
             src(ops[2], Ty::F32, in.o[2]);
    }
    if (!count(ops, 2))
      return false;
    if (dty == Ty::F32 && (sty == Ty::F16 || sty == Ty::BF16)) {
      if (round >= 0 || ftz)
        return unsupported();
      in.op = sty == Ty::F16 ? Op::CvtF32F16 : Op::CvtF32BF16;
      return dst(ops[0], Ty::F32, in.o[0]) && src(ops[1], Ty::B16, in.o[1]);
    }
    if ((dty == Ty::F16 || dty == Ty::BF16) && sty == Ty::F32) {
      if (round != 0 || ftz)
        return unsupported();
      in.op = dty == Ty::F16 ? Op::CvtF16F32 : Op::CvtBF16F32;
      return dst(ops[0], Ty::B16, in.o[0]) && src(ops[1], Ty::F32, in.o[1]);
    }
    if (dty == Ty::F32 && isArithIntTy(sty)) {
      if (round != 0 || ftz)
        return unsupported();
      in.op = Op::CvtF32Int;
      return dst(ops[0], Ty::F32, in.o[0]) && src(ops[1], sty, in.o[1]);
    }
    if (isArithIntTy(dty) && isArithIntTy(sty)) {
      if (round >= 0 || ftz)
        return unsupported();
      in.op = Op::CvtInt;
      return dst(ops[0], dty, in.o[0]) && src(ops[1], sty, in.o[1]);
    }
    return unsupported();
  }

  if (base == "ld" || base == "st") {
    bool load = base == "ld";
    // Memory-order qualifiers: the emulator is sequentially consistent.
    if (m.take(load ? "acquire" : "release") || m.take("relaxed")) {
      if (m.takeOneOf({"cta", "gpu", "sys"}) < 0)
        return unsupported();
    } else {
      m.take("volatile");
    }
    int space = m.takeOneOf({"global", "shared", "param"});
    if (space < 0 || (space == 2 && !load))
      return unsupported();
    if (space == 1 && m.take("shared::cta"))
      return unsupported();
    // Cache hints have no semantic effect.
    if (space == 0)
      m.takeOneOf(load ? std::initializer_list<const char *>{"ca", "cg", "cs",
                                                              "lu", "cv", "nc"}
                       : std::initializer_list<const char *>{"wb", "cg", "cs",
                                                              "wt"});
    unsigned n = 1;
    if (m.take("v2"))
      n = 2;
    else if (m.take("v4"))
      n = 4;
    if (!m.takeType(ty) || ty == Ty::Pred || ty == Ty::F16 ||
        ty == Ty::BF16 || !finish() || !count(ops, 2))
      return unsupported();
    if (space == 2 && n != 1)
      return unsupported();
    const Operand &values = load ? ops[0] : ops[1];
    const Operand &addr = load ? ops[1] : ops[0];
    std::vector<const Operand *> elems;
    if (n == 1) {
      if (values.kind == Operand::Vector)
        return bad("vector operand without .v2/.v4");
      elems.push_back(&values);
    } else {
      if (values.kind != Operand::Vector || values.elements.size() != n)
        return bad("expected a " + std::to_string(n) + "-element vector");
      for (const Operand &e : values.elements)
        elems.push_back(&e);
    }
    in.ty = ty;
    in.sub = uint8_t(n);
    unsigned regWidth = 0;
    for (unsigned i = 0; i < n; ++i) {
      uint32_t &slot = load ? in.o[i] : in.o[1 + i];
      if (load ? !dst(*elems[i], ty, slot, true)
               : !src(*elems[i], ty, slot, true))
        return false;
      unsigned w = elems[i]->kind == Operand::Reg ? elems[i]->width
                                                  : bitWidth(ty);
      if (regWidth && w != regWidth)
        return bad("vector elements of different widths");
      regWidth = w;
    }
    in.ty2 = bitsTy(regWidth);
    if (space == 2) {
      if (addr.kind != Operand::Address || addr.hasBase)
        return bad("ld.param needs [param] or [param+offset]");
      auto it = params.find(addr.symbol);
      if (it == params.end())
        return bad("unknown parameter '" + addr.symbol + "'");
      const Param *param = nullptr;
      for (const Param &p : kernel->params)
        if (p.name == addr.symbol)
          param = &p;
      if (addr.value < 0 ||
          uint64_t(addr.value) + bitWidth(ty) / 8 > param->size)
        return bad("ld.param outside parameter '" + addr.symbol + "'");
      in.op = Op::LdParam;
      in.imm = int64_t(it->second) + addr.value;
      return true;
    }
    uint32_t &addrSlot = load ? in.o[4] : in.o[0];
    if (!address(addr, space == 1, addrSlot, in.imm))
      return false;
    in.op = load ? (space == 0 ? Op::LdGlobal : Op::LdShared)
                 : (space == 0 ? Op::StGlobal : Op::StShared);
    return true;
  }

  if (base == "atom") {
    // Any memory order: the emulator is sequentially consistent.
    m.takeOneOf({"relaxed", "acquire", "release", "acq_rel"});
    m.takeOneOf({"cta", "gpu", "sys"});
    if (!m.take("global") || !m.take("add") || !m.takeType(ty) ||
        ty != Ty::F32 || !finish() || !count(ops, 3))
      return unsupported();
    in.op = Op::AtomAddF32;
    in.ty = ty;
    return dst(ops[0], ty, in.o[0]) &&
           address(ops[1], false, in.o[1], in.imm) &&
           src(ops[2], ty, in.o[2]);
  }

  if (base == "cp") {
    if (!m.take("async"))
      return unsupported();
    if (m.take("commit_group")) {
      in.op = Op::CpAsyncCommit;
      return finish() && count(ops, 0);
    }
    if (m.take("wait_group")) {
      in.op = Op::CpAsyncWait;
      if (!finish() || !count(ops, 1))
        return false;
      if (ops[0].kind != Operand::Int || ops[0].value < 0)
        return bad("cp.async.wait_group needs a literal count");
      in.imm = ops[0].value;
      return true;
    }
    if (m.take("wait_all")) {
      in.op = Op::CpAsyncWait;
      in.imm = 0;
      return finish() && count(ops, 0);
    }
    int cache = m.takeOneOf({"ca", "cg"});
    if (cache < 0 || !(m.take("shared") || m.take("shared::cta")) ||
        !m.take("global") || !finish())
      return unsupported();
    if (ops.size() != 3 && ops.size() != 4)
      return bad("cp.async takes 3 or 4 operands");
    if (ops[2].kind != Operand::Int ||
        !(ops[2].value == 4 || ops[2].value == 8 || ops[2].value == 16) ||
        (cache == 1 && ops[2].value != 16))
      return bad("bad cp.async copy size");
    in.op = Op::CpAsync;
    in.sub2 = uint8_t(ops[2].value);
    if (!address(ops[0], true, in.o[0], in.imm) ||
        !address(ops[1], false, in.o[1], in.imm2))
      return false;
    if (ops.size() == 4)
      return src(ops[3], Ty::U32, in.o[2]);
    in.o[2] = constant(uint64_t(ops[2].value));
    return true;
  }

  if (base == "bar" || base == "barrier") {
    if (!m.take("sync"))
      return unsupported();
    m.take("aligned");
    if (!finish() || !count(ops, 1))
      return false;
    if (ops[0].kind != Operand::Int || ops[0].value != 0)
      return bad("only barrier 0 is supported");
    in.op = Op::BarSync;
    return true;
  }

  if (base == "fence" || base == "membar") {
    if (base == "fence" && m.takeOneOf({"acq_rel", "sc"}) < 0)
      return unsupported();
    if (m.takeOneOf({"cta", "gpu", "sys", "gl"}) < 0 || !finish() ||
        !count(ops, 0))
      return unsupported();
    in.op = Op::Nop;
    return true;
  }

  if (base == "mma") {
    Ty a, b, c, d;
    if (!m.take("sync") || !m.take("aligned") || !m.take("m16n8k16") ||
        !m.take("row") || !m.take("col") || !m.takeType(d) || d != Ty::F32 ||
        !m.takeType(a) || !(a == Ty::F16 || a == Ty::BF16) ||
        !m.takeType(b) || b != a || !m.takeType(c) || c != Ty::F32 ||
        !finish() || !count(ops, 4))
      return unsupported();
    in.op = Op::Mma;
    in.ty = a;
    const size_t sizes[] = {4, 4, 2, 4};
    const Ty types[] = {Ty::F32, Ty::B32, Ty::B32, Ty::F32};
    unsigned k = 0;
    for (unsigned g = 0; g < 4; ++g) {
      if (ops[g].kind != Operand::Vector ||
          ops[g].elements.size() != sizes[g])
        return bad("mma operand " + std::to_string(g) + " needs " +
                   std::to_string(sizes[g]) + " registers");
      for (const Operand &e : ops[g].elements)
        if (g == 0 ? !dst(e, types[g], in.o[k++])
                   : !src(e, types[g], in.o[k++]))
          return false;
    }
    return true;
  }

  if (base == "ldmatrix") {
    if (!m.take("sync") || !m.take("aligned") || !m.take("m8n8"))
      return unsupported();
    int x = m.takeOneOf({"x1", "x2", "x4"});
    if (x < 0)
      return unsupported();
    if (m.take("trans"))
      in.flags |= kTrans;
    if (!(m.take("shared") || m.take("shared::cta")) || !m.take("b16") ||
        !finish() || !count(ops, 2))
      return unsupported();
    unsigned n = 1u << x;
    in.op = Op::Ldmatrix;
    in.sub = uint8_t(n);
    if (ops[0].kind != Operand::Vector || ops[0].elements.size() != n)
      return bad("ldmatrix needs " + std::to_string(n) + " destinations");
    for (unsigned i = 0; i < n; ++i)
      if (!dst(ops[0].elements[i], Ty::B32, in.o[i]))
        return false;
    return address(ops[1], true, in.o[4], in.imm);
  }

  if (base == "shfl") {
    int mode;
    if (!m.take("sync") ||
        (mode = m.takeOneOf({"up", "down", "bfly", "idx"})) < 0 ||
        !m.take("b32") || !finish() || !count(ops, 5))
      return unsupported();
    in.op = Op::Shfl;
    in.sub = uint8_t(mode);
    in.ty = Ty::B32;
    if (ops[0].kind == Operand::Pair) {
      if (ops[0].width != 32 || ops[0].width2 != 1)
        return bad("expected d|p");
      in.o[0] = ops[0].slot;
      in.o[1] = ops[0].slot2;
    } else if (!dst(ops[0], Ty::B32, in.o[0])) {
      return false;
    }
    return src(ops[1], Ty::B32, in.o[2]) && src(ops[2], Ty::U32, in.o[3]) &&
           src(ops[3], Ty::U32, in.o[4]) && src(ops[4], Ty::B32, in.o[5]);
  }

  if (base == "vote") {
    int mode;
    if (!m.take("sync") ||
        (mode = m.takeOneOf({"any", "all", "uni", "ballot"})) < 0)
      return unsupported();
    bool ballot = mode == 3;
    if (!m.take(ballot ? "b32" : "pred") || !finish() || !count(ops, 3))
      return unsupported();
    in.op = Op::Vote;
    in.sub = uint8_t(mode);
    if (ballot ? !dst(ops[0], Ty::B32, in.o[0]) : !pred(ops[0], in.o[0]))
      return false;
    if (!pred(ops[1], in.o[1], true))
      return false;
    if (ops[1].negated)
      in.flags |= kNegA;
    return src(ops[2], Ty::B32, in.o[2]);
  }

  if (base == "bra") {
    m.take("uni");
    if (!finish() || !count(ops, 1))
      return false;
    if (ops[0].kind != Operand::Symbol)
      return bad("branch target is not a label");
    in.op = Op::Bra;
    branchFixups.emplace_back(kernel->code.size(), ops[0].symbol);
    return true;
  }

  if (base == "ret" || base == "exit") {
    if (!finish() || !count(ops, 0))
      return false;
    in.op = Op::Exit;
    return true;
  }

  return unsupported();
}
