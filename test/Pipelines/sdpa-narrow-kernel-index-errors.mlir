// RUN: %sdpa_opt %s --sdpa-narrow-kernel-index -split-input-file -verify-diagnostics

/// The runtime learns a kernel module's index width from its manifest: a
/// module without one is refused, as is a record the runtime would refuse.

module attributes {gpu.container_module} {
  // expected-error @below {{kernel module 'k' has no manifest in 'sdpa.artifacts' to record its 32-bit index in}}
  gpu.module @k {
  }
}

// -----

module attributes {gpu.container_module, sdpa.artifacts = {k = "sdpa-artifact 1\0Adirection sideways\0A"}} {
  // expected-error @below {{the manifest of kernel module 'k' does not parse: line 3: key 'direction': expected}}
  gpu.module @k {
  }
}

// -----

/// A pointer held in an index other than as an element pointer's base
/// (inttoptr of its i64 cast) would be truncated at 32 bits: refused.

module attributes {gpu.container_module, sdpa.artifacts = {k = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 0 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel k forward\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0A"}} {
  gpu.module @k {
    gpu.func @k(%m: memref<1099511627776xf32>) kernel {
      // expected-error @below {{a pointer held in an index, which a 32-bit index cannot hold}}
      %p = memref.extract_aligned_pointer_as_index %m : memref<1099511627776xf32> -> index
      gpu.return
    }
  }
}
