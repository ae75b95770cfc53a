//===- Relay.cpp - dQ partials: atomic adds or the deterministic relay ----===//
//
// After a visit of query tile t, the warps share the fragments of the
// partial dQ = (scale * dS) K (from shared memory) and add them into the f32
// dq_accum with relaxed atomic adds. In deterministic mode the adds of
// program u happen in its relay turn (docs/Semantics.md §4):
//
//   turn    = u - kv_first(t)           (emitRelayTurn: the schedule's map)
//   thread 0: while (ld.acquire.gpu counter[b, h, t] != turn) {}
//   barrier; adds; fence.acq_rel.gpu; barrier
//   thread 0: st.release.gpu counter[b, h, t] = turn + 1
//
// so the partials of a query tile are added in ascending key-tile order and
// dQ is bitwise repeatable.
//
//===----------------------------------------------------------------------===//

#include "MainKernel.h"

#include "SdpaDialect/Utils/ScheduleBounds.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

/// The LLVM sync scope of the whole device (PTX `.gpu`).
static constexpr llvm::StringLiteral kDeviceScope = "device";

/// The NVPTX address space of global memory.
static constexpr unsigned kGlobalAddressSpace = 1;

/// A global-space pointer to element `offset` (of type `elementType`) of the
/// flat global memref `memref`. Global rather than generic, so that the dQ
/// adds become `atom.global.add.f32` (their results unused) instead of
/// generic `atom.add.f32` (8% of the backward at 32k keys, bench/RESULTS.md;
/// test/PTX/sdpa-backward-pipeline-atomic.mlir checks the form). The base
/// is `inttoptr(index_cast(extract_aligned_pointer_as_index))`, which at a
/// 32-bit index sdpa-narrow-kernel-index replaces by the memref's aligned
/// pointer (an index cannot hold it); the offset is a GEP in elements, never
/// a byte count in `index` (8 GiB of f32 overflow 32 bits).
static Value elementPointer(ImplicitLocOpBuilder &b, Value memref,
                            Value offset, Type elementType) {
  auto global = LLVM::LLVMPointerType::get(b.getContext(), kGlobalAddressSpace);
  Value base = arith::IndexCastOp::create(
      b, b.getI64Type(), memref::ExtractAlignedPointerAsIndexOp::create(b, memref));
  Value pointer = LLVM::IntToPtrOp::create(b, global, base);
  Value element = arith::IndexCastOp::create(b, b.getI64Type(), offset);
  return LLVM::GEPOp::create(b, global, elementType, pointer,
                             ValueRange{element});
}

void MainKernelBuilder::emitRelayAcquire(Value counter, Value turn) {
  Value first = cmp(arith::CmpIPredicate::eq, tid, idx(0));
  Value turnI32 = arith::IndexCastOp::create(b, b.getI32Type(), turn);
  scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
    Value ptr = elementPointer(b, args["relay_counters"], counter,
                               b.getI32Type());
    auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    {
      OpBuilder::InsertionGuard guard(b);
      Block *before = b.createBlock(&spin.getBefore());
      b.setInsertionPointToStart(before);
      Value seen = LLVM::LoadOp::create(b, b.getI32Type(), ptr, /*alignment=*/4,
                                        /*isVolatile=*/false,
                                        /*isNonTemporal=*/false,
                                        /*isInvariant=*/false,
                                        /*isInvariantGroup=*/false,
                                        LLVM::AtomicOrdering::acquire,
                                        kDeviceScope);
      Value waiting =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, seen, turnI32);
      scf::ConditionOp::create(b, waiting, ValueRange{});
      Block *after = b.createBlock(&spin.getAfter());
      b.setInsertionPointToStart(after);
      scf::YieldOp::create(b);
    }
    spin->setAttr("sdpa.relay_wait", b.getUnitAttr());
    scf::YieldOp::create(b);
  });
  gpu::BarrierOp::create(b);
}

void MainKernelBuilder::emitRelayRelease(Value counter, Value turn) {
  // Every thread's adds are visible device-wide before the turn passes on.
  LLVM::FenceOp::create(b, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
  gpu::BarrierOp::create(b);
  Value first = cmp(arith::CmpIPredicate::eq, tid, idx(0));
  Value next = arith::IndexCastOp::create(b, b.getI32Type(),
                                          add(turn, idx(1)));
  scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
    Value ptr = elementPointer(b, args["relay_counters"], counter,
                               b.getI32Type());
    LLVM::StoreOp::create(b, next, ptr, /*alignment=*/4, /*isVolatile=*/false,
                          /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                          LLVM::AtomicOrdering::release, kDeviceScope);
    scf::YieldOp::create(b);
  });
}

/// The most dQ fragments a warp holds at once: a warp with more forms and adds
/// them in rounds, so that their accumulators (4 registers each) do not push
/// the d = 128 kernel, whose dK and dV take 128 registers, into spilling.
static constexpr int64_t kDqFragmentsPerRound = 4;

void MainKernelBuilder::emitDqUpdate(Value t, Value q0,
                                     const QueryHeadBases &bases) {
  // The partial dQ tile (scale * dS)[Tq x Tk] K[Tk x D] is Tq/16 x D/8
  // accumulator fragments; every warp takes `perWarp` consecutive ones (in
  // row-major fragment order), so all warps share the products and the adds,
  // in rounds of at most kDqFragmentsPerRound.
  int64_t dBlocks = spec.headDim / sm80::kMmaN;
  int64_t fragments = (spec.tiles.q / sm80::kMmaM) * dBlocks;
  int64_t perWarp = llvm::divideCeil(fragments, spec.warps());
  // Fragments past the last (when the warps do not divide them) recompute
  // the last one and add nothing.
  bool ragged = perWarp * spec.warps() != fragments;
  // A warp's fragments lie in one row of fragments: one A load serves them.
  bool oneRow = !ragged && dBlocks % perWarp == 0;

  Value first = mul(warp, idx(perWarp));
  SmallVector<Value> rows, cols, owned;
  for (int64_t i = 0; i < perWarp; ++i) {
    Value f = add(first, idx(i));
    if (ragged) {
      owned.push_back(cmp(arith::CmpIPredicate::ult, f, idx(fragments)));
      f = arith::MinUIOp::create(b, f, idx(fragments - 1));
    }
    Value m = idx(sm80::kMmaM);
    Value fragRowIndex = divu(f, idx(dBlocks));
    rows.push_back(mul(fragRowIndex, m));
    Value n = idx(sm80::kMmaN);
    Value fragColIndex = remu(f, idx(dBlocks));
    cols.push_back(mul(fragColIndex, n));
  }
  // The fragments [begin, end) of this warp, formed in registers.
  SmallVector<Value> partial(perWarp);
  auto emitProducts = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      partial[i] = zeroAccumulator();
    for (int64_t kb = 0; kb < spec.tiles.kv / sm80::kMmaK; ++kb) {
      Value k0Row = idx(kb * sm80::kMmaK);
      Value a = oneRow ? loadA(dsSmem, rows[0], k0Row) : Value();
      for (int64_t i = begin; i < end; ++i) {
        Value bFrag = loadBTransposed(kSmem, k0Row, cols[i]);
        Value aFrag = oneRow ? a : loadA(dsSmem, rows[i], k0Row);
        partial[i] = mma(aFrag, bFrag, partial[i]);
      }
    }
  };

  auto emitAdds = [&](int64_t i) {
    for (int64_t r = 0; r < 2; ++r) {
      Value q = add(q0, add(rows[i], add(fragRow, idx(8 * r))));
      Value live = cmp(arith::CmpIPredicate::ult, q, seqQ);
      if (ragged)
        live = arith::AndIOp::create(b, live, owned[i]);
      scf::IfOp::create(b, live, [&](OpBuilder &, Location) {
        Value rowBase = add(bases.dqAccum, mul(q, idx(spec.headDim)));
        for (int64_t e = 0; e < 2; ++e) {
          Value col = add(cols[i], add(fragCol, idx(e)));
          Value ptr = elementPointer(b, args["dq_accum"], add(rowBase, col),
                                     b.getF32Type());
          LLVM::AtomicRMWOp::create(b, LLVM::AtomicBinOp::fadd, ptr,
                                    extract(partial[i], r, e),
                                    LLVM::AtomicOrdering::monotonic,
                                    kDeviceScope);
        }
        scf::YieldOp::create(b);
      });
    }
  };
  // The first round is formed before the relay wait, so a program that
  // waits has its products ready.
  Value counter, turn;
  for (int64_t begin = 0; begin < perWarp; begin += kDqFragmentsPerRound) {
    int64_t end = std::min(perWarp, begin + kDqFragmentsPerRound);
    emitProducts(begin, end);
    if (spec.usesRelay() && begin == 0) {
      counter = add(bases.counters, t);
      // The relay turn of key tile u at query tile t: u - kv_first(t).
      turn = emitRelayTurn(b, b.getLoc(), spec.schedule, kvTile, t, seqQ,
                           seqKv);
      emitRelayAcquire(counter, turn);
    }
    for (int64_t i = begin; i < end; ++i)
      emitAdds(i);
  }

  if (spec.usesRelay())
    emitRelayRelease(counter, turn);
}
