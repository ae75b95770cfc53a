//===- RuntimeFuzzer.cpp - Fuzz the runtime's manifest parser and checks --===//
//
// The input is a manifest (text) and, after the first NUL byte, argument
// bytes. The manifest goes through parseManifest; if it parses, the argument
// bytes perturb a set of consistent tensors (drawn sizes, one layout) field
// by field, and the result goes through checkForward / backwardWorkspace /
// checkBackward, then grid formation and parameter packing for every kernel.
// Nothing is launched: this is the host logic that decides whether a launch
// happens. Invariants:
//
//  * a manifest that does not parse gets an error that starts "line N: ";
//  * arguments the checks accept are consistent: element types and head dim
//    of the artifact, o like q, v like k, kv heads dividing query heads,
//    non-null 16-byte aligned data of non-empty tensors, sizes inside 32-bit
//    index arithmetic, and the i32 kernel parameters equal the sizes;
//  * no crash, no sanitizer report (signed overflow included) on any input.
//
//===----------------------------------------------------------------------===//

#include "SdpaRuntime/ArgCheck.h"
#include "SdpaRuntime/LaunchPlan.h"
#include "SdpaRuntime/Manifest.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace sdpa::runtime;

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "invariant violated: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void check(bool condition, const std::string &what) {
  if (!condition)
    fail(what);
}

/// A tensor of `shape`, densely packed, at a 256-byte aligned address 1 TiB
/// from the last (consistent tensors do not overlap: the runtime refuses
/// outputs that alias).
SdpaTensor makeTensor(uint64_t &next, int32_t dtype,
                      std::vector<int64_t> shape) {
  SdpaTensor t{};
  t.data = next;
  next += uint64_t(1) << 40;
  t.dtype = dtype;
  t.rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t.shape[i] = shape[i];
  setContiguousStrides(t);
  return t;
}

/// Values that sit on the edges of the checks.
int64_t interesting(FuzzedDataProvider &fdp) {
  static const int64_t values[] = {0,
                                   1,
                                   -1,
                                   2,
                                   3,
                                   8,
                                   16,
                                   63,
                                   64,
                                   65,
                                   128,
                                   4096,
                                   65535,
                                   65536,
                                   2147483647,
                                   2147483648,
                                   4294967296,
                                   (int64_t(1) << 62),
                                   INT64_MAX,
                                   INT64_MIN};
  if (fdp.ConsumeBool())
    return values[fdp.ConsumeIntegralInRange<size_t>(
        0, sizeof(values) / sizeof(values[0]) - 1)];
  return fdp.ConsumeIntegral<int64_t>();
}

/// Changes one field of one tensor.
void perturb(FuzzedDataProvider &fdp, std::vector<SdpaTensor *> &tensors) {
  SdpaTensor &t = *tensors[fdp.ConsumeIntegralInRange<size_t>(
      0, tensors.size() - 1)];
  switch (fdp.ConsumeIntegralInRange<int>(0, 4)) {
  case 0:
    t.shape[fdp.ConsumeIntegralInRange<int>(0, 3)] = interesting(fdp);
    break;
  case 1:
    t.strides[fdp.ConsumeIntegralInRange<int>(0, 3)] = interesting(fdp);
    break;
  case 2:
    t.data = static_cast<uint64_t>(interesting(fdp));
    break;
  case 3:
    t.dtype = fdp.ConsumeIntegralInRange<int32_t>(-1, 4);
    break;
  default:
    // Rank outside 0..4 would make the struct lie about its arrays; the C
    // API documents "at most 4" and the checks reject any other rank.
    t.rank = fdp.ConsumeIntegralInRange<int32_t>(0, 4);
    break;
  }
}

/// Sizes of one drawn problem.
struct Sizes {
  int64_t batch, headsQ, headsKv, seqQ, seqKv;
};

/// Independent checks of what the accepted arguments promise.
void checkAccepted(const Manifest &manifest, const Problem &problem,
                   const ParamTable &params,
                   std::initializer_list<const SdpaTensor *> qkvLike,
                   const SdpaTensor &q, const SdpaTensor &k,
                   const SdpaTensor &v, const SdpaTensor &o) {
  int rank = problem.layout == Layout::THD ? 3 : 4;
  for (const SdpaTensor *t : qkvLike) {
    check(t->rank == rank, "accepted a tensor of the wrong rank");
    check(t->dtype == getDtypeCode(manifest.dtype),
          "accepted a tensor of another element type than the artifact's");
    check(t->shape[rank - 1] == manifest.headDim,
          "accepted a head dim other than the artifact's");
    int64_t numel = 1;
    for (int i = 0; i < rank; ++i) {
      check(t->shape[i] >= 0 && t->shape[i] <= kMaxIndex,
            "accepted a size outside [0, 2^31 - 1]");
      check(t->strides[i] >= 0, "accepted a negative stride");
      numel *= t->shape[i];
    }
    if (numel > 0)
      check(t->data != 0 && t->data % kPointerAlignment == 0,
            "accepted a null or misaligned data pointer");
  }
  check(std::equal(o.shape, o.shape + rank, q.shape),
        "accepted o of another shape than q");
  check(std::equal(v.shape, v.shape + rank, k.shape),
        "accepted v of another shape than k");
  check(problem.headsKv == 0 ? problem.headsQ == 0
                             : problem.headsQ % problem.headsKv == 0,
        "accepted kv heads that do not divide query heads");
  for (const auto &[name, value] : params)
    if (value.type == ParamType::I32)
      check(value.i32 >= 0, "accepted a negative i32 parameter " + name);
  check(params.at("seq_q").i32 == problem.seqQ &&
            params.at("seq_kv").i32 == problem.seqKv &&
            params.at("heads_q").i32 == problem.headsQ,
        "an i32 parameter differs from the size it stands for");
}

/// Grid formation and packing never crash; an accepted problem's grid is
/// inside the hardware limits whenever formGrid says yes.
void planEveryKernel(const Manifest &manifest, const Problem &problem,
                     const ParamTable &params) {
  for (const Kernel &kernel : manifest.kernels) {
    std::array<unsigned, 3> grid{};
    std::string error;
    if (formGrid(kernel, problem.grid, grid, error))
      check(grid[0] <= kMaxGridX && grid[1] <= kMaxGridYZ &&
                grid[2] <= kMaxGridYZ,
            "formGrid accepted a grid beyond the hardware limits");
    PackedParams packed;
    (void)packed.pack(kernel, params, error);
  }
}

void fuzzArguments(const Manifest &manifest, FuzzedDataProvider &fdp) {
  Layout layout = manifest.varlen ? Layout::THD
                  : fdp.ConsumeBool() ? Layout::BSHD
                                      : Layout::BHSD;
  int32_t dtype = getDtypeCode(manifest.dtype);
  Sizes s;
  s.batch = fdp.ConsumeIntegralInRange<int64_t>(0, 4);
  s.headsKv = fdp.ConsumeIntegralInRange<int64_t>(1, 4);
  s.headsQ = s.headsKv * fdp.ConsumeIntegralInRange<int64_t>(1, 4);
  s.seqQ = fdp.ConsumeIntegralInRange<int64_t>(0, 300);
  s.seqKv = fdp.ConsumeIntegralInRange<int64_t>(0, 300);
  int64_t d = manifest.headDim;

  uint64_t next = 1 << 20;
  auto qLike = [&](int64_t heads, int64_t seq) {
    if (layout == Layout::THD)
      return makeTensor(next, dtype, {seq, heads, d});
    if (layout == Layout::BSHD)
      return makeTensor(next, dtype, {s.batch, seq, heads, d});
    return makeTensor(next, dtype, {s.batch, heads, seq, d});
  };
  // THD: the lengths are token totals split into `batch` segments.
  std::vector<int32_t> offQ(s.batch + 1, 0), offKv(s.batch + 1, 0);
  for (int64_t i = 1; i <= s.batch; ++i) {
    offQ[i] = offQ[i - 1] + int32_t(s.seqQ / s.batch + (i == 1 ? s.seqQ % s.batch : 0));
    offKv[i] = offKv[i - 1] + int32_t(s.seqKv / s.batch + (i == 1 ? s.seqKv % s.batch : 0));
  }
  int64_t maxQ = 0, maxKv = 0;
  for (int64_t i = 1; i <= s.batch; ++i) {
    maxQ = std::max<int64_t>(maxQ, offQ[i] - offQ[i - 1]);
    maxKv = std::max<int64_t>(maxKv, offKv[i] - offKv[i - 1]);
  }
  int64_t tokensQ = layout == Layout::THD ? offQ.back() : s.seqQ;
  int64_t tokensKv = layout == Layout::THD ? offKv.back() : s.seqKv;

  SdpaTensor q = qLike(s.headsQ, tokensQ), k = qLike(s.headsKv, tokensKv),
             v = qLike(s.headsKv, tokensKv), o = qLike(s.headsQ, tokensQ);
  SdpaTensor lse =
      layout == Layout::THD
          ? makeTensor(next, SDPA_DTYPE_F32, {s.headsQ, tokensQ})
          : makeTensor(next, SDPA_DTYPE_F32, {s.batch, s.headsQ, s.seqQ});
  SdpaTensor cuQ{}, cuKv{};
  if (layout == Layout::THD) {
    cuQ = makeTensor(next, SDPA_DTYPE_I32, {s.batch + 1});
    cuKv = makeTensor(next, SDPA_DTYPE_I32, {s.batch + 1});
  }
  SdpaTensor dout = q, dq = q, dk = k, dv = k;

  std::vector<SdpaTensor *> tensors = {&q, &k, &v, &o, &lse, &dout, &dq, &dk, &dv};
  if (layout == Layout::THD) {
    tensors.push_back(&cuQ);
    tensors.push_back(&cuKv);
  }
  int32_t layoutCode = static_cast<int32_t>(layout);
  int changes = fdp.ConsumeIntegralInRange<int>(0, 3);
  for (int i = 0; i < changes && fdp.remaining_bytes() > 0; ++i) {
    switch (fdp.ConsumeIntegralInRange<int>(0, 9)) {
    case 0:
      layoutCode = fdp.ConsumeIntegralInRange<int32_t>(-1, 3);
      break;
    case 1:
      maxQ = interesting(fdp);
      break;
    case 2:
      maxKv = interesting(fdp);
      break;
    case 3:
      if (!offQ.empty())
        offQ[fdp.ConsumeIntegralInRange<size_t>(0, offQ.size() - 1)] =
            static_cast<int32_t>(interesting(fdp));
      break;
    default:
      perturb(fdp, tensors);
      break;
    }
  }
  // The host offsets hold exactly as many entries as the tensors say, or
  // are not given (the caller's side of the C API contract).
  bool hostOffsets = layout == Layout::THD && fdp.ConsumeBool();
  const int32_t *hostQ =
      hostOffsets && cuQ.shape[0] == int64_t(offQ.size()) ? offQ.data()
                                                          : nullptr;
  const int32_t *hostKv =
      hostOffsets && cuKv.shape[0] == int64_t(offKv.size()) ? offKv.data()
                                                            : nullptr;

  Problem problem;
  ParamTable params;
  std::string error;
  if (manifest.direction == Direction::Forward) {
    SdpaForwardArgs args{};
    args.layout = layoutCode;
    args.q = q, args.k = k, args.v = v, args.o = o, args.lse = lse;
    args.cu_seqlens_q = cuQ, args.cu_seqlens_kv = cuKv;
    args.max_seqlen_q = maxQ, args.max_seqlen_kv = maxKv;
    args.host_cu_seqlens_q = hostQ, args.host_cu_seqlens_kv = hostKv;
    if (!checkForward(manifest, args, problem, params, error)) {
      check(!error.empty(), "checkForward failed without a message");
      return;
    }
    checkAccepted(manifest, problem, params, {&args.q, &args.k, &args.v, &args.o},
                  args.q, args.k, args.v, args.o);
    planEveryKernel(manifest, problem, params);
    return;
  }

  SdpaBackwardArgs args{};
  args.layout = layoutCode;
  args.q = q, args.k = k, args.v = v, args.o = o, args.lse = lse;
  args.dout = dout, args.dq = dq, args.dk = dk, args.dv = dv;
  args.cu_seqlens_q = cuQ, args.cu_seqlens_kv = cuKv;
  args.max_seqlen_q = maxQ, args.max_seqlen_kv = maxKv;
  args.host_cu_seqlens_q = hostQ, args.host_cu_seqlens_kv = hostKv;
  SdpaWorkspaceSizes sizes{};
  if (!backwardWorkspace(manifest, args, sizes, error))
    return;
  check(sizes.dq_accum_elements >= 0 && sizes.delta_elements >= 0 &&
            sizes.relay_counter_elements >= 0,
        "negative workspace size");
  auto workspace = [&](int32_t type, int64_t elements) {
    return makeTensor(next, type, {elements});
  };
  args.dq_accum = workspace(SDPA_DTYPE_F32, sizes.dq_accum_elements);
  args.delta = workspace(SDPA_DTYPE_F32, sizes.delta_elements);
  args.relay_counters = workspace(SDPA_DTYPE_I32, sizes.relay_counter_elements);
  std::vector<SdpaTensor *> workspaces = {&args.dq_accum, &args.delta,
                                          &args.relay_counters};
  if (fdp.ConsumeBool())
    perturb(fdp, workspaces);
  if (!checkBackward(manifest, args, problem, params, error)) {
    check(!error.empty(), "checkBackward failed without a message");
    return;
  }
  checkAccepted(manifest, problem, params,
                {&args.q, &args.k, &args.v, &args.o, &args.dout, &args.dq,
                 &args.dk, &args.dv},
                args.q, args.k, args.v, args.o);
  planEveryKernel(manifest, problem, params);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = reinterpret_cast<const char *>(data);
  size_t textSize = strnlen(text, size);
  std::string_view manifestText(text, textSize);

  Manifest manifest;
  std::string error;
  if (!parseManifest(manifestText, manifest, error)) {
    check(error.rfind("line ", 0) == 0,
          "manifest error without a line number: '" + error + "'");
    return 0;
  }
  size_t rest = textSize < size ? textSize + 1 : size;
  FuzzedDataProvider fdp(data + rest, size - rest);
  fuzzArguments(manifest, fdp);
  return 0;
}
