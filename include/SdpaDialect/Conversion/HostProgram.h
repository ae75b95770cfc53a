//===- HostProgram.h - The host side of a lowered attention op --*- C++ -*-===//
//
// What the convert passes put in place of an sdpa op, so that their output
// is a complete program: buffers of the operands, outputs and workspaces
// allocated on the device (relay counters zeroed) as the runtime does, the
// kernels of the op's gpu.module launched in order with gpu.launch_func (the
// grid formed from the schedule's tiles by affine ceildiv, the parameters in
// the schema's order), and the results as tensors. sdpa-strip-host removes
// it for the artifact (ahead-of-time) path.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_HOSTPROGRAM_H
#define SDPADIALECT_CONVERSION_HOSTPROGRAM_H

#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/Conversion/KernelSchema.h"
#include "SdpaDialect/SdpaOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::sdpa {

/// Builds the launch sequence of one op at the builder's insertion point
/// (before the op). Every value is recorded under its manifest parameter
/// name (docs/Artifact.md), so that a launch takes the kernel's parameters
/// by name, in the schema's order.
class HostProgramBuilder {
public:
  HostProgramBuilder(OpBuilder &builder, Location loc, Layout layout,
                     TileShape tiles);

  /// An operand tensor shaped like q, k or v (q, k, v, o, do): its buffer,
  /// the flat pointer and the b/h/s strides. Returns the buffer.
  Value addInput(StringRef name, Value tensor);
  /// q, k and v (addInput); returns the buffers of q and k.
  std::pair<Value, Value> addQueryKeyValue(Value query, Value key,
                                           Value value);
  /// A fresh device buffer of type `type` (q-like, or lse/delta shaped) for
  /// output `name`, its dynamic sizes read off `like` (a buffer of q or k),
  /// recorded like an input. Returns the buffer.
  Value addOutput(StringRef name, RankedTensorType type, Value like);
  /// lse (an output buffer): pointer and its b/h strides.
  void addLse(Value buffer);
  /// lse as an operand tensor (the backward's); returns its buffer.
  Value addLseInput(Value tensor);
  /// THD cumulative offsets (`cu_seqlens_q`, `cu_seqlens_kv`). Returns the
  /// buffer.
  Value addOffsets(StringRef name, Value tensor);
  /// A contiguous [Hq] f32 operand (`sinks`): its buffer and flat pointer.
  Value addPerHeadInput(StringRef name, Value tensor);
  /// A fresh [Hq] device buffer of `type` (`grad_sinks`), sized like the
  /// per-head buffer `like`, recorded by its pointer. Returns the buffer.
  Value addPerHeadOutput(StringRef name, RankedTensorType type, Value like);
  /// The sizes, from the buffers of q and k (THD: the token counts bound the
  /// maximum segment lengths; the batch is the number of offsets minus 1),
  /// and the grid terms of the schedule's tiles.
  void addSizes(Value query, Value key, Value queryOffsets);
  /// A densely packed device workspace of `count` elements (the product of
  /// `dims`) of `element`, zeroed on the device if `zero`; freed by
  /// freeWorkspaces.
  void addWorkspace(StringRef name, Type element, ArrayRef<Value> dims,
                    bool zero);

  /// The sizes recorded by addSizes, as index values.
  Value seqQ() const { return sizes.lookup("seq_q"); }
  Value seqKv() const { return sizes.lookup("seq_kv"); }
  Value headsQ() const { return sizes.lookup("heads_q"); }
  Value batch() const { return sizes.lookup("batch"); }
  /// ceildiv(seq_q, tile_q).
  Value queryTiles() const { return sizes.lookup("q_tiles"); }
  /// Tokens of the query (dense: batch * seq_q).
  Value queryTokens() const { return sizes.lookup("tokens_q"); }

  /// gpu.launch_func of every kernel record of `manifest`, in order: the
  /// gpu.func of that name in `module`, its parameters taken by name, its
  /// grid terms, block and dynamic shared memory.
  void launchKernels(gpu::GPUModuleOp module,
                     const schema::Manifest &manifest);
  /// Frees the workspaces (after the last launch).
  void freeWorkspaces();
  /// The tensor of output buffer `buffer`.
  Value toTensor(Value buffer, Type type);

private:
  void launch(gpu::GPUFuncOp kernel, ArrayRef<schema::Param> params,
              std::array<schema::GridTerm, 3> grid, int64_t threads,
              int64_t sharedBytes);
  /// The read-only buffer of an operand tensor (identity layout).
  Value toBuffer(Value tensor);
  Value index(int64_t value);
  Value dim(Value buffer, int64_t i);
  Value castTo(Type type, Value indexValue);
  void addStrides(StringRef name, Value buffer);
  void addPointer(StringRef name, Value buffer);

  OpBuilder &b;
  Location loc;
  Layout layout;
  TileShape tiles;
  /// Kernel operands by parameter name.
  llvm::StringMap<Value> params;
  /// Sizes and grid terms (index).
  llvm::StringMap<Value> sizes;
  SmallVector<Value> workspaces;
};

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_HOSTPROGRAM_H
