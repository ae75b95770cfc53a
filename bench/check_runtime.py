#!/usr/bin/env python3
"""GPU checks of the runtime itself (not of the attention kernels).

Uses the test artifacts of runtime/tests/gpu (built by make_artifacts.sh):
* the probe (one-warp mma.sync, lowered by mlir-opt) through the generic
  launch path, with 64 KiB of dynamic shared memory (the opt-in path);
* copy kernels through the forward path, which read every tensor through the
  strides, offsets and grid the runtime forms: bhsd, bshd, a strided view,
  GQA and MQA, s_q != s_kv, THD with an empty segment;
* argument errors raised before any launch (outputs stay poisoned).

Exits non-zero on any failure. Usage: check_runtime.py [ARTIFACT_DIR]
"""

import itertools
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "runtime", "python"))
import sdpa_runtime  # noqa: E402

ART = sys.argv[1] if len(sys.argv) > 1 else ".artifacts/runtime-test"
dev = torch.device("cuda")
failures = []


def check(name, ok, detail=""):
    print(f"{'PASS' if ok else 'FAIL'}  {name}{'  ' + detail if detail else ''}")
    if not ok:
        failures.append(name)


def probe():
    path = os.path.join(ART, "probe.manifest")
    if not os.path.exists(path):
        print(f"SKIP  probe: {path} missing")
        return
    art = sdpa_runtime.Artifact(path)
    g = torch.Generator().manual_seed(3)
    a = (torch.randint(-8, 9, (16, 16), generator=g) / 8).half().to(dev)
    b = (torch.randint(-8, 9, (8, 16), generator=g) / 8).half().to(dev)
    c = torch.full((16, 8), float("nan"), device=dev)
    art.launch("mma16816", {"q": ("ptr", a), "k": ("ptr", b), "o": ("ptr", c)})
    torch.cuda.synchronize()
    ref = a.double() @ b.double().T
    check("probe mma16816 via sdpaLaunchKernel (exact)", torch.equal(c.double(), ref),
          f"max err {(c.double() - ref).abs().max().item():g}")


def copy_ref(q, k, v, layout):
    """o and lse of the copy kernel, on bhsd float views."""
    if layout == "bshd":
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    b, hq, sq, d = q.shape
    hkv, skv = k.shape[1], k.shape[2]
    g = hq // hkv
    x = q.float()
    if skv > 0:
        idx = torch.arange(sq, device=dev) % skv
        kk = k.float().repeat_interleave(g, dim=1)[:, :, idx]
        vv = v.float().repeat_interleave(g, dim=1)[:, :, idx]
        x = x + kk + vv
    o = x.to(torch.bfloat16)
    s = torch.arange(sq, device=dev, dtype=torch.float32)
    h = torch.arange(hq, device=dev, dtype=torch.float32)
    bb = torch.arange(b, device=dev, dtype=torch.float32)
    lse = s[None, None, :] + 1000 * h[None, :, None] + 100000 * bb[:, None, None]
    if layout == "bshd":
        o = o.transpose(1, 2)
    return o, lse


def copy_dense():
    path = os.path.join(ART, "copy_dense.manifest")
    if not os.path.exists(path):
        print(f"SKIP  copy_dense: {path} missing")
        return
    art = sdpa_runtime.Artifact(path)
    cases = [("bhsd", 2, 16, 4, 1000, 1537), ("bshd", 2, 16, 4, 130, 61),
             ("bhsd", 1, 8, 1, 1, 77), ("bshd", 3, 4, 4, 64, 64)]
    for layout, b, hq, hkv, sq, skv in cases:
        shape = (lambda h, s: (b, h, s, 64)) if layout == "bhsd" else (lambda h, s: (b, s, h, 64))
        q = torch.randn(shape(hq, sq), device=dev).bfloat16()
        k = torch.randn(shape(hkv, skv), device=dev).bfloat16()
        v = torch.randn(shape(hkv, skv), device=dev).bfloat16()
        o = torch.full_like(q, float("nan"))
        lse = torch.full((b, hq, sq), float("nan"), device=dev)
        art.forward(q, k, v, layout=layout, out=o, lse=lse)
        torch.cuda.synchronize()
        ro, rl = copy_ref(q, k, v, layout)
        check(f"copy forward {layout} b={b} hq={hq} hkv={hkv} sq={sq} skv={skv}",
              torch.equal(o, ro) and torch.equal(lse, rl))
    # A strided view: q, k, v sliced out of one packed [B, S, 3, H, D] buffer.
    qkv = torch.randn(2, 300, 3, 8, 64, device=dev).bfloat16()
    q, k, v = qkv.unbind(2)
    o = torch.full_like(q, float("nan"))
    lse = torch.full((2, 8, 300), float("nan"), device=dev)
    art.forward(q, k, v, layout="bshd", out=o, lse=lse)
    torch.cuda.synchronize()
    ro, rl = copy_ref(q, k, v, "bshd")
    check("copy forward bshd, q/k/v strided views of packed qkv",
          torch.equal(o, ro) and torch.equal(lse, rl))

    # Errors come before any launch: the poisoned output stays NaN.
    q = torch.randn(2, 4, 100, 64, device=dev).bfloat16()
    o = torch.full_like(q, float("nan"))
    flat = torch.empty(q.numel() + 8, device=dev, dtype=torch.bfloat16)
    shifted = flat[1:1 + q.numel()].view(q.shape)
    for name, args, expected in [
        ("misaligned pointer", (shifted, q, q), "q: data pointer"),
        ("wrong dtype", (q.half(), q, q), "q: expected dtype bf16 (the artifact's), got f16"),
        ("wrong head_dim", (torch.randn(2, 4, 100, 128, device=dev).bfloat16(), q, q),
         "q: head_dim (last dimension) is 128, the artifact was compiled for 64"),
        ("heads not divisible", (q, q[:, :3], q[:, :3]),
         "heads: query heads (4) are not a multiple of kv heads (3)"),
    ]:
        try:
            art.forward(*args, layout="bhsd", out=o if args[0].shape == o.shape else None)
            check(f"error: {name}", False, "no error raised")
        except sdpa_runtime.SdpaError as e:
            check(f"error: {name}", expected in e.message and bool(o.isnan().all()),
                  e.message)

    # Host overhead of one checked launch (small problem).
    q = torch.randn(1, 1, 64, 64, device=dev).bfloat16()
    o, lse = art.forward(q, q, q)
    torch.cuda.synchronize()
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        art.forward(q, q, q, out=o, lse=lse)
    torch.cuda.synchronize()
    per = (time.perf_counter() - t0) / n * 1e6
    print(f"INFO  host time per checked forward call (python wrapper + checks + "
          f"launch): {per:.1f} us")


def copy_thd():
    path = os.path.join(ART, "copy_thd.manifest")
    if not os.path.exists(path):
        print(f"SKIP  copy_thd: {path} missing")
        return
    art = sdpa_runtime.Artifact(path)
    lens_q, lens_kv = [100, 0, 200, 1], [150, 50, 300, 0]
    hq, hkv = 16, 4
    cu_q = torch.tensor([0] + list(itertools.accumulate(lens_q)), dtype=torch.int32)
    cu_kv = torch.tensor([0] + list(itertools.accumulate(lens_kv)), dtype=torch.int32)
    tq, tkv = int(cu_q[-1]), int(cu_kv[-1])
    q = torch.randn(tq, hq, 64, device=dev).bfloat16()
    k = torch.randn(tkv, hkv, 64, device=dev).bfloat16()
    v = torch.randn(tkv, hkv, 64, device=dev).bfloat16()
    o = torch.full_like(q, float("nan"))
    lse = torch.full((hq, tq), float("nan"), device=dev)
    art.forward(q, k, v, layout="thd", cu_seqlens_q=cu_q.to(dev),
                cu_seqlens_kv=cu_kv.to(dev), out=o, lse=lse)
    torch.cuda.synchronize()
    ok = True
    for i, (lq, lk) in enumerate(zip(lens_q, lens_kv)):
        sq, skv = int(cu_q[i]), int(cu_kv[i])
        seg = lambda t, s, n: t[s:s + n].transpose(0, 1).unsqueeze(0)  # noqa: E731
        ro, rl = copy_ref(seg(q, sq, lq), seg(k, skv, lk), seg(v, skv, lk), "bhsd")
        rl = rl + 100000 * i
        ok &= torch.equal(o[sq:sq + lq], ro[0].transpose(0, 1))
        ok &= torch.equal(lse[:, sq:sq + lq], rl[0])
    check(f"copy forward thd, segments q {lens_q} kv {lens_kv}", bool(ok))
    try:
        bad = cu_q.clone()
        bad[2] = 50
        art.forward(q, k, v, layout="thd", cu_seqlens_q=bad.to(dev),
                    cu_seqlens_kv=cu_kv.to(dev))
        check("error: decreasing THD offsets", False, "no error raised")
    except sdpa_runtime.SdpaError as e:
        check("error: decreasing THD offsets",
              "cu_seqlens_q: offsets decrease at index 2 (50 after 100)" in e.message,
              e.message)


if __name__ == "__main__":
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}")
    probe()
    copy_dense()
    copy_thd()
    print(f"{len(failures)} failure(s)" + (f": {failures}" if failures else ""))
    sys.exit(1 if failures else 0)
