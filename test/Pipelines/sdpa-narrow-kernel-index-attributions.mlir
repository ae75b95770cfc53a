// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-grad-to-gpu --sdpa-strip-host --sdpa-narrow-kernel-index | FileCheck %s

/// A backward with sinks: bwd_preprocess and bwd_dq keep per-warp dsink
/// partials in workgroup attributions, entry block arguments past the
/// function's inputs. Only the inputs' flat memrefs shrink; the attributions
/// keep their types (retyping every block argument made the function type
/// disagree with its body).
// CHECK-LABEL: gpu.func @sdpa_bwd_preprocess(%arg0: memref<2147483647xf16>
// CHECK-SAME: workgroup(%arg18 : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK-LABEL: gpu.func @sdpa_bwd_main(%arg0: memref<2147483647xf16>
// CHECK-LABEL: gpu.func @sdpa_bwd_dq(%arg0: memref<2147483647xf16>
// CHECK-SAME: workgroup(%arg33 : memref<2xf32, #gpu.address_space<workgroup>>)

func.func @sinks(%q: tensor<?x?x48xf16>, %k: tensor<?x?x48xf16>, %v: tensor<?x?x48xf16>, %o: tensor<?x?x48xf16>, %do: tensor<?x?x48xf16>, %lse: tensor<?x?xf32>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %s: tensor<?xf32>) -> (tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?xf32>) {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %k, %v, %o, %do, %lse seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) sinks(%s : tensor<?xf32>) {mask = #sdpa.band<left = 40, right = 40, align = top_left>, scale = 1.44337564706802368e-01 : f64, layout = #sdpa.layout<thd>, softcap = 2.000000000e+00 : f32}
      : tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?xf32> -> tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?xf32>
  return %dq, %dk, %dv, %ds : tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?x?x48xf16>, tensor<?xf32>
}
