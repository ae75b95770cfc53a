// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=16 tile-kv=128 host-program=false dq-mode=accumulate" | FileCheck %s

/// The Q and dO tiles of 16 rows x 64 / 8 = 128 chunks of 16 bytes are
/// copied by the 256 threads of the 8 warps: threads 128-255 issue no copy
/// (a branch around it; repeating chunk 127, the same bytes to the same
/// place, was a write-write race to compute-sanitizer), so no tile shape is
/// refused for the division of its copies. Both fetches take the guard: visit
/// 0's into stage 0 before the walk, and each next visit's in it.
///
/// Shared memory, by hand (rows padded by 8 halves): K and V are 128 x 72
/// (18432 bytes each), Q and dO two stages of 16 x 72 (2 * 2304 bytes each),
/// dS 16 x (128 + 8) (4352), LSE and Delta 2 x 16 f32 (128 each):
/// 2 * 18432 + 2 * 4608 + 4352 + 2 * 128 = 50688 bytes.

// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 256 1 1\0Ashared_bytes 50688\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-COUNT-4: nvgpu.device_async_copy %arg2{{.*}} to memref<128x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[CHUNK:.*]] = arith.addi %[[TID]], %c0{{(_[0-9]+)?}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[CHUNK]], %c128{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: arith.divui %[[CHUNK]], %c8
// CHECK: nvgpu.device_async_copy %arg0{{.*}} to memref<2x16x72xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.device_async_create_group{{ *$}}
// CHECK: arith.cmpi ult, %{{.*}}, %c128{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if
// CHECK: nvgpu.device_async_copy %arg3{{.*}} to memref<2x16x72xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: %[[NCHUNK:.*]] = arith.addi %[[TID]], %c0{{(_[0-9]+)?}} : index
// CHECK: %[[NIN:.*]] = arith.cmpi ult, %[[NCHUNK]], %c128{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if %[[NIN]] {
// CHECK: arith.divui %[[NCHUNK]], %c8
// CHECK: nvgpu.device_async_copy %arg0{{.*}} to memref<2x16x72xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.device_async_create_group{{ *$}}
// CHECK: arith.cmpi ult, %{{.*}}, %c128{{(_[0-9]+)?}} : index
// CHECK-NEXT: scf.if
// CHECK: nvgpu.device_async_copy %arg3{{.*}} to memref<2x16x72xf16, #gpu.address_space<workgroup>>
// CHECK: } {sdpa.q_loop}
func.func @copy(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  return %dq : tensor<1x1x?x64xf16>
}
