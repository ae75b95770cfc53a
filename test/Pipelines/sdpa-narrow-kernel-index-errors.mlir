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
