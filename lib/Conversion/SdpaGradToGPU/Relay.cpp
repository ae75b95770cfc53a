//===- Relay.cpp - dQ partials: atomic adds or the deterministic relay ----===//
//
// After a visit of query tile t, warp w forms rows [16w, 16w + 16) of the
// partial dQ = (scale * dS) K from shared memory and adds it into the f32
// dq_accum with relaxed atomic adds. In deterministic mode the adds of
// program u happen in its relay turn (SEMANTICS.md §4):
//
//   turn    = u - kv_first(t)           (buildRelayTurn: the schedule's map)
//   thread 0: while (ld.acquire.gpu counter[b, h, t] != turn) {}
//   barrier; adds; fence.acq_rel.gpu; barrier
//   thread 0: st.release.gpu counter[b, h, t] = turn + 1
//
// so the partials of a query tile are added in ascending key-tile order and
// dQ is bitwise repeatable.
//
//===----------------------------------------------------------------------===//

#include "MainKernel.h"

#include "SdpaDialect/Transforms/ScheduleBounds.h"
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

/// A global-space pointer to element `offset` (elements of `elementBytes`) of
/// the flat global memref `memref`. Global rather than generic, so that the
/// dQ adds become `red.global.add.f32` instead of generic `atom.add.f32`
/// (8% of the backward at 32k keys, bench/RESULTS.md).
static Value elementPointer(ImplicitLocOpBuilder &b, Value memref,
                            Value offset, int64_t elementBytes) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, memref);
  Value bytes = arith::MulIOp::create(
      b, offset, arith::ConstantIndexOp::create(b, elementBytes));
  Value address = arith::IndexCastOp::create(
      b, b.getI64Type(), arith::AddIOp::create(b, base, bytes));
  return LLVM::IntToPtrOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext(), kGlobalAddressSpace),
      address);
}

void MainKernelBuilder::emitRelayAcquire(Value counter, Value turn) {
  Value first = cmp(arith::CmpIPredicate::eq, tid, idx(0));
  Value turnI32 = arith::IndexCastOp::create(b, b.getI32Type(), turn);
  scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
    Value ptr = elementPointer(b, args["relay_counters"], counter, 4);
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
    Value ptr = elementPointer(b, args["relay_counters"], counter, 4);
    LLVM::StoreOp::create(b, next, ptr, /*alignment=*/4, /*isVolatile=*/false,
                          /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                          LLVM::AtomicOrdering::release, kDeviceScope);
    scf::YieldOp::create(b);
  });
}

void MainKernelBuilder::emitDqUpdate(Value t, Value q0,
                                     const QueryHeadBases &bases) {
  int64_t rowTiles = spec.tiles.q / sm80::kMmaM;
  int64_t dBlocks = spec.headDim / sm80::kMmaN;
  Value warpRow0 = mul(warp, idx(sm80::kMmaM));

  // dQ rows of this warp: (scale * dS)[16 x Tk] K[Tk x D].
  auto computePartial = [&]() {
    SmallVector<Value> partial(dBlocks, zeroAccumulator());
    for (int64_t kb = 0; kb < spec.tiles.kv / sm80::kMmaK; ++kb) {
      Value a = loadA(dsSmem, warpRow0, idx(kb * sm80::kMmaK));
      for (int64_t dn = 0; dn < dBlocks; ++dn)
        partial[dn] =
            mma(a,
                loadBTransposed(kSmem, idx(kb * sm80::kMmaK),
                                idx(dn * sm80::kMmaN)),
                partial[dn]);
    }
    return partial;
  };
  SmallVector<Value> partial;
  Value active;
  if (rowTiles == spec.warps()) {
    partial = computePartial();
  } else {
    // Warps past the tile's rows have no dQ rows.
    active = cmp(arith::CmpIPredicate::ult, warp, idx(rowTiles));
    SmallVector<Type> types(dBlocks, zeroAccumulator().getType());
    auto ifOp = scf::IfOp::create(b, types, active, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, computePartial());
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, SmallVector<Value>(dBlocks, zeroAccumulator()));
    }
    partial.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }

  Value counter, turn;
  if (spec.deterministic) {
    counter = add(bases.counters, t);
    // The relay turn of key tile u at query tile t: u - kv_first(t).
    turn = buildRelayTurn(b, b.getLoc(), spec.schedule, kvTile, t, seqQ,
                          seqKv);
    emitRelayAcquire(counter, turn);
  }

  auto emitAdds = [&]() {
    for (int64_t i = 0; i < 2; ++i) {
      Value q = add(q0, add(warpRow0, add(fragRow, idx(8 * i))));
      Value live = cmp(arith::CmpIPredicate::ult, q, seqQ);
      scf::IfOp::create(b, live, [&](OpBuilder &, Location) {
        Value rowBase = add(bases.dqAccum, mul(q, idx(spec.headDim)));
        for (int64_t dn = 0; dn < dBlocks; ++dn)
          for (int64_t e = 0; e < 2; ++e) {
            Value col = add(idx(dn * sm80::kMmaN + e), fragCol);
            Value ptr = elementPointer(b, args["dq_accum"], add(rowBase, col),
                                       4);
            LLVM::AtomicRMWOp::create(b, LLVM::AtomicBinOp::fadd, ptr,
                                      extract(partial[dn], i, e),
                                      LLVM::AtomicOrdering::monotonic,
                                      kDeviceScope);
          }
        scf::YieldOp::create(b);
      });
    }
  };
  if (active) {
    scf::IfOp::create(b, active, [&](OpBuilder &, Location) {
      emitAdds();
      scf::YieldOp::create(b);
    });
  } else {
    emitAdds();
  }

  if (spec.deterministic)
    emitRelayRelease(counter, turn);
}
