//===- SdpaRuntime.h - C API of the sdpa kernel runtime ---------*- C -*-===//
//
// Loads a kernel artifact (PTX + manifest, docs/Artifact.md), checks the
// caller's tensors against it and launches its kernels through the CUDA driver
// API, which is loaded at run time (dlopen "libcuda.so.1"). Every call returns
// a status; on failure, sdpaGetLastError() names the problem (the message is
// thread-local and stays valid until the next failing call on that thread).
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_SDPARUNTIME_H
#define SDPARUNTIME_SDPARUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every entry point.
typedef enum SdpaStatus {
  SDPA_SUCCESS = 0,
  /// A tensor or scalar argument is inconsistent with the artifact or itself.
  SDPA_ERROR_INVALID_ARGUMENT = 1,
  /// The manifest is malformed, incomplete or of an unknown version.
  SDPA_ERROR_INVALID_MANIFEST = 2,
  /// A file could not be read.
  SDPA_ERROR_IO = 3,
  /// libcuda.so.1 could not be loaded or lacks a needed function.
  SDPA_ERROR_CUDA_UNAVAILABLE = 4,
  /// A CUDA driver call failed (module load, launch, ...).
  SDPA_ERROR_CUDA = 5,
  /// The artifact holds no kernel for what was asked.
  SDPA_ERROR_UNSUPPORTED = 6,
  /// The call is valid, but an operand's last element lies beyond the 32-bit
  /// index arithmetic of an artifact lowered with `index-bitwidth=32`
  /// (manifest `index_bits 32`); the same configuration lowered at 64 bits
  /// takes it. Reported only once every other rule holds.
  SDPA_ERROR_INDEX_RANGE = 7,
} SdpaStatus;

/// Element types of tensors.
typedef enum SdpaDtype {
  SDPA_DTYPE_F16 = 0,
  SDPA_DTYPE_BF16 = 1,
  SDPA_DTYPE_F32 = 2,
  SDPA_DTYPE_I32 = 3,
} SdpaDtype;

/// Memory layouts of q, k, v, o (and dO, dQ, dK, dV).
typedef enum SdpaLayout {
  /// [batch, heads, seq, head_dim]
  SDPA_LAYOUT_BHSD = 0,
  /// [batch, seq, heads, head_dim]
  SDPA_LAYOUT_BSHD = 1,
  /// [total_tokens, heads, head_dim], sequences packed back to back and
  /// delimited by cumulative offsets (cu_seqlens, int32, one more than the
  /// number of sequences).
  SDPA_LAYOUT_THD = 2,
} SdpaLayout;

/// A device tensor: a data pointer plus shape and strides in elements.
typedef struct SdpaTensor {
  /// Device address (CUdeviceptr).
  uint64_t data;
  /// One of SdpaDtype.
  int32_t dtype;
  /// Number of dimensions, at most 4.
  int32_t rank;
  int64_t shape[4];
  /// In elements, not bytes.
  int64_t strides[4];
} SdpaTensor;

/// Arguments of the forward: O, LSE = attention(Q, K, V).
///
/// Dense layouts: q, o [B, Hq, Sq, D] (bhsd) or [B, Sq, Hq, D] (bshd); k, v
/// likewise with Hkv, Skv; lse f32 [B, Hq, Sq] with unit sequence stride.
/// THD: q, o [Tq, Hq, D]; k, v [Tkv, Hkv, D]; lse f32 [Hq, Tq]; cu_seqlens_*
/// int32 [N + 1]; max_seqlen_* the longest segment (what the grid is formed
/// from). host_cu_seqlens_* may point to host copies of the offsets, which are
/// then checked too (monotone, starting at 0, ending at the token count,
/// segments no longer than max_seqlen_*); they may be null.
///
/// sinks: f32 [Hq], one sink logit per query head (docs/Semantics.md §7),
/// required by an artifact compiled with sinks (sdpaArtifactQuery "sinks")
/// and refused by any other; zero-initialized (data 0) means none.
typedef struct SdpaForwardArgs {
  int32_t layout;
  SdpaTensor q, k, v, o, lse;
  SdpaTensor cu_seqlens_q, cu_seqlens_kv;
  int64_t max_seqlen_q, max_seqlen_kv;
  const int32_t *host_cu_seqlens_q;
  const int32_t *host_cu_seqlens_kv;
  SdpaTensor sinks;
} SdpaForwardArgs;

/// Arguments of the backward: dQ, dK, dV = attention_grad(Q, K, V, O, dO, LSE).
///
/// Tensors as in the forward; do/dq like q, dk/dv like k. Workspaces, all
/// zero-offset, densely packed, 16-byte aligned (see sdpaBackwardWorkspace):
/// dq_accum f32 shaped like q in bhsd order ([B, Hq, Sq, D]; THD [Hq, Tq, D]),
/// delta f32 shaped like lse, relay_counters i32 [B, Hq, q_tiles] (only for
/// a deterministic artifact; zeroed by the runtime before the launch).
///
/// With sinks (an artifact compiled with them): sinks f32 [Hq] as in the
/// forward, grad_sinks f32 [Hq] the output dsink (written whole, so it needs
/// no zeroing), dsink_partials the f32 workspace of the fixed-order sum
/// ([B, Hq, q_tiles], densely packed like the others). All three stay
/// zero-initialized for an artifact without sinks.
typedef struct SdpaBackwardArgs {
  int32_t layout;
  SdpaTensor q, k, v, o, lse, dout, dq, dk, dv;
  SdpaTensor dq_accum, delta, relay_counters;
  SdpaTensor cu_seqlens_q, cu_seqlens_kv;
  int64_t max_seqlen_q, max_seqlen_kv;
  const int32_t *host_cu_seqlens_q;
  const int32_t *host_cu_seqlens_kv;
  SdpaTensor sinks, grad_sinks, dsink_partials;
} SdpaBackwardArgs;

/// Element counts of the backward's workspaces for given arguments
/// (dsink_partial_elements is 0 for an artifact without sinks).
typedef struct SdpaWorkspaceSizes {
  int64_t dq_accum_elements;
  int64_t delta_elements;
  int64_t relay_counter_elements;
  int64_t dsink_partial_elements;
} SdpaWorkspaceSizes;

/// A named kernel parameter for sdpaLaunchKernel. `type` is 0 ptr, 1 i32,
/// 2 i64, 3 f32 (as in the manifest); the value is read from the matching
/// field.
typedef struct SdpaNamedValue {
  const char *name;
  int32_t type;
  uint64_t ptr;
  int32_t i32;
  int64_t i64;
  float f32;
} SdpaNamedValue;

/// The values the manifest's grid terms take, for sdpaLaunchKernel.
typedef struct SdpaGridValues {
  int64_t q_tiles, kv_tiles, heads_q, heads_kv, batch;
  /// Total query rows; the `rows` term is ceil(total_rows / block.x).
  int64_t total_rows;
} SdpaGridValues;

typedef struct SdpaArtifact SdpaArtifact;

/// Message of the last failure on this thread ("" if none yet).
const char *sdpaGetLastError(void);

/// Parses and validates `<manifest_path>` and reads the PTX it names. Needs no
/// GPU: the module is loaded into the current CUDA context on first launch.
SdpaStatus sdpaArtifactLoad(const char *manifest_path, SdpaArtifact **out);

/// Loads the PTX into the current CUDA context now (retaining device 0's
/// primary context if none is current), so that JIT errors surface early.
SdpaStatus sdpaArtifactPrepare(SdpaArtifact *artifact);

/// Unloads modules and frees the artifact. Null is allowed.
void sdpaArtifactDestroy(SdpaArtifact *artifact);

/// Manifest facts, for wrappers: head_dim, tile_q, tile_kv, dtype (SdpaDtype),
/// varlen (0/1), direction (0 forward, 1 backward), deterministic (0/1),
/// sinks (0/1: the kernels take sinks, and the backward returns grad_sinks).
SdpaStatus sdpaArtifactQuery(const SdpaArtifact *artifact, const char *key,
                             int64_t *value);

/// The band baked into the artifact: left/right are -1 when unbounded,
/// bottom_right 0/1.
SdpaStatus sdpaArtifactBand(const SdpaArtifact *artifact, int64_t *left,
                            int64_t *right, int32_t *bottom_right,
                            float *scale);

/// The logit cap c the kernels apply (c * tanh(s / c), docs/Semantics.md §7),
/// or 0 when the artifact has none.
SdpaStatus sdpaArtifactSoftcap(const SdpaArtifact *artifact, float *softcap);

/// Checks the forward's arguments without launching anything.
SdpaStatus sdpaForwardCheck(const SdpaArtifact *artifact,
                            const SdpaForwardArgs *args);

/// Checks the arguments, then launches the forward kernels on `stream`
/// (a CUstream; 0 is the legacy default stream).
SdpaStatus sdpaForward(SdpaArtifact *artifact, const SdpaForwardArgs *args,
                       void *stream);

/// Sizes of the workspaces the backward needs for these arguments (only the
/// shapes of q, k, lse and the THD offsets are read).
SdpaStatus sdpaBackwardWorkspace(const SdpaArtifact *artifact,
                                 const SdpaBackwardArgs *args,
                                 SdpaWorkspaceSizes *sizes);

/// Checks the backward's arguments without launching anything.
SdpaStatus sdpaBackwardCheck(const SdpaArtifact *artifact,
                             const SdpaBackwardArgs *args);

/// Checks the arguments, zeroes the relay counters (deterministic artifacts)
/// and launches bwd_preprocess, bwd_main, bwd_dq_convert (those present) in
/// that order on `stream`.
SdpaStatus sdpaBackward(SdpaArtifact *artifact, const SdpaBackwardArgs *args,
                        void *stream);

/// Generic path: launches kernel `kernel_name` of the artifact with its
/// parameters taken by name from `values` (packed in manifest order, types
/// checked) and its grid formed from the manifest's grid terms and `grid`.
SdpaStatus sdpaLaunchKernel(SdpaArtifact *artifact, const char *kernel_name,
                            const SdpaNamedValue *values, int32_t num_values,
                            const SdpaGridValues *grid, void *stream);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // SDPARUNTIME_SDPARUNTIME_H
