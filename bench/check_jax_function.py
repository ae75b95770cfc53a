#!/usr/bin/env python3
"""The JAX function sdpa.jax_ops.attention on the GPU against jax.nn.dot_product_attention.

For a few bands (causal, causal window 128, full; GQA; bf16/f16; d 64/128;
layout bshd = JAX's [B, T, N, H]; Gemma 2's softcap 50; gpt-oss's sinks)
the output and jax.grad of a random projection of it, through the FFI calls
to our kernels (custom_vjp), are compared with jax.nn.dot_product_attention
in float32 (implementation "xla", local_window_size for the window; with a
softcap or sinks, attention written out in float32: the cap before the mask,
the logits concatenated with the sink column, softmaxed, the column dropped)
as max|x - ref| / max|ref|, and must be within bench/check_backward.py's
limits (bf16 5e-2, f16 2e-2). With sinks the gradient of the sinks (f32 [Hq],
the sdpa_backward_sinks call's) is compared too.
Also: a jitted training step (SGD on q, k, v) with the deterministic
backward repeats bitwise, and a changed band is a different kernel (its
output differs from the windowed one by more than the tolerance: the
comparison can fail), and so do a softcap and sinks.

Needs the FFI handler (--lib, libsdpa_ffi.so from `bench/run_gpu.sh` step
ffi) and the kernels (--kernels, a prebuilt set from sdpa.kernels). One
line per check; exits 1 on any failure.

    python3 bench/check_jax_function.py --lib build-runtime/lib/libsdpa_ffi.so \\
        --kernels .artifacts/sdpa-kernels
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", help="libsdpa_ffi.so (default: $SDPA_FFI_LIB or the checkout's)")
    p.add_argument("--kernels", help="a prebuilt kernel set (put first on SDPA_KERNEL_PATH)")
    p.add_argument("--tol-scale", type=float, default=1.0,
                   help="multiplies the tolerances (bf16 5e-2, f16 2e-2 of max |ref|)")
    p.add_argument("--budget", type=float, default=240)
    return p.parse_args(argv)


#: Of max |ref|, against float32: bench/check_backward.py's gradient limits.
TOL = {"bfloat16": 5e-2, "float16": 2e-2}

CASES = [  # dtype, d, (B, S, Hq, Hkv), causal, window, softcap, sinks
    ("bfloat16", 64, (2, 384, 8, 2), True, (127, None), None, False),
    ("bfloat16", 128, (1, 300, 4, 4), True, (None, None), None, False),
    ("float16", 64, (2, 256, 4, 1), False, (None, None), None, False),
    ("float16", 128, (1, 600, 4, 2), True, (127, None), None, False),
    # Gemma 2's logit cap 50 (kernels of sdpa.kernels' COMMON): q is scaled by
    # CAP_BOOST so that the scores reach the cap (the controls below check it).
    ("bfloat16", 64, (2, 384, 8, 2), True, (None, None), 50.0, False),
    ("bfloat16", 128, (1, 600, 4, 2), True, (4095, None), 50.0, False),
    # gpt-oss's sinks (COMMON: d 64, its 128-key window and dense causal, GQA).
    ("bfloat16", 64, (2, 384, 8, 2), True, (127, None), None, True),
    ("float16", 64, (1, 300, 4, 1), True, (None, None), None, True),
]
#: Multiplies q in the softcap cases: scores of standard deviation ~20.
CAP_BOOST = 20.0


def random_sinks(jax, jnp, key, heads):
    """One f32 logit per query head: N(0, 2), with the first heads at +8 and
    -8 (a sink that takes most of the mass, one that takes none)."""
    s = 2.0 * jax.random.normal(key, (heads,), jnp.float32)
    return s.at[0].set(8.0).at[1].set(-8.0)


def written_reference(jnp, q, k, v, causal, window, softcap, sinks):
    """Attention written out in float32 (docs/Semantics.md §7): the cap
    c tanh(s / c) before the mask when `softcap`, the sink column sinks[h]
    concatenated to the masked logits, softmaxed and dropped when `sinks` is
    not None; GQA by repeating K and V; layout bshd."""
    d, hq, hkv = q.shape[-1], q.shape[2], k.shape[2]
    k, v = jnp.repeat(k, hq // hkv, axis=2), jnp.repeat(v, hq // hkv, axis=2)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(jnp.float32(d))
    if softcap:
        s = softcap * jnp.tanh(s / softcap)
    sq, sk = q.shape[1], k.shape[1]
    rows, cols = jnp.arange(sq)[:, None], jnp.arange(sk)[None, :]
    left, right = window[0], 0 if causal else window[1]
    visible = jnp.ones((sq, sk), bool)
    if left is not None:
        visible &= cols >= rows - left
    if right is not None:
        visible &= cols <= rows + right
    s = jnp.where(visible, s, -jnp.inf)
    if sinks is not None:
        column = jnp.broadcast_to(sinks[None, :, None, None], s.shape[:-1] + (1,))
        p = jax_softmax(jnp, jnp.concatenate([s, column], axis=-1))[..., :-1]
    else:
        p = jax_softmax(jnp, s)
    return jnp.einsum("bhqk,bkhd->bqhd", p, v)


def jax_softmax(jnp, x):
    m = jnp.max(x, axis=-1, keepdims=True)
    e = jnp.exp(x - m)
    return e / jnp.sum(e, axis=-1, keepdims=True)


def main():
    args = parse_args()
    if args.kernels:
        os.environ["SDPA_KERNEL_PATH"] = os.path.abspath(args.kernels)
    import jax
    import jax.numpy as jnp
    import numpy as np

    import sdpa.jax_ops as sj
    print(f"jax {jax.__version__}, devices {jax.devices()}", flush=True)
    sj.register(args.lib)
    failed, t0 = 0, time.monotonic()

    def report(check, ok, detail):
        nonlocal failed
        failed += 0 if ok else 1
        print(f"{'PASS' if ok else 'FAIL'} {check}: {detail}", flush=True)

    def rel(x, ref):
        x, ref = np.asarray(x, np.float64), np.asarray(ref, np.float64)
        return float(np.abs(x - ref).max() / max(np.abs(ref).max(), 1e-30))

    key = jax.random.PRNGKey(0)
    for dtype, d, (b, s, hq, hkv), causal, window, softcap, with_sinks in CASES:
        name = f"{dtype} d{d} B{b} S{s} H{hq}/{hkv} causal={causal} window={window}"
        if softcap:
            name += f" softcap={softcap:g}"
        if with_sinks:
            name += " sinks"
        if time.monotonic() - t0 > args.budget:
            report(name, False, "SKIPPED: budget spent")
            continue
        k1, k2, k3, k4, k5, key = jax.random.split(key, 6)
        boost = CAP_BOOST if softcap else 1.0
        q = (boost * jax.random.normal(k1, (b, s, hq, d), jnp.float32)).astype(dtype)
        k = jax.random.normal(k2, (b, s, hkv, d), jnp.float32).astype(dtype)
        v = jax.random.normal(k3, (b, s, hkv, d), jnp.float32).astype(dtype)
        w = jax.random.normal(k4, (b, s, hq, d), jnp.float32)
        sinks = random_sinks(jax, jnp, k5, hq) if with_sinks else None
        left = window[0]
        local = None if left is None else (left, 0 if causal else left)

        def ours(q, k, v, sinks):
            o = sj.attention(q, k, v, causal=causal, window=window, softcap=softcap,
                             sinks=sinks)
            return jnp.sum(o.astype(jnp.float32) * w), o

        def theirs(q, k, v, sinks):
            if softcap or sinks is not None:  # jax.nn.dot_product_attention has neither
                o = written_reference(jnp, q, k, v, causal, window, softcap, sinks)
                return jnp.sum(o * w), o
            kw = {"local_window_size": local} if local else {}
            o = jax.nn.dot_product_attention(q, k, v, is_causal=causal, implementation="xla",
                                             **kw)
            return jnp.sum(o * w), o

        argnums = (0, 1, 2, 3) if with_sinks else (0, 1, 2)
        f32 = [x.astype(jnp.float32) for x in (q, k, v)]
        (_, o), g = jax.jit(jax.value_and_grad(ours, argnums=argnums, has_aux=True))(
            q, k, v, sinks)
        (_, ro), rg = jax.jit(jax.value_and_grad(theirs, argnums=argnums, has_aux=True))(
            *f32, sinks)
        errs = [rel(o, ro)] + [rel(a, r) for a, r in zip(g, rg)]
        tol = args.tol_scale * TOL[dtype]
        labels = "O dQ dK dV" + (" dSinks" if with_sinks else "")
        dtypes_ok = not with_sinks or g[3].dtype == jnp.float32
        report(name, max(errs) <= tol and dtypes_ok,
               f"{labels} {' '.join(f'{e:.2e}' for e in errs)} (limit {tol:.0e})"
               + ("" if dtypes_ok else f"; dSinks is {g[3].dtype}, expected float32"))

    # A jitted SGD step with the deterministic backward repeats bitwise; a
    # changed band (no window) gives another result.
    q = jax.random.normal(key, (2, 512, 8, 64), jnp.float32).astype(jnp.bfloat16)
    k = q[:, :, :2]

    @jax.jit
    def step(q, k, v):
        loss = lambda q, k, v: jnp.sum(  # noqa: E731
            sj.attention(q, k, v, causal=True, window=(127, 0),
                         deterministic=True).astype(jnp.float32) ** 2)
        g = jax.grad(loss, argnums=(0, 1, 2))(q, k, v)
        return [x - (0.01 * gx).astype(x.dtype) for x, gx in zip((q, k, v), g)]

    a, b2 = step(q, k, k), step(q, k, k)
    same = all(bool(jnp.array_equal(x, y)) for x, y in zip(a, b2))
    report("deterministic step", same, f"two jitted SGD steps bitwise equal: {same}")
    windowed = sj.attention(q, k, k, causal=True, window=(127, 0))
    full = sj.attention(q, k, k, causal=True)
    apart = rel(windowed, full)
    # The window must move the output by well over the accuracy limit, so
    # that a kernel ignoring it fails the checks above.
    report("control", apart > 2 * TOL["bfloat16"],
           f"windowed and causal outputs {apart:.2e} apart "
           f"(must exceed {2 * TOL['bfloat16']:.0e})")
    # The cap must matter on the capped cases' inputs: capped and uncapped
    # outputs apart by well over the limit, so a kernel ignoring it fails.
    qc = (CAP_BOOST * jax.random.normal(key, (2, 384, 8, 64), jnp.float32)).astype(jnp.bfloat16)
    kc = jax.random.normal(jax.random.split(key)[0], (2, 384, 2, 64),
                           jnp.float32).astype(jnp.bfloat16)
    apart = rel(sj.attention(qc, kc, kc, causal=True, softcap=50.0),
                sj.attention(qc, kc, kc, causal=True))
    report("softcap control", apart > 2 * TOL["bfloat16"],
           f"capped and uncapped outputs {apart:.2e} apart "
           f"(must exceed {2 * TOL['bfloat16']:.0e})")
    # The sinks must matter on the sinks cases' inputs (sinks +8 and -8 on
    # the first heads): with and without apart by well over the limit.
    sk = random_sinks(jax, jnp, key, 8)
    apart = rel(sj.attention(qc / CAP_BOOST, kc, kc, causal=True, window=(127, 0), sinks=sk),
                sj.attention(qc / CAP_BOOST, kc, kc, causal=True, window=(127, 0)))
    report("sinks control", apart > 2 * TOL["bfloat16"],
           f"outputs with and without sinks {apart:.2e} apart "
           f"(must exceed {2 * TOL['bfloat16']:.0e})")
    print(f"check_jax_function: {'all passed' if not failed else f'{failed} failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
