// Exactness under mutation: 17 edits of the mask constants and compare
// directions of the causal window-128 fixture, each import checked against
// a brute-force evaluation of the edited mask in Python (the script's
// docstring gives the formula). An import must give exactly the edited
// mask's band, never another one; only masks that are no band decline.
// 11 of the edits are bands (the oracle counts them), 6 are not.

// RUN: %python %S/Inputs/mask_mutations.py %sdpa_opt %S/Inputs/jax_xla_causal_swa_fwd.mlir | FileCheck %s
// CHECK: T=0 W=127 C=0 LE/GE: imported left = 127, right = 0
// CHECK: T=5 W=127 C=3 LE/GE: imported left = 127, right = 3
// CHECK: T=0 W=127 C=0 LT/GE: imported left = 126, right = 0
// CHECK: mask mutations: 11 imported exactly, 6 declined, 0 wrong
