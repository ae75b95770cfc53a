#!/usr/bin/env python3
"""Rewrites the Flax NNX training step so its backward computes Delta from O.

models/flax_nnx_mha_window32_vg.mlir is JAX's autodiff of the written-out
attention: dS = (dP / s - rowsum(dP * E / s^2)) * E. A hand-written backward
(flash attention's) computes the same dS from the forward's output instead:

    Delta = rowsum(dO * O)           over the head dimension, f32
    dS    = P * (dP - Delta)         Delta broadcast along the keys

This prints the module with that dS (the JAX one left unused), naming the
fixture's values: dO = %75 and O = %55 ([B, T, N, H] bf16), dP = %83 and
P = %47 ([G, B, N, T, S] f32), dS = %96. With --output OTHER, Delta reads
OTHER instead of O (a control). Usage: delta_from_output.py FIXTURE [--output V]
"""

import sys


def main():
    text = open(sys.argv[1]).read()
    output = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--output" else "%55"
    f32 = "tensor<1x256x4x64xf32>"
    cells = "tensor<1x1x4x256x256xf32>"
    new = f"""    %d_do = stablehlo.convert %75 : (tensor<1x256x4x64xbf16>) -> {f32}
    %d_o = stablehlo.convert {output} : (tensor<1x256x4x64xbf16>) -> {f32}
    %d_prod = stablehlo.multiply %d_do, %d_o : {f32}
    %d_zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %d_sum = stablehlo.reduce(%d_prod init: %d_zero) applies stablehlo.add across dimensions = [3] : ({f32}, tensor<f32>) -> tensor<1x256x4xf32>
    %d_delta = stablehlo.broadcast_in_dim %d_sum, dims = [1, 3, 2] : (tensor<1x256x4xf32>) -> {cells}
    %d_diff = stablehlo.subtract %83, %d_delta : {cells}
    %d_ds = stablehlo.multiply %47, %d_diff : {cells}
"""
    old = "    %97 = call @_where_0(%35, %96)"
    assert old in text
    text = text.replace(old, new + "    %97 = call @_where_0(%35, %d_ds)")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
