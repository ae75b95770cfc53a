//===- SdpaConversionPasses.td - sdpa lowering passes ------*- tablegen -*-===//

#ifndef SDPA_CONVERSION_PASSES_TD
#define SDPA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSdpaToGPU : Pass<"convert-sdpa-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower sdpa.attention to an SM80 gpu.module kernel";
  let description = [{
    For every `sdpa.attention` (layouts `bhsd`, `bshd` and packed `thd`,
    static or dynamic lengths, GQA, f16 or bf16, head_dim `D` a multiple of
    8 up to 256, the schema's table, computed at its mma width: `D` rounded
    up to 16, the padding columns zero in shared memory and never stored)
    emits a `gpu.module @sdpa_fwd_<i>` holding one `gpu.func` kernel, block
    `(32 * warps, 1, 1)`, grid `(ceil(Sq / Tq), Hq, B)`. Query tile `t = blockIdx.x` of head
    `h = blockIdx.y` and batch entry `b = blockIdx.z` computes, for its rows,

        m, l, O  = online softmax over the key tiles u in [kv_begin(t), kv_end(t))
        S'[q, k] = (scale * log2(e)) * dot(Q[q], K[k])      (exp2 domain)
        O[q]     = sum_k exp2(S'[q, k] - m[q]) V[k] / l[q]
        LSE[q]   = (m[q] + log2(l[q])) * ln(2)

    (without a softcap the exponent is one `math.fma` of the raw dot
    product, the factor and `-m`, the tile maximum scaled once per row),
    with Q in registers (ldmatrix; loaded per key tile when a warp holds two
    row tiles), K and V tiles in `stages` buffers (2: double-buffered, each
    step copying the next tile; 3: copying the tile two ahead, with two
    tiles' copies in flight) of 16-byte aligned, padded dynamic shared
    memory through `nvgpu.device_async_copy`
    (cp.async, zero fill past the sequence), `nvgpu.ldmatrix` (transposed for
    V), `nvgpu.mma.sync` m16n8k16 with f32 accumulation (`nvvm.mma.sync` for
    bf16, which the upstream nvgpu lowering does not type), and `gpu.shuffle`
    for the row max. The key-tile loop runs in four `scf.for` loops whose
    bounds are `affine.max`/`affine.min` of the schedule's maps applied to
    `(t)[Sq, Skv]`: masked edge `[kv_begin, min(ib, kv_full))`, unmasked
    interior `[ib, ie)`, masked edge `[ie, min(kv_end, kv_full))`, with the
    interior clamped into the visit range, and the tile holding Skv,
    `[max(kv_begin, kv_full), kv_end)` with `kv_full = Skv floordiv tile_kv`,
    the only one that also tests the key length (`sdpa.key_tail`). A row that
    sees no key stores O = 0 and LSE = -inf.

    `S' = Q K^T` reduces over `D / 16` k16 blocks, two per x4 K load (an
    odd count ends with one x2 load). The tile sizes are those of the op's
    `schedule` (else `tile-q`, `tile-kv`; each left 0, and `warps` left 0,
    takes the default tile rule of `lib/Analysis/KernelDefaults.cpp`,
    docs/Semantics.md §3.1: 64 x 32 with 4 warps for bands of at most 512
    keys up to `D = 128`, 128 x 32 with 4 warps for wider bands at
    `D = 97 ... 128` (8 warps with both a softcap and sinks), else 64 x 64
    with 4 warps). A warp of one m16 row tile holds its Q A-fragments in
    registers for the whole kernel; a warp of two loads them from the
    shared Q tile per key tile, one k16 block at a time, so that 32 rows'
    accumulators fit at `D = 128`; with `tile-q = 64` and 4 warps
    the kernel is free of spills at `tile-kv = 64` up to `D = 96`, 32 up
    to 176 and 16 from 192 (ptxas 13.0). The maps are always the symbolic ones of the band, so one
    kernel serves every sequence length. The kernel takes bare pointers
    `q k v o lse`, i32 `seq_q seq_kv heads_q heads_kv` and i64 strides (in
    elements) `{q,k,v,o}_stride_{b,h,s}`, `lse_stride_{b,h}` (docs/Artifact.md).

    For `thd`, `b = blockIdx.z` is a packed sequence: the kernel also takes
    the cumulative offsets `cu_seqlens_q cu_seqlens_kv` (after `lse`), reads
    `Sq = cu_seqlens_q[b+1] - cu_seqlens_q[b]` (likewise `Skv`) and uses
    these per-sequence lengths as the `Sq`, `Skv` above (bounds, band
    alignment, zero fill, stores); row `r` is token `cu_seqlens_q[b] + r`.
    The grid is formed from the longest sequence (`seq_q`), so a tile with
    `t * Tq >= Sq` exits at once. Per-batch `seqlens` on a dense layout are
    refused.
    The op is replaced by its host program, so that the output is a complete
    program: `bufferization.to_buffer` of q, k, v (and the offsets), O and
    LSE allocated with `gpu.alloc`, the sizes read off the buffers
    (`memref.dim`; for `thd` the token counts bound the longest sequence),
    the strides off `memref.extract_strided_metadata`, and one
    `gpu.launch_func @sdpa_fwd_<i>::@sdpa_fwd_<i>` over the grid
    `(Sq ceildiv Tq, Hq, B)` (`affine.apply`) with the block and dynamic
    shared memory of the manifest; the results are `bufferization.to_tensor`
    of O and LSE. The artifact manifest of each module (printed and checked
    by the schema the runtime parses it with) is recorded in the
    `sdpa.artifacts` dictionary of the top-level module; an input entry that
    names no gpu.module is refused. `sdpa-strip-host` removes the host
    program for the artifact path. With `host-program=false` the op stays
    instead, tagged `sdpa.kernel = @sdpa_fwd_<i>::@sdpa_fwd_<i>` (what
    `sdpa-export-ffi-calls` turns into an XLA FFI call).

    Example:

        sdpa-opt --sdpa-derive-bounds="tile-q=64 tile-kv=64" \
                 --convert-sdpa-to-gpu="warps=4" in.mlir
  }];
  let options = [
    Option<"tileQ", "tile-q", "int64_t", /*default=*/"0",
           "Query rows per tile where the op has no schedule (0: the default "
           "tile rule, lib/Analysis/KernelDefaults.cpp)">,
    Option<"tileKv", "tile-kv", "int64_t", /*default=*/"0",
           "Keys per tile where the op has no schedule (0: the default tile "
           "rule)">,
    Option<"warps", "warps", "int64_t", /*default=*/"0",
           "Warps per block; each owns tile-q / warps rows (a multiple of 16; "
           "0: the default tile rule's, 4 where tile-q is not the rule's)">,
    Option<"stages", "stages", "int64_t", /*default=*/"2",
           "Shared-memory stages of the K/V tiles (2: double buffer, 3: "
           "copies two tiles ahead)">,
    Option<"hostProgram", "host-program", "bool", /*default=*/"true",
           "Replace each op by its host program (false: keep the op, tagged "
           "sdpa.kernel = @module::@kernel, for sdpa-export-ffi-calls)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // SDPA_CONVERSION_PASSES_TD
