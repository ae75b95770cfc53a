"""The local attention of context parallelism: pluggable.

A local attention computes one block: query rows [q_offset, q_offset + n)
against keys [kv_offset, kv_offset + m) of a sequence of seq_q rows and
seq_kv keys, under the band of the whole sequence (docs/Semantics.md §1-2):

    o, lse = local.forward(q, k, v, band, scale, seq_q, seq_kv, q_offset, kv_offset)
    dq, dk, dv = local.backward(q, k, v, o, lse, do, band, scale, seq_q, seq_kv,
                                q_offset, kv_offset)

q [B, Hq, n, D], k and v [B, Hkv, m, D] (GQA: query head h reads kv head
h // (Hq / Hkv)); lse [B, Hq, n] (-inf for a row that sees no key, whose o is
0). The backward takes the O and LSE of the whole row (all blocks merged), so
the blocks' gradients add up to the row's.

ReferenceAttention is float64 torch (tests, CPU); RuntimeAttention runs the
compiled kernels through sdpa.runtime, one artifact pair per block band.
"""

import math

from .halo import Band

__all__ = ["ReferenceAttention", "RuntimeAttention", "block_band"]


def block_band(band, seq_q, seq_kv, q_offset, n, kv_offset, m, prefer=None):
    """The band that masks a block as `band` masks the whole sequence.

    Local cell (i, j) is global (q_offset + i, kv_offset + j), visible iff
    lo <= j - i <= hi with c = q_offset + delta - kv_offset, lo = c - L,
    hi = c + R. As a band of an n x m problem that is top_left (L' = -lo,
    R' = hi) when lo <= 0 <= hi, or bottom_right (delta' = m - n, L' =
    delta' - lo, R' = hi - delta') when lo <= delta' <= hi; `prefer` (default
    the band's own alignment) is tried first. None when neither holds (every
    block a context-parallel plan forms holds a visible cell on its first or
    last row's diagonal, see docs/ContextParallel.md).
    """
    c = q_offset + band.offset(seq_q, seq_kv) - kv_offset
    lo = None if band.left is None else c - band.left
    hi = None if band.right is None else c + band.right
    order = ["top_left", "bottom_right"]
    if (prefer or band.align) == "bottom_right":
        order.reverse()
    for align in order:
        anchor = 0 if align == "top_left" else m - n
        if (lo is None or lo <= anchor) and (hi is None or anchor <= hi):
            return Band(None if lo is None else anchor - lo,
                        None if hi is None else hi - anchor, align)
    return None


def _mask(torch, band, seq_q, seq_kv, q_offset, n, kv_offset, m, device):
    q = torch.arange(q_offset, q_offset + n, device=device).view(n, 1)
    k = torch.arange(kv_offset, kv_offset + m, device=device).view(1, m)
    anchor = q + band.offset(seq_q, seq_kv)
    visible = (q < seq_q) & (k < seq_kv) & (k >= 0) & (q >= 0)
    if band.left is not None:
        visible = visible & (k >= anchor - band.left)
    if band.right is not None:
        visible = visible & (k <= anchor + band.right)
    return visible


def _expand(t, groups):
    return t if groups == 1 else t.repeat_interleave(groups, dim=1)


class ReferenceAttention:
    """docs/Semantics.md §2 in float64, returned in the inputs' dtype."""

    def _probabilities(self, q, k, band, scale, seq_q, seq_kv, q_offset, kv_offset,
                       lse=None):
        import torch
        n, m = q.shape[2], k.shape[2]
        groups = q.shape[1] // k.shape[1]
        s = scale * torch.matmul(q.double(), _expand(k.double(), groups).transpose(-1, -2))
        visible = _mask(torch, band, seq_q, seq_kv, q_offset, n, kv_offset, m, q.device)
        s = s.masked_fill(~visible, -math.inf)
        if lse is None:
            lse = torch.logsumexp(s, dim=-1) if m else s.new_full(s.shape[:-1], -math.inf)
        finite = torch.isfinite(lse).unsqueeze(-1)
        safe = torch.where(finite, lse.double().unsqueeze(-1), torch.zeros_like(s[..., :1]))
        p = torch.where(finite & visible, torch.exp(s - safe), torch.zeros_like(s))
        return p, lse, groups

    def forward(self, q, k, v, band, scale, seq_q, seq_kv, q_offset, kv_offset):
        import torch
        p, lse, groups = self._probabilities(q, k, band, scale, seq_q, seq_kv,
                                             q_offset, kv_offset)
        o = torch.matmul(p, _expand(v.double(), groups))
        return o.to(q.dtype), lse

    def backward(self, q, k, v, o, lse, do, band, scale, seq_q, seq_kv, q_offset,
                 kv_offset):
        import torch
        p, _, groups = self._probabilities(q, k, band, scale, seq_q, seq_kv, q_offset,
                                           kv_offset, lse=lse)
        do64, o64 = do.double(), o.double()
        kk, vv = _expand(k.double(), groups), _expand(v.double(), groups)
        dv = torch.matmul(p.transpose(-1, -2), do64)
        dp = torch.matmul(do64, vv.transpose(-1, -2))
        delta = (do64 * o64).sum(-1, keepdim=True)
        ds = p * (dp - delta)
        dq = scale * torch.matmul(ds, kk)
        dk = scale * torch.matmul(ds.transpose(-1, -2), q.double())
        b, hkv, m, d = k.shape
        dk = dk.view(b, hkv, groups, m, d).sum(2)
        dv = dv.view(b, hkv, groups, m, d).sum(2)
        return dq.to(q.dtype), dk.to(k.dtype), dv.to(v.dtype)


class RuntimeAttention:
    """The compiled kernels, through sdpa.runtime (dense bhsd).

    `artifacts(band)` returns the (forward, backward) sdpa.runtime.Artifact
    pair compiled for a block band (a Band, from block_band); the backward may
    be None for forward-only use. The artifacts' scale must be the scale the
    caller passes.
    """

    def __init__(self, artifacts):
        self._artifacts = artifacts

    def _pair(self, q, k, band, scale, seq_q, seq_kv, q_offset, kv_offset):
        local = block_band(band, seq_q, seq_kv, q_offset, q.shape[2], kv_offset, k.shape[2])
        if local is None:
            raise ValueError(f"block rows [{q_offset}, {q_offset + q.shape[2]}) x keys "
                             f"[{kv_offset}, {kv_offset + k.shape[2]}): {band} is no band "
                             f"of this block")
        fwd, bwd = self._artifacts(local)
        if abs(fwd.scale - scale) > 1e-6 * abs(scale):
            raise ValueError(f"scale: the artifact {fwd.path} has {fwd.scale}, "
                             f"the call {scale}")
        return fwd, bwd

    def forward(self, q, k, v, band, scale, seq_q, seq_kv, q_offset, kv_offset):
        fwd, _ = self._pair(q, k, band, scale, seq_q, seq_kv, q_offset, kv_offset)
        return fwd.forward(q.contiguous(), k.contiguous(), v.contiguous(), layout="bhsd")

    def backward(self, q, k, v, o, lse, do, band, scale, seq_q, seq_kv, q_offset,
                 kv_offset):
        _, bwd = self._pair(q, k, band, scale, seq_q, seq_kv, q_offset, kv_offset)
        if bwd is None:
            raise ValueError("backward: no backward artifact for this block band")
        return bwd.backward(q.contiguous(), k.contiguous(), v.contiguous(), o.contiguous(),
                            lse.contiguous(), do.contiguous(), layout="bhsd")
