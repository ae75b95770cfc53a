#!/usr/bin/env python3
"""Correctness sweep of forward artifacts against a float64 PyTorch reference.

Every *.manifest of direction forward in --artifacts is run over the shapes
its manifest admits (its band, alignment, dtype, head_dim and dense/THD form
are fixed by the manifest): both dense layouts, s_q in {1, 17, 128, 1000, 4096}
with s_kv equal and different, GQA 16/4 (plus MQA 8/1 and 4/4 once), and
two cases whose key rows grow along the sequence (KEY_RAMP); THD
artifacts get packed batches with segments shorter and longer than the window
and an empty one. Inputs are fresh random tensors, outputs are poisoned with
NaN before each run. Reported: max |O - ref| / max |ref| and max |LSE - ref|
over rows that see keys; rows that see no key must give O = 0 and LSE = -inf
exactly. Artifacts with sinks (docs/Semantics.md §7) get fresh sinks per
case (+8 and -8, one far above the scores and one far below); their empty rows
must give O = 0 and LSE = sink exactly. Artifacts with a softcap are compared
with the capped float64 reference. Writes check_forward.md to --out; exits 1
on any failure.

--self-test runs the harness against a float64 stand-in (no artifact needed),
to prove the sweep, the THD slicing and the table.
"""

import argparse
import glob
import math
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
sys.path.insert(0, HERE)

from attention_ref import band_mask, reference  # noqa: E402

TOL_O = {"bf16": 2e-2, "f16": 5e-3}
TOL_LSE = 2e-3
SEQ_Q = [1, 17, 128, 1000, 4096]
OTHER_KV = {1: 77, 17: 300, 128: 61, 1000: 1537, 4096: 2000}


class StandIn:
    """Float64 attention behind the Artifact interface (for --self-test)."""

    def __init__(self, dtype_name, head_dim, left, right, align, varlen,
                 sinks=False, softcap=None):
        self.dtype_name, self.head_dim = dtype_name, head_dim
        self.left, self.right, self.align, self.varlen = left, right, align, varlen
        self.sinks, self.softcap = sinks, softcap
        self.scale = 1 / math.sqrt(head_dim)
        self.direction = "forward"
        self.path = f"stand-in {dtype_name} d{head_dim} L={left} R={right} {align}" + (
            " thd" if varlen else "") + (" sinks" if sinks else "") + (
            f" softcap {softcap}" if softcap else "")

    def forward(self, q, k, v, layout="bhsd", cu_seqlens_q=None, cu_seqlens_kv=None,
                out=None, lse=None, sinks=None, **_):
        mods = dict(sinks=sinks, softcap=self.softcap)
        if layout == "thd":
            cq, ck = cu_seqlens_q.tolist(), cu_seqlens_kv.tolist()
            for i in range(len(cq) - 1):
                o_ref, l_ref = reference(to_bhsd(q[cq[i]:cq[i + 1]], "thd"),
                                         to_bhsd(k[ck[i]:ck[i + 1]], "thd"),
                                         to_bhsd(v[ck[i]:ck[i + 1]], "thd"),
                                         self.left, self.right, self.align, self.scale,
                                         **mods)
                out[cq[i]:cq[i + 1]] = o_ref[0].transpose(0, 1).to(out.dtype)
                lse[:, cq[i]:cq[i + 1]] = l_ref[0].float()
            return out, lse
        o_ref, l_ref = reference(to_bhsd(q, layout), to_bhsd(k, layout), to_bhsd(v, layout),
                                 self.left, self.right, self.align, self.scale, **mods)
        out.copy_(from_bhsd(o_ref, layout).to(out.dtype))
        lse.copy_(l_ref.float())
        return out, lse


def to_bhsd(t, layout):
    if layout == "bshd":
        return t.transpose(1, 2)
    if layout == "thd":  # one segment [T, H, D] -> [1, H, T, D]
        return t.transpose(0, 1).unsqueeze(0)
    return t


def from_bhsd(t, layout):
    return t.transpose(1, 2) if layout == "bshd" else t


def empty_rows(b, hq, sq, skv, art):
    """[b, hq, sq] bool: the rows that see no key under the artifact's band."""
    seen = band_mask(sq, skv, art.left, art.right, art.align, "cpu").any(-1)
    return (~seen).to("cuda")[None, None].expand(b, hq, sq)


def compare(o, lse, o_ref, l_ref, empty=None):
    """(O err, LSE err, empty rows, problem or '') for bhsd o/o_ref, lse/l_ref.

    Without sinks the empty rows are those whose reference LSE is -inf; with
    sinks `empty` names them, and their LSE must be the sink exactly.
    """
    if torch.isnan(o).any() or torch.isnan(lse).any():
        return math.nan, math.nan, 0, "NaN in output (unwritten or bad)"
    if empty is None:
        empty = torch.isinf(l_ref) & (l_ref < 0)
        if not torch.equal(torch.isinf(lse) & (lse < 0), empty):
            return math.nan, math.nan, int(empty.sum()), "-inf LSE rows differ from the reference"
    elif not torch.equal(lse.double()[empty], l_ref[empty]):
        return math.nan, math.nan, int(empty.sum()), "rows that see no key: LSE is not the sink"
    n_empty = int(empty.sum())
    if n_empty and bool((o[empty] != 0).any()):
        return math.nan, math.nan, n_empty, "rows that see no key are not exactly 0"
    scale = (o_ref.abs().max().item() if o_ref.numel() else 0.0) or 1.0
    err_o = (o.double() - o_ref).abs().max().item() / scale if o.numel() else 0.0
    full = ~empty
    err_l = (lse.double()[full] - l_ref[full]).abs().max().item() if full.any() else 0.0
    if not math.isfinite(err_l):
        return err_o, err_l, n_empty, "non-finite LSE on a row that sees keys"
    return err_o, err_l, n_empty, ""


def dense_cases(quick):
    seqs = [17, 128, 1000] if quick else SEQ_Q
    for layout in ("bhsd", "bshd"):
        for sq in seqs:
            for skv in (sq, OTHER_KV[sq]):
                yield layout, (1 if sq >= 4096 else 2), 16, 4, sq, skv
    yield "bhsd", 2, 8, 1, 1000, 1000
    yield "bshd", 1, 4, 4, 128, 128


# Key rows scaled by 1 + KEY_RAMP * position / s_kv: scores grow along the
# keys, so a row's max passes its reference max by more than 2^8 in the
# middle of the key walk, not only at its first tile (docs/Semantics.md §2.6).
KEY_RAMP = 12.0


def growing_cases():
    yield "bhsd", 1, 16, 4, 1000, 1000
    yield "bshd", 1, 16, 4, 4096, 4096


def thd_cases(left):
    w = 128 if left is None else left + 1
    short = max(1, w // 2)
    long_ = 2 * w + 37
    yield [short, 0, long_, 1, 300], [short, 0, long_, 1, 300]
    yield [17, long_, 0, 5], [40, long_ + 11, 3, 0]


def fresh_sinks(hq, gen):
    """[hq] f32 sinks: head 0 large (+8, above the scores: the sink takes most
    of each row), head 1 small (-8: little effect), head 2 far above every
    score (its rows keep a share of about exp(-20) for the keys), head 3 far
    below (none), the rest within a few units of the scores."""
    sinks = torch.rand(hq, device="cuda", generator=gen) * 6 - 3
    for h, value in enumerate((8.0, -8.0, 20.0, -30.0)[:hq]):
        sinks[h] = value
    return sinks


def run_artifact(art, quick, gen, rows):
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[art.dtype_name]
    d = art.head_dim
    failures = 0
    softcap = getattr(art, "softcap", None)
    with_sinks = getattr(art, "sinks", False)

    def randn(*shape):
        return torch.randn(*shape, device="cuda", generator=gen).to(dtype)

    if not art.varlen:
        cases = [(c, 0.0) for c in dense_cases(quick)]
        cases += [(c, KEY_RAMP) for c in growing_cases()]
        for (layout, b, hq, hkv, sq, skv), ramp in cases:
            shp = (lambda h, s: (b, h, s, d)) if layout == "bhsd" else (lambda h, s: (b, s, h, d))
            q, k, v = randn(*shp(hq, sq)), randn(*shp(hkv, skv)), randn(*shp(hkv, skv))
            if ramp:
                pos = torch.arange(skv, device="cuda", dtype=torch.float32) / max(skv, 1)
                pos = pos.view((1, 1, skv, 1) if layout == "bhsd" else (1, skv, 1, 1))
                k = (k.float() * (1 + ramp * pos)).to(dtype)
            o = torch.full_like(q, math.nan)
            lse = torch.full((b, hq, sq), math.nan, device="cuda")
            sinks = fresh_sinks(hq, gen) if with_sinks else None
            mods = {"sinks": sinks} if with_sinks else {}
            err = ""
            try:
                art.forward(q, k, v, layout=layout, out=o, lse=lse, **mods)
                torch.cuda.synchronize()
                o_ref, l_ref = reference(to_bhsd(q, layout), to_bhsd(k, layout),
                                         to_bhsd(v, layout), art.left, art.right,
                                         art.align, art.scale, sinks=sinks, softcap=softcap)
                empty = empty_rows(b, hq, sq, skv, art) if with_sinks else None
                eo, el, ne, err = compare(to_bhsd(o, layout), lse, o_ref, l_ref, empty)
            except Exception as e:  # noqa: BLE001 - reported in the table
                eo, el, ne, err = math.nan, math.nan, 0, f"{type(e).__name__}: {e}"
            ok = not err and eo <= TOL_O[art.dtype_name] and el <= TOL_LSE
            failures += not ok
            rows.append((art.path, layout + (" ramp" if ramp else ""), b, f"{hq}/{hkv}",
                         str(sq), str(skv), eo, el, ne,
                         "ok" if ok else (err or "tolerance")))
            print(*rows[-1], sep="  ", flush=True)
    else:
        for lens_q, lens_kv in thd_cases(art.left):
            hq, hkv = 16, 4
            cq = torch.tensor([0] + lens_q).cumsum(0).to(torch.int32)
            ck = torch.tensor([0] + lens_kv).cumsum(0).to(torch.int32)
            q = randn(int(cq[-1]), hq, d)
            k, v = randn(int(ck[-1]), hkv, d), randn(int(ck[-1]), hkv, d)
            o = torch.full_like(q, math.nan)
            lse = torch.full((hq, int(cq[-1])), math.nan, device="cuda")
            sinks = fresh_sinks(hq, gen) if with_sinks else None
            mods = {"sinks": sinks} if with_sinks else {}
            worst = [0.0, 0.0, 0, ""]
            try:
                art.forward(q, k, v, layout="thd", cu_seqlens_q=cq.cuda(),
                            cu_seqlens_kv=ck.cuda(), out=o, lse=lse, **mods)
                torch.cuda.synchronize()
                for i in range(len(lens_q)):
                    a, b_ = int(cq[i]), int(cq[i + 1])
                    c, e_ = int(ck[i]), int(ck[i + 1])
                    o_ref, l_ref = reference(to_bhsd(q[a:b_], "thd"), to_bhsd(k[c:e_], "thd"),
                                             to_bhsd(v[c:e_], "thd"), art.left, art.right,
                                             art.align, art.scale, sinks=sinks,
                                             softcap=softcap)
                    empty = (empty_rows(1, hq, b_ - a, e_ - c, art) if with_sinks
                             else None)
                    eo, el, ne, err = compare(to_bhsd(o[a:b_], "thd"), lse[:, a:b_][None],
                                              o_ref, l_ref, empty)
                    worst = [max(worst[0], eo) if not math.isnan(eo) else eo,
                             max(worst[1], el) if not math.isnan(el) else el,
                             worst[2] + ne, worst[3] or (f"segment {i}: {err}" if err else "")]
            except Exception as e:  # noqa: BLE001
                worst = [math.nan, math.nan, 0, f"{type(e).__name__}: {e}"]
            eo, el, ne, err = worst
            ok = not err and eo <= TOL_O[art.dtype_name] and el <= TOL_LSE
            failures += not ok
            rows.append((art.path, "thd", len(lens_q), f"{hq}/{hkv}",
                         ",".join(map(str, lens_q)), ",".join(map(str, lens_kv)),
                         eo, el, ne, "ok" if ok else (err or "tolerance")))
            print(*rows[-1], sep="  ", flush=True)
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", default=".artifacts/kernels")
    p.add_argument("--out", default=os.environ.get("OUT", "bench/out"))
    p.add_argument("--quick", action="store_true", help="fewer lengths")
    p.add_argument("--self-test", action="store_true",
                   help="run against a float64 stand-in instead of artifacts")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    gen = torch.Generator(device="cuda").manual_seed(int(time.time()))
    arts = []
    if args.self_test:
        arts = [StandIn("bf16", 64, 127, 0, "top_left", False),
                StandIn("f16", 128, None, 0, "bottom_right", False),
                StandIn("bf16", 64, 0, 0, "bottom_right", False),
                StandIn("bf16", 64, 127, 0, "bottom_right", True),
                StandIn("bf16", 64, 127, 0, "bottom_right", False, sinks=True),
                StandIn("f16", 64, 127, 0, "bottom_right", True, sinks=True),
                StandIn("bf16", 128, 255, 0, "top_left", False, softcap=50.0)]
    else:
        import sdpa_runtime
        for path in sorted(glob.glob(os.path.join(args.artifacts, "*.manifest"))):
            try:
                art = sdpa_runtime.Artifact(path)
            except sdpa_runtime.SdpaError as e:
                print(f"FAIL  {path}: {e}")
                return 1
            if art.direction == "forward":
                art.path = os.path.basename(path)
                arts.append(art)
    if not arts:
        print(f"no forward artifacts in {args.artifacts}")
        return 1
    rows, failures = [], 0
    for art in arts:
        t0 = time.time()
        failures += run_artifact(art, args.quick, gen, rows)
        print(f"{art.path}: {time.time() - t0:.1f} s", flush=True)
        # Written after every artifact, so that a timeout keeps what was done.
        text = report(rows, failures)
        with open(os.path.join(args.out, "check_forward.md"), "w") as f:
            f.write(text)
    print(text)
    return 1 if failures else 0


def report(rows, failures):
    header = ("| artifact | layout | B/segs | Hq/Hkv | s_q | s_kv | O err | LSE err "
              "| -inf rows | result |\n|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]:.2e} | "
                   f"{r[7]:.2e} | {r[8]} | {r[9]} |\n" for r in rows)
    return (f"# Forward check {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n"
            f"Device: {torch.cuda.get_device_name()}; torch {torch.__version__}; "
            f"command: `{' '.join(sys.argv)}`.\nO err = max|O - ref| / max|ref|; LSE err = "
            f"max|LSE - ref| on rows that see keys; tolerances O {TOL_O}, LSE {TOL_LSE}.\n\n"
            + header + body + f"\n{failures} failure(s) in {len(rows)} cases.\n")


if __name__ == "__main__":
    sys.exit(main())
