// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=16 tile-kv=128 host-program=false" | FileCheck %s

/// The Q and dO tiles of 16 rows x 64 / 8 = 128 chunks of 16 bytes are
/// copied by the 256 threads of the 8 warps: threads 128-255 issue no copy
/// (a branch around it; repeating chunk 127, the same bytes to the same
/// place, was a write-write race to compute-sanitizer), so no tile shape is
/// refused for the division of its copies.

// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for
// CHECK: %[[CHUNK:.*]] = arith.addi %[[TID]], %c0{{(_[0-9]+)?}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[CHUNK]], %c128{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: arith.divui %[[CHUNK]], %c8
// CHECK: nvgpu.device_async_copy {{.*}} to memref<16x72xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.device_async_create_group{{ *$}}
// CHECK: arith.cmpi ult, %{{.*}}, %c128{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if
// CHECK: nvgpu.device_async_copy {{.*}} to memref<16x72xf16, #gpu.address_space<workgroup>>
func.func @copy(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  return %dq : tensor<1x1x?x64xf16>
}
