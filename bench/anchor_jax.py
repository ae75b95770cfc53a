#!/usr/bin/env python3
"""JAX -> cuDNN anchor timings, run in its own process (JAX and torch would
fight over GPU memory). Prints one JSON object per measurement.

Usage: anchor_jax.py CASE... where CASE is name:B:H:D:window:S, e.g.
gpt-oss:2:16:64:128:8192. Causal sliding window of `window` keys, bf16,
[B, S, H, D] (JAX's layout). Timing: median of per-call wall times around
block_until_ready after warm-up, so host dispatch is included.
"""

import json
import os
import statistics
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

WARMUP = int(os.environ.get("ANCHOR_WARMUP", "5"))
REPS = int(os.environ.get("ANCHOR_REPS", "30"))


def attention(window):
    def f(q, k, v):
        return jax.nn.dot_product_attention(
            q, k, v, is_causal=True, local_window_size=(window - 1, 0),
            implementation="cudnn")
    return f


def median_ms(fn, *args):
    for _ in range(WARMUP):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    print(json.dumps({"info": f"jax {jax.__version__}", "devices": str(jax.devices())}),
          flush=True)
    passes = ["fwd"] if os.environ.get("ANCHOR_SKIP_BWD") == "1" else ["fwd", "fwd+bwd"]
    # Every forward first, so that a timeout loses the least.
    for pass_ in passes:
        for spec in sys.argv[1:]:
            name, b, h, d, window, s = spec.split(":")
            b, h, d, window, s = map(int, (b, h, d, window, s))
            kq, kk, kv, kd = jax.random.split(jax.random.PRNGKey(s), 4)
            shape = (b, s, h, d)
            q, k, v, do = (jax.random.normal(x, shape, jnp.float32).astype(jnp.bfloat16)
                           for x in (kq, kk, kv, kd))
            f = attention(window)
            base = {"case": name, "S": s, "impl": "jax-cudnn", "pass": pass_}
            try:
                if pass_ == "fwd":
                    ms = median_ms(jax.jit(f), q, k, v)
                else:
                    def fwd_bwd(q, k, v, do):
                        o, vjp = jax.vjp(f, q, k, v)
                        return o, vjp(do)
                    ms = median_ms(jax.jit(fwd_bwd), q, k, v, do)
                print(json.dumps({**base, "ms": ms}), flush=True)
            except Exception as e:  # report and go on
                print(json.dumps({**base, "error": str(e)[:300]}), flush=True)
            del q, k, v, do


if __name__ == "__main__":
    main()
