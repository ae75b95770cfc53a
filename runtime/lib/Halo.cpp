//===- Halo.cpp - Key and query ranges of a band over row ranges ----------===//

#include "SdpaRuntime/Halo.h"
#include "SdpaRuntime/SdpaHalo.h"

#include "RecordError.h"

#include <algorithm>

using namespace sdpa::runtime;

namespace {

int64_t diagonalOffset(const BandEdges &band, int64_t seqQ, int64_t seqKv) {
  return band.bottomRight ? seqKv - seqQ : 0;
}

/// [lo, hi] as a half-open range, [0, 0) when empty.
IndexRange closedToRange(int64_t lo, int64_t hi) {
  if (lo > hi)
    return {};
  return {lo, hi + 1};
}

} // namespace

std::string sdpa::runtime::checkHaloArgs(const BandEdges &band, int64_t seqQ,
                                         int64_t seqKv, const char *rangeName,
                                         int64_t begin, int64_t end,
                                         int64_t side) {
  auto width = [](const char *name, int64_t value) -> std::string {
    if (value < -1 || value > kMaxHaloExtent)
      return std::string(name) + ": expected -1 (unbounded) or a width in [0, " +
             std::to_string(kMaxHaloExtent) + "], got " +
             std::to_string(value);
    return "";
  };
  auto length = [](const char *name, int64_t value) -> std::string {
    if (value < 0 || value > kMaxHaloExtent)
      return std::string(name) + ": expected a length in [0, " +
             std::to_string(kMaxHaloExtent) + "], got " +
             std::to_string(value);
    return "";
  };
  for (const std::string &problem :
       {width("left", band.left), width("right", band.right),
        length("seq_q", seqQ), length("seq_kv", seqKv)})
    if (!problem.empty())
      return problem;
  if (begin < 0 || begin > end || end > side)
    return std::string(rangeName) + "_begin, " + rangeName +
           "_end: expected 0 <= begin <= end <= " + std::to_string(side) +
           ", got [" + std::to_string(begin) + ", " + std::to_string(end) +
           ")";
  return "";
}

IndexRange sdpa::runtime::keysSeenBy(const BandEdges &band, int64_t seqQ,
                                     int64_t seqKv, IndexRange rows) {
  if (rows.empty() || seqKv == 0)
    return {};
  int64_t delta = diagonalOffset(band, seqQ, seqKv);
  int64_t lo = 0, hi = seqKv - 1;
  if (band.left >= 0)
    lo = std::max(lo, rows.begin + delta - band.left);
  if (band.right >= 0)
    hi = std::min(hi, rows.end - 1 + delta + band.right);
  return closedToRange(lo, hi);
}

IndexRange sdpa::runtime::rowsSeeing(const BandEdges &band, int64_t seqQ,
                                     int64_t seqKv, IndexRange keys) {
  if (keys.empty() || seqQ == 0)
    return {};
  int64_t delta = diagonalOffset(band, seqQ, seqKv);
  int64_t lo = 0, hi = seqQ - 1;
  if (band.right >= 0)
    lo = std::max(lo, keys.begin - delta - band.right);
  if (band.left >= 0)
    hi = std::min(hi, keys.end - 1 - delta + band.left);
  return closedToRange(lo, hi);
}

namespace {

using DeriveRange = IndexRange (*)(const BandEdges &, int64_t, int64_t,
                                   IndexRange);

/// One C entry point: checks the arguments (the range lies on the side named
/// `rangeName`), derives the other side's range and stores it.
SdpaStatus rangeEntry(const char *fn, DeriveRange derive, const char *rangeName,
                      int64_t left, int64_t right, int32_t bottomRight,
                      int64_t seqQ, int64_t seqKv, int64_t begin, int64_t end,
                      int64_t *outBegin, int64_t *outEnd) {
  if (!outBegin || !outEnd)
    return recordError(SDPA_ERROR_INVALID_ARGUMENT,
                       std::string(fn) + ": null output pointer");
  if (bottomRight != 0 && bottomRight != 1)
    return recordError(SDPA_ERROR_INVALID_ARGUMENT,
                       "bottom_right: expected 0 or 1, got " +
                           std::to_string(bottomRight));
  BandEdges band{left, right, bottomRight == 1};
  bool querySide = std::string(rangeName) == "q";
  std::string problem = checkHaloArgs(band, seqQ, seqKv, rangeName, begin, end,
                                      querySide ? seqQ : seqKv);
  if (!problem.empty())
    return recordError(SDPA_ERROR_INVALID_ARGUMENT, problem);
  IndexRange result = derive(band, seqQ, seqKv, {begin, end});
  *outBegin = result.begin;
  *outEnd = result.end;
  return SDPA_SUCCESS;
}

} // namespace

extern "C" {

SdpaStatus sdpaBandKeyRange(int64_t left, int64_t right, int32_t bottomRight,
                            int64_t seqQ, int64_t seqKv, int64_t qBegin,
                            int64_t qEnd, int64_t *kvBegin, int64_t *kvEnd) {
  return rangeEntry("sdpaBandKeyRange", keysSeenBy, "q", left, right,
                    bottomRight, seqQ, seqKv, qBegin, qEnd, kvBegin, kvEnd);
}

SdpaStatus sdpaBandQueryRange(int64_t left, int64_t right, int32_t bottomRight,
                              int64_t seqQ, int64_t seqKv, int64_t kvBegin,
                              int64_t kvEnd, int64_t *qBegin, int64_t *qEnd) {
  return rangeEntry("sdpaBandQueryRange", rowsSeeing, "kv", left, right,
                    bottomRight, seqQ, seqKv, kvBegin, kvEnd, qBegin, qEnd);
}

} // extern "C"
