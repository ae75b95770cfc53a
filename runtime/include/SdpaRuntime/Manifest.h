//===- Manifest.h - The manifest, as the runtime names it ------*- C++ -*-===//
//
// The runtime reads manifests with the schema's parser (lib/Schema, shared
// with the lowering that writes them); this header names its types in the
// runtime's namespace.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_MANIFEST_H
#define SDPARUNTIME_MANIFEST_H

#include "SdpaSchema/Manifest.h"

namespace sdpa::runtime {

using sdpa_schema::Alignment;
using sdpa_schema::Direction;
using sdpa_schema::ElementType;
using sdpa_schema::GridTerm;
using sdpa_schema::Kernel;
using sdpa_schema::KernelRole;
using sdpa_schema::Manifest;
using sdpa_schema::Param;
using sdpa_schema::ParamType;
using sdpa_schema::parseManifest;
using sdpa_schema::toString;

/// The manifest version this runtime reads.
constexpr int kManifestVersion = sdpa_schema::kArtifactVersion;

/// The type a known parameter name must have, or nullopt if the runtime does
/// not know the name.
inline std::optional<ParamType> expectedParamType(std::string_view name) {
  return sdpa_schema::getParamType(name);
}

} // namespace sdpa::runtime

#endif // SDPARUNTIME_MANIFEST_H
