//===- DeriveBounds.cpp - sdpa-derive-bounds ------------------------------===//
//
// Attaches the derived #sdpa.schedule to every attention op.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/SdpaPasses.h"

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
    if (tileQ < 1 || tileKv < 1) {
      getOperation()->emitError("expected tile-q and tile-kv to be positive");
      return signalPassFailure();
    }
    // Larger tiles overflow int64_t while the maps are derived and evaluated
    // (hardening, docs/Robustness.md: tile-q=9223372036854775807).
    if (tileQ > kMaxTileSize || tileKv > kMaxTileSize) {
      getOperation()->emitError("expected tile-q and tile-kv to be at most ")
          << kMaxTileSize;
      return signalPassFailure();
    }
    TileShape tiles{tileQ, tileKv};
    getOperation()->walk([&](AttentionOpInterface op) {
      op.setScheduleAttr(deriveSchedule(op, tiles));
    });
  }
};
} // namespace
