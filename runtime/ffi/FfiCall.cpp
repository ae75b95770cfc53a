//===- FfiCall.cpp - What the XLA FFI handler checks, without XLA ---------===//
//
// Artifact cache, call checks and tensor descriptors of the XLA FFI handler
// (docs/Export.md).
//
//===----------------------------------------------------------------------===//

#include "FfiCall.h"

#include "SdpaSchema/Schema.h"

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

using namespace sdpa::ffi;

std::string sdpa::ffi::manifestPathFor(std::string_view artifact,
                                       const char *dir) {
  std::string stem(artifact);
  if (dir && *dir) {
    size_t slash = stem.find_last_of('/');
    std::string base = slash == std::string::npos ? stem : stem.substr(slash + 1);
    stem = std::string(dir) + "/" + base;
  }
  return stem + ".manifest";
}

/// The names of the manifest's `kernel` records.
static std::vector<std::string> kernelNames(const std::string &path) {
  std::vector<std::string> names;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key, name;
    if (fields >> key >> name && key == "kernel")
      names.push_back(name);
  }
  return names;
}

const CachedArtifact *sdpa::ffi::loadArtifact(const std::string &manifestPath,
                                              std::string &error) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CachedArtifact>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(manifestPath);
  if (it != cache.end())
    return it->second.get();
  auto entry = std::make_unique<CachedArtifact>();
  if (sdpaArtifactLoad(manifestPath.c_str(), &entry->artifact) !=
      SDPA_SUCCESS) {
    error = sdpaGetLastError();
    return nullptr;
  }
  entry->manifestPath = manifestPath;
  entry->kernels = kernelNames(manifestPath);
  return cache.emplace(manifestPath, std::move(entry)).first->second.get();
}

static std::string edge(int64_t width) {
  return width < 0 ? "inf" : std::to_string(width);
}

static std::string bandText(int64_t left, int64_t right, bool bottomRight) {
  return "left = " + edge(left) + ", right = " + edge(right) + ", " +
         (bottomRight ? "bottom_right" : "top_left");
}

/// "" if the call's value of `key` is the artifact's up to the rounding of
/// the manifest's decimal text, else the mismatch.
static std::string compareDecimal(const char *key, float call, float compiled,
                                  const std::string &path) {
  if (std::fabs(compiled - call) <=
      1e-6f * std::fmax(std::fabs(compiled), std::fabs(call)))
    return "";
  std::ostringstream os;
  os << key << ": the call says " << call << ", artifact '" << path
     << "' was compiled for " << compiled;
  return os.str();
}

std::string sdpa::ffi::checkCall(const CachedArtifact &cached,
                                 const CallAttrs &attrs, bool backward,
                                 int32_t &layout) {
  const std::string &path = cached.manifestPath;
  if (attrs.layout == "bhsd")
    layout = SDPA_LAYOUT_BHSD;
  else if (attrs.layout == "bshd")
    layout = SDPA_LAYOUT_BSHD;
  else
    return "layout: expected \"bhsd\" or \"bshd\", got \"" +
           std::string(attrs.layout) + "\"";

  int64_t direction = -1;
  sdpaArtifactQuery(cached.artifact, "direction", &direction);
  sdpa_schema::Direction called = backward ? sdpa_schema::Direction::Backward
                                           : sdpa_schema::Direction::Forward;
  const char *target = sdpa_schema::getFfiTarget(called, attrs.sinks);
  if (direction != (backward ? 1 : 0))
    return "artifact '" + path + "' is a " +
           (direction == 1 ? "backward" : "forward") +
           " artifact, the call is " + target;

  // The sinks are an operand (and, backward, a result) of the `_sinks`
  // targets only: a kernel compiled with them needs them, one without would
  // drop them.
  int64_t sinks = 0;
  sdpaArtifactQuery(cached.artifact, "sinks", &sinks);
  if ((sinks != 0) != attrs.sinks)
    return "sinks: artifact '" + path + "' was compiled " +
           (sinks ? "with" : "without") + " sinks, the call is " + target +
           " (use " + sdpa_schema::getFfiTarget(called, sinks != 0) + ")";

  bool found = false;
  for (const std::string &name : cached.kernels)
    found |= name == attrs.kernel;
  if (!found)
    return "kernel: artifact '" + path + "' has no kernel '" +
           std::string(attrs.kernel) + "'";

  int64_t left = 0, right = 0;
  int32_t bottomRight = 0;
  float scale = 0;
  sdpaArtifactBand(cached.artifact, &left, &right, &bottomRight, &scale);
  if (left != attrs.left || right != attrs.right ||
      (bottomRight != 0) != attrs.bottomRight)
    return "band: the call says " +
           bandText(attrs.left, attrs.right, attrs.bottomRight) +
           ", artifact '" + path + "' was compiled for " +
           bandText(left, right, bottomRight != 0);
  // The manifest prints the scale and the cap in decimal; 0 on both sides
  // is no cap.
  if (std::string problem = compareDecimal("scale", attrs.scale, scale, path);
      !problem.empty())
    return problem;
  float softcap = 0;
  sdpaArtifactSoftcap(cached.artifact, &softcap);
  if (std::string problem =
          compareDecimal("softcap", attrs.softcap, softcap, path);
      !problem.empty())
    return problem;
  if (attrs.deterministic) {
    int64_t deterministic = 0;
    sdpaArtifactQuery(cached.artifact, "deterministic", &deterministic);
    if ((deterministic != 0) != *attrs.deterministic)
      return std::string("deterministic: the call says ") +
             (*attrs.deterministic ? "true" : "false") + ", artifact '" +
             path + "' was compiled with deterministic " +
             std::to_string(deterministic);
  }
  return "";
}

bool sdpa::ffi::makeTensor(const char *name, int32_t dtype,
                           const int64_t *dims, size_t rank, void *data,
                           SdpaTensor &out, std::string &error) {
  if (rank < 1 || rank > 4) {
    error = std::string(name) + ": expected 1 to 4 dimensions, got " +
            std::to_string(rank);
    return false;
  }
  out = SdpaTensor{};
  out.data = reinterpret_cast<uint64_t>(data);
  out.dtype = dtype;
  out.rank = static_cast<int32_t>(rank);
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    out.shape[i] = dims[i];
    out.strides[i] = stride;
    stride *= dims[i] > 0 ? dims[i] : 1;
  }
  return true;
}
