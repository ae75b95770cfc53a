#!/usr/bin/env python3
"""Context parallelism on one GPU: every rank's kernels on one device.

The ranks of sdpa.distributed.context_parallel_attention run as threads
(LoopbackGroup, the test transport) and call the compiled kernels
(RuntimeAttention). Against the unsharded forward and deterministic backward
of the same artifacts:

* exact mode (overlap=False, halo widened to whole key tiles, chunks a
  multiple of the query tiles): O, LSE and dQ must be bitwise equal, and dK,
  dV bitwise equal at every key no other rank's rows see; at the halo keys
  dK/dV are the sum of two rounded partials (reported, not bitwise);
* overlap mode (own keys while the halo is in flight, blocks merged by LSE):
  reported as the largest difference;
* time: the unsharded forward+backward, each rank's block kernels alone (the
  per-rank compute of a real run), and bytes moved per rank: halo and dK/dV
  return (counted by the transport) against an all-gather of K, V plus a
  reduce-scatter of dK, dV, with the transfer time at an assumed link
  bandwidth (simulated: one GPU has no link).

The band is the gpt-oss window (left 127, right 0, top-left), f16, d 64,
GQA 8/2. Artifacts (bench/make_artifacts.py): f16_d64_win127,
bwd_f16_d64_win127_det (the unsharded run, rank 0's block, every rank's own
keys in overlap mode), cp_f16_d64_win127_br, bwd_cp_f16_d64_win127_br_det
(the other ranks' exact-mode blocks) and cp_f16_d64_halo127,
bwd_cp_f16_d64_halo127_det (a rank's rows against its 127 halo keys).

  bench/check_cp.py --artifacts .artifacts/kernels --out /tmp/out
  bench/check_cp.py --cpu        # the same flow with the float64 reference
"""

import argparse
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402

from sdpa.distributed import (Band, HaloPlan, LoopbackGroup, ReferenceAttention,  # noqa: E402
                              RuntimeAttention, block_band, context_parallel_step)

BAND = Band(127, 0)
#: Block band -> (forward, backward) artifact names.
ARTIFACTS = {
    Band(127, 0, "top_left"): ("f16_d64_win127", "bwd_f16_d64_win127_det"),
    Band(127, 0, "bottom_right"): ("cp_f16_d64_win127_br", "bwd_cp_f16_d64_win127_br_det"),
    Band(0, 127, "top_left"): ("cp_f16_d64_halo127", "bwd_cp_f16_d64_halo127_det"),
}
#: Assumed link bandwidth for the simulated transfer time (bytes/s, one
#: direction of an H200's NVLink).
LINK = 450e9


def artifact_lookup(directory):
    from sdpa.runtime import Artifact
    cache = {}

    def lookup(band):
        names = ARTIFACTS.get(band)
        if names is None:
            raise SystemExit(f"no artifact for block band {band}: add it to ARTIFACTS and "
                             f"bench/make_artifacts.py")
        if band not in cache:
            paths = [os.path.join(directory, n + ".manifest") for n in names]
            missing = [p for p in paths if not os.path.exists(p)]
            if missing:
                raise SystemExit(f"missing {', '.join(missing)}: bench/make_artifacts.py "
                                 f"--sdpa-opt build/bin/sdpa-opt --out {directory} --only "
                                 f"{','.join(names)}")
            cache[band] = tuple(Artifact(p) for p in paths)
        return cache[band]
    return lookup


def sharded(q, k, v, do, ranks, local, overlap, tile_kv):
    chunk = q.shape[2] // ranks

    def fn(transport):
        # The step without autograd: autograd's one CUDA thread would run the
        # ranks' backward calls one after another, and they wait for each
        # other (ContextParallelStep).
        r = transport.rank
        qs, ks, vs = (t[:, :, r * chunk:(r + 1) * chunk] for t in (q, k, v))
        step = context_parallel_step(qs, ks, vs, transport, left=BAND.left, right=BAND.right,
                                     align=BAND.align, local=local, overlap=overlap,
                                     tile_kv=tile_kv)
        o = step.forward(qs, ks, vs)
        lse = step.saved[4]
        return (o, lse, *step.backward(do[:, :, r * chunk:(r + 1) * chunk]))
    chunks, transports = LoopbackGroup(ranks, timeout=300).run(fn)
    return [torch.cat([c[i] for c in chunks], dim=2) for i in range(5)], transports


def timed(fn, device, repeat):
    fn()
    if device.type == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / repeat


def block_bands(seq, ranks, tile_kv):
    """Every block band the exact (tile-widened) and overlap runs form."""
    chunk = seq // ranks
    bands = set()
    for widen in (tile_kv, None):
        plan = HaloPlan(BAND, [chunk] * ranks, [chunk] * ranks, tile_kv=widen)
        for r in range(ranks):
            keys = [plan.need[r]] if widen else \
                [m for m in [plan.local[r]] if m] + [m for _, m in plan.recv[r]]
            for a, e in keys:
                bands.add(block_band(BAND, seq, seq, r * chunk, chunk, a, e - a))
    return bands


def plan_only(args):
    lookup = artifact_lookup(args.artifacts)
    fwd, bwd = lookup(BAND)
    tile_kv = math.lcm(fwd.tile_kv, bwd.tile_kv)
    for band in sorted(block_bands(args.seq, args.ranks, tile_kv), key=repr):
        f, b = lookup(band)
        print(f"block band {band}: {os.path.basename(f.path)}, {os.path.basename(b.path)}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--artifacts", default=".artifacts/kernels")
    ap.add_argument("--out", default=None, help="folder for check_cp.md")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--seq", type=int, default=16384, help="tokens of the whole sequence")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--cpu", action="store_true",
                    help="float64 reference on the CPU (checks this script, not the kernels)")
    ap.add_argument("--plan-only", action="store_true",
                    help="load the artifacts of every block band and exit (no GPU needed)")
    args = ap.parse_args()
    if args.plan_only:
        return plan_only(args)

    if args.cpu:
        device, dtype, local = torch.device("cpu"), torch.float64, ReferenceAttention()
        seq, repeat, tile_q, tile_kv = min(args.seq, 512), 1, 64, 64
        bitwise_expected = False
    else:
        if not torch.cuda.is_available():
            raise SystemExit("no CUDA device (use --cpu to check the script)")
        device, dtype = torch.device("cuda"), torch.float16
        lookup = artifact_lookup(args.artifacts)
        local = RuntimeAttention(lookup)
        fwd, bwd = lookup(BAND)
        tile_q = math.lcm(fwd.tile_q, bwd.tile_q)
        tile_kv = math.lcm(fwd.tile_kv, bwd.tile_kv)
        seq, repeat = args.seq, args.repeat
        bitwise_expected = True
    ranks = args.ranks
    if seq % ranks or (seq // ranks) % tile_q:
        raise SystemExit(f"--seq {seq}: each of {ranks} chunks must be a multiple of "
                         f"the query tiles ({tile_q})")
    b, hq, hkv, d = 1, 8, 2, 64
    scale = 1 / math.sqrt(d)
    g = torch.Generator(device="cpu").manual_seed(0)
    q, k, v, do = (torch.randn(b, h, seq, d, generator=g).to(device, dtype)
                   for h in (hq, hkv, hkv, hq))
    lines = [f"# Context parallelism on one device ({'CPU reference' if args.cpu else torch.cuda.get_device_name()})",
             "", f"band {BAND}, {ranks} ranks x {seq // ranks} tokens, B={b} Hq={hq} "
             f"Hkv={hkv} d={d} {dtype}, halo widened to key tiles of {tile_kv}", ""]

    # The unsharded run: the same local attention over the whole sequence.
    def single():
        o, lse = local.forward(q, k, v, BAND, scale, seq, seq, 0, 0)
        dq, dk, dv = local.backward(q, k, v, o, lse, do, BAND, scale, seq, seq, 0, 0)
        return o, lse, dq, dk, dv
    want = single()

    plan = HaloPlan(BAND, [seq // ranks] * ranks, [seq // ranks] * ranks, tile_kv=tile_kv)
    halo_mask = torch.zeros(seq, dtype=torch.bool)
    for r in range(ranks):
        for _, (a, e) in plan.recv[r]:
            halo_mask[a:e] = True
    failures = 0
    sent = {}
    lines += ["| mode | result | equality | max abs diff |", "|---|---|---|---|"]
    for overlap in (False, True):
        got, transports = sharded(q, k, v, do, ranks, local, overlap,
                                  None if overlap else tile_kv)
        mode = "overlap" if overlap else "exact"
        sent[mode] = [t.bytes_sent for t in transports]
        for name, x, w in zip(("O", "LSE", "dQ", "dK", "dV"), got, want):
            x, w = x.double(), w.double()
            if name in ("dK", "dV"):
                inner = ~halo_mask.to(x.device)
                same = torch.equal(x[:, :, inner], w[:, :, inner])
                inner_diff = float((x[:, :, inner] - w[:, :, inner]).abs().max())
                halo_diff = float((x[:, :, ~inner] - w[:, :, ~inner]).abs().max())
                lines.append(f"| {mode} | {name} | {'bitwise' if same else 'differs'} at the "
                             f"keys no other rank sees | {inner_diff:.3g} there, "
                             f"{halo_diff:.3g} at the halo keys |")
            else:
                same = torch.equal(x, w)
                lines.append(f"| {mode} | {name} | {'bitwise' if same else 'differs'} | "
                             f"{float((x - w).abs().max()):.3g} |")
            if not overlap and bitwise_expected and not same:
                failures += 1
    lines.append("")

    # Bytes per rank: what the transport sent (forward halo + backward
    # return), against an all-gather of K, V and a reduce-scatter of dK, dV.
    per_key = 2 * b * hkv * d * torch.empty((), dtype=dtype).element_size()
    gather = [plan.allgather_keys(r) * per_key * 2 for r in range(ranks)]
    lines += ["| rank | bytes sent, exact (tile-widened halo) | bytes sent, overlap | "
              "all-gather + reduce-scatter | simulated transfer at "
              f"{LINK / 1e9:.0f} GB/s (overlap / all-gather) |", "|---|---|---|---|---|"]
    for r in range(ranks):
        lines.append(f"| {r} | {sent['exact'][r]} | {sent['overlap'][r]} | {gather[r]} | "
                     f"{sent['overlap'][r] / LINK * 1e6:.2f} us / "
                     f"{gather[r] / LINK * 1e6:.2f} us |")

    # Time: the unsharded fwd+bwd and each rank's block kernels alone.
    t_single = timed(single, device, repeat)
    block = []
    chunk = seq // ranks
    for r in range(ranks):
        a, e = plan.need[r]
        qr, dor = (t[:, :, r * chunk:(r + 1) * chunk].contiguous() for t in (q, do))
        kr, vr = k[:, :, a:e].contiguous(), v[:, :, a:e].contiguous()

        def one(qr=qr, kr=kr, vr=vr, dor=dor, a=a, r=r):
            o, lse = local.forward(qr, kr, vr, BAND, scale, seq, seq, r * chunk, a)
            local.backward(qr, kr, vr, o, lse, dor, BAND, scale, seq, seq, r * chunk, a)
        block.append(timed(one, device, repeat))
    lines += ["", f"unsharded fwd+bwd: {t_single * 1e3:.3f} ms; per-rank block fwd+bwd: "
              + ", ".join(f"{t * 1e3:.3f}" for t in block) + " ms (max "
              f"{max(block) * 1e3:.3f} ms = {max(block) / t_single:.2f}x of the unsharded, "
              f"ideal {1 / ranks:.2f}x)"]
    if bitwise_expected:
        lines.append(f"\nexact mode bitwise checks: {'all passed' if not failures else f'{failures} FAILED'}")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "check_cp.md"), "w") as f:
            f.write(report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
