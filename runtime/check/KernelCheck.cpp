//===- KernelCheck.cpp - sdpa-kernel-check: artifacts against float64 -----===//
//
// Runs each artifact named on the command line through the runtime's C API on
// fresh random inputs and compares what its kernels write with the float64
// reference of AttentionReference.h: forward O and LSE, backward dQ, dK, dV
// (and dsinks). Outputs are poisoned with NaN before every run; rows that see
// no key must give O = 0 and LSE = -inf (with sinks: LSE = the sink) exactly;
// a deterministic backward runs twice and must be bitwise repeatable. The
// shapes are the ones the artifact admits: dense bhsd and bshd (GQA, s_q
// equal to and different from s_kv, lengths off the tiles, one query row;
// for a deterministic backward, rows that many key tiles reach) or
// THD batches with an empty sequence; one forward case grows the keys along
// the sequence, so that a row's running max is passed late in its key walk.
//
// Works with whatever libcuda.so.1 the runtime loads: a GPU's driver, or in
// CI the PTX emulator (emulator/). Prints one line per case and exits 1 on
// any failure; the seed it prints reproduces a run (--seed). --repeat runs
// every backward twice and says whether a non-deterministic one repeated
// bitwise (information, not a check).
//
//===----------------------------------------------------------------------===//

#include "AttentionReference.h"
#include "DeviceTensors.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

using namespace sdpa::check;
using sdpa::runtime::CudaDriver;

namespace {

/// Tolerances of max |x - ref| / max |ref| (LSE: max |x - ref|).
double outputTolerance(int32_t dtype) {
  return dtype == SDPA_DTYPE_BF16 ? 2e-2 : 5e-3;
}
double gradientTolerance(int32_t dtype) {
  return dtype == SDPA_DTYPE_BF16 ? 5e-2 : 1e-2;
}
constexpr double kLseTolerance = 2e-3;
/// Key rows scaled by 1 + kKeyRamp * row / s_kv in the growing case.
constexpr double kKeyRamp = 12;

/// What an artifact is: read from its manifest through the C API.
struct ArtifactFacts {
  int64_t headDim, dtype, varlen, backward, deterministic, sinks;
  BandSpec band;
};

ArtifactFacts queryFacts(const SdpaArtifact *art) {
  ArtifactFacts facts{};
  sdpaArtifactQuery(art, "head_dim", &facts.headDim);
  sdpaArtifactQuery(art, "dtype", &facts.dtype);
  sdpaArtifactQuery(art, "varlen", &facts.varlen);
  sdpaArtifactQuery(art, "direction", &facts.backward);
  sdpaArtifactQuery(art, "deterministic", &facts.deterministic);
  sdpaArtifactQuery(art, "sinks", &facts.sinks);
  int32_t bottomRight = 0;
  float scale = 1, softcap = 0;
  sdpaArtifactBand(art, &facts.band.left, &facts.band.right, &bottomRight,
                   &scale);
  sdpaArtifactSoftcap(art, &softcap);
  facts.band.bottomRight = bottomRight != 0;
  facts.band.scale = scale;
  facts.band.softcap = softcap;
  return facts;
}

/// One problem to run.
struct Case {
  int32_t layout;
  ProblemShape shape;
  bool growingKeys = false;
  std::string describe() const {
    static const char *names[] = {"bhsd", "bshd", "thd"};
    std::string text = names[layout];
    text += " h " + std::to_string(shape.headsQ) + "/" +
            std::to_string(shape.headsKv) + " s";
    for (size_t b = 0; b < shape.seqQ.size(); ++b)
      text += " " + std::to_string(shape.seqQ[b]) + "x" +
              std::to_string(shape.seqKv[b]);
    return text + (growingKeys ? " growing keys" : "");
  }
};

std::vector<Case> casesFor(const ArtifactFacts &facts, bool longer) {
  std::vector<Case> cases;
  auto add = [&](int32_t layout, int64_t hq, int64_t hkv,
                 std::vector<int64_t> sq, std::vector<int64_t> skv,
                 bool growing = false) {
    Case c;
    c.layout = layout;
    c.shape = {hq, hkv, facts.headDim, std::move(sq), std::move(skv)};
    c.growingKeys = growing;
    cases.push_back(std::move(c));
  };
  if (facts.varlen) {
    int64_t window = facts.band.left < 0 ? 64 : facts.band.left + 1;
    int64_t shortLength = std::max<int64_t>(1, std::min<int64_t>(window, 64) / 2);
    int64_t longLength = std::min<int64_t>(2 * window + 37, 300);
    add(SDPA_LAYOUT_THD, 4, 2, {shortLength, 0, longLength, 1},
        {shortLength, 0, longLength, 1});
    add(SDPA_LAYOUT_THD, 4, 1, {17, longLength, 0, 5},
        {40, longLength + 11, 3, 0});
    return cases;
  }
  add(SDPA_LAYOUT_BHSD, 4, 2, {200, 200}, {200, 200});
  add(SDPA_LAYOUT_BSHD, 2, 1, {77}, {300});
  add(SDPA_LAYOUT_BHSD, 2, 2, {300}, {61});
  add(SDPA_LAYOUT_BSHD, 2, 2, {1}, {130});
  if (!facts.backward)
    add(SDPA_LAYOUT_BHSD, 2, 1, {256}, {256}, /*growing=*/true);
  // Rows that several key tiles reach: where atomics would add dQ in an
  // order that changes with the schedule, a deterministic artifact must
  // still repeat bitwise.
  if (facts.backward && facts.deterministic)
    add(SDPA_LAYOUT_BHSD, 2, 1, {640}, {640});
  if (longer) {
    add(SDPA_LAYOUT_BHSD, 16, 4, {1000}, {1000});
    add(SDPA_LAYOUT_BSHD, 8, 1, {1000}, {1537});
  }
  return cases;
}

/// Sinks [Hq]: +8 (the sink takes most of a row), -8, far above every score
/// (+20), far below (-30), the rest within a few units of the scores.
std::vector<double> freshSinks(int64_t headsQ, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> uniform(-3, 3);
  const double fixed[] = {8, -8, 20, -30};
  std::vector<double> sinks(headsQ);
  for (int64_t h = 0; h < headsQ; ++h)
    sinks[h] = float(h < 4 ? fixed[h] : uniform(rng));
  return sinks;
}

std::vector<double> randomTensor(int64_t elements, int32_t dtype,
                                 std::mt19937_64 &rng) {
  std::normal_distribution<double> normal;
  std::vector<double> values(elements);
  for (double &x : values)
    x = roundTo(dtype, normal(rng));
  return values;
}

/// max |x - ref| / max |ref|; NaN if x holds one. With `terms` (dQ or dK
/// computed from |dS|'s terms, referenceBackward), the denominator is at
/// least kCancellationFloor * max |terms|: where dP and Delta cancel in
/// every row (a sink or a single visible key leaves P near 0 or 1), the
/// gradient is f32 rounding of those terms, which no kernel computes
/// exactly, and max |ref| alone would measure that noise against zero.
constexpr double kCancellationFloor = 0x1p-12;
double relativeError(const std::vector<double> &x,
                     const std::vector<double> &ref,
                     const std::vector<double> *terms = nullptr) {
  double scale = 0, error = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]))
      return std::numeric_limits<double>::quiet_NaN();
    scale = std::max(scale, std::fabs(ref[i]));
    if (terms)
      scale = std::max(scale, kCancellationFloor * (*terms)[i]);
    error = std::max(error, std::fabs(x[i] - ref[i]));
  }
  return error / (scale > 0 ? scale : 1);
}

/// The outcome of one case.
struct Verdict {
  std::string errors;
  std::string problem;
};

/// Everything a case allocates on the device, freed together.
struct Buffers {
  const CudaDriver &cuda;
  std::vector<std::unique_ptr<DeviceBuffer>> owned;
  DeviceBuffer &make(size_t bytes) {
    owned.push_back(std::make_unique<DeviceBuffer>(cuda, bytes));
    return *owned.back();
  }
  DeviceBuffer &upload(const std::vector<uint8_t> &bytes) {
    DeviceBuffer &buffer = make(bytes.size());
    buffer.write(bytes);
    return buffer;
  }
};

/// THD offsets [N + 1] of lengths `seq`, and the longest.
std::vector<uint8_t> offsets(const std::vector<int64_t> &seq,
                             int64_t &longest) {
  std::vector<int32_t> cumulative{0};
  longest = 0;
  for (int64_t length : seq) {
    cumulative.push_back(cumulative.back() + int32_t(length));
    longest = std::max(longest, length);
  }
  std::vector<uint8_t> bytes(cumulative.size() * 4);
  std::memcpy(bytes.data(), cumulative.data(), bytes.size());
  return bytes;
}

void setPacking(const Case &c, Buffers &buffers, SdpaTensor &cuQ,
                SdpaTensor &cuKv, int64_t &maxQ, int64_t &maxKv) {
  if (c.layout != SDPA_LAYOUT_THD)
    return;
  std::vector<uint8_t> q = offsets(c.shape.seqQ, maxQ);
  std::vector<uint8_t> kv = offsets(c.shape.seqKv, maxKv);
  int64_t n = int64_t(c.shape.seqQ.size()) + 1;
  cuQ = describeVector(buffers.upload(q).address(), SDPA_DTYPE_I32, n);
  cuKv = describeVector(buffers.upload(kv).address(), SDPA_DTYPE_I32, n);
}

std::string format(const char *name, double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%s %.2e", name, value);
  return text;
}

void runtimeCheck(SdpaStatus status, const char *call) {
  if (status != SDPA_SUCCESS)
    throw std::runtime_error(std::string(call) + ": " + sdpaGetLastError());
}

/// Where a case's q-like, kv-like and LSE-like tensors live.
struct Placements {
  TensorPlacement qLike, kvLike;
  RowPlacement rows;
  Placements(const Case &c, int32_t dtype)
      : qLike{&c.shape, c.layout, dtype, false},
        kvLike{&c.shape, c.layout, dtype, true},
        rows{&c.shape, c.layout == SDPA_LAYOUT_THD} {}
};

/// Fresh Q, K and V of a case, rounded to its element type, and its sinks
/// (none for an artifact without them).
struct Inputs {
  std::vector<double> q, k, v, sinks;
};

Inputs drawInputs(const Placements &place, const ArtifactFacts &facts,
                  std::mt19937_64 &rng) {
  int32_t dtype = int32_t(facts.dtype);
  Inputs in;
  in.q = randomTensor(place.qLike.elements(), dtype, rng);
  in.k = randomTensor(place.kvLike.elements(), dtype, rng);
  in.v = randomTensor(place.kvLike.elements(), dtype, rng);
  if (facts.sinks)
    in.sinks = freshSinks(place.qLike.shape->headsQ, rng);
  return in;
}

/// Waits for the launches; a fault they hit is reported here.
void synchronize(const CudaDriver &cuda) {
  sdpa::runtime::CUresult result = cuda.cuCtxSynchronize();
  if (result != sdpa::runtime::kCudaSuccess)
    throw std::runtime_error(cuda.describe("cuCtxSynchronize", result));
}

Verdict runForward(SdpaArtifact *art, const ArtifactFacts &facts,
                   const Case &c, const CudaDriver &cuda,
                   std::mt19937_64 &rng) {
  const ProblemShape &shape = c.shape;
  int32_t dtype = int32_t(facts.dtype);
  Placements place(c, dtype);
  const TensorPlacement &qLike = place.qLike, &kvLike = place.kvLike;
  const RowPlacement &rows = place.rows;
  Inputs in = drawInputs(place, facts, rng);
  std::vector<double> &q = in.q, &k = in.k, &v = in.v, &sinks = in.sinks;
  if (c.growingKeys)
    for (int64_t b = 0; b < int64_t(shape.seqKv.size()); ++b)
      for (int64_t h = 0; h < shape.headsKv; ++h)
        for (int64_t row = 0; row < shape.seqKv[b]; ++row)
          for (int64_t i = 0; i < shape.headDim; ++i) {
            double &x = k[shape.offsetKv(b, h, row) + i];
            x = roundTo(dtype, x * (1 + kKeyRamp * row / shape.seqKv[b]));
          }
  std::vector<double> oRef, lseRef;
  referenceForward(shape, facts.band, sinks, q, k, v, oRef, lseRef);

  Buffers buffers{cuda, {}};
  SdpaForwardArgs args{};
  args.layout = c.layout;
  args.q = qLike.describe(buffers.upload(qLike.encode(q)).address());
  args.k = kvLike.describe(buffers.upload(kvLike.encode(k)).address());
  args.v = kvLike.describe(buffers.upload(kvLike.encode(v)).address());
  DeviceBuffer &o = buffers.make(qLike.elements() * 2);
  DeviceBuffer &lse = buffers.make(lseRef.size() * 4);
  o.poison(2);
  lse.poison(4);
  args.o = qLike.describe(o.address());
  args.lse = rows.describe(lse.address());
  setPacking(c, buffers, args.cu_seqlens_q, args.cu_seqlens_kv,
             args.max_seqlen_q, args.max_seqlen_kv);
  if (!sinks.empty())
    args.sinks = describeVector(buffers.upload(encodeF32(sinks)).address(),
                                SDPA_DTYPE_F32, shape.headsQ);
  runtimeCheck(sdpaForward(art, &args, nullptr), "sdpaForward");
  synchronize(cuda);

  std::vector<double> oOut = qLike.decode(o.read());
  std::vector<double> lseOut = rows.decode(lse.read());
  Verdict verdict;
  // Rows that see no key: exact results.
  double scale = 0, errorO = 0, errorLse = 0;
  for (int64_t b = 0; b < int64_t(shape.seqQ.size()); ++b)
    for (int64_t h = 0; h < shape.headsQ; ++h)
      for (int64_t row = 0; row < shape.seqQ[b]; ++row) {
        bool sees = false;
        for (int64_t key = 0; key < shape.seqKv[b] && !sees; ++key)
          sees = facts.band.visible(row, key, shape.seqQ[b], shape.seqKv[b]);
        double got = lseOut[shape.offsetLse(b, h, row)];
        double want = lseRef[shape.offsetLse(b, h, row)];
        const double *out = &oOut[shape.offsetQ(b, h, row)];
        const double *ref = &oRef[shape.offsetQ(b, h, row)];
        for (int64_t i = 0; i < shape.headDim; ++i) {
          if (std::isnan(out[i]))
            verdict.problem = "NaN in O (unwritten or bad)";
          if (!sees && out[i] != 0)
            verdict.problem = "a row that sees no key has O != 0";
          scale = std::max(scale, std::fabs(ref[i]));
          errorO = std::max(errorO, std::fabs(out[i] - ref[i]));
        }
        if (std::isnan(got))
          verdict.problem = "NaN in LSE (unwritten or bad)";
        else if (!sees && got != float(want))
          verdict.problem = sinks.empty()
                                ? "a row that sees no key has LSE != -inf"
                                : "a row that sees no key has LSE != sink";
        else if (sees)
          errorLse = std::max(errorLse, std::fabs(got - want));
      }
  errorO /= scale > 0 ? scale : 1;
  verdict.errors = format("O", errorO) + "  " + format("LSE", errorLse);
  if (verdict.problem.empty() &&
      (errorO > outputTolerance(dtype) || errorLse > kLseTolerance))
    verdict.problem = "tolerance";
  return verdict;
}

Verdict runBackward(SdpaArtifact *art, const ArtifactFacts &facts,
                    const Case &c, const CudaDriver &cuda,
                    std::mt19937_64 &rng, bool repeatAll) {
  const ProblemShape &shape = c.shape;
  int32_t dtype = int32_t(facts.dtype);
  Placements place(c, dtype);
  const TensorPlacement &qLike = place.qLike, &kvLike = place.kvLike;
  const RowPlacement &rows = place.rows;
  Inputs in = drawInputs(place, facts, rng);
  std::vector<double> &q = in.q, &k = in.k, &v = in.v, &sinks = in.sinks;
  std::vector<double> dout = randomTensor(qLike.elements(), dtype, rng);
  // O and LSE as the kernels are handed them: rounded to dtype and f32.
  std::vector<double> o, lse;
  referenceForward(shape, facts.band, sinks, q, k, v, o, lse);
  for (double &x : o)
    x = roundTo(dtype, x);
  std::vector<double> dqRef, dkRef, dvRef, dsinksRef;
  std::vector<double> dqTerms, dkTerms;
  referenceBackward(shape, facts.band, sinks, q, k, v, o, lse, dout, dqRef,
                    dkRef, dvRef, dsinksRef, &dqTerms, &dkTerms);

  Buffers buffers{cuda, {}};
  SdpaBackwardArgs args{};
  args.layout = c.layout;
  args.q = qLike.describe(buffers.upload(qLike.encode(q)).address());
  args.k = kvLike.describe(buffers.upload(kvLike.encode(k)).address());
  args.v = kvLike.describe(buffers.upload(kvLike.encode(v)).address());
  args.o = qLike.describe(buffers.upload(qLike.encode(o)).address());
  args.dout = qLike.describe(buffers.upload(qLike.encode(dout)).address());
  args.lse = rows.describe(buffers.upload(rows.encode(lse)).address());
  setPacking(c, buffers, args.cu_seqlens_q, args.cu_seqlens_kv,
             args.max_seqlen_q, args.max_seqlen_kv);
  DeviceBuffer &dq = buffers.make(qLike.elements() * 2);
  DeviceBuffer &dk = buffers.make(kvLike.elements() * 2);
  DeviceBuffer &dv = buffers.make(kvLike.elements() * 2);
  args.dq = qLike.describe(dq.address());
  args.dk = kvLike.describe(dk.address());
  args.dv = kvLike.describe(dv.address());
  DeviceBuffer *dsinks = nullptr;
  if (!sinks.empty()) {
    args.sinks = describeVector(buffers.upload(encodeF32(sinks)).address(),
                                SDPA_DTYPE_F32, shape.headsQ);
    dsinks = &buffers.make(shape.headsQ * 4);
    args.grad_sinks =
        describeVector(dsinks->address(), SDPA_DTYPE_F32, shape.headsQ);
  }
  SdpaWorkspaceSizes sizes{};
  runtimeCheck(sdpaBackwardWorkspace(art, &args, &sizes),
               "sdpaBackwardWorkspace");
  auto workspace = [&](int64_t elements, int32_t type) {
    return describeVector(buffers.make(elements * 4).address(), type,
                          elements);
  };
  args.dq_accum = workspace(sizes.dq_accum_elements, SDPA_DTYPE_F32);
  args.delta = workspace(sizes.delta_elements, SDPA_DTYPE_F32);
  if (sizes.relay_counter_elements)
    args.relay_counters =
        workspace(sizes.relay_counter_elements, SDPA_DTYPE_I32);
  if (sizes.dsink_partial_elements)
    args.dsink_partials =
        workspace(sizes.dsink_partial_elements, SDPA_DTYPE_F32);

  std::vector<std::vector<uint8_t>> first;
  bool repeatable = true;
  for (int run = 0; run < (facts.deterministic || repeatAll ? 2 : 1); ++run) {
    for (DeviceBuffer *out : {&dq, &dk, &dv})
      out->poison(2);
    if (dsinks)
      dsinks->poison(4);
    runtimeCheck(sdpaBackward(art, &args, nullptr), "sdpaBackward");
    synchronize(cuda);
    std::vector<std::vector<uint8_t>> outputs = {dq.read(), dk.read(),
                                                 dv.read()};
    if (dsinks)
      outputs.push_back(dsinks->read());
    if (run == 0)
      first = outputs;
    else
      repeatable = outputs == first;
  }
  std::vector<double> errors = {
      relativeError(qLike.decode(first[0]), dqRef, &dqTerms),
      relativeError(kvLike.decode(first[1]), dkRef, &dkTerms),
      relativeError(kvLike.decode(first[2]), dvRef)};
  if (dsinks)
    errors.push_back(relativeError(decodeF32(first[3]), dsinksRef));
  const char *names[] = {"dQ", "dK", "dV", "dsinks"};
  Verdict verdict;
  for (size_t i = 0; i < errors.size(); ++i) {
    verdict.errors += (i ? "  " : "") + format(names[i], errors[i]);
    if (std::isnan(errors[i]))
      verdict.problem = std::string("NaN in ") + names[i];
    else if (errors[i] > gradientTolerance(dtype) && verdict.problem.empty())
      verdict.problem = "tolerance";
  }
  if (!facts.deterministic && repeatAll)
    verdict.errors += repeatable ? "  (repeat: bitwise)" : "  (repeat: differs)";
  else if (!repeatable && verdict.problem.empty())
    verdict.problem = "deterministic runs differ";
  return verdict;
}

int usage() {
  std::fprintf(stderr, "usage: sdpa-kernel-check [--seed N] [--longer] "
                       "[--repeat] MANIFEST...\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  uint64_t seed = uint64_t(
      std::chrono::steady_clock::now().time_since_epoch().count());
  bool longer = false, repeatAll = false;
  std::vector<const char *> manifests;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--longer"))
      longer = true;
    else if (!std::strcmp(argv[i], "--repeat"))
      repeatAll = true;
    else if (argv[i][0] == '-')
      return usage();
    else
      manifests.push_back(argv[i]);
  }
  if (manifests.empty())
    return usage();
  std::printf("seed %llu\n", (unsigned long long)seed);
  std::fflush(stdout);
  std::string error;
  const CudaDriver *cuda = sdpa::runtime::getCudaDriver(error);
  if (!cuda) {
    std::fprintf(stderr, "sdpa-kernel-check: %s\n", error.c_str());
    return 1;
  }
  std::mt19937_64 rng(seed);
  int cases = 0, failures = 0;
  for (const char *manifest : manifests) {
    SdpaArtifact *art = nullptr;
    if (sdpaArtifactLoad(manifest, &art) != SDPA_SUCCESS ||
        sdpaArtifactPrepare(art) != SDPA_SUCCESS) {
      std::printf("%s: FAIL %s\n", manifest, sdpaGetLastError());
      ++failures;
      sdpaArtifactDestroy(art);
      continue;
    }
    ArtifactFacts facts = queryFacts(art);
    for (const Case &c : casesFor(facts, longer)) {
      Verdict verdict;
      try {
        verdict = facts.backward
                      ? runBackward(art, facts, c, *cuda, rng, repeatAll)
                                 : runForward(art, facts, c, *cuda, rng);
      } catch (const std::exception &e) {
        verdict.problem = e.what();
      }
      ++cases;
      failures += !verdict.problem.empty();
      std::printf("%s: %s: %s  %s\n", manifest, c.describe().c_str(),
                  verdict.errors.c_str(),
                  verdict.problem.empty() ? "ok"
                                          : ("FAIL " + verdict.problem).c_str());
      std::fflush(stdout);
    }
    sdpaArtifactDestroy(art);
  }
  std::printf("%d failure(s) in %d cases\n", failures, cases);
  return failures ? 1 : 0;
}
