//===- StablehloOps.td - The ops of the StableHLO opset -----*- tablegen -*-===//
//
// Every op of the StableHLO specification, by family. Semantics are
// StableHLO's (docs/StableHLO.md); descriptions restate them briefly.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_OPS_TD
#define SDPA_STABLEHLO_OPS_TD

include "SdpaDialect/StableHLO/StablehloElementwiseOps.td"
include "SdpaDialect/StableHLO/StablehloShapeOps.td"
include "SdpaDialect/StableHLO/StablehloRegionOps.td"
include "SdpaDialect/StableHLO/StablehloMiscOps.td"
include "SdpaDialect/StableHLO/StablehloCommOps.td"

#endif // SDPA_STABLEHLO_OPS_TD
