"""Reference attention in float64 and band helpers for the GPU scripts.

The band is docs/Semantics.md §1: cell (q, k) is visible iff
0 <= q < Sq, 0 <= k < Skv and a(q) - L <= k <= a(q) + R with a(q) = q + delta,
delta = 0 (top_left) or Skv - Sq (bottom_right); None is an unbounded edge.
"""

import math

import torch


def band_mask(sq, skv, left, right, align, device):
    """Boolean [sq, skv] visibility mask."""
    delta = skv - sq if align == "bottom_right" else 0
    a = torch.arange(sq, device=device)[:, None] + delta
    k = torch.arange(skv, device=device)[None, :]
    visible = torch.ones(sq, skv, dtype=torch.bool, device=device)
    if left is not None:
        visible &= k >= a - left
    if right is not None:
        visible &= k <= a + right
    return visible


def visible_cells(sq, skv, left, right, align):
    """Number of visible cells of one (batch, head), from the row intervals."""
    delta = skv - sq if align == "bottom_right" else 0
    a = torch.arange(sq, dtype=torch.int64) + delta
    lo = a - left if left is not None else torch.zeros_like(a)
    hi = a + right if right is not None else torch.full_like(a, skv - 1)
    lo = lo.clamp(min=0)
    hi = hi.clamp(max=skv - 1)
    return int((hi - lo + 1).clamp(min=0).sum())


# Where dP and Delta cancel in every row (a sink, or a single visible key,
# leaves P near 0 or 1) dQ and dK are the f32 rounding of those terms, which
# no kernel computes exactly: their error is measured against at least this
# fraction of the gradients formed from the terms' sizes (reference_grads'
# `terms`), as runtime/check's sdpa-kernel-check does.
CANCELLATION_FLOOR = 2.0 ** -12


def rel(x, ref, terms=None):
    """max |x - ref| / max |ref| in float64; NaN if x holds a NaN, 0 if empty.
    With `terms` (reference_grads' dQ or dK of |dS|'s terms) the denominator
    is at least CANCELLATION_FLOOR * max |terms|."""
    if torch.isnan(x).any():
        return math.nan
    scale = ref.abs().max().item() if ref.numel() else 0.0
    if terms is not None and terms.numel():
        scale = max(scale, CANCELLATION_FLOOR * terms.abs().max().item())
    scale = scale or 1.0
    return (x.double() - ref).abs().max().item() / scale if x.numel() else 0.0


def capped_scores(qi, ki, scale, softcap):
    """scale * Q K^T, then c * tanh(s / c) with a cap c (docs/Semantics.md §7)."""
    s = scale * (qi @ ki.transpose(-1, -2))
    return s if softcap is None else softcap * torch.tanh(s / softcap)


def row_lse(s, sinks):
    """log(sum_k exp(s) [+ exp(sink[h])]) per row of s [Hq, Sq, Skv] (-inf cells
    masked); with sinks [Hq] the sink is one more column of every row."""
    if sinks is None:
        return torch.logsumexp(s, dim=-1)
    sink = sinks.double().to(s.device)[:, None, None].expand(s.shape[0], s.shape[1], 1)
    return torch.logsumexp(torch.cat([s, sink], dim=-1), dim=-1)


def reference(q, k, v, left, right, align, scale, sinks=None, softcap=None):
    """O (float64) and LSE (float64, -inf on rows that see no key).

    q [B, Hq, Sq, D], k/v [B, Hkv, Skv, D] (bhsd); computed per batch entry in
    float64 on q's device. Rows with no visible key give O = 0, LSE = -inf
    (with sinks [Hq]: LSE = sink[h]). softcap c caps the scores at c tanh(s/c)
    before the mask.
    """
    b, hq, sq, d = q.shape
    hkv, skv = k.shape[1], k.shape[2]
    g = hq // hkv
    mask = band_mask(sq, skv, left, right, align, q.device)
    outs, lses = [], []
    for i in range(b):
        qi = q[i].double()
        ki = k[i].double().repeat_interleave(g, dim=0)
        vi = v[i].double().repeat_interleave(g, dim=0)
        s = capped_scores(qi, ki, scale, softcap)
        s = s.masked_fill(~mask, -math.inf)
        lse = row_lse(s, sinks)
        p = torch.exp(s - lse[..., None].masked_fill(lse[..., None] == -math.inf, 0))
        p = p.masked_fill(~mask, 0)
        outs.append(p @ vi)
        lses.append(lse)
    return torch.stack(outs), torch.stack(lses)


def reference_grads(q, k, v, do, left, right, align, scale, sinks=None, softcap=None,
                    out=None, terms=None):
    """dQ, dK, dV (float64) by docs/Semantics.md §2, for bhsd tensors.

    P = softmax of the masked scores (rows that see no key: P = 0), dV = P^T dO,
    dP = dO V^T, Delta = rowsum(dO * O), dS = P * (dP - Delta),
    dQ = scale dS K, dK = scale dS^T Q; a kv head's dK, dV sum its query heads.
    Written from the formulas, not through autograd (whose logsumexp gradient
    is NaN on rows that see nothing). With a softcap c, dS is multiplied by
    1 - (S / c)^2 (S the capped score); with sinks [Hq] the LSE includes them
    and a fourth result is dsink[h] = -sum_{b,q} exp(sink[h] - LSE) * Delta
    (docs/Semantics.md §7). `out` (bhsd), if given, is the forward output the
    kernel is handed, rounded to its dtype: Delta is formed from it, as the
    kernels form it (with a large sink O is small and its rounding moves
    dsink by more than the tolerance); None: from the exact O. `terms`, a
    list if given, receives dQ and dK with every dS replaced by
    P (|dP| + |Delta|): the size of the terms whose difference dS is.
    """
    b, hq, sq, d = q.shape
    hkv, skv = k.shape[1], k.shape[2]
    g = hq // hkv
    mask = band_mask(sq, skv, left, right, align, q.device)
    dqs, dks, dvs, dq_terms, dk_terms = [], [], [], [], []
    dsink = torch.zeros(hq, dtype=torch.float64, device=q.device)
    for i in range(b):
        qi, doi = q[i].double(), do[i].double()
        ki = k[i].double().repeat_interleave(g, dim=0)
        vi = v[i].double().repeat_interleave(g, dim=0)
        capped = capped_scores(qi, ki, scale, softcap)
        s = capped.masked_fill(~mask, -math.inf)
        lse = row_lse(s, sinks)[..., None]
        p = torch.exp(s - lse.masked_fill(lse == -math.inf, 0)).masked_fill(~mask, 0)
        o = p @ vi
        dv = p.transpose(-1, -2) @ doi
        dp = doi @ vi.transpose(-1, -2)
        delta = (doi * (o if out is None else out[i].double())).sum(-1, keepdim=True)
        ds = p * (dp - delta)
        if softcap is not None:
            ds = ds * (1 - (capped / softcap) ** 2)
        if sinks is not None:
            sink = sinks.double().to(q.device)[:, None, None]
            dsink -= (torch.exp(sink - lse) * delta).sum(dim=(1, 2))
        dq = scale * (ds @ ki)
        dk = scale * (ds.transpose(-1, -2) @ qi)
        dqs.append(dq)
        dks.append(dk.reshape(hkv, g, skv, d).sum(1))
        dvs.append(dv.reshape(hkv, g, skv, d).sum(1))
        if terms is not None:
            sizes = p * (dp.abs() + delta.abs())
            dq_terms.append(scale * (sizes @ ki.abs()))
            dk_terms.append((scale * (sizes.transpose(-1, -2) @ qi.abs()))
                            .reshape(hkv, g, skv, d).sum(1))
    grads = (torch.stack(dqs), torch.stack(dks), torch.stack(dvs))
    if terms is not None:
        terms += [torch.stack(dq_terms), torch.stack(dk_terms)]
    return grads + (dsink,) if sinks is not None else grads
