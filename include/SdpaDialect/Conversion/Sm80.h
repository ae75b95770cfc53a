//===- Sm80.h - Hardware constants of the SM80 kernels ----------*- C++ -*-===//
//
// The numbers the SM80 kernel builders depend on, named once: warp size, the
// mma.sync shape and fragment sizes, cp.async and ldmatrix granules, shared
// memory padding and limits.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_SM80_H
#define SDPADIALECT_CONVERSION_SM80_H

#include <cstdint>

namespace mlir::sdpa::sm80 {

/// Threads per warp.
constexpr int64_t kWarpSize = 32;
/// Threads of a warp that share one accumulator row (an mma "quad").
constexpr int64_t kQuadSize = 4;

/// mma.sync.m16n8k16: rows of A/C, columns of B/C, reduction depth.
constexpr int64_t kMmaM = 16;
constexpr int64_t kMmaN = 8;
constexpr int64_t kMmaK = 16;

/// One ldmatrix 8x8 matrix of 16-bit elements: 8 rows of 16 bytes.
constexpr int64_t kLdMatrixRows = 8;
constexpr int64_t kLdMatrixCols = 8;

/// cp.async moves 16 bytes per thread: 8 elements of 16 bits.
constexpr int64_t kAsyncCopyBytes = 16;
constexpr int64_t kAsyncCopyElems = 8;

/// Shared rows are padded by 16 bytes (8 halves) so that the 8 row addresses
/// of one ldmatrix and the 16-byte cp.async stores hit 8 distinct 4-bank
/// groups: a row stride of 16 (mod 128) bytes is bank-conflict free.
constexpr int64_t kSmemPadElems = 8;
/// Alignment of every shared buffer (cp.async and ldmatrix need 16 bytes).
constexpr int64_t kSmemAlignBytes = 16;
/// Shared memory one block may use on SM80 with the opt-in attribute
/// (163 KiB on A100; more on later chips).
constexpr int64_t kMaxSharedBytes = 163 * 1024;
/// Without the opt-in attribute a block gets at most 48 KiB.
constexpr int64_t kDefaultSharedBytes = 48 * 1024;

/// Most threads per block.
constexpr int64_t kMaxThreadsPerBlock = 1024;
/// 32-bit registers of one SM (shared by the blocks resident on it).
constexpr int64_t kRegistersPerSm = 65536;

/// log2(e) and ln(2), for the exp2-domain softmax.
constexpr double kLog2e = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;
/// The forward's reference row max moves only when a key tile's max passes
/// it by more than this (exp2 domain), so P <= 2^8 (docs/Semantics.md §2.6).
constexpr double kSoftmaxMaxGrowthLog2 = 8.0;
/// The member mask of a whole warp (vote, shuffle).
constexpr uint32_t kFullWarpMask = 0xffffffffu;

} // namespace mlir::sdpa::sm80

#endif // SDPADIALECT_CONVERSION_SM80_H
