//===- SdpaHalo.h - C API of the context-parallel halo ----------*- C -*-===//
//
// The key range a contiguous chunk of query rows needs under a band, and its
// inverse, for context parallelism (docs/ContextParallel.md). IR-free and
// GPU-free: part of libsdpa_runtime, usable without a CUDA driver. Failures
// return SDPA_ERROR_INVALID_ARGUMENT and name the argument in
// sdpaGetLastError().
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_SDPAHALO_H
#define SDPARUNTIME_SDPAHALO_H

#include "SdpaRuntime/SdpaRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The keys [*kv_begin, *kv_end) that query rows [q_begin, q_end) of one
/// sequence (seq_q rows, seq_kv keys) see under the band (left/right -1 when
/// unbounded, bottom_right 0/1): the union of the rows' visible intervals,
/// [max(0, q_begin + delta - left), min(seq_kv - 1, q_end - 1 + delta + right)]
/// (docs/Semantics.md §3.2 with the rows as one tile). An empty result is
/// [0, 0).
SdpaStatus sdpaBandKeyRange(int64_t left, int64_t right, int32_t bottom_right,
                            int64_t seq_q, int64_t seq_kv, int64_t q_begin,
                            int64_t q_end, int64_t *kv_begin,
                            int64_t *kv_end);

/// The inverse: the query rows [*q_begin, *q_end) that see a key of
/// [kv_begin, kv_end) (docs/Semantics.md §3.3 with the keys as one tile):
/// [max(0, kv_begin - delta - right), min(seq_q - 1, kv_end - 1 - delta + left)],
/// or [0, 0).
SdpaStatus sdpaBandQueryRange(int64_t left, int64_t right,
                              int32_t bottom_right, int64_t seq_q,
                              int64_t seq_kv, int64_t kv_begin,
                              int64_t kv_end, int64_t *q_begin,
                              int64_t *q_end);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // SDPARUNTIME_SDPAHALO_H
