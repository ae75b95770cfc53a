// The runtime's GPU smoke-test kernel (probe.manifest, GpuSmokeTest.cpp):
// one warp computes C[16x8] (f32) = A[16x16] * B[8x16]^T (f16) with one
// m16n8k16 mma.sync, its operands staged through shared memory with
// cp.async and read back with ldmatrix. make_artifacts.sh lowers it with
// mlir-opt-22's GPU to NVVM pipeline (bare pointers, PTX).
module attributes {gpu.container_module} {
  gpu.module @probe {
    gpu.func @mma16816(%a: memref<16x16xf16>, %b: memref<8x16xf16>,
                       %c: memref<16x8xf32>)
        workgroup(%aTile: memref<16x16xf16, #gpu.address_space<workgroup>>,
                  %bTile: memref<8x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %lane = gpu.thread_id x
      // Staging: lane l moves 16 bytes (8 halves), row l / 2, column
      // 8 * (l mod 2). A takes all 32 lanes, B (half the size) lanes 0-15.
      %stageRow = arith.divui %lane, %c2 : index
      %half = arith.remui %lane, %c2 : index
      %stageCol = arith.muli %half, %c8 : index
      %copyA = nvgpu.device_async_copy %a[%stageRow, %stageCol], %aTile[%stageRow, %stageCol], 8
          : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %inB = arith.cmpi ult, %lane, %c16 : index
      scf.if %inB {
        %copyB = nvgpu.device_async_copy %b[%stageRow, %stageCol], %bTile[%stageRow, %stageCol], 8
            : memref<8x16xf16> to memref<8x16xf16, #gpu.address_space<workgroup>>
      }
      %group = nvgpu.device_async_create_group %copyA
      nvgpu.device_async_wait %group {numGroups = 0 : i32}
      gpu.barrier
      // ldmatrix x4 of A: lane l points at row l mod 16, column 8 * (l / 16).
      %aRow = arith.remui %lane, %c16 : index
      %aBlock = arith.divui %lane, %c16 : index
      %aCol = arith.muli %aBlock, %c8 : index
      %aFrag = nvgpu.ldmatrix %aTile[%aRow, %aCol] {numTiles = 4 : i32, transpose = false}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      // ldmatrix x2 of B: lane l points at row l mod 8, column
      // 8 * ((l / 8) mod 2); lanes 16-31 repeat lanes 0-15.
      %bRow = arith.remui %lane, %c8 : index
      %bOctet = arith.divui %lane, %c8 : index
      %bBlock = arith.remui %bOctet, %c2 : index
      %bCol = arith.muli %bBlock, %c8 : index
      %bFrag = nvgpu.ldmatrix %bTile[%bRow, %bCol] {numTiles = 2 : i32, transpose = false}
          : memref<8x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      %acc = nvgpu.mma.sync (%aFrag, %bFrag, %zero) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      // The accumulator of lane l: row l / 4 (and that plus 8), columns
      // 2 * (l mod 4) and the next one.
      %top = arith.divui %lane, %c4 : index
      %bottom = arith.addi %top, %c8 : index
      %quad = arith.remui %lane, %c4 : index
      %col = arith.muli %quad, %c2 : index
      %topPair = vector.extract %acc[0] : vector<2xf32> from vector<2x2xf32>
      %bottomPair = vector.extract %acc[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %topPair, %c[%top, %col] : memref<16x8xf32>, vector<2xf32>
      vector.store %bottomPair, %c[%bottom, %col] : memref<16x8xf32>, vector<2xf32>
      gpu.return
    }
  }
}
