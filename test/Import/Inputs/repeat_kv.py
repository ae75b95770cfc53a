#!/usr/bin/env python3
"""Rewrites a JAX training-step fixture of MHA into GQA written as jnp.repeat.

Takes an XLA-path backward fixture whose @main reads Q, K, V of shape
[B, S, H, D] (bshd) as %arg0, %arg1, %arg2 and returns dQ, dK, dV, and
prints the module JAX writes for the same step when K and V have HKV heads
and are repeated over the G = H / HKV query heads of each group before the
attention (jnp.repeat(k, G, axis=2)):

    forward:  kr = reshape(broadcast_in_dim(k, dims = [0, 1, 2, 4]))
              [B, S, HKV, D] -> [B, S, HKV, G, D] -> [B, S, H, D]
    backward: the transpose of that broadcast, JAX's rule: the cotangent
              reshaped to [B, S, HKV, G, D] and summed over G and over every
              size-1 dimension of k, those put back by a broadcast_in_dim

so dK and dV are the repeated gradients summed over each group. Usage:
repeat_kv.py FIXTURE HKV
"""

import re
import sys


def main():
    text = open(sys.argv[1]).read()
    hkv = int(sys.argv[2])
    m = re.search(r"%arg1: tensor<([0-9]+)x([0-9]+)x([0-9]+)x([0-9]+)x(\w+)>", text)
    b, s, h, d, et = int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5]
    g = h // hkv
    assert g * hkv == h and g > 1
    full = f"tensor<{b}x{s}x{h}x{d}x{et}>"
    small = f"tensor<{b}x{s}x{hkv}x{d}x{et}>"
    mid = f"tensor<{b}x{s}x{hkv}x{g}x{d}x{et}>"
    head, rest = text.split("\n", 2)[:2], text.split("\n", 2)[2]
    main_end = rest.index("\n  }\n")
    body, tail = rest[:main_end], rest[main_end:]
    # K and V read through their repetition.
    body = re.sub(r"%arg([12])\b", r"%rep\1", body)
    signature = head[1].replace(f"%arg1: {full}", f"%arg1: {small}").replace(
        f"%arg2: {full}", f"%arg2: {small}")
    ret = re.search(r"    return (%\w+), (%\w+), (%\w+) : .*", body)
    dq, dk, dv = ret[1], ret[2], ret[3]
    results = signature.split(" -> ", 1)
    out_types = results[1].split(f"{full}")
    # @main's results: dQ full, dK and dV small.
    results[1] = out_types[0] + full + out_types[1] + small + out_types[2] + small + \
        out_types[3]
    signature = " -> ".join(results)
    lines = []
    for i in (1, 2):
        lines.append(f"    %rep{i}_b = stablehlo.broadcast_in_dim %arg{i}, dims = [0, 1, 2, 4] : "
                     f"({small}) -> {mid}")
        lines.append(f"    %rep{i} = stablehlo.reshape %rep{i}_b : ({mid}) -> {full}")
    # The sum over the group (and the size-1 dimensions of [B, S, HKV, D]).
    unit = [i for i, n in enumerate((b, s, hkv, d)) if n == 1]
    kept = [i for i in range(4) if i not in unit]
    mid_dims = [0, 1, 2, 4]
    axes = sorted([3] + [mid_dims[i] for i in unit])
    reduced_shape = [(b, s, hkv, g, d)[i] for i in range(5) if i not in axes]
    reduced = "tensor<" + "".join(f"{n}x" for n in reduced_shape) + f"{et}>"
    tail_lines = ["    %cst_rep = stablehlo.constant dense<0.000000e+00> : tensor<" + et + ">"]
    names = {}
    for name, grad in (("dk", dk), ("dv", dv)):
        tail_lines.append(f"    %{name}_m = stablehlo.reshape {grad} : ({full}) -> {mid}")
        tail_lines.append(f"    %{name}_s = stablehlo.reduce(%{name}_m init: %cst_rep) applies "
                          f"stablehlo.add across dimensions = [{', '.join(map(str, axes))}] : "
                          f"({mid}, tensor<{et}>) -> {reduced}")
        final = f"%{name}_s"
        if unit:
            tail_lines.append(f"    %{name} = stablehlo.broadcast_in_dim %{name}_s, dims = "
                              f"[{', '.join(map(str, kept))}] : ({reduced}) -> {small}")
            final = f"%{name}"
        names[name] = final
    new_ret = f"    return {dq}, {names['dk']}, {names['dv']} : {full}, {small}, {small}"
    body = body.replace(ret[0], "\n".join(tail_lines) + "\n" + new_ret)
    first, others = body.split("\n", 1)
    body = "\n".join(lines) + "\n" + first + "\n" + others if first.strip() else body
    sys.stdout.write(head[0] + "\n" + signature + "\n" + body + tail)


if __name__ == "__main__":
    main()
