//===- HostProgram.cpp - The host side of a lowered attention op ----------===//
//
// Buffers, device allocations, sizes, grid terms and gpu.launch_func, each
// value recorded under the manifest name of the kernel parameter it fills
// (docs/Artifact.md), as the runtime fills them from the caller's tensors.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/HostProgram.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {
/// Dimension indices of batch, heads and sequence (THD: tokens) of a
/// q-like tensor per layout; -1: none.
struct LayoutDims {
  int64_t b, h, s;
};

LayoutDims getLayoutDims(Layout layout) {
  switch (layout) {
  case Layout::bhsd:
    return {0, 1, 2};
  case Layout::bshd:
    return {0, 2, 1};
  case Layout::thd:
    return {-1, 1, 0};
  }
  llvm_unreachable("unknown layout");
}
} // namespace

HostProgramBuilder::HostProgramBuilder(OpBuilder &builder, Location loc,
                                       Layout layout, TileShape tiles)
    : b(builder), loc(loc), layout(layout), tiles(tiles) {}

Value HostProgramBuilder::toBuffer(Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  return bufferization::ToBufferOp::create(b, loc, bufferType, tensor,
                                           /*read_only=*/true);
}

Value HostProgramBuilder::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value HostProgramBuilder::dim(Value buffer, int64_t i) {
  return memref::DimOp::create(b, loc, buffer, i);
}

Value HostProgramBuilder::castTo(Type type, Value indexValue) {
  return arith::IndexCastOp::create(b, loc, type, indexValue);
}

void HostProgramBuilder::addPointer(StringRef name, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto flat = MemRefType::get({kFlatExtent}, type.getElementType());
  params[name] = memref::ReinterpretCastOp::create(
      b, loc, flat, buffer, /*offset=*/0, /*sizes=*/{kFlatExtent},
      /*strides=*/{1});
}

void HostProgramBuilder::addStrides(StringRef name, Value buffer) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  LayoutDims dims = getLayoutDims(layout);
  Type i64 = b.getI64Type();
  Value strideB = dims.b < 0 ? arith::ConstantIntOp::create(b, loc, i64, 0)
                             : castTo(i64, metadata.getStrides()[dims.b]);
  Value strideH = castTo(i64, metadata.getStrides()[dims.h]);
  Value strideS = castTo(i64, metadata.getStrides()[dims.s]);
  params[(name + "_stride_b").str()] = strideB;
  params[(name + "_stride_h").str()] = strideH;
  params[(name + "_stride_s").str()] = strideS;
}

Value HostProgramBuilder::addInput(StringRef name, Value tensor) {
  Value buffer = toBuffer(tensor);
  addPointer(name, buffer);
  addStrides(name, buffer);
  return buffer;
}

std::pair<Value, Value>
HostProgramBuilder::addQueryKeyValue(Value query, Value key, Value value) {
  Value queryBuffer = addInput("q", query);
  Value keyBuffer = addInput("k", key);
  addInput("v", value);
  return {queryBuffer, keyBuffer};
}

Value HostProgramBuilder::addOutput(StringRef name, RankedTensorType type,
                                    Value like) {
  LayoutDims dims = getLayoutDims(layout);
  auto likeType = cast<MemRefType>(like.getType());
  // A q-like output has the dims of `like`; an lse-like one (one rank less:
  // [B, H, S] dense, [H, T] thd) takes like's batch, heads and sequence.
  SmallVector<int64_t> from;
  if (type.getRank() == likeType.getRank()) {
    for (int64_t i = 0; i < type.getRank(); ++i)
      from.push_back(i);
  } else if (layout == Layout::thd) {
    from = {dims.h, dims.s};
  } else {
    from = {dims.b, dims.h, dims.s};
  }
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(dim(like, from[i]));
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = gpu::AllocOp::create(b, loc, bufferType, /*asyncToken=*/Type(),
                                      /*asyncDependencies=*/ValueRange(),
                                      dynamicSizes,
                                      /*symbolOperands=*/ValueRange())
                     .getMemref();
  if (type.getRank() == likeType.getRank()) {
    addPointer(name, buffer);
    addStrides(name, buffer);
  }
  return buffer;
}

void HostProgramBuilder::addLse(Value buffer) {
  addPointer("lse", buffer);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Type i64 = b.getI64Type();
  ValueRange strides = metadata.getStrides();
  // Dense [B, H, S]; THD [H, T] (no batch stride).
  if (layout == Layout::thd) {
    params["lse_stride_b"] = arith::ConstantIntOp::create(b, loc, i64, 0);
    params["lse_stride_h"] = castTo(i64, strides[0]);
  } else {
    params["lse_stride_b"] = castTo(i64, strides[0]);
    params["lse_stride_h"] = castTo(i64, strides[1]);
  }
}

Value HostProgramBuilder::addLseInput(Value tensor) {
  Value buffer = toBuffer(tensor);
  addLse(buffer);
  return buffer;
}

Value HostProgramBuilder::addOffsets(StringRef name, Value tensor) {
  Value buffer = toBuffer(tensor);
  addPointer(name, buffer);
  return buffer;
}

Value HostProgramBuilder::addPerHeadInput(StringRef name, Value tensor) {
  Value buffer = toBuffer(tensor);
  addPointer(name, buffer);
  return buffer;
}

Value HostProgramBuilder::addPerHeadOutput(StringRef name,
                                           RankedTensorType type, Value like) {
  SmallVector<Value> dynamicSizes;
  if (type.isDynamicDim(0))
    dynamicSizes.push_back(dim(like, 0));
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = gpu::AllocOp::create(b, loc, bufferType, /*asyncToken=*/Type(),
                                      /*asyncDependencies=*/ValueRange(),
                                      dynamicSizes,
                                      /*symbolOperands=*/ValueRange())
                     .getMemref();
  addPointer(name, buffer);
  return buffer;
}

void HostProgramBuilder::addSizes(Value query, Value key, Value queryOffsets) {
  LayoutDims dims = getLayoutDims(layout);
  // THD: the kernels read each sequence's lengths from the offsets; seq_q
  // and seq_kv only bound them (the grid, the relay counters), and the
  // token counts are such bounds.
  sizes["seq_q"] = dim(query, dims.s);
  sizes["seq_kv"] = dim(key, dims.s);
  sizes["heads_q"] = dim(query, dims.h);
  sizes["heads_kv"] = dim(key, dims.h);
  if (layout == Layout::thd) {
    Value entries = dim(queryOffsets, 0);
    Value one = index(1);
    sizes["batch"] = arith::SubIOp::create(b, loc, entries, one);
    sizes["tokens_q"] = sizes["seq_q"];
  } else {
    sizes["batch"] = dim(query, dims.b);
    sizes["tokens_q"] =
        arith::MulIOp::create(b, loc, sizes["batch"], sizes["seq_q"]);
  }
  Type i32 = b.getI32Type();
  for (StringRef name : {"seq_q", "seq_kv", "heads_q", "heads_kv", "batch"})
    params[name] = castTo(i32, sizes[name]);

  // Tiles of the schedule: ceildiv of the lengths by the tile sizes.
  auto ceilDiv = [&](Value length, int64_t tile) -> Value {
    AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
    auto map = AffineMap::get(0, 1, s0.ceilDiv(tile));
    return affine::AffineApplyOp::create(b, loc, map, ValueRange{length});
  };
  sizes["q_tiles"] = ceilDiv(sizes["seq_q"], tiles.q);
  sizes["kv_tiles"] = ceilDiv(sizes["seq_kv"], tiles.kv);
}

void HostProgramBuilder::addWorkspace(StringRef name, Type element,
                                      ArrayRef<Value> dims, bool zero) {
  Value count = index(1);
  for (Value d : dims)
    count = arith::MulIOp::create(b, loc, count, d);
  auto type = MemRefType::get({ShapedType::kDynamic}, element);
  Value buffer = gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                                      /*asyncDependencies=*/ValueRange(),
                                      ValueRange{count},
                                      /*symbolOperands=*/ValueRange())
                     .getMemref();
  if (zero) {
    Value zeroValue = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    gpu::MemsetOp::create(b, loc, /*asyncToken=*/Type(),
                          /*asyncDependencies=*/ValueRange(), buffer,
                          zeroValue);
  }
  addPointer(name, buffer);
  workspaces.push_back(buffer);
}

void HostProgramBuilder::launch(gpu::GPUFuncOp kernel,
                                ArrayRef<schema::Param> kernelParams,
                                std::array<schema::GridTerm, 3> grid,
                                int64_t threads, int64_t sharedBytes) {
  SmallVector<Value> operands;
  for (const schema::Param &param : kernelParams) {
    Value value = params.lookup(param.name);
    assert(value && "a kernel parameter the host program does not fill");
    operands.push_back(value);
  }
  auto term = [&](schema::GridTerm t) -> Value {
    switch (t) {
    case schema::GridTerm::QTiles:
      return sizes.lookup("q_tiles");
    case schema::GridTerm::KvTiles:
      return sizes.lookup("kv_tiles");
    case schema::GridTerm::HeadsQ:
      return sizes.lookup("heads_q");
    case schema::GridTerm::HeadsKv:
      return sizes.lookup("heads_kv");
    case schema::GridTerm::Batch:
      return sizes.lookup("batch");
    case schema::GridTerm::One:
      return index(1);
    case schema::GridTerm::Rows: {
      Value rows = arith::MulIOp::create(b, loc, sizes.lookup("heads_q"),
                                         sizes.lookup("tokens_q"));
      AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
      auto map = AffineMap::get(0, 1, s0.ceilDiv(threads));
      return affine::AffineApplyOp::create(b, loc, map, ValueRange{rows});
    }
    }
    llvm_unreachable("unknown grid term");
  };
  Value gridX = term(grid[0]);
  Value gridY = term(grid[1]);
  Value gridZ = term(grid[2]);
  Value blockX = index(threads);
  Value one = index(1);
  Value shared;
  if (sharedBytes > 0)
    shared = arith::ConstantIntOp::create(b, loc, b.getI32Type(), sharedBytes);
  gpu::LaunchFuncOp::create(b, loc, kernel, {gridX, gridY, gridZ},
                            {blockX, one, one}, shared, operands);
}

void HostProgramBuilder::launchKernels(gpu::GPUModuleOp module,
                                       const schema::Manifest &manifest) {
  for (const schema::Kernel &kernel : manifest.kernels)
    launch(module.lookupSymbol<gpu::GPUFuncOp>(kernel.name), kernel.params,
           kernel.grid, kernel.block[0], kernel.sharedBytes);
}

void HostProgramBuilder::freeWorkspaces() {
  for (Value buffer : workspaces)
    gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(),
                           /*asyncDependencies=*/ValueRange(), buffer);
  workspaces.clear();
}

Value HostProgramBuilder::toTensor(Value buffer, Type type) {
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/b.getUnitAttr(),
                                           /*writable=*/b.getUnitAttr());
}
