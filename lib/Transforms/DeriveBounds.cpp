//===- DeriveBounds.cpp - sdpa-derive-bounds ------------------------------===//
//
// Attaches the derived #sdpa.schedule to every attention op.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/DefaultTiles.h"
#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/SdpaPasses.h"
#include "SdpaDialect/Transforms/TileOptions.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPADERIVEBOUNDS
#include "SdpaDialect/SdpaPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct DeriveBoundsPass
    : public sdpa::impl::SdpaDeriveBoundsBase<DeriveBoundsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkTileOptions(getOperation(), tileQ, tileKv)))
      return signalPassFailure();
    TileShape options{tileQ, tileKv};
    getOperation()->walk([&](AttentionOpInterface op) {
      op.setScheduleAttr(
          deriveSchedule(op, resolveTiles(op, options, toDqMode(dqMode))));
    });
  }
};
} // namespace
