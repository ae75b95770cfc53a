//===- PackedSequences.cpp - Per-sequence extents of THD packed inputs ----===//
//
// For layout thd one kernel runs every packed sequence: program z runs
// sequence z, rows [off[z], off[z+1]) of the packed tensors. Its lengths
// Sq = cu_seqlens_q[z+1] - cu_seqlens_q[z] and Skv (likewise) replace the
// seq_q / seq_kv parameters everywhere (schedule maps, band, zero fill,
// stores), so alignment and bounds are per sequence (docs/Semantics.md §3). The
// grid is formed from the longest sequence; query tiles past a shorter
// sequence's end exit at once.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

void ForwardKernelBuilder::loadSequenceExtents(Value cuSeqlensQ,
                                               Value cuSeqlensKv,
                                               Value sequence) {
  Value next = add(sequence, idx(1));
  auto offset = [&](Value offsets, Value i) -> Value {
    Value raw = memref::LoadOp::create(b, offsets, ValueRange{i});
    return arith::IndexCastOp::create(b, b.getIndexType(), raw);
  };
  qFirstToken = offset(cuSeqlensQ, sequence);
  Value qStop = offset(cuSeqlensQ, next);
  kvFirstToken = offset(cuSeqlensKv, sequence);
  Value kvStop = offset(cuSeqlensKv, next);
  seqQ = arith::SubIOp::create(b, qStop, qFirstToken);
  seqKv = arith::SubIOp::create(b, kvStop, kvFirstToken);
}

void ForwardKernelBuilder::openSequenceGuard() {
  Value live =
      arith::CmpIOp::create(b, arith::CmpIPredicate::slt, q0, seqQ);
  auto guard = scf::IfOp::create(b, live, /*withElseRegion=*/false);
  sequenceGuard = guard;
  b.setInsertionPointToStart(guard.thenBlock());
}
