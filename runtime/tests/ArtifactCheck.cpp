//===- ArtifactCheck.cpp - sdpa-artifact-check: can the runtime run it? ---===//
//
// Loads each artifact named on the command line through the C API (manifest
// parser, PTX file checks) and runs sdpaForwardCheck / sdpaBackwardCheck,
// which do everything a launch does before its first CUDA call, on
// consistent tensors for a few problems (dense layouts bhsd and bshd, or
// THD with an empty sequence; GQA; lengths that are and are not tile
// multiples; an empty problem). No GPU needed. Prints one line per artifact
// and exits 1 if the runtime refuses any of them: an artifact the lowering
// writes must be one the runtime runs (lib/Schema).
//
//===----------------------------------------------------------------------===//

#include "SdpaRuntime/ArgCheck.h"
#include "SdpaRuntime/SdpaRuntime.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace sdpa::runtime;

namespace {

/// One problem: sizes of a dense batch or of THD sequences.
struct Problem {
  int64_t headsQ, headsKv;
  /// Dense: B entries of seqQ / seqKv; THD: one length per sequence.
  std::vector<int64_t> seqQ, seqKv;
};

const Problem kProblems[] = {
    {8, 2, {100, 100}, {130, 130}},
    {4, 4, {1}, {300}},
    {2, 1, {128, 128, 128}, {64, 64, 64}},
    {4, 2, {0, 0}, {0, 0}},
};

/// Hands out disjoint, 16-byte aligned fake device addresses.
class Addresses {
public:
  uint64_t next() { return address += uint64_t(1) << 40; }

private:
  uint64_t address = 0;
};

SdpaTensor tensor(Addresses &addresses, int32_t dtype,
                  std::vector<int64_t> shape) {
  SdpaTensor t{};
  t.data = addresses.next();
  t.dtype = dtype;
  t.rank = int32_t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t.shape[i] = shape[i];
  setContiguousStrides(t);
  return t;
}

int64_t sum(const std::vector<int64_t> &v) {
  int64_t total = 0;
  for (int64_t x : v)
    total += x;
  return total;
}

int64_t max(const std::vector<int64_t> &v) {
  int64_t m = 0;
  for (int64_t x : v)
    m = x > m ? x : m;
  return m;
}

/// The tensors of `problem` in `layout`; `args` is SdpaForwardArgs or
/// SdpaBackwardArgs (their common fields have the same names). Offsets live
/// in `offsets` (host copies).
template <typename Args>
void fillCommon(Args &args, const Problem &p, int32_t layout, int32_t dtype,
                int64_t headDim, Addresses &at,
                std::vector<int32_t> (&offsets)[2]) {
  args.layout = layout;
  int64_t batch = int64_t(p.seqQ.size());
  auto qLike = [&](int64_t heads, int64_t seq) {
    if (layout == SDPA_LAYOUT_THD)
      return tensor(at, dtype, {seq, heads, headDim});
    if (layout == SDPA_LAYOUT_BSHD)
      return tensor(at, dtype, {batch, seq, heads, headDim});
    return tensor(at, dtype, {batch, heads, seq, headDim});
  };
  bool thd = layout == SDPA_LAYOUT_THD;
  int64_t sq = thd ? sum(p.seqQ) : p.seqQ[0];
  int64_t skv = thd ? sum(p.seqKv) : p.seqKv[0];
  args.q = qLike(p.headsQ, sq);
  args.k = qLike(p.headsKv, skv);
  args.v = qLike(p.headsKv, skv);
  args.o = qLike(p.headsQ, sq);
  args.lse = thd ? tensor(at, SDPA_DTYPE_F32, {p.headsQ, sq})
                 : tensor(at, SDPA_DTYPE_F32, {batch, p.headsQ, sq});
  if (!thd)
    return;
  const std::vector<int64_t> *lengths[2] = {&p.seqQ, &p.seqKv};
  SdpaTensor *cu[2] = {&args.cu_seqlens_q, &args.cu_seqlens_kv};
  for (int side = 0; side < 2; ++side) {
    offsets[side] = {0};
    for (int64_t length : *lengths[side])
      offsets[side].push_back(offsets[side].back() + int32_t(length));
    *cu[side] =
        tensor(at, SDPA_DTYPE_I32, {int64_t(offsets[side].size())});
  }
  args.host_cu_seqlens_q = offsets[0].data();
  args.host_cu_seqlens_kv = offsets[1].data();
  args.max_seqlen_q = max(p.seqQ);
  args.max_seqlen_kv = max(p.seqKv);
}

/// Runs the checks of `art` over every problem and layout; returns the
/// first refusal, empty if none.
std::string check(SdpaArtifact *art) {
  int64_t headDim = 0, dtype = 0, varlen = 0, backward = 0, sinks = 0;
  sdpaArtifactQuery(art, "sinks", &sinks);
  sdpaArtifactQuery(art, "head_dim", &headDim);
  sdpaArtifactQuery(art, "dtype", &dtype);
  sdpaArtifactQuery(art, "varlen", &varlen);
  sdpaArtifactQuery(art, "direction", &backward);
  std::vector<int32_t> layouts =
      varlen ? std::vector<int32_t>{SDPA_LAYOUT_THD}
             : std::vector<int32_t>{SDPA_LAYOUT_BHSD, SDPA_LAYOUT_BSHD};
  for (const Problem &p : kProblems) {
    for (int32_t layout : layouts) {
      Addresses at;
      std::vector<int32_t> offsets[2];
      std::string where = " (layout " + std::to_string(layout) + ", " +
                          std::to_string(p.seqQ.size()) + " x Sq " +
                          std::to_string(p.seqQ[0]) + ")";
      if (!backward) {
        SdpaForwardArgs args{};
        fillCommon(args, p, layout, int32_t(dtype), headDim, at, offsets);
        if (sinks)
          args.sinks = tensor(at, SDPA_DTYPE_F32, {p.headsQ});
        if (sdpaForwardCheck(art, &args) != SDPA_SUCCESS)
          return sdpaGetLastError() + where;
        continue;
      }
      SdpaBackwardArgs args{};
      fillCommon(args, p, layout, int32_t(dtype), headDim, at, offsets);
      args.dout = args.o;
      args.dout.data = at.next();
      args.dq = args.q;
      args.dq.data = at.next();
      args.dk = args.k;
      args.dk.data = at.next();
      args.dv = args.v;
      args.dv.data = at.next();
      if (sinks) {
        args.sinks = tensor(at, SDPA_DTYPE_F32, {p.headsQ});
        args.grad_sinks = tensor(at, SDPA_DTYPE_F32, {p.headsQ});
      }
      SdpaWorkspaceSizes sizes{};
      if (sdpaBackwardWorkspace(art, &args, &sizes) != SDPA_SUCCESS)
        return sdpaGetLastError() + where;
      args.dq_accum = tensor(at, SDPA_DTYPE_F32, {sizes.dq_accum_elements});
      args.delta = tensor(at, SDPA_DTYPE_F32, {sizes.delta_elements});
      args.relay_counters =
          tensor(at, SDPA_DTYPE_I32, {sizes.relay_counter_elements});
      if (sinks)
        args.dsink_partials =
            tensor(at, SDPA_DTYPE_F32, {sizes.dsink_partial_elements});
      if (sdpaBackwardCheck(art, &args) != SDPA_SUCCESS)
        return sdpaGetLastError() + where;
    }
  }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MANIFEST...\n", argv[0]);
    return 2;
  }
  int refused = 0;
  for (int i = 1; i < argc; ++i) {
    SdpaArtifact *art = nullptr;
    std::string error;
    if (sdpaArtifactLoad(argv[i], &art) != SDPA_SUCCESS)
      error = sdpaGetLastError();
    else
      error = check(art);
    sdpaArtifactDestroy(art);
    if (error.empty()) {
      std::printf("ok %s\n", argv[i]);
    } else {
      std::printf("refused %s: %s\n", argv[i], error.c_str());
      ++refused;
    }
  }
  return refused ? 1 : 0;
}
