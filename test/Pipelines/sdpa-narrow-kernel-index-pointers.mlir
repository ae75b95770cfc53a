// RUN: %sdpa_opt %s --sdpa-derive-bounds="dq-mode=accumulate" --convert-sdpa-grad-to-gpu="dq-mode=accumulate" --sdpa-strip-host --sdpa-narrow-kernel-index | FileCheck %s
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-backward-pipeline="artifact-dir=%t artifact-name=relay dq-mode=accumulate index-bitwidth=32" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/relay.ptx

/// A deterministic backward that accumulates dQ: its dQ adds and relay
/// counters are element pointers into flat global memrefs. At a 32-bit index
/// an index cannot hold a pointer (the adds wrote 4 GiB below dq_accum on
/// the emulator), so each base is the memref's aligned pointer, read from
/// its LLVM descriptor, and no pointer is an index any more.
// CHECK-LABEL: gpu.func @sdpa_bwd_main(
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: %[[DESC:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<2147483647xi32> to !llvm.struct<(ptr, ptr, i32, array<1 x i32>, array<1 x i32>)>
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %[[DESC]][1]
// CHECK: %[[GLOBAL:.*]] = llvm.addrspacecast %[[ALIGNED]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.getelementptr %[[GLOBAL]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK: llvm.load %{{.*}} atomic syncscope("device") acquire
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : memref<2147483647xf32> to !llvm.struct<(ptr, ptr, i32, array<1 x i32>, array<1 x i32>)>
// CHECK: llvm.atomicrmw fadd
// CHECK-NOT: memref.extract_aligned_pointer_as_index

/// Through the whole pipeline: the relay's acquire and release and the
/// relaxed global adds, with the 64-bit base pointers converted to global.
// PTX-LABEL: .visible .entry sdpa_bwd_main(
// PTX: ld.acquire.gpu.global.b32
// PTX: atom.global.add.f32
// PTX: st.release.gpu.global.b32

func.func @grad(%q: tensor<1x4x?x64xf16>, %k: tensor<1x2x?x64xf16>, %lse: tensor<1x4x?xf32>) -> tensor<1x4x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x4x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?xf32>
      -> tensor<1x4x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x4x?x64xf16>
}
