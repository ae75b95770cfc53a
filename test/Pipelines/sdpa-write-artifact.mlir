// RUN: rm -rf %t && mkdir -p %t
// RUN: not %sdpa_opt %s --sdpa-write-artifact="dir=%t name=../escaped" 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: %sdpa_opt %s -split-input-file -verify-diagnostics --sdpa-write-artifact="dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_fwd_9.manifest
// RUN: ls %t | FileCheck %s --check-prefix=FILES

/// Issue 13: `artifact-name` with `../` wrote outside the artifact
/// directory (spaces, tabs, newlines gave manifests the runtime refuses or
/// injected lines): names are plain file names now, checked before anything
/// is written.
// NAME: error: expected option name to be 1 to 128 characters of [A-Za-z0-9_.-], not starting with '.' or '-', got '../escaped'

/// Only the valid module below was written, under its symbol.
// FILES-NOT: escaped
// FILES: sdpa_fwd_9.manifest
// FILES-NEXT: sdpa_fwd_9.ptx
// FILES-NOT: {{.}}

/// Issue 13: an input record won over what was compiled. The manifest must
/// name the PTX's entry points...
module attributes {sdpa.artifacts = {k = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband inf 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel other forward\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0A"}} {
  // expected-error @+1 {{expected the manifest's kernel 'other' to be an entry point of binary k's PTX}}
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = ".version 8.0\0A.target sm_80\0A.address_size 64\0A.visible .entry k(\0A\09.param .u64 k_param_0,\0A\09.param .u64 k_param_1\0A)\0A{\0A\09ret;\0A}\0A">]
}

// -----

/// ... with as many parameters as they take ...
module attributes {sdpa.artifacts = {k = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband inf 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel k forward\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0A"}} {
  // expected-error @+1 {{expected kernel 'k' to take the manifest's 2 parameters, its PTX takes 3}}
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = ".version 8.0\0A.visible .entry k(\0A\09.param .u64 k_param_0,\0A\09.param .u64 k_param_1,\0A\09.param .u32 k_param_2\0A)\0A{\0A\09ret;\0A}\0A">]
}

// -----

/// ... and be one the runtime reads (its parser is the schema's, shared).
module attributes {sdpa.artifacts = {k = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 36\0Atile_q 64\0Atile_kv 64\0Aband inf 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel k forward\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0A"}} {
  // expected-error @+1 {{expected the manifest of binary k to be one the runtime reads: line 5: key 'head_dim': expected a multiple of 8 from 8 to 256 for a forward artifact, got '36'}}
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = ".version 8.0\0A.visible .entry k(\0A\09.param .u64 k_param_0,\0A\09.param .u64 k_param_1\0A)\0A{\0A\09ret;\0A}\0A">]
}

// -----

/// A consistent module is written, the `ptx` line added after the header.
// MANIFEST: sdpa-artifact 1
// MANIFEST-NEXT: ptx sdpa_fwd_9.ptx
// MANIFEST-NEXT: direction forward
// MANIFEST: kernel sdpa_fwd_9 forward
module attributes {sdpa.artifacts = {sdpa_fwd_9 = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband inf 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel sdpa_fwd_9 forward\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0A"}} {
  gpu.binary @sdpa_fwd_9 [#gpu.object<#nvvm.target, assembly = ".version 8.0\0A.visible .entry sdpa_fwd_9(\0A\09.param .u64 sdpa_fwd_9_param_0,\0A\09.param .u64 sdpa_fwd_9_param_1\0A)\0A{\0A\09ret;\0A}\0A">]
}
