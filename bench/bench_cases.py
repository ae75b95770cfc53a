"""The benchmark's cases and which kernel artifact may time each (pure Python,
no torch: python/tests/test_bench_cases.py tests it without a GPU).

A case is a square (Sq = Skv = S) causal sliding window of `window` keys
(band L = window - 1, R = 0), bf16, [B, H, S, D] queries over [B, Hkv, S, D]
keys and values (GQA when Hkv < H), with an optional logit softcap and
optional attention sinks (docs/Semantics.md §7).
"""

import os


class Case:
    """One benchmark case at one sequence length."""

    def __init__(self, name, b, h, d, window, s, hkv=None, softcap=None, sinks=False):
        self.name, self.b, self.h, self.d, self.window, self.s = name, b, h, d, window, s
        self.hkv = h if hkv is None else hkv
        self.softcap = softcap
        self.sinks = sinks

    @property
    def key(self):
        """name:B:H:D:window:S, the spec bench/anchor_jax.py parses (MHA
        cases only: it has no GQA, softcap or sinks)."""
        return f"{self.name}:{self.b}:{self.h}:{self.d}:{self.window}:{self.s}"

    def cells(self):
        from attention_ref import visible_cells  # imports torch
        return self.b * self.h * visible_cells(self.s, self.s, self.window - 1, 0, "top_left")

    def flops(self, pass_):
        """4*D per visible cell forward (QK^T, PV), 14*D forward+backward."""
        return (4 if pass_ == "fwd" else 14) * self.d * self.cells()

    def bytes(self, pass_):
        """Minimal traffic: Q, K, V, O once forward; forward+backward adds Q,
        K, V, O, dO read and dQ, dK, dV written (K-sized tensors at Hkv)."""
        q_sized = self.b * self.h * self.s * self.d * 2
        kv_sized = self.b * self.hkv * self.s * self.d * 2
        n = 2 if pass_ == "fwd" else 6
        return n * (q_sized + kv_sized)


def artifact_matches(case, art):
    """Whether the artifact `art` (sdpa.runtime.Artifact or anything with its
    fields: dtype_name, head_dim, varlen, left, right, softcap, sinks) computes
    `case`'s function: f16/bf16 dense, the case's head dim and band, the same
    softcap (None = none) and sinks exactly as the case has them. Alignment
    does not matter: the cases are square, where top-left and bottom-right
    bands coincide (docs/Semantics.md §1)."""
    cap = art.softcap or None
    want = case.softcap or None
    same_cap = (cap is None and want is None) or (
        cap is not None and want is not None and abs(cap - want) <= 1e-6 * want)
    return (art.dtype_name in ("bf16", "f16") and art.head_dim == case.d
            and not art.varlen and art.left == case.window - 1 and art.right == 0
            and same_cap and bool(art.sinks) == bool(case.sinks))


# The file bench/make_artifacts.py writes into an artifact folder: one line
# per artifact compiled with a setting of the default rule overridden
# (tiles, warps, dQ mode, stages), "<name> <field>=<value> ...".
OVERRIDES_FILE = "overrides.txt"


def read_overrides(directory):
    """{artifact name: "field=value ..."} of `directory`'s overrides file
    ({} without one): the artifacts that do not show what the compiler
    picks, which the benchmark's cases never time."""
    try:
        with open(os.path.join(directory, OVERRIDES_FILE)) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return {}
    entries = {}
    for line in lines:
        name, _, settings = line.strip().partition(" ")
        if name:
            entries[name] = settings.strip()
    return entries


def write_overrides(directory, changed):
    """Updates `directory`'s overrides file with `changed`, {artifact name:
    "field=value ..." or "" (compiled by the rule: its line goes)}."""
    entries = read_overrides(directory)
    entries.update(changed)
    lines = [f"{name} {settings}" for name, settings in sorted(entries.items()) if settings]
    path = os.path.join(directory, OVERRIDES_FILE)
    if not lines:
        if os.path.exists(path):
            os.remove(path)
        return
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
