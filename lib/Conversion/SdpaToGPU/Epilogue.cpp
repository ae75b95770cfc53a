//===- Epilogue.cpp - Normalize and store O and LSE from registers --------===//
//
// After the last key tile each thread reduces its partial row sums over the
// quad, normalizes its accumulator rows and stores them (two elements per
// store) together with LSE = (m + log2 l) * ln 2. A row that saw no key has
// l = 0 and stores O = 0, LSE = -inf. Rows past Sq store nothing.
//
// Sinks (docs/Semantics.md §7): the sink is a column without a value row.
// The running max started at s' = sink * log2(e), so m >= s' and the sink's
// share of the quad-reduced sum is exp2(s' - m) <= 1, added once per row:
// l = sum_k P[k] + exp2(s' - m), O = acc / l, and LSE = sink + (m - s' +
// log2 l) * ln 2 (the same value, formed so that a row without a visible
// key, m = s' and l = 1, stores O = 0 and LSE = sink exactly).
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

void ForwardKernelBuilder::emitEpilogue(SoftmaxState &state) {
  // The accumulators span the mma width; the columns past the head dim
  // (zero) are not stored.
  int64_t dimBlocks = spec.mmaHeadDim / sm80::kMmaN;
  int64_t storedBlocks = spec.headDim / sm80::kMmaN;
  Value zero = f32(0.0);
  Value one = f32(1.0);
  Value negInf = f32(-std::numeric_limits<double>::infinity());
  Value ln2 = f32(sm80::kLn2);
  Value zeroIndex = idx(0);
  Value quadLane = arith::RemUIOp::create(b, lane, idx(sm80::kQuadSize));
  Value quadLeader = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                           quadLane, zeroIndex);
  auto pairType = VectorType::get({2}, b.getF32Type());
  auto outType = VectorType::get({2}, spec.elementType);

  for (int64_t mt = 0; mt < spec.rowTilesPerWarp(); ++mt) {
    for (int64_t half = 0; half < 2; ++half) {
      int64_t r = mt * 2 + half;
      Value sum = laneGroupSum(state.rowSum[r], sm80::kQuadSize);
      if (spec.sinks) {
        // A sink of -inf (and no key) leaves m = -inf: no share, not NaN.
        Value noMax = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                            state.rowMax[r], negInf);
        Value share = exp2(arith::SubFOp::create(b, sinkLog2, state.rowMax[r]),
                           spec.flushExponentials);
        sum = arith::AddFOp::create(
            b, sum, arith::SelectOp::create(b, noMax, zero, share));
      }
      Value empty =
          arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, sum, zero);
      Value inv = arith::SelectOp::create(
          b, empty, zero, arith::DivFOp::create(b, one, sum));
      // log2 l by the hardware's approximation (lg2.approx: one MUFU
      // instruction; absolute error below 2^-22 for the l >= 1 a row with a
      // visible key has), not the ~36-instruction polynomial.
      Value log2Sum = math::Log2Op::create(b, sum, arith::FastMathFlags::afn);
      Value lseValue;
      if (spec.sinks) {
        // sink + (m - s' + log2 l) ln 2: exactly the sink where m = s', l = 1.
        Value gap = arith::SubFOp::create(b, state.rowMax[r], sinkLog2);
        lseValue = arith::AddFOp::create(
            b, sinkLogit,
            arith::MulFOp::create(
                b, arith::AddFOp::create(b, gap, log2Sum),
                ln2));
      } else {
        lseValue = arith::MulFOp::create(
            b, arith::AddFOp::create(b, state.rowMax[r],
                                     log2Sum),
            ln2);
      }
      lseValue = arith::SelectOp::create(b, empty, negInf, lseValue);
      Value scale = vector::BroadcastOp::create(b, pairType, inv);

      Value rowInTile = add(fragRow, idx(mt * sm80::kMmaM + half * 8));
      Value row = add(add(q0, warpRow0), rowInTile);
      Value inRange =
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, row, seqQ);
      auto ifOp = scf::IfOp::create(b, inRange, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value rowBase = add(oBase, mul(row, oStrideS));
      for (int64_t dn = 0; dn < storedBlocks; ++dn) {
        Value pair = vector::ExtractOp::create(
            b, state.acc[mt * dimBlocks + dn], ArrayRef<int64_t>{half});
        pair = arith::MulFOp::create(b, pair, scale);
        Value out = arith::TruncFOp::create(b, outType, pair);
        Value col = add(idx(dn * sm80::kMmaN), fragCol);
        vector::StoreOp::create(b, out, o, ValueRange{add(rowBase, col)},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(4));
      }
      auto lseIf = scf::IfOp::create(b, quadLeader, /*withElseRegion=*/false);
      b.setInsertionPointToStart(lseIf.thenBlock());
      memref::StoreOp::create(b, lseValue, lse, ValueRange{add(lseBase, row)});
    }
  }
}
