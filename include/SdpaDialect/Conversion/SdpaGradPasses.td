//===- SdpaGradPasses.td - sdpa backward lowering passes ---*- tablegen -*-===//

#ifndef SDPA_GRAD_PASSES_TD
#define SDPA_GRAD_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSdpaGradToGPU : Pass<"convert-sdpa-grad-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower sdpa.attention_grad to SM80 gpu.module kernels";
  let description = [{
    For every `sdpa.attention_grad` (layouts `bhsd`, `bshd` and `thd`,
    static or dynamic lengths, GQA, f16 or bf16, head_dim a multiple of 8
    up to 256, the schema's table, computed at its mma width: rounded up to
    16; dense per-batch
    `seqlens` are refused) emits a
    `gpu.module @sdpa_bwd_<i>` with three kernels, launched in this order:

    * `sdpa_bwd_preprocess`, grid `(ceil(Sq / Tq), Hq, B)`, 128 threads:
      `delta[b, h, q] = sum_d dO[b, h, q, d] * O[b, h, q, d]` (f32), zeroes
      the rows of `dq_accum` and, with `deterministic`, the relay counter
      `relay_counters[b, h, t]` (the runtime needs no memset);
    * `sdpa_bwd_main`, grid `(ceil(Skv / Tk), Hkv, B)`, `Tk / 16` warps
      (`Tk / 8` above mma width 128, whose visits are split, below;
      `Tk / 32` with dQ recomputed up to mma width 64 at `Tq <= 32`, a
      warp holding two m16 key row tiles, so that each Q and dO fragment it
      reads feeds two `mma.sync`):
      key tile `u = blockIdx.x` walks, for each query head of its kv head in
      ascending order, exactly the query tiles `[q_begin(u), q_end(u))`
      in descending order (`affine.max`/`affine.min` of the schedule's maps):
      one loop over `n` in `[0, G * (q_end - q_begin))` (`G` query heads a kv
      head), visiting query head `n floordiv (q_end - q_begin)` at tile
      `q_end - 1 - n mod (q_end - q_begin)`. Up to `D = 128`, Q, dO,
      LSE and delta have two shared stages, and the next visit's are
      fetched (cp.async; row stats held in registers) while the current one
      computes; else each visit fetches its own. Per
      tile it recomputes `P = exp2(scale * log2(e) * S - log2(e) * LSE)` (0
      outside the band and for LSE = -inf), `dS = P * (dP - delta)`,
      accumulates `dV += P^T dO` and `dK += dS^T Q` in registers
      (m16n8k16, f32: `nvgpu.mma.sync` for f16, `nvvm.mma.sync` for bf16)
      (up to `D = 128` every column; above, in one walk whose visits are
      split: the two warps of a key block each form S, dP, P and dS of its
      keys against half of the query tile over all of `D`, store `P^T` and
      `dS^T` to shared memory and, after a barrier, each accumulates its
      half of the columns of dK and dV from them)
      and adds `scale * dS K` into the f32
      `dq_accum` with relaxed atomics. dK (times scale) and dV are stored
      once; a key tile with an empty range stores zeros. Edge visits mask P
      cell by cell; visits of `[q_interior_begin(u), q_interior_end(u))`
      (a full key tile whose every key every row sees) branch around the
      mask.
      With `deterministic`, the adds of key tile `u` into query tile `t`
      wait (`ld.acquire.gpu`, thread 0) until `relay_counters[b, h, t]`
      equals the relay turn `u - kv_first(t)` (an `affine.min` of the
      schedule's `relay_turn` map), then, after a fence and a barrier,
      store `turn + 1` (`st.release.gpu`): the partials are added in
      ascending key-tile order and dQ is bitwise repeatable.
    * `sdpa_bwd_dq_convert`, grid `(ceil(Sq / Tq), Hq, B)`, 128 threads:
      `dQ = element_type(dq_accum)`.

    That is `dq-mode=accumulate`. With `dq-mode=recompute`
    (docs/Semantics.md §4.5) bwd_preprocess forms only delta, bwd_main only
    dK and dV (no dS tile written, no adds), and the third kernel is
    `sdpa_bwd_dq`, grid `(ceil(Sq / Tq), Hq, B)`, one warp per `r` m16 row
    tiles (`Tq / (16 r)` warps; `r = 2`, 32 query rows a warp, up to
    head_dim 64 when Tq is a multiple of 32 of at least 64, else `r = 1`):
    query tile `t = blockIdx.x` keeps
    Q and dO in shared memory and walks exactly the key tiles
    `[kv_begin(t), kv_end(t))` of the forward's schedule in ascending
    order (up to head_dim 96 with K and V in two shared stages, the next
    tile's fetched while the current one computes), per key tile (in
    chunks of `64 / r` keys) recomputing
    `P = exp2(scale * log2(e) * S - log2(e) * LSE)` and
    `dS = P * (dP - delta)` (the cap's derivative with a softcap) and adding
    `dS K` into a register dQ, edge visits masked, interior visits
    `[kv_interior_begin(t), kv_interior_end(t))` not; it stores
    `scale * dQ` once and, with sinks, program `(0, h, 0)` sums head h's
    dsink partials. No kernel takes `dq_accum` or `relay_counters`: dQ is
    bitwise repeatable in either `deterministic` setting. Above head_dim
    128 only with tile-kv at most 32 (and at mma widths 208, 224 and 240
    computed at 256, where bwd_dq does not spill). `dq-mode=default` takes
    the rule of `lib/Analysis/KernelDefaults.cpp`: recompute (on any band,
    deterministic or not) except for a capped non-deterministic backward on
    a band wider than 512 keys up to head_dim 128, which accumulates.

    Workspaces: `delta` is `[B, Hq, Sq]` f32, `dq_accum` `[B, Hq, Sq, D]`
    f32 (dQ accumulated), `relay_counters` `[B, Hq, ceil(Sq / Tq)]` i32
    (dQ relayed), all contiguous.

    Packed sequences (`thd`, manifest `varlen 1`): `B` is the number of
    sequences `N` and the grids span the longest sequence (`seq_q`, `seq_kv`
    are the maximum lengths). Program `z = i` reads sequence `i`'s first
    tokens and lengths `Sq_i`, `Skv_i` from `cu_seqlens_q`/`cu_seqlens_kv`;
    the bounds, the band's alignment and the relay turn use `Sq_i`, `Skv_i`
    as their symbols. A main program whose key tile starts at or past `Skv_i`
    returns before any write; tiles past `Sq_i` in the row kernels only zero
    their relay counter. `delta` is `[Hq, T]` and `dq_accum` `[Hq, T, D]`
    (`T = cu_seqlens_q[N]`, one row per LSE entry), `relay_counters`
    `[N, Hq, ceil(seq_q / Tq)]`. The
    tile sizes are those of the op's `schedule` (else `tile-q`, `tile-kv`;
    each left 0 takes the default tile rule of
    `lib/Analysis/KernelDefaults.cpp` for the default dQ mode,
    docs/Semantics.md §3.1: 64 x 64 for bands of at most 512 keys up to
    `D = 80` (`D = 96` with dQ recomputed), 64 x 128 for wider bands at
    `D = 97 ... 128` (32 x 128 or 32 x 64 with a cap or packed sequences),
    32 x 32 above `D = 128` with dQ recomputed, else 32 x 64, for the
    `dq-mode` of this pass; `sdpa-derive-bounds` takes the same option);
    the maps are always the symbolic ones of the band, so one module serves
    every sequence length. The op is replaced by its host program, as in
    `convert-sdpa-to-gpu`: buffers of the operands, dQ, dK, dV allocated with
    `gpu.alloc`, the workspaces `dq_accum`, `delta` (and `relay_counters`,
    zeroed with `gpu.memset`, as the runtime does) allocated flat, the three
    `gpu.launch_func` in order over the grids above (`affine.apply`
    ceildiv of the lengths by the tiles; for `thd` the token counts bound the
    longest sequence), the workspaces freed after the last launch. The
    artifact manifest is recorded in the `sdpa.artifacts` dictionary of the
    top-level module. With `host-program=false` the op stays instead,
    tagged `sdpa.kernel = @sdpa_bwd_<i>` (for `sdpa-export-ffi-calls`).

    Example:

        sdpa-opt --sdpa-derive-bounds="tile-q=64 tile-kv=64" \
                 --convert-sdpa-grad-to-gpu in.mlir
  }];
  let options = [
    Option<"tileQ", "tile-q", "int64_t", /*default=*/"0",
           "Query rows per tile where the op has no schedule (0: the default "
           "tile rule, lib/Analysis/KernelDefaults.cpp)">,
    Option<"tileKv", "tile-kv", "int64_t", /*default=*/"0",
           "Keys per tile (one warp per 16) where the op has no schedule (0: "
           "the default tile rule)">,
    Option<"dqMode", "dq-mode", "::mlir::sdpa::DqModeOption",
           /*default=*/"::mlir::sdpa::DqModeOption::Default",
           "How dQ is formed: default (the rule of "
           "lib/Analysis/KernelDefaults.cpp), accumulate (bwd_main adds "
           "partials into dq_accum) or recompute (bwd_dq)",
           [{::mlir::sdpa::getDqModeOptionValues()}]>,
    Option<"hostProgram", "host-program", "bool", /*default=*/"true",
           "Replace each op by its host program (false: keep the op, tagged "
           "sdpa.kernel = @module, for sdpa-export-ffi-calls)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // SDPA_GRAD_PASSES_TD
