// RUN: %sdpa_opt -sdpa-drop-kernels %s | FileCheck %s

/// The kernel module goes; the host and any other nested module stay.
// CHECK-LABEL: module {
// CHECK: func.func @host
// CHECK: module @other
// CHECK-NOT: sdpa_kernels
module {
  func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  builtin.module @other {
  }
  builtin.module @sdpa_kernels attributes {gpu.container_module} {
    gpu.module @sdpa_fwd_0 {
    }
  }
}
