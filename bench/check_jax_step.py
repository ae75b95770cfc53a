#!/usr/bin/env python3
"""A JAX training step, imported and run: our kernels against JAX's own.

The fixture test/Import/Inputs/jax_cudnn_causal_swa_bwd.mlir is what JAX
0.11.2 printed for

    loss(q, k, v) = sum(dot_product_attention(q, k, v, is_causal=True,
                        local_window_size=(127, 0), implementation="cudnn"))
    grad(loss, argnums=(0, 1, 2))          # q, k, v: [2, 256, 16, 64] bf16

`bench/make_artifacts.py` compiles it with sdpa-stablehlo-pipeline into
<artifacts>/sdpa_fwd_0 and sdpa_bwd_0. Here, on fresh random inputs:

  * JAX (a child process: JAX and torch would fight over GPU memory) runs
    the same function on its cuDNN path: O and dQ, dK, dV;
  * ours: the forward artifact gives O and LSE, the backward artifact dQ,
    dK, dV from dO = 1 (the gradient of the sum), layout bshd as imported;
  * both are compared with the float64 reference (docs/Semantics.md §2)
    and with each other, as max |x - ref| / max |ref|; outputs are poisoned
    with NaN first.

So the import's reading of cuDNN's configuration (window, causal flag,
layout, scale) is checked against what JAX computes, not against our own
reading. Writes check_jax_step.md to --out; exits 1 on any failure.
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPE = (2, 256, 16, 64)  # [B, S, H, D], the fixture's
LEFT, RIGHT, ALIGN = 127, 0, "top_left"
TOL = 5e-2  # bf16, as check_backward.py
# Ours and JAX's are two bf16 computations of one function; they agree
# within the sum of their distances to the reference.


def jax_child(directory):
    """Runs JAX's function on the saved inputs; saves O and the gradients."""
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax
    import jax.numpy as jnp
    import numpy as np

    q, k, v = (jnp.asarray(np.load(os.path.join(directory, n + ".npy")), jnp.bfloat16)
               for n in ("q", "k", "v"))

    def attention(q, k, v):
        return jax.nn.dot_product_attention(q, k, v, is_causal=True,
                                            local_window_size=(LEFT, RIGHT),
                                            implementation="cudnn")

    def loss(q, k, v):
        return jnp.sum(attention(q, k, v).astype(jnp.float32))

    o = jax.jit(attention)(q, k, v)
    grads = jax.jit(jax.grad(loss, argnums=(0, 1, 2)))(q, k, v)
    for name, x in zip(("o", "dq", "dk", "dv"), (o, *grads)):
        np.save(os.path.join(directory, "jax_" + name + ".npy"),
                np.asarray(x.astype(jnp.float32)))
    print("jax", jax.__version__, jax.devices()[0].device_kind, flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--artifacts", default=".artifacts/kernels/jax-step")
    p.add_argument("--out", default=".")
    p.add_argument("--jax-child", metavar="DIR", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.jax_child:
        jax_child(args.jax_child)
        return 0

    import numpy as np
    import torch
    sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
    sys.path.insert(0, HERE)
    import sdpa_runtime
    from attention_ref import reference, reference_grads, rel

    fwd = sdpa_runtime.Artifact(os.path.join(args.artifacts, "sdpa_fwd_0.manifest"))
    bwd = sdpa_runtime.Artifact(os.path.join(args.artifacts, "sdpa_bwd_0.manifest"))
    for art in (fwd, bwd):
        band = (art.left, art.right, art.align)
        if band != (LEFT, RIGHT, ALIGN):
            sys.exit(f"{art.path}: band {band}, expected {(LEFT, RIGHT, ALIGN)}")

    gen = torch.Generator(device="cuda")
    gen.manual_seed(int.from_bytes(os.urandom(4), "little"))
    q, k, v = (torch.randn(SHAPE, generator=gen, device="cuda").to(torch.bfloat16)
               for _ in range(3))
    with tempfile.TemporaryDirectory() as tmp:
        for name, t in zip("qkv", (q, k, v)):
            np.save(os.path.join(tmp, name + ".npy"), t.float().cpu().numpy())
        env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
        res = subprocess.run([sys.executable, os.path.abspath(__file__), "--jax-child", tmp],
                             env=env, capture_output=True, text=True, timeout=300)
        if res.returncode != 0:
            sys.exit("JAX failed:\n" + res.stderr[-3000:])
        jax_info = res.stdout.strip().splitlines()[-1]
        theirs = {n: torch.from_numpy(np.load(os.path.join(tmp, "jax_" + n + ".npy"))).cuda()
                  for n in ("o", "dq", "dk", "dv")}

    # Ours, bshd as imported; dO = 1 is the gradient of the sum.
    o = torch.full_like(q, math.nan)
    lse = torch.full((SHAPE[0], SHAPE[2], SHAPE[1]), math.nan, device="cuda")
    fwd.forward(q, k, v, layout="bshd", out=o, lse=lse)
    do = torch.ones_like(q)
    grads = [torch.full_like(t, math.nan) for t in (q, k, v)]
    bwd.backward(q, k, v, o, lse, do, layout="bshd", dq=grads[0], dk=grads[1], dv=grads[2])
    torch.cuda.synchronize()
    ours = dict(zip(("o", "dq", "dk", "dv"), (o, *grads)))

    # The float64 reference, in bhsd.
    bhsd = [t.transpose(1, 2) for t in (q, k, v, do)]
    o_ref, _ = reference(*bhsd[:3], LEFT, RIGHT, ALIGN, fwd.scale)
    g_ref = reference_grads(*bhsd, LEFT, RIGHT, ALIGN, bwd.scale)
    ref = {n: t.transpose(1, 2) for n, t in zip(("o", "dq", "dk", "dv"), (o_ref, *g_ref))}

    # Control: the comparison tells bands apart. Against the reference
    # without the left edge (causal only), ours must be off by more than TOL.
    o_causal, _ = reference(*bhsd[:3], None, RIGHT, ALIGN, fwd.scale)
    control = rel(ours["o"], o_causal.transpose(1, 2))

    rows, failures = [], 0
    for n in ("o", "dq", "dk", "dv"):
        e_ours, e_jax = rel(ours[n], ref[n]), rel(theirs[n], ref[n])
        e_both = rel(ours[n], theirs[n])
        ok = e_ours <= TOL and e_both <= e_ours + e_jax + 1e-6 and not math.isnan(e_both)
        failures += not ok
        rows.append(f"| {n} | {e_ours:.2e} | {e_jax:.2e} | {e_both:.2e} | {'ok' if ok else 'FAIL'} |")

    lines = [
        "# JAX training step, imported: ours against JAX's cuDNN path",
        "",
        f"Fixture `test/Import/Inputs/jax_cudnn_causal_swa_bwd.mlir`, compiled with "
        f"`sdpa-stablehlo-pipeline` into `{args.artifacts}`; {jax_info}; torch "
        f"{torch.__version__}; shape [B, S, H, D] = {list(SHAPE)} bf16, band "
        f"{LEFT} {RIGHT} {ALIGN}, scale {fwd.scale:.6g}, dO = 1. Errors are "
        f"max|x - ref| / max|ref| against float64; 'ours vs jax' uses JAX's result "
        f"as ref. Limit {TOL} for ours; ours and JAX must agree within the sum of "
        f"their errors.",
        "",
        "| tensor | ours vs float64 | jax vs float64 | ours vs jax | result |",
        "|---|---|---|---|---|",
        *rows,
        f"| control: o vs causal-only float64 | {control:.2e} | | | "
        f"{'ok' if control > TOL else 'FAIL'} (must exceed {TOL}) |",
        "",
        f"{failures + (control <= TOL)} failure(s).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "check_jax_step.md"), "w") as f:
        f.write(text)
    return 1 if failures or control <= TOL else 0


if __name__ == "__main__":
    sys.exit(main())
