"""Context parallelism for windowed attention (docs/ContextParallel.md).

    from sdpa.distributed import context_parallel_attention, TorchDistributedTransport
    o = context_parallel_attention(q, k, v, TorchDistributedTransport(),
                                   left=127, right=0)

Each rank holds a contiguous chunk of Q, K, V; only the halo its rows see is
exchanged, derived by the runtime from the band (sdpa.distributed.halo).
"""

from .attention import ContextParallelStep, context_parallel_attention, context_parallel_step
from .halo import Band, HaloPlan, key_range, query_range
from .local import ReferenceAttention, RuntimeAttention, block_band
from .transport import LoopbackGroup, TorchDistributedTransport, Transport

__all__ = ["context_parallel_attention", "context_parallel_step", "ContextParallelStep",
           "Band", "HaloPlan", "key_range", "query_range", "ReferenceAttention",
           "RuntimeAttention", "block_band", "LoopbackGroup", "TorchDistributedTransport",
           "Transport"]
