"""Context-parallel attention over a transport (docs/ContextParallel.md).

Every rank holds a contiguous chunk of Q, K and V of the same sequences
(dense [B, H, S, D]); context_parallel_attention returns that rank's chunk of
O, differentiable. The forward receives only the halo: the keys its rows see
that other ranks hold (HaloPlan), posted point to point while the rank
attends to its own keys; the backward returns the halo keys' dK/dV to their
owners, who add them to their own.
"""

import math

from .halo import Band, HaloPlan
from .local import ReferenceAttention

__all__ = ["context_parallel_attention", "context_parallel_step", "ContextParallelStep"]

_LAYOUTS = ("bhsd", "bshd")


def _check_inputs(q, k, v, transport, q_lengths, kv_lengths):
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.dim() != 4:
            raise ValueError(f"{name}: expected 4 dimensions [B, H, S, D], got {t.dim()}")
    if k.shape != v.shape:
        raise ValueError(f"k, v: expected the same shape, got {tuple(k.shape)} and "
                         f"{tuple(v.shape)}")
    if q.shape[0] != k.shape[0] or q.shape[3] != k.shape[3]:
        raise ValueError(f"q, k: expected the same batch and head dim, got "
                         f"{tuple(q.shape)} and {tuple(k.shape)}")
    if k.shape[1] == 0 or q.shape[1] % k.shape[1]:
        raise ValueError(f"q, k: query heads ({q.shape[1]}) must be a multiple of kv "
                         f"heads ({k.shape[1]})")
    if q.dtype != k.dtype or k.dtype != v.dtype:
        raise ValueError(f"q, k, v: expected one dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    world, rank = transport.world_size, transport.rank
    q_lengths = list(q_lengths) if q_lengths is not None else [q.shape[2]] * world
    kv_lengths = list(kv_lengths) if kv_lengths is not None else [k.shape[2]] * world
    for name, lengths, local, what in (("q_lengths", q_lengths, q.shape[2], "rows"),
                                       ("kv_lengths", kv_lengths, k.shape[2], "keys")):
        if len(lengths) != world:
            raise ValueError(f"{name}: expected one length per rank ({world}), got "
                             f"{len(lengths)}")
        if lengths[rank] != local:
            raise ValueError(f"{name}: rank {rank} holds {local} {what}, but "
                             f"{name}[{rank}] is {lengths[rank]}")
    return q_lengths, kv_lengths


def _slice_keys(t, begin, end, base):
    return t[:, :, begin - base:end - base]


def _merge(torch, parts, like):
    """O and LSE of the union of disjoint key blocks from each block's (o, lse)."""
    if len(parts) == 1:
        return parts[0]
    lses = torch.stack([lse.double() for _, lse in parts])
    lse = torch.logsumexp(lses, dim=0)
    finite = torch.isfinite(lse)
    safe = torch.where(finite, lse, torch.zeros_like(lse))
    o = torch.zeros(like.shape, dtype=torch.float64, device=like.device)
    for (o_i, lse_i) in parts:
        w = torch.where(finite, torch.exp(lse_i.double() - safe), torch.zeros_like(safe))
        o = o + w.unsqueeze(-1) * o_i.double()
    return o.to(like.dtype), lse.to(parts[0][1].dtype)


class ContextParallelStep:
    """One rank's forward and backward, without autograd.

    context_parallel_attention wraps this in a torch.autograd.Function. Call
    it directly where autograd cannot run the ranks' backward calls side by
    side: with LoopbackGroup on one GPU, autograd runs every CUDA backward on
    its one thread per device, so a rank waiting for another's dK/dV would
    wait forever (bench/check_cp.py). On CPU tensors, and with one process per
    GPU, autograd calls backward on the calling thread and the wrapper works.

        step = context_parallel_step(q, k, v, transport, left=127, right=0)
        o = step.forward(q, k, v)
        dq, dk, dv = step.backward(do)
    """

    def __init__(self, plan, transport, local, band, scale, overlap):
        self.plan, self.transport, self.local = plan, transport, local
        self.band, self.scale, self.overlap = band, scale, overlap
        r = transport.rank
        self.rank = r
        self.rows = plan.rows(r)
        self.owned = plan.owned(r)
        self.saved = None

    def _block_forward(self, q, k, v, kv_offset):
        p = self.plan
        return self.local.forward(q, k, v, self.band, self.scale, p.seq_q, p.seq_kv,
                                  self.rows[0], kv_offset)

    def _block_backward(self, q, k, v, o, lse, do, kv_offset):
        p = self.plan
        return self.local.backward(q, k, v, o, lse, do, self.band, self.scale, p.seq_q,
                                   p.seq_kv, self.rows[0], kv_offset)

    def forward(self, q, k, v):
        """This rank's O; keeps what the backward needs in self.saved."""
        import torch
        plan, r = self.plan, self.rank
        ks = self.owned[0]
        b, hkv, _, d = k.shape
        recvs = [(j, k.new_empty((2, b, hkv, e - a, d))) for j, (a, e) in plan.recv[r]]
        sends = [(j, torch.stack((_slice_keys(k, a, e, ks), _slice_keys(v, a, e, ks))))
                 for j, (a, e) in plan.send[r]]
        pending = self.transport.exchange(sends, recvs)
        local = plan.local[r]
        parts = []
        if self.overlap and local:
            parts.append((local[0], self._block_forward(
                q, _slice_keys(k, *local, ks), _slice_keys(v, *local, ks), local[0])))
        pending.wait()
        # Key blocks in key order: the lower ranks' halo, the own keys, the
        # higher ranks' halo.
        blocks = [(a, buf[0], buf[1]) for (_, (a, _)), (_, buf) in zip(plan.recv[r], recvs)]
        if local:
            blocks.append((local[0], _slice_keys(k, *local, ks), _slice_keys(v, *local, ks)))
        blocks.sort(key=lambda blk: blk[0])
        if not blocks:
            o = torch.zeros_like(q)
            lse = torch.full(q.shape[:3], -math.inf, dtype=torch.float32, device=q.device)
        elif self.overlap:
            for a, kb, vb in blocks:
                if not (local and a == local[0]):
                    parts.append((a, self._block_forward(q, kb, vb, a)))
            parts.sort(key=lambda part: part[0])
            o, lse = _merge(torch, [part for _, part in parts], q)
        else:
            kb = torch.cat([blk[1] for blk in blocks], dim=2)
            vb = torch.cat([blk[2] for blk in blocks], dim=2)
            o, lse = self._block_forward(q, kb, vb, blocks[0][0])
        self.saved = (q, k, v, o, lse, blocks)
        return o

    def backward(self, do):
        """dQ, dK, dV of this rank's chunks for the upstream gradient dO."""
        import torch
        plan, r = self.plan, self.rank
        q, k, v, o, lse, blocks = self.saved
        do = do.contiguous()
        ks = self.owned[0]
        local = plan.local[r]
        is_local = [bool(local) and a == local[0] for a, _, _ in blocks]
        grads = [None] * len(blocks)
        if not self.overlap and blocks:
            kb = torch.cat([blk[1] for blk in blocks], dim=2)
            vb = torch.cat([blk[2] for blk in blocks], dim=2)
            dq, dk, dv = self._block_backward(q, kb, vb, o, lse, do, blocks[0][0])
            start = blocks[0][0]
            for i, (a, kblk, _) in enumerate(blocks):
                lo, hi = a - start, a - start + kblk.shape[2]
                grads[i] = (None, dk[:, :, lo:hi], dv[:, :, lo:hi])
        # The halo blocks first, so their dK/dV can leave while the rank
        # works on its own keys.
        for i, (a, kb, vb) in enumerate(blocks):
            if grads[i] is None and not is_local[i]:
                grads[i] = self._block_backward(q, kb, vb, o, lse, do, a)
        source = {a: j for j, (a, _) in plan.recv[r]}
        sends = [(source[a], torch.stack((grads[i][1], grads[i][2])).to(k.dtype))
                 for i, (a, _, _) in enumerate(blocks) if not is_local[i]]
        b, hkv, _, d = k.shape
        recvs = [(j, k.new_empty((2, b, hkv, e - a, d))) for j, (a, e) in plan.send[r]]
        pending = self.transport.exchange(sends, recvs)
        for i, (a, kb, vb) in enumerate(blocks):
            if grads[i] is None:
                grads[i] = self._block_backward(q, kb, vb, o, lse, do, a)
        acc = torch.float32 if k.dtype in (torch.float16, torch.bfloat16) else k.dtype
        dk_own = torch.zeros(k.shape, dtype=acc, device=k.device)
        dv_own = torch.zeros(v.shape, dtype=acc, device=v.device)
        for i, (a, kb, _) in enumerate(blocks):
            if is_local[i]:
                dk_own[:, :, a - ks:a - ks + kb.shape[2]] += grads[i][1].to(acc)
                dv_own[:, :, a - ks:a - ks + kb.shape[2]] += grads[i][2].to(acc)
        pending.wait()
        # The returned halo gradients, added in ascending rank order.
        for (_, (a, e)), (_, buf) in zip(plan.send[r], recvs):
            dk_own[:, :, a - ks:e - ks] += buf[0].to(acc)
            dv_own[:, :, a - ks:e - ks] += buf[1].to(acc)
        if not blocks:
            dq = torch.zeros_like(q)
        elif self.overlap:
            # The blocks' dQ in key order, accumulated like dK/dV.
            dq = grads[0][0].to(acc)
            for g in grads[1:]:
                dq = dq + g[0].to(acc)
            dq = dq.to(q.dtype)
        else:
            dq = dq.to(q.dtype)
        self.saved = None
        return dq, dk_own.to(k.dtype), dv_own.to(v.dtype)


def _function():
    import torch

    class ContextParallelAttention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, step):
            ctx.step = step
            return step.forward(q, k, v)

        @staticmethod
        def backward(ctx, do):
            return (*ctx.step.backward(do), None)

    return ContextParallelAttention


_FUNCTION = None


def context_parallel_step(q, k, v, transport, *, left=None, right=None, align="top_left",
                          scale=None, q_lengths=None, kv_lengths=None, local=None,
                          overlap=True, tile_kv=None):
    """The ContextParallelStep for these bhsd chunks (arguments as in
    context_parallel_attention), checked and planned."""
    q_lengths, kv_lengths = _check_inputs(q, k, v, transport, q_lengths, kv_lengths)
    band = Band(left, right, align)
    plan = HaloPlan(band, q_lengths, kv_lengths, tile_kv=tile_kv)
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    return ContextParallelStep(plan, transport, local or ReferenceAttention(), band, scale,
                               overlap)


def context_parallel_attention(q, k, v, transport, *, left=None, right=None,
                               align="top_left", scale=None, q_lengths=None,
                               kv_lengths=None, local=None, overlap=True, tile_kv=None,
                               layout="bhsd", cu_seqlens_q=None, cu_seqlens_kv=None):
    """This rank's chunk of attention(Q, K, V) under the band (left, right,
    align) of the whole sequence (docs/Semantics.md §1).

    q [B, Hq, Sq_r, D], k and v [B, Hkv, Skv_r, D] (layout "bshd": [B, S, H,
    D]) are rank `transport.rank`'s chunks; q_lengths/kv_lengths list every
    rank's chunk length in rank order (default: all equal to this rank's).
    scale defaults to 1/sqrt(D). local is the block attention (default
    ReferenceAttention, float64; RuntimeAttention for the kernels). overlap
    True attends to the own keys while the halo is in flight and merges the
    blocks by their LSE; False waits and attends to all needed keys in one
    call, which with `tile_kv` set to the kernels' key tile (the halo widened
    to whole tiles) reproduces the unsharded kernels' tiling
    (docs/ContextParallel.md says when that is bitwise). Packed (thd)
    sequences are refused.
    """
    global _FUNCTION
    if cu_seqlens_q is not None or cu_seqlens_kv is not None:
        raise ValueError("cu_seqlens_q, cu_seqlens_kv: packed (thd) sequences are not "
                         "supported by context parallelism; shard dense sequences "
                         "(docs/ContextParallel.md)")
    if layout not in _LAYOUTS:
        raise ValueError(f"layout: expected bhsd or bshd, got {layout!r}")
    if layout == "bshd":
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    step = context_parallel_step(q, k, v, transport, left=left, right=right, align=align,
                                 scale=scale, q_lengths=q_lengths, kv_lengths=kv_lengths,
                                 local=local, overlap=overlap, tile_kv=tile_kv)
    if _FUNCTION is None:
        _FUNCTION = _function()
    o = _FUNCTION.apply(q, k, v, step)
    return o.transpose(1, 2) if layout == "bshd" else o
