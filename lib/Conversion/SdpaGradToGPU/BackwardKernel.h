//===- BackwardKernel.h - Builders of the SM80 backward kernels -*- C++ -*-===//
//
// The internal builders of the backward kernel bodies, defined by concern:
// KernelCommon.cpp (parameters, constants, ldmatrix fragments, mma.sync;
// shared views and cp.async tile copies through the helpers both kernels
// share, SdpaDialect/Conversion/SharedTiles.h), PreprocessKernel.cpp (Delta
// and the zeroing of dq_accum and the relay counters), MainKernel.cpp (the
// kv-tile program and its q-tile loop), Relay.cpp (the dQ adds, atomic or
// relayed), DqConvertKernel.cpp (dq_accum -> dq). BackwardModule.cpp builds
// the gpu.module from them; BackwardSpec.cpp (the spec, the parameters, the
// manifest) calls none of them, so the calls go one way:
// BackwardModule -> kernel builders -> KernelCommon -> BackwardSpec.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_LIB_CONVERSION_SDPAGRADTOGPU_BACKWARDKERNEL_H
#define SDPA_LIB_CONVERSION_SDPAGRADTOGPU_BACKWARDKERNEL_H

#include "SdpaDialect/Conversion/BandCellTest.h"
#include "SdpaDialect/Conversion/KernelArith.h"
#include "SdpaDialect/Conversion/SdpaGradToGPU.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace mlir::sdpa::detail {


/// Helpers shared by the three kernel builders.
class KernelBuilderBase : public KernelArith {
public:
  KernelBuilderBase(ImplicitLocOpBuilder &b, const BackwardKernelSpec &spec)
      : KernelArith(b), spec(spec), blockThreads(spec.threads()) {}

protected:
  /// Binds the kernel's arguments by parameter name.
  void bindArguments(gpu::GPUFuncOp func, BackwardRole role);
  /// The argument `name` as an index.
  Value argIndex(StringRef name);

  /// A [rows][cols] view of elements of `elem` type at byte `offset` of the
  /// dynamic shared memory.
  Value sharedView(int64_t offset, ArrayRef<int64_t> shape, Type elem);

  //===--- Sequences: batch entries or packed segments ----------------------===//
  /// Entry `i` of the cumulative offsets `offsets`, as an index.
  Value loadOffset(StringRef offsets, Value i);
  /// Packed sequences: the first token and the length of sequence `seq`
  /// from the cumulative offsets `offsets` (off[seq], off[seq + 1] - off[seq]).
  std::pair<Value, Value> loadSegment(StringRef offsets, Value seq);
  /// Element offset of the (sequence, head) slice of tensor `t`, whose row r
  /// is at r * t_stride_s past it: dense seq * t_stride_b + head *
  /// t_stride_h; packed first * t_stride_s + head * t_stride_h (`first`, the
  /// sequence's first token, is unused when dense).
  Value sliceBase(StringRef t, Value seq, Value first, Value head);
  /// Element offset of row 0 of LSE's (sequence, query head) row: dense
  /// [B, Hq, Sq] by its strides, seq * lse_stride_b + head * lse_stride_h;
  /// packed [Hq, T], head * lse_stride_h + first (unit row stride).
  Value lseRowBase(Value seq, Value first, Value head);
  /// LSE * log2(e) (+inf for a row that sees no key, LSE = -inf, or lies
  /// past Sq: P = exp2(s - inf) = 0 there) and Delta (0 past Sq) of query
  /// row `row`, with `inBounds` = row < Sq; `lseBase`, `rowsBase` as
  /// lseRowBase and rowStatsBase give them.
  std::pair<Value, Value> loadRowStat(Value lseBase, Value rowsBase, Value row,
                                      Value inBounds);
  /// The f32 constants of recomputeProbability, formed once per visit:
  /// scale log2(e), or with a cap c, scale / c, c log2(e) and 1.
  struct ProbabilityConstants {
    Value scaleLog2, inner, outer, one;
  };
  ProbabilityConstants getProbabilityConstants();
  /// P of one cell from its score `s` (Q K^T, unscaled) and its row's
  /// -LSE log2(e): exp2(s scale log2(e) - LSE log2(e)), or with a cap c
  /// exp2(c tanh(s scale / c) log2(e) - LSE log2(e)), when `slope` is set to
  /// the cap's derivative 1 - tanh^2 (docs/Semantics.md §7).
  Value recomputeProbability(const ProbabilityConstants &constants, Value s,
                             Value negLse2, Value *slope);

  /// Index of row 0 of the (sequence, query head) rows of delta (of dq_accum,
  /// times head_dim), consecutive rows adjacent: dense [B, Hq, Sq],
  /// (seq * Hq + head) * Sq; packed [Hq, T] like LSE, head * T + first with
  /// T = cu_seqlens_q[batch].
  Value rowStatsBase(Value seq, Value first, Value head, Value headsQ,
                     Value seqQ);

  /// Issues cp.async copies of a [tileRows][head_dim] tile whose first row
  /// is `row0` of the slice at element offset `base` of `global` (row stride
  /// `strideS`) into the padded shared tile `smem` (at `stage` of a staged
  /// buffer, [stages][rows][columns]). Rows at or past `limit`, and every
  /// row when `enabled` (an optional i1) is false, are zero-filled. Returns
  /// the async group token.
  Value copyTileAsync(Value global, Value base, Value strideS, Value row0,
                      Value limit, Value smem, int64_t tileRows,
                      Value stage = Value(), Value enabled = Value());
  /// Waits until all cp.async groups have landed.
  void waitAll(Value group);

  /// What a fetch leaves for after the step that issued it has computed
  /// (bwd_main stores the row stats it loaded); may be empty.
  using FetchFinish = std::function<void()>;
  /// Issues the copies of step `index`'s tiles into shared stage `stage`;
  /// `enabled` (an optional i1) false: a fetch past the walk's end, whose
  /// index repeats the last step's so that every coordinate stays in range,
  /// zero-fills.
  using StepFetch =
      function_ref<FetchFinish(Value index, Value stage, Value enabled)>;
  /// Step `index` on its tiles in `stage`: returns the new loop values.
  using StepCompute = function_ref<SmallVector<Value>(
      Value index, Value stage, ValueRange iterArgs)>;
  /// The loop over [begin, end) of a kernel that streams one tile per step
  /// through `stages` (1 or 2) shared stages, step i's in stage i mod
  /// stages. With 2 the first step's tiles are fetched before the loop
  /// (when it runs), and step i waits for its tiles, passes a barrier
  /// (every warp is done with step i - 1, whose stage step i + 1 takes),
  /// fetches step i + 1's, computes, then finishes that fetch. With 1 step
  /// i passes a barrier, fetches its own tiles, waits, passes a barrier and
  /// computes. Every copy has landed after the loop. `group` names any copy
  /// group (a wait counts groups).
  scf::ForOp emitStreamedWalk(Value begin, Value end, int64_t stages,
                              Value group, ValueRange init, StepFetch fetch,
                              StepCompute compute);

  /// ldmatrix of the A fragment (16 x 16) at [row0, col0] of `smem` (of its
  /// `stage`, when staged).
  Value loadA(Value smem, Value row0, Value col0, Value stage = Value());
  /// ldmatrix of a B fragment (n = 8 rows of `smem`, k = 16 columns) at
  /// [row0, col0]: the rows are the mma's n, the columns its k.
  Value loadB(Value smem, Value row0, Value col0, Value stage = Value());
  /// Transposed ldmatrix of a B fragment whose k = 16 rows start at `row0`
  /// and n = 8 columns at `col0` of `smem`.
  Value loadBTransposed(Value smem, Value row0, Value col0,
                        Value stage = Value());
  /// The B fragments of n blocks j = 0 .. count - 1 of `smem`, block j at
  /// rows [row0(j), row0(j) + 8) and k = 16 columns from `col0`, each handed
  /// to `use(j, fragment)` as it is loaded. Consecutive blocks must be
  /// adjacent rows (row0(j + 1) = row0(j) + 8): two come from one ldmatrix
  /// x4 (LdMatrixShape::bPairAlongN), the last alone when count is odd.
  void forEachB(Value smem, function_ref<Value(int64_t)> row0, Value col0,
                Value stage, int64_t count,
                function_ref<void(int64_t, Value)> use);
  /// The transposed B fragments of n blocks j = 0 .. count - 1, k = 16 rows
  /// from `row0` and n = 8 columns from col0(j) (col0(j + 1) = col0(j) + 8),
  /// two per ldmatrix x4 .trans (bTransposedPair) unless `paired` is false
  /// (one x2 each), as forEachB.
  void forEachBTransposed(Value smem, Value row0,
                          function_ref<Value(int64_t)> col0, Value stage,
                          int64_t count,
                          function_ref<void(int64_t, Value)> use,
                          bool paired = true);
  /// One m16n8k16 product with f32 accumulation.
  Value mma(Value a, Value bFrag, Value c);
  /// The A fragment (16 x 16, element type) formed by two adjacent
  /// accumulator fragments (16 x 8 each) of f32 values.
  Value accumulatorsToA(Value lo, Value hi);
  Value zeroAccumulator();
  /// Element [i][j] of an accumulator fragment and its replacement.
  Value extract(Value frag, int64_t i, int64_t j);
  Value insert(Value value, Value frag, int64_t i, int64_t j);

  Value lane();

  /// `frags` (f32 accumulator fragments) with the cells outside the band
  /// zeroed when `edge` holds; an interior visit branches around the mask
  /// (an scf.if tagged sdpa.band_mask). `makeTest` builds the thread's band
  /// test inside the branch; element (i, e) of fragment j is the cell at
  /// offsets `offsets(j, i, e)` = (query, key) of that test.
  SmallVector<Value> emitBandMask(
      ArrayRef<Value> frags, Value edge,
      function_ref<BandCellTest()> makeTest,
      function_ref<std::pair<int64_t, int64_t>(int64_t, int64_t, int64_t)>
          offsets);

  const BackwardKernelSpec &spec;
  /// Threads of the kernel being built (the tile copies spread over them):
  /// bwd_main's unless a builder sets its own.
  int64_t blockThreads;
  llvm::StringMap<Value> args;
  Value tid;
};

/// Builds the body of the preprocessing kernel.
void buildPreprocessKernel(ImplicitLocOpBuilder &b,
                           const BackwardKernelSpec &spec,
                           gpu::GPUFuncOp func);
/// Builds the body of the main (kv-tile) kernel.
void buildMainKernel(ImplicitLocOpBuilder &b, const BackwardKernelSpec &spec,
                     gpu::GPUFuncOp func);
/// Builds the body of the dQ conversion kernel.
void buildDqConvertKernel(ImplicitLocOpBuilder &b,
                          const BackwardKernelSpec &spec, gpu::GPUFuncOp func);
/// Builds the body of the dQ kernel that recomputes P and dS per query tile.
void buildDqKernel(ImplicitLocOpBuilder &b, const BackwardKernelSpec &spec,
                   gpu::GPUFuncOp func);

} // namespace mlir::sdpa::detail

#endif // SDPA_LIB_CONVERSION_SDPAGRADTOGPU_BACKWARDKERNEL_H
