//===- PrintSchedule.cpp - sdpa-print-schedule ----------------------------===//
//
// Prints the concrete tile schedule of each attention op by evaluating its
// schedule maps at the known sequence lengths.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/DefaultTiles.h"
#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/SdpaPasses.h"
#include "SdpaDialect/Transforms/TileOptions.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPAPRINTSCHEDULE
#include "SdpaDialect/SdpaPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// The lengths of one sequence.
struct SeqLengths {
  int64_t q, kv;
};

/// Reads a constant 1-d i32 operand, if it is one.
std::optional<SmallVector<int64_t>> constantValues(Value value) {
  DenseIntElementsAttr elements;
  if (!matchPattern(value, m_Constant(&elements)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : elements.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

/// Lengths from THD cumulative offsets: sequence i has off[i+1] - off[i].
FailureOr<SmallVector<int64_t>> lengthsFromOffsets(Operation *op,
                                                   ArrayRef<int64_t> offsets) {
  SmallVector<int64_t> lengths;
  for (size_t i = 0; i + 1 < offsets.size(); ++i) {
    if (offsets[i + 1] < offsets[i])
      return op->emitError("expected non-decreasing cumulative sequence "
                           "offsets, got ")
             << offsets[i] << " then " << offsets[i + 1];
    lengths.push_back(offsets[i + 1] - offsets[i]);
  }
  return lengths;
}

struct PrintSchedulePass
    : public sdpa::impl::SdpaPrintScheduleBase<PrintSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkTileOptions(getOperation(), tileQ, tileKv)))
      return signalPassFailure();
    if (seqLensQ.size() != seqLensKv.size()) {
      getOperation()->emitError(
          "expected seq-lens-q and seq-lens-kv to have the same length");
      return signalPassFailure();
    }
    WalkResult result = getOperation()->walk([&](AttentionOpInterface op) {
      return failed(printOp(op)) ? WalkResult::interrupt()
                                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// Lengths per sequence; an empty list (with a remark) if unknown.
  FailureOr<SmallVector<SeqLengths>> sequencesOf(AttentionOpInterface op) {
    SmallVector<SeqLengths> sequences;
    if (!op.hasPerSequenceLengths()) {
      auto [seqQ, seqKv] = getUniformSeqLengths(op);
      if (seqQ && seqKv)
        sequences.push_back({*seqQ, *seqKv});
      else if (seqLensQ.size() == 1)
        sequences.push_back({seqLensQ[0], seqLensKv[0]});
      else
        op->emitRemark("schedule not printed: sequence lengths are dynamic "
                       "(give one value each in seq-lens-q and seq-lens-kv)");
      return sequences;
    }
    auto valuesQ = constantValues(op.getSeqlens()[0]);
    auto valuesKv = constantValues(op.getSeqlens()[1]);
    SmallVector<int64_t> lensQ, lensKv;
    if (valuesQ && valuesKv) {
      lensQ = *valuesQ;
      lensKv = *valuesKv;
      if (op.getLayout() == Layout::thd) {
        auto q = lengthsFromOffsets(op, lensQ);
        auto kv = lengthsFromOffsets(op, lensKv);
        if (failed(q) || failed(kv))
          return failure();
        lensQ = *q;
        lensKv = *kv;
      }
    } else if (!seqLensQ.empty()) {
      lensQ.assign(seqLensQ.begin(), seqLensQ.end());
      lensKv.assign(seqLensKv.begin(), seqLensKv.end());
    } else {
      op->emitRemark("schedule not printed: sequence lengths are not "
                     "constant (give them in seq-lens-q and seq-lens-kv)");
      return sequences;
    }
    for (size_t i = 0; i < lensQ.size() && i < lensKv.size(); ++i) {
      if (lensQ[i] < 0 || lensKv[i] < 0)
        return op->emitError("expected non-negative sequence lengths");
      sequences.push_back({lensQ[i], lensKv[i]});
    }
    return sequences;
  }

  LogicalResult printOp(AttentionOpInterface op) {
    ScheduleAttr schedule = op.getScheduleAttr();
    if (!schedule)
      schedule = deriveSchedule(op, resolveTiles(op, TileShape{tileQ, tileKv}));
    FailureOr<SmallVector<SeqLengths>> sequences = sequencesOf(op);
    if (failed(sequences))
      return failure();
    // Lengths from the int64_t seq-lens-q/-kv options, whatever the layout:
    // beyond 32-bit lengths the schedule's evaluation overflows int64_t
    // (hardening, docs/Robustness.md: seq-lens-q=9223372036854775807).
    for (const SeqLengths &seq : *sequences) {
      if (seq.q < 0 || seq.kv < 0)
        return op->emitError("expected non-negative sequence lengths");
      if (seq.q > kMaxExtent || seq.kv > kMaxExtent)
        return op->emitError("expected sequence lengths of at most ")
               << kMaxExtent;
    }
    bool tagged = op.hasPerSequenceLengths();
    bool forward = isa<AttentionOp>(op.getOperation());
    llvm::raw_ostream &os = llvm::outs();
    for (auto [index, seq] : llvm::enumerate(*sequences)) {
      std::string tag = tagged ? " seq=" + std::to_string(index) : "";
      ScheduleTable table = evaluateSchedule(
          schedule.getMaps(), schedule.getTileShape(), seq.q, seq.kv);
      if (forward) {
        for (const ScheduleTable::Forward &f : table.forward)
          os << "sdpa.schedule fwd" << tag << " q_tile=" << f.qTile << " kv=["
             << f.kv.begin << "," << f.kv.end << ") interior=["
             << f.interior.begin << "," << f.interior.end << ")\n";
        continue;
      }
      for (const ScheduleTable::Backward &b : table.backward)
        os << "sdpa.schedule bwd" << tag << " kv_tile=" << b.kvTile << " q=["
           << b.q.begin << "," << b.q.end << ") interior=["
           << b.interior.begin << "," << b.interior.end << ")\n";
      for (const ScheduleTable::Relay &r : table.relay)
        os << "sdpa.schedule relay" << tag << " q_tile=" << r.qTile
           << " first=" << r.kvFirst << " visitors=" << r.visitors << "\n";
    }
    os.flush();
    return success();
  }
};

} // namespace
