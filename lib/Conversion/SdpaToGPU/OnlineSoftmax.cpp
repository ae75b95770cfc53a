//===- OnlineSoftmax.cpp - Band mask and the exp2-domain online softmax ---===//
//
// Per thread and owned row (row tile mt, half h: row g + 8h of the mma tile,
// g = lane / 4), the scores of one key tile are masked in edge tiles and
// folded into the running max m and sum l, in the exp2 domain of
// f = scale * log2(e):
//
//   t     = f * max_k S[k]                 (quad-reduced with gpu.shuffle;
//                                           f > 0 and rounding is monotonic,
//                                           so this is max_k fl(f S[k]))
//   grow  = t > m + 8                      (docs/Semantics.md §2.6)
//   m'    = grow ? t : m
//   base  = m' == -inf ? 0 : m'            (no visible key yet: no NaN)
//   alpha = grow ? exp2(m - base) : 1,  P[k] = exp2(fma(S[k], f, -base))
//   l'    = alpha * l + sum_k P[k]         (thread-partial; reduced at the end)
//   O'    = alpha * O                      (skipped when no row of the warp
//                                           grows: nvvm.vote.sync any)
//
// The reference max m only moves when a tile's max passes it by more than
// 2^8 in P, so P <= 2^8 and, past the first tiles of a row, the rescale of
// O (head_dim / 4 multiplies a row tile) is rarely executed. O and l share
// m, so the result is the same softmax; m is monotone, so a sink's share
// exp2(s' - m) stays <= 1. Warps of two row tiles
// (!ForwardKernelSpec::lazyRescale) keep m' = max(m, t), alpha = exp2(m -
// base) and multiply O every tile.
//
// A masked cell is a true -inf, so its P is exactly 0. With a softcap c the
// scores are capped into the exp2 domain before the mask (docs/Semantics.md
// §7), S' = c * log2(e) * tanh(scale * S / c), and P[k] = exp2(S'[k] - base).
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"

#include "SdpaDialect/Conversion/BandCellTest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

int64_t ForwardKernelBuilder::scoreIndex(int64_t rowTile, int64_t half,
                                         int64_t colBlock, int64_t elem) const {
  int64_t colBlocks = spec.tiles.kv / sm80::kMmaN;
  return ((rowTile * 2 + half) * colBlocks + colBlock) * 2 + elem;
}

void ForwardKernelBuilder::capAndMask(Scores &scores, Value k0, TileMask mask) {
  if (spec.softcap) {
    Value inner = f32(spec.scale / *spec.softcap);
    Value outer = f32(*spec.softcap * sm80::kLog2e);
    for (Value &score : scores) {
      Value capped =
          math::TanhOp::create(b, arith::MulFOp::create(b, score, inner));
      score = arith::MulFOp::create(b, capped, outer);
    }
  }
  // Without a cap the scores stay raw here: updateSoftmax scales the row
  // maxima and folds the scale into P's exponent (one fma a cell).
  if (mask == TileMask::None)
    return;

  // Cell (row, col) of this thread: row = q0 + warpRow0 + 16 mt + g + 8 h,
  // col = k0 + 2 (lane % 4) + 8 j + e: a per-thread row and column plus
  // compile-time offsets.
  Value threadKey = add(k0, fragCol);
  Value threadQuery = add(add(q0, warpRow0), fragRow);
  BandCellTest band(*this, spec.band, threadQuery, threadKey, delta,
                    mask == TileMask::BandAndKeys ? seqKv : Value(),
                    /*narrow=*/false,
                    /*wrap=*/spec.leanSteps && mask == TileMask::Band);
  Value negInf = f32(-std::numeric_limits<double>::infinity());
  int64_t colBlocks = spec.tiles.kv / sm80::kMmaN;
  for (int64_t mt = 0; mt < spec.rowTilesPerWarp(); ++mt) {
    for (int64_t half = 0; half < 2; ++half) {
      for (int64_t j = 0; j < colBlocks; ++j) {
        for (int64_t e = 0; e < 2; ++e) {
          Value visible =
              band.visible(mt * sm80::kMmaM + half * 8, j * sm80::kMmaN + e);
          Value &score = scores[scoreIndex(mt, half, j, e)];
          score = arith::SelectOp::create(b, visible, score, negInf);
        }
      }
    }
  }
}

void ForwardKernelBuilder::rescaleAccumulators(
    function_ref<SmallVector<Value>()> makeAlphas, Value anyGrows,
    SoftmaxState &state) {
  // O *= alpha, row by row of each accumulator fragment: lazily when a row
  // of the warp grows its max (a warp-uniform branch; other rows multiply
  // by 1), else every key tile. With spec.leanSteps the branch also forms
  // alpha and rescales l, which the rows then only add their tile's sum to.
  int64_t rowTiles = spec.rowTilesPerWarp();
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  int64_t dimBlocks = spec.mmaHeadDim / sm80::kMmaN;
  auto scaleAll = [&](ArrayRef<Value> alphas) {
    SmallVector<Value> scaled;
    for (int64_t mt = 0; mt < rowTiles; ++mt) {
      Value a0 = alphas[mt * 2], a1 = alphas[mt * 2 + 1];
      Value rowFactor = vector::FromElementsOp::create(
          b, accType, ValueRange{a0, a0, a1, a1});
      for (int64_t dn = 0; dn < dimBlocks; ++dn)
        scaled.push_back(arith::MulFOp::create(
            b, state.acc[mt * dimBlocks + dn], rowFactor));
    }
    return scaled;
  };
  if (!spec.lazyRescale) {
    state.acc = scaleAll(makeAlphas());
    return;
  }
  Value warpGrows = NVVM::VoteSyncOp::create(
      b, b.getI1Type(),
      arith::ConstantOp::create(
          b, b.getI32IntegerAttr(int32_t(sm80::kFullWarpMask))),
      anyGrows, NVVM::VoteSyncKind::any);
  SmallVector<Value> carried(state.acc);
  if (spec.leanSteps)
    llvm::append_range(carried, state.rowSum);
  auto rescale = scf::IfOp::create(b, ValueRange(carried).getTypes(),
                                   warpGrows, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&rescale.getElseRegion().front());
    scf::YieldOp::create(b, carried);
    b.setInsertionPointToStart(&rescale.getThenRegion().front());
    SmallVector<Value> alphas = makeAlphas();
    SmallVector<Value> scaled = scaleAll(alphas);
    if (spec.leanSteps)
      for (auto [sum, alpha] : llvm::zip(state.rowSum, alphas))
        scaled.push_back(arith::MulFOp::create(b, sum, alpha));
    scf::YieldOp::create(b, scaled);
  }
  ValueRange results = rescale.getResults();
  state.acc.assign(results.begin(), results.begin() + state.acc.size());
  if (spec.leanSteps)
    state.rowSum.assign(results.begin() + state.acc.size(), results.end());
}

SmallVector<Value> ForwardKernelBuilder::updateSoftmax(Scores &scores,
                                                       SoftmaxState &state,
                                                       bool everyRowSeesAKey,
                                                       bool firstStep) {
  int64_t rowTiles = spec.rowTilesPerWarp();
  int64_t colBlocks = spec.tiles.kv / sm80::kMmaN;
  Value negInf = f32(-std::numeric_limits<double>::infinity());
  Value zero = f32(0.0);
  // Raw scores (no cap): the exp2 domain is score * scale * log2(e). The
  // factor is positive, so the tile maximum scales exactly like its cells
  // (rounding is monotonic), and P = exp2(fma(s, factor, -base)).
  Value factor = spec.softcap ? Value() : f32(spec.scale * sm80::kLog2e);
  Value growth = spec.lazyRescale ? f32(sm80::kSoftmaxMaxGrowthLog2) : Value();
  Value one = spec.lazyRescale ? f32(1.0) : Value();
  // Lazy with spec.leanSteps: alpha is formed in the rescale branch only.
  bool alphaInBranch = spec.lazyRescale && spec.leanSteps;
  Value anyGrows; // i1: some row of this thread moves its max
  SmallVector<Value> oldMax(state.rowMax), grows(rowTiles * 2),
      bases(rowTiles * 2), alphas;
  // Row r's alpha = exp2(m - base) (lazy: 1 where the row does not grow).
  auto makeAlpha = [&](int64_t r) {
    Value alpha = exp2(arith::SubFOp::create(b, oldMax[r], bases[r]),
                       spec.flushExponentials);
    if (grows[r])
      alpha = arith::SelectOp::create(b, grows[r], alpha, one);
    return alpha;
  };
  // Row r = 2 mt + half: its max, base and (unless in the branch) alpha.
  auto rowStatistics = [&](int64_t mt, int64_t half) {
    int64_t r = mt * 2 + half;
    Value tileMax = scores[scoreIndex(mt, half, 0, 0)];
    for (int64_t j = 0; j < colBlocks; ++j)
      for (int64_t e = 0; e < 2; ++e)
        if (j || e)
          tileMax = arith::MaxNumFOp::create(
              b, tileMax, scores[scoreIndex(mt, half, j, e)]);
    // A row's cells are spread over the 4 lanes of a quad.
    tileMax = laneGroupReduce(tileMax, sm80::kQuadSize, LaneCombine::Max);
    if (factor)
      tileMax = arith::MulFOp::create(b, tileMax, factor);
    // Lazy: a row without a visible key so far (t = m = -inf) does not
    // grow (-inf > -inf is false). Else m' = max(m, t).
    Value grow;
    if (spec.lazyRescale)
      grow = arith::CmpFOp::create(
          b, arith::CmpFPredicate::OGT, tileMax,
          arith::AddFOp::create(b, state.rowMax[r], growth));
    Value newMax =
        grow ? Value(arith::SelectOp::create(b, grow, tileMax, state.rowMax[r]))
             : Value(arith::MaxNumFOp::create(b, state.rowMax[r], tileMax));
    // base = m', or 0 while the row has seen no key (m' = -inf: no NaN);
    // a tile whose every cell is visible gives every row a finite max.
    Value base = newMax;
    if (!(everyRowSeesAKey && spec.leanSteps)) {
      Value noKey =
          arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, newMax, negInf);
      base = arith::SelectOp::create(b, noKey, zero, newMax);
    }
    grows[r] = grow;
    bases[r] = base;
    if (!alphaInBranch)
      alphas.push_back(makeAlpha(r));
    if (grow)
      anyGrows =
          anyGrows ? Value(arith::OrIOp::create(b, anyGrows, grow)) : grow;
    state.rowMax[r] = newMax;
  };
  auto makeAlphas = [&]() {
    if (!alphaInBranch)
      return alphas;
    SmallVector<Value> formed;
    for (int64_t r = 0; r < rowTiles * 2; ++r)
      formed.push_back(makeAlpha(r));
    return formed;
  };
  // Row r's P = exp2(S f - base) in place of its scores, and its sum (lean:
  // from its first P; 0 + P is an add, -0 + 0 not being an identity).
  auto rowExponentials = [&](int64_t mt, int64_t half) {
    int64_t r = mt * 2 + half;
    Value negBase = arith::NegFOp::create(b, bases[r]);
    Value sum = spec.leanSteps ? Value() : zero;
    for (int64_t j = 0; j < colBlocks; ++j) {
      for (int64_t e = 0; e < 2; ++e) {
        Value &score = scores[scoreIndex(mt, half, j, e)];
        Value exponent =
            factor ? Value(math::FmaOp::create(b, score, factor, negBase))
                   : Value(arith::AddFOp::create(b, score, negBase));
        score = exp2(exponent, spec.flushExponentials);
        sum = sum ? Value(arith::AddFOp::create(b, sum, score)) : score;
      }
    }
    // l' = alpha l + sum (alpha l formed in the branch, or here).
    Value scaledSum =
        alphaInBranch
            ? state.rowSum[r]
            : Value(arith::MulFOp::create(b, state.rowSum[r], alphas[r]));
    state.rowSum[r] = arith::AddFOp::create(b, scaledSum, sum);
  };
  // Lazy: every row's statistics, the branch, then P (fewer registers live
  // across the branch). Else row by row, then O *= alpha.
  for (int64_t mt = 0; mt < rowTiles; ++mt) {
    for (int64_t half = 0; half < 2; ++half) {
      rowStatistics(mt, half);
      if (!spec.lazyRescale)
        rowExponentials(mt, half);
    }
  }
  // The first step's O and l are 0: any alpha leaves them 0.
  if (!firstStep)
    rescaleAccumulators(makeAlphas, anyGrows, state);
  if (spec.lazyRescale)
    for (int64_t mt = 0; mt < rowTiles; ++mt)
      for (int64_t half = 0; half < 2; ++half)
        rowExponentials(mt, half);

  // P as A fragments of P V: registers (g, k0..7), (g+8, k0..7),
  // (g, k8..15), (g+8, k8..15) of each 16-key block.
  auto pairType = VectorType::get({2}, b.getF32Type());
  auto outPairType = VectorType::get({2}, spec.elementType);
  auto fragType = VectorType::get({4, 2}, spec.elementType);
  Value fragZero = arith::ConstantOp::create(
      b, fragType,
      DenseElementsAttr::get(fragType, b.getZeroAttr(spec.elementType)));
  SmallVector<Value> frags;
  for (int64_t mt = 0; mt < rowTiles; ++mt) {
    for (int64_t kc = 0; kc < spec.tiles.kv / sm80::kMmaK; ++kc) {
      Value frag = fragZero;
      int64_t reg = 0;
      for (int64_t jj = 0; jj < 2; ++jj) {
        for (int64_t half = 0; half < 2; ++half, ++reg) {
          Value pair = vector::FromElementsOp::create(
              b, pairType,
              ValueRange{scores[scoreIndex(mt, half, 2 * kc + jj, 0)],
                         scores[scoreIndex(mt, half, 2 * kc + jj, 1)]});
          Value narrow = arith::TruncFOp::create(b, outPairType, pair);
          frag =
              vector::InsertOp::create(b, narrow, frag, ArrayRef<int64_t>{reg});
        }
      }
      frags.push_back(frag);
    }
  }

  return frags;
}
