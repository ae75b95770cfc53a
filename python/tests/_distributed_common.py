"""Shared by the distributed tests: random problems, the unsharded reference
and one rank's step. Needs torch (Debian: python3-torch)."""

import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    import torch
except ImportError:  # pragma: no cover - install-deps.sh installs it
    sys.exit("needs torch (Debian: python3-torch, scripts/install-deps.sh installs it)")

from sdpa.distributed import Band, context_parallel_attention  # noqa: E402


def random_lengths(rng, total, ranks):
    cuts = sorted([0, total] + [rng.randint(0, total) for _ in range(ranks - 1)])
    return [b - a for a, b in zip(cuts, cuts[1:])]


def random_problem(seed):
    """A random band, shape and uneven chunking, with inputs."""
    rng = random.Random(seed)
    ranks = rng.randint(1, 4)
    seq_q = rng.randint(0, 24)
    seq_kv = seq_q if rng.random() < 0.4 else rng.randint(1, 24)

    def edge():
        return None if rng.random() < 0.25 else rng.choice([0, 1, 3, rng.randint(0, 24)])
    band = Band(edge(), edge(), rng.choice(["top_left", "bottom_right"]))
    hkv = rng.choice([1, 2])
    problem = dict(band=band, ranks=ranks, b=rng.choice([1, 2]), hq=hkv * rng.choice([1, 2, 3]),
                   hkv=hkv, d=rng.choice([4, 8]),
                   q_lengths=random_lengths(rng, seq_q, ranks),
                   kv_lengths=random_lengths(rng, seq_kv, ranks))
    g = torch.Generator().manual_seed(seed)
    p = problem
    p["q"] = torch.randn(p["b"], p["hq"], seq_q, p["d"], dtype=torch.float64, generator=g)
    p["k"] = torch.randn(p["b"], p["hkv"], seq_kv, p["d"], dtype=torch.float64, generator=g)
    p["v"] = torch.randn(p["b"], p["hkv"], seq_kv, p["d"], dtype=torch.float64, generator=g)
    p["do"] = torch.randn(p["b"], p["hq"], seq_q, p["d"], dtype=torch.float64, generator=g)
    return problem


def unsharded(p):
    """O, dQ, dK, dV of the whole sequence: the mask cell by cell from
    Band.visible, softmax and gradients by torch's autograd."""
    band, q, k, v, do = p["band"], p["q"], p["k"], p["v"], p["do"]
    seq_q, seq_kv = q.shape[2], k.shape[2]
    mask = torch.tensor([[band.visible(i, j, seq_q, seq_kv) for j in range(seq_kv)]
                         for i in range(seq_q)], dtype=torch.bool).view(seq_q, seq_kv)
    q, k, v = (t.clone().requires_grad_() for t in (q, k, v))
    groups = q.shape[1] // k.shape[1]
    kk, vv = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    s = torch.matmul(q, kk.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    s = s.masked_fill(~mask, -math.inf)
    # Rows that see no key: O = 0 (docs/Semantics.md §2.2).
    row_any = mask.any(-1, keepdim=True)
    pr = torch.softmax(torch.where(row_any, s, torch.zeros_like(s)), -1)
    pr = torch.where(mask, pr, torch.zeros_like(pr))
    o = torch.matmul(pr, vv)
    (o * do).sum().backward()
    return o.detach(), q.grad, k.grad, v.grad


def run_rank(p, transport, overlap, layout="bhsd"):
    """One rank's O, dQ, dK, dV chunks."""
    r = transport.rank
    qc = [0]
    for n in p["q_lengths"]:
        qc.append(qc[-1] + n)
    kc = [0]
    for n in p["kv_lengths"]:
        kc.append(kc[-1] + n)
    q = p["q"][:, :, qc[r]:qc[r + 1]].clone().requires_grad_()
    k = p["k"][:, :, kc[r]:kc[r + 1]].clone().requires_grad_()
    v = p["v"][:, :, kc[r]:kc[r + 1]].clone().requires_grad_()
    do = p["do"][:, :, qc[r]:qc[r + 1]]
    band = p["band"]
    args = (q, k, v)
    if layout == "bshd":
        args = tuple(t.transpose(1, 2) for t in args)
    o = context_parallel_attention(*args, transport, left=band.left, right=band.right,
                                   align=band.align, q_lengths=p["q_lengths"],
                                   kv_lengths=p["kv_lengths"], overlap=overlap, layout=layout)
    if layout == "bshd":
        o = o.transpose(1, 2)
    (o * do).sum().backward()
    return o.detach(), q.grad, k.grad, v.grad


def max_errors(p, chunks):
    """Largest |difference| of O, dQ, dK, dV between the ranks' chunks
    (concatenated in rank order) and the unsharded run."""
    want = unsharded(p)
    got = [torch.cat([c[i] for c in chunks], dim=2) for i in range(4)]
    return [float((g - w).abs().max()) if w.numel() else 0.0 for g, w in zip(got, want)]
