"""Random inputs for a fixture model's @main, scaled like a trained model's.

One rule for bench/check_jax_model.py (GPU) and bench/eval_stablehlo.py
(CPU), so that both see the same kind of inputs:

  * a parameter (one of the leading arguments whose gradients @main returns,
    value_and_grad or grad) that a dot_general contracts against a
    value that is not a parameter is a weight ~ N(0, 1/fan_in), fan_in the
    product of its contracted dimensions (a Flax [in, heads, head_dim]
    kernel has fan_in = in, a [heads, head_dim, out] one heads * head_dim);
  * any other argument of rank 1 is a gain 1 + N(0, 0.1^2), of rank 2 a
    parameter is a bias N(0, 0.1^2);
  * everything else is an activation N(0, 1).

"legacy" is the rule of check_jax_model.py up to 027d401 (rank 1 a gain,
rank 2 ~ N(0, 1/shape[0]), rank 3 and more ~ N(0, 1)): it gave Flax's
[256, 4, 64] kernels a standard deviation of 1 instead of 1/16, so the
logits had a standard deviation of about 256 and every softmax row was
one-hot to float32 (docs/Import.md, "Checking a rewritten model").
"""

import math
import re

import numpy as np


def parameter_count(signature, result_types):
    """How many leading arguments have their gradient returned.

    The gradients follow the parameters in order, but JAX drops an unused
    parameter from the arguments and still returns its (zero) gradient
    (the gpt-oss-like models' 'sinks'): a gradient that is not the next
    argument's type is skipped."""
    grads = result_types[1:] if result_types and result_types[0][0] == () else result_types
    n = 0
    for grad in grads:
        if n < len(signature) and grad == signature[n]:
            n += 1
    return n


def fan_ins(text, signature, nparams):
    """{argument index: fan_in} for the parameters that are weights."""
    alias = {f"%arg{i}": i for i in range(len(signature))}
    for m in re.finditer(r"(%\w+) = stablehlo\.convert (%arg[0-9]+) ", text):
        alias[m.group(1)] = alias.get(m.group(2))
    weights = {}
    for m in re.finditer(r"stablehlo\.dot_general (%\w+), (%\w+),.*?contracting_dims = "
                         r"\[(.*?)\] x \[(.*?)\]", text):
        sides = [(m.group(1), m.group(3)), (m.group(2), m.group(4))]
        for (name, dims), (other, _) in (sides, sides[::-1]):
            i, j = alias.get(name), alias.get(other)
            if i is None or i >= nparams or (j is not None and j < nparams):
                continue
            shape = signature[i][0]
            weights[i] = math.prod(shape[int(d)] for d in dims.split(","))
    return weights


def model_inputs(signature, text, rng, rule="fan-in"):
    """float32 arrays for @main's arguments; signature: [(shape, dtype)]."""
    results = re.search(r"func\.func public @main\(.*?\) -> \((.*?)\) \{", text)
    result_types = []
    if results:
        for m in re.finditer(r"tensor<((?:[0-9]+x)*)([a-z0-9]+)>", results.group(1)):
            result_types.append((tuple(int(d) for d in m.group(1).split("x") if d),
                                 m.group(2)))
    nparams = parameter_count(signature, result_types)
    weights = fan_ins(text, signature, nparams) if rule == "fan-in" else {}
    arrays = []
    for i, (shape, _) in enumerate(signature):
        if i in weights:
            a = rng.standard_normal(shape) / math.sqrt(weights[i])
        elif len(shape) == 1:
            a = 1 + 0.1 * rng.standard_normal(shape)
        elif len(shape) == 2 and rule == "legacy":
            a = rng.standard_normal(shape) / math.sqrt(shape[0])
        elif len(shape) == 2 and i < nparams:
            a = 0.1 * rng.standard_normal(shape)
        else:
            a = rng.standard_normal(shape)
        arrays.append(a.astype(np.float32))
    return arrays
