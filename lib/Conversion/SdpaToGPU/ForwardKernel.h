//===- ForwardKernel.h - Builder of the SM80 forward kernel -----*- C++ -*-===//
//
// The internal builder of the forward kernel body. Its member functions are
// defined by concern: GlobalToShared.cpp (cp.async tile copies),
// Fragments.cpp (ldmatrix loads), MmaTiles.cpp (mma.sync tile products),
// OnlineSoftmax.cpp (mask, running max and sum, rescale), Epilogue.cpp
// (normalize and store O and LSE), PackedSequences.cpp (per-sequence extents
// of THD), WarpWindows.cpp (the key walk of ForwardKernelSpec::warpWindows),
// ForwardKernel.cpp (setup and tile loops).
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_LIB_CONVERSION_SDPATOGPU_FORWARDKERNEL_H
#define SDPA_LIB_CONVERSION_SDPATOGPU_FORWARDKERNEL_H

#include "SdpaDialect/Conversion/KernelArith.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Conversion/WindowWalkIR.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::sdpa::detail {

/// The loop-carried state of the online softmax of one thread: per owned row
/// (rowTilesPerWarp x 2 rows) the running max (exp2 domain) and the
/// thread-partial sum, and per (row tile, 8-column block of head_dim) the
/// output accumulator fragment vector<2x2xf32>.
struct SoftmaxState {
  SmallVector<Value> rowMax;
  SmallVector<Value> rowSum;
  SmallVector<Value> acc;

  SmallVector<Value> flatten() const;
  static SoftmaxState unflatten(ValueRange values, int64_t rows,
                                int64_t accs);
};

/// What a key tile's cells are tested for: nothing (interior tiles), the
/// band (edge tiles wholly inside the key length), or the band and the key
/// length (the tile holding Skv).
enum class TileMask { None, Band, BandAndKeys };

/// Where the 16-key blocks of a step's keys lie in the K and V stages: block
/// kc at row row[kc] of stage stage[kc]. A key tile is one stage at rows
/// 0, 16, ...; a warp window (ForwardKernelSpec::warpWindows) may start
/// half-way into one stage and end in the next.
struct KeyBlocks {
  SmallVector<Value> stage, row;
};

/// Scores of one key tile for one thread: scalars f32 indexed
/// [rowTile][half][colBlock][elem] (see ForwardKernelBuilder::scoreIndex).
using Scores = SmallVector<Value>;

class ForwardKernelBuilder : public KernelArith {
public:
  ForwardKernelBuilder(ImplicitLocOpBuilder &b, const ForwardKernelSpec &spec)
      : KernelArith(b), spec(spec) {}

  /// Emits the whole body of `func` (its entry block is the insertion point).
  void build(gpu::GPUFuncOp func);

private:
  //===--- ForwardKernel.cpp: setup and loops ------------------------------===//
  void emitSetup(gpu::GPUFuncOp func);
  void emitScheduleBounds();
  /// The prologue and key walk over the program's key tiles (the edge,
  /// interior and key-tail loops): returns the state after the last tile.
  SoftmaxState emitTileWalk();
  /// The steps [lo, hi) as one loop; `copiesNext` false: window steps copy
  /// no tile (emitWindowStep).
  Value emitTileLoop(Value lo, Value hi, TileMask mask, SoftmaxState &state,
                     bool copiesNext = true);
  void emitKvStep(Value u, TileMask mask, SoftmaxState &state,
                  bool copiesNext = true);
  /// The copy groups a step's waits leave in flight: with K and V a group
  /// each per tile and the tiles up to u + stages - 2 issued, V(u) (or
  /// K(u + stages - 1)) and the 2 (stages - 2) groups after it.
  int64_t pendingKvGroups() const;
  SoftmaxState initialState();

  //===--- WarpWindows.cpp ------------------------------------------------===//
  /// The prologue and key walk of spec.warpWindows: returns the state after
  /// the last window.
  SoftmaxState emitWindowWalk();
  /// Copies K and V of tile `i` of the walk (global tile windowTile0 + i)
  /// into stage i mod stages.
  void copyWindowTile(Value i);
  /// The copy groups a window step's wait leaves in flight: the tiles past
  /// the step's span.
  int64_t pendingWindowGroups() const;
  /// Window `j` of this warp, masked as `mask` says; `firstStep`: the
  /// walk's first, from initialState(); `copiesNext` false: tile j +
  /// stages - 1 is past every tile the walk reads and is not copied.
  void emitWindowStep(Value j, TileMask mask, SoftmaxState &state,
                      bool firstStep = false, bool copiesNext = true);

  //===--- PackedSequences.cpp --------------------------------------------===//
  /// Reads sequence `sequence`'s extents off the cumulative offsets
  /// `cuSeqlensQ`, `cuSeqlensKv`: sets seqQ, seqKv (its lengths) and
  /// qFirstToken, kvFirstToken (its first rows in the packed tensors).
  void loadSequenceExtents(Value cuSeqlensQ, Value cuSeqlensKv,
                           Value sequence);
  /// Opens `scf.if q0 < seqQ` (the query tile holds rows of the sequence) and
  /// moves the insertion point into it; the kernel body goes inside.
  void openSequenceGuard();

  //===--- GlobalToShared.cpp ---------------------------------------------===//
  /// Issues cp.async copies of `tileRows` rows x head_dim starting at row
  /// `row0` of the (batch or packed sequence, head) slice at `base` of
  /// `global` into `smem` (indexed by `smemLead` then row and column). Rows
  /// at or past `limit`, or all rows when `enabled` is false, are
  /// zero-filled. Returns the group.
  Value copyTileAsync(Value global, Value base, Value strideS, Value row0,
                      Value limit, Value enabled, Value smem,
                      ValueRange smemLead, int64_t tileRows);
  /// Copies key/value tile `u` into `stage` of `smem`; tiles at or past
  /// kv_end are zero-filled (their reads are skipped).
  Value copyKvTileAsync(Value global, Value base, Value strideS, Value u,
                        Value smem, Value stage);
  /// Copies K and V of tile `u` into `stage` (copyKvTileAsync, a group
  /// each).
  void copyKeyValueTileAsync(Value u, Value stage);
  void waitGroups(int64_t pending);

  //===--- Fragments.cpp --------------------------------------------------===//
  /// The Q A-fragment of row tile `mt` for the k16 block `kk`.
  Value loadQueryFragment(int64_t mt, int64_t kk);
  /// Q A-fragments [rowTile][k16 block], loaded once (resident Q only).
  SmallVector<Value> loadQueryFragments();
  /// K B-fragments of key block j (8 keys) for the k16 blocks 2*kk2, 2*kk2+1.
  std::pair<Value, Value> loadKeyFragmentPair(const KeyBlocks &keys,
                                              int64_t j, int64_t kk2);
  /// The stage and first row of 8-key block `j` of `keys`.
  std::pair<Value, Value> keyBlockRow(const KeyBlocks &keys, int64_t j);
  /// The K B-fragment of key block j (8 keys) for the k16 block kk alone.
  Value loadKeyFragment(const KeyBlocks &keys, int64_t j, int64_t kk);
  /// V B-fragments (transposed load) of key block kc (16 keys) for the
  /// head_dim blocks 2*dn2, 2*dn2+1.
  std::pair<Value, Value> loadValueFragmentPair(const KeyBlocks &keys,
                                                int64_t kc, int64_t dn2);

  //===--- MmaTiles.cpp ---------------------------------------------------===//
  /// One m16n8k16 product with f32 accumulation.
  Value mma(Value a, Value bFrag, Value c);
  /// The 16-key blocks of the key tile in `stage`.
  KeyBlocks tileBlocks(Value stage);
  /// S = Q K^T for the keys `keys` locates, as scalars.
  Scores computeScores(const KeyBlocks &keys);
  /// acc += P V for the keys `keys` locates.
  void accumulateValues(ArrayRef<Value> pFrags, const KeyBlocks &keys,
                        SoftmaxState &state);

  //===--- OnlineSoftmax.cpp ----------------------------------------------===//
  int64_t scoreIndex(int64_t rowTile, int64_t half, int64_t colBlock,
                     int64_t elem) const;
  /// Caps the scores into the exp2 domain (softcap only: without a cap
  /// they stay raw, and updateSoftmax folds the scale in), and sets the
  /// cells `mask` tests and finds invisible to -inf: outside the band
  /// (Band), or outside the band or past Skv (BandAndKeys).
  void capAndMask(Scores &scores, Value k0, TileMask mask);
  /// Updates max/sum, rescales the accumulator, returns P as A-fragments
  /// [rowTile][k16 block of keys].
  /// `everyRowSeesAKey`: an unmasked tile, whose every row has a visible
  /// key, so that no row's max can stay -inf.
  /// `firstStep`: the state is initialState()'s (O and l are 0), so O and
  /// l are not rescaled.
  SmallVector<Value> updateSoftmax(Scores &scores, SoftmaxState &state,
                                   bool everyRowSeesAKey,
                                   bool firstStep = false);
  /// O *= alpha per owned row, `makeAlphas` giving alpha a row: with
  /// spec.lazyRescale in a branch the warp takes when `anyGrows` (i1) holds
  /// for one of its threads (docs/Semantics.md §2.6), else unconditionally.
  /// With spec.leanSteps the branch forms alpha and rescales l too.
  void rescaleAccumulators(function_ref<SmallVector<Value>()> makeAlphas,
                           Value anyGrows, SoftmaxState &state);

  //===--- Epilogue.cpp ---------------------------------------------------===//
  void emitEpilogue(SoftmaxState &state);

  const ForwardKernelSpec &spec;

  // Kernel arguments and derived values (index unless noted).
  Value q, k, v, o, lse; // flat memrefs
  Value seqQ, seqKv, delta;
  Value qFirstToken, kvFirstToken; // packed sequences only
  Operation *sequenceGuard = nullptr; // packed sequences only
  Value qBase, kBase, vBase, oBase, lseBase;
  Value qStrideS, kStrideS, vStrideS, oStrideS;
  Value tid, lane, warpRow0, q0;
  Value fragRow, fragCol; // lane / 4 and 2 * (lane % 4)
  Value qSmem, kSmem, vSmem;
  Value kvBegin, kvEnd, interiorBegin, interiorEnd;
  // spec.warpWindows: this warp's first window key, the walk's first global
  // tile, and per 16-key block of a window its tile (at step 0) and row.
  Value windowStart, windowTile0;
  WindowBlocks windowBlocks;
  Value sinkLogit, sinkLog2; // sinks[head] and times log2(e) (spec.sinks)
  Value asyncGroup; // a group token for the waits (their count is what counts)
  SmallVector<Value> qFrags;
};

} // namespace mlir::sdpa::detail

#endif // SDPA_LIB_CONVERSION_SDPATOGPU_FORWARDKERNEL_H
