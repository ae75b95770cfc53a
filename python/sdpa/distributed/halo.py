"""The halo plan of context parallelism (docs/ContextParallel.md).

Rank r holds query rows [q_cuts[r], q_cuts[r+1]) and keys [kv_cuts[r],
kv_cuts[r+1]) of one sequence. The keys its rows see are one interval, the
forward tile bound of docs/Semantics.md §3.2 with the chunk as one query tile
and key tiles of one key; the runtime derives it (sdpaBandKeyRange, and the
inverse sdpaBandQueryRange for the backward's return), so this module holds
no bound formula of its own.

    plan = HaloPlan(Band(left=127, right=0), q_lengths=[4096] * 4,
                    kv_lengths=[4096] * 4)
    plan.need[2]        # (8065, 12288): the keys rank 2's rows see
    plan.recv[2]        # [(1, (8065, 8192))]: what it receives, from whom
    plan.send[1]        # [(2, (8065, 8192))]: what rank 1 sends
"""

import ctypes

from .. import runtime as _runtime

__all__ = ["Band", "HaloPlan", "key_range", "query_range"]

_ALIGNS = ("top_left", "bottom_right")


class Band:
    """The band mask (docs/Semantics.md §1): `left`/`right` are widths >= 0
    or None (unbounded); `align` is "top_left" or "bottom_right"."""

    def __init__(self, left=None, right=None, align="top_left"):
        for name, value in (("left", left), ("right", right)):
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"{name}: expected None (unbounded) or an integer "
                                 f">= 0, got {value!r}")
        if align not in _ALIGNS:
            raise ValueError(f"align: expected top_left or bottom_right, got {align!r}")
        self.left, self.right, self.align = left, right, align

    def offset(self, seq_q, seq_kv):
        """The diagonal offset delta: row q is anchored at key q + delta."""
        return seq_kv - seq_q if self.align == "bottom_right" else 0

    def visible(self, q, k, seq_q, seq_kv):
        """The definition, one cell (the brute-force reference of the tests)."""
        if not (0 <= q < seq_q and 0 <= k < seq_kv):
            return False
        anchor = q + self.offset(seq_q, seq_kv)
        return ((self.left is None or k >= anchor - self.left)
                and (self.right is None or k <= anchor + self.right))

    def __repr__(self):
        return f"Band(left={self.left}, right={self.right}, align={self.align!r})"

    def __eq__(self, other):
        return isinstance(other, Band) and (self.left, self.right, self.align) == (
            other.left, other.right, other.align)

    def __hash__(self):
        return hash((self.left, self.right, self.align))


_declared = None


def _library():
    """The runtime library with the halo functions' signatures declared."""
    global _declared
    lib = _runtime.load_library()
    if _declared is not lib:
        i64, P = ctypes.c_int64, ctypes.POINTER
        for name in ("sdpaBandKeyRange", "sdpaBandQueryRange"):
            fn = getattr(lib, name)
            fn.argtypes = [i64, i64, ctypes.c_int32, i64, i64, i64, i64, P(i64), P(i64)]
            fn.restype = ctypes.c_int
        _declared = lib
    return lib


def _call(name, band, seq_q, seq_kv, begin, end):
    lib = _library()
    out_begin, out_end = ctypes.c_int64(), ctypes.c_int64()
    status = getattr(lib, name)(
        -1 if band.left is None else band.left, -1 if band.right is None else band.right,
        int(band.align == "bottom_right"), seq_q, seq_kv, begin, end,
        ctypes.byref(out_begin), ctypes.byref(out_end))
    if status != 0:
        raise _runtime.SdpaError(status, lib.sdpaGetLastError().decode(errors="replace"))
    return out_begin.value, out_end.value


def key_range(band, seq_q, seq_kv, q_begin, q_end):
    """The keys [begin, end) that rows [q_begin, q_end) see; (0, 0) if none."""
    return _call("sdpaBandKeyRange", band, seq_q, seq_kv, q_begin, q_end)


def query_range(band, seq_q, seq_kv, kv_begin, kv_end):
    """The rows [begin, end) that see a key of [kv_begin, kv_end); (0, 0) if none."""
    return _call("sdpaBandQueryRange", band, seq_q, seq_kv, kv_begin, kv_end)


def _cuts(lengths, name):
    if not lengths or any(not isinstance(n, int) or n < 0 for n in lengths):
        raise ValueError(f"{name}: expected one length >= 0 per rank, got {lengths!r}")
    cuts = [0]
    for n in lengths:
        cuts.append(cuts[-1] + n)
    return cuts


def _meet(a, b):
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo < hi else None


class HaloPlan:
    """Who sends which keys to whom, for every rank of one sequence.

    need[r]   the keys rank r's rows see (global indices, half-open)
    local[r]  need[r] within rank r's own keys, or None
    recv[r]   [(j, (a, b))]: keys [a, b) rank r receives from rank j, j ascending
    send[r]   [(j, (a, b))]: keys [a, b) of its own that rank r sends to rank j

    With `tile_kv`, need[r] is widened to whole key tiles of that size (for
    kernels whose key tiles must line up with the unsharded run's: the extra
    keys are masked by the band). The backward returns dK/dV along the same
    edges reversed. The inverse derivation (query_range) must name exactly
    the ranks of send[r]; the plan checks it.
    """

    def __init__(self, band, q_lengths, kv_lengths, tile_kv=None):
        if len(q_lengths) != len(kv_lengths):
            raise ValueError(f"q_lengths, kv_lengths: one length per rank each, got "
                             f"{len(q_lengths)} and {len(kv_lengths)}")
        if tile_kv is not None and (not isinstance(tile_kv, int) or tile_kv < 1):
            raise ValueError(f"tile_kv: expected an integer >= 1, got {tile_kv!r}")
        self.band = band
        self.q_cuts = _cuts(list(q_lengths), "q_lengths")
        self.kv_cuts = _cuts(list(kv_lengths), "kv_lengths")
        self.world_size = len(q_lengths)
        self.seq_q, self.seq_kv = self.q_cuts[-1], self.kv_cuts[-1]
        ranks = range(self.world_size)
        self.need = []
        for r in ranks:
            need = key_range(band, self.seq_q, self.seq_kv, self.q_cuts[r], self.q_cuts[r + 1])
            if tile_kv is not None and need[0] < need[1]:
                need = (need[0] // tile_kv * tile_kv,
                        min(self.seq_kv, -(-need[1] // tile_kv) * tile_kv))
            self.need.append(need)
        self.local = [_meet(self.need[r], self.owned(r)) for r in ranks]
        self.recv = [[(j, m) for j in ranks if j != r
                      for m in [_meet(self.need[r], self.owned(j))] if m] for r in ranks]
        self.send = [[(j, m) for j in ranks if j != r
                      for m in [_meet(self.need[j], self.owned(r))] if m] for r in ranks]
        if tile_kv is None:
            self._check_inverse()

    def owned(self, r):
        """The keys rank r holds."""
        return (self.kv_cuts[r], self.kv_cuts[r + 1])

    def rows(self, r):
        """The query rows rank r holds."""
        return (self.q_cuts[r], self.q_cuts[r + 1])

    def _check_inverse(self):
        for r in range(self.world_size):
            owned = self.owned(r)
            seen_by = query_range(self.band, self.seq_q, self.seq_kv, *owned)
            peers = [j for j in range(self.world_size) if j != r
                     and _meet(seen_by, self.rows(j))]
            if peers != [j for j, _ in self.send[r]]:
                raise AssertionError(f"halo plan: rank {r}'s keys are seen by ranks {peers} "
                                     f"but would be sent to {[j for j, _ in self.send[r]]}")

    def halo_keys(self, r):
        """How many keys rank r receives."""
        return sum(b - a for _, (a, b) in self.recv[r])

    def allgather_keys(self, r):
        """How many keys rank r receives from an all-gather of K and V."""
        return self.seq_kv - (self.kv_cuts[r + 1] - self.kv_cuts[r])
