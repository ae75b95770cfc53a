//===- TestArtifacts.h - Manifests and tensors shared by the tests -*- C++ -*-===//

#ifndef SDPARUNTIME_TESTS_TESTARTIFACTS_H
#define SDPARUNTIME_TESTS_TESTARTIFACTS_H

#include "SdpaRuntime/ArgCheck.h"
#include "SdpaRuntime/Manifest.h"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace sdpa::runtime::testing {

/// The C API's dtype codes, short.
constexpr int32_t kBf16 = SDPA_DTYPE_BF16;
constexpr int32_t kF16 = SDPA_DTYPE_F16;
constexpr int32_t kF32 = SDPA_DTYPE_F32;
constexpr int32_t kI32 = SDPA_DTYPE_I32;

/// A complete forward manifest: bf16, D = 64, Tq = 128, Tk = 64, causal
/// window of 128 keys. Line numbers matter to the tests: line 1 is the
/// header, line 2 a comment, `kernel` is on line 12.
inline std::vector<std::string> forwardLines() {
  return {
      "sdpa-artifact 1",                 // 1
      "# gpt-oss-like forward",          // 2
      "ptx fwd.ptx",                     // 3
      "direction forward",               // 4
      "dtype bf16",                      // 5
      "head_dim 64",                     // 6
      "tile_q 128",                      // 7
      "tile_kv 64",                      // 8
      "band 127 0 top_left",             // 9
      "scale 0.125",                     // 10
      "varlen 0",                        // 11
      "kernel sdpa_fwd forward",         // 12
      "block 128 1 1",                   // 13
      "shared_bytes 65536",              // 14
      "grid q_tiles heads_q batch",      // 15
      "param q ptr",                     // 16
      "param k ptr",                     // 17
      "param v ptr",                     // 18
      "param o ptr",                     // 19
      "param lse ptr",                   // 20
      "param seq_q i32",                 // 21
      "param seq_kv i32",                // 22
      "param heads_q i32",               // 23
      "param heads_kv i32",              // 24
      "param q_stride_b i64",            // 25
      "param q_stride_h i64",            // 26
      "param q_stride_s i64",            // 27
      "param k_stride_b i64",            // 28
      "param k_stride_h i64",            // 29
      "param k_stride_s i64",            // 30
      "param v_stride_b i64",            // 31
      "param v_stride_h i64",            // 32
      "param v_stride_s i64",            // 33
      "param o_stride_b i64",            // 34
      "param o_stride_h i64",            // 35
      "param o_stride_s i64",            // 36
      "param lse_stride_b i64",          // 37
      "param lse_stride_h i64",          // 38
  };
}

/// A THD forward manifest (varlen 1) whose kernel also takes the offsets.
inline std::vector<std::string> varlenLines() {
  std::vector<std::string> lines = forwardLines();
  lines[10] = "varlen 1";
  lines.push_back("param cu_seqlens_q ptr");
  lines.push_back("param cu_seqlens_kv ptr");
  return lines;
}

/// A deterministic backward manifest with all three kernels.
inline std::vector<std::string> backwardLines() {
  return {
      "sdpa-artifact 1",
      "ptx bwd.ptx",
      "direction backward",
      "dtype f16",
      "head_dim 128",
      "tile_q 64",
      "tile_kv 128",
      "band inf 0 bottom_right",
      "scale 0.08838834764831845",
      "varlen 0",
      "deterministic 1",
      "kernel sdpa_bwd_pre bwd_preprocess",
      "block 256 1 1",
      "shared_bytes 0",
      "grid rows 1 1",
      "param o ptr",
      "param do ptr",
      "param delta ptr",
      "param dq_accum ptr",
      "kernel sdpa_bwd bwd_main",
      "block 256 1 1",
      "shared_bytes 98304",
      "grid kv_tiles heads_kv batch",
      "param q ptr",
      "param k ptr",
      "param relay_counters ptr",
      "param dq_accum ptr",
      "param dk ptr",
      "param dv ptr",
      "kernel sdpa_bwd_dq bwd_dq_convert",
      "block 128 1 1",
      "shared_bytes 0",
      "grid q_tiles heads_q batch",
      "param dq_accum ptr",
      "param dq ptr",
      "param dq_stride_s i64",
  };
}

/// A deterministic backward that recomputes dQ (docs/Artifact.md): its
/// bwd_dq kernel writes dq, and no kernel takes dq_accum or the relay
/// counters.
inline std::vector<std::string> backwardRecomputeLines() {
  return {
      "sdpa-artifact 1",
      "ptx bwd.ptx",
      "direction backward",
      "dtype f16",
      "head_dim 64",
      "tile_q 64",
      "tile_kv 64",
      "band 127 0 top_left",
      "scale 0.125",
      "varlen 0",
      "deterministic 1",
      "kernel sdpa_bwd_pre bwd_preprocess",
      "block 128 1 1",
      "shared_bytes 0",
      "grid q_tiles heads_q batch",
      "param o ptr",
      "param do ptr",
      "param delta ptr",
      "kernel sdpa_bwd bwd_main",
      "block 128 1 1",
      "shared_bytes 46592",
      "grid kv_tiles heads_kv batch",
      "param q ptr",
      "param k ptr",
      "param dk ptr",
      "param dv ptr",
      "kernel sdpa_bwd_q bwd_dq",
      "block 128 1 1",
      "shared_bytes 36864",
      "grid q_tiles heads_q batch",
      "param q ptr",
      "param k ptr",
      "param dq ptr",
      "param dq_stride_s i64",
  };
}

/// forwardLines() with `sinks 1` and the kernel's sinks parameter.
inline std::vector<std::string> forwardSinksLines() {
  std::vector<std::string> lines = forwardLines();
  lines.insert(lines.begin() + 11, "sinks 1");
  lines.push_back("param sinks ptr");
  return lines;
}

/// backwardLines() with `sinks 1` and the sinks' parameters of
/// bwd_preprocess and bwd_dq_convert.
inline std::vector<std::string> backwardSinksLines() {
  std::vector<std::string> lines;
  for (const std::string &line : backwardLines()) {
    lines.push_back(line);
    if (line == "varlen 0")
      lines.push_back("sinks 1");
    if (line == "param dq_accum ptr" && lines.size() < 25) {
      lines.push_back("param lse ptr");
      lines.push_back("param sinks ptr");
      lines.push_back("param dsink_partials ptr");
    }
  }
  lines.push_back("param dsink_partials ptr");
  lines.push_back("param grad_sinks ptr");
  return lines;
}

/// forwardLines() or backwardLines() of an artifact lowered at a 32-bit
/// index (`index_bits 32` after the header's `varlen`).
inline std::vector<std::string> at32Bits(std::vector<std::string> lines) {
  lines.insert(lines.begin() + 10, "index_bits 32");
  return lines;
}

inline std::string join(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines)
    text += line + "\n";
  return text;
}

inline Manifest parseOrDie(const std::vector<std::string> &lines) {
  Manifest manifest;
  std::string error;
  if (!parseManifest(join(lines), manifest, error))
    throw std::runtime_error("test manifest does not parse: " + error);
  return manifest;
}

/// A tensor of `dtype` with the given shape, densely packed, at `address`.
inline SdpaTensor makeTensor(uint64_t address, int32_t dtype,
                             std::vector<int64_t> shape) {
  SdpaTensor t{};
  t.data = address;
  t.dtype = dtype;
  t.rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    t.shape[i] = shape[i];
  setContiguousStrides(t);
  return t;
}

/// The sizes of a dense attention problem.
struct Dims {
  int64_t batch, headsQ, headsKv, seqQ, seqKv, headDim;
};

/// Where q, k, v, o and lse start.
struct Addresses {
  uint64_t q, k, v, o, lse;
};

/// Sets the layout of `a` and its q, k, v, o (`dtype`) and lse (f32
/// [B, Hq, Sq]): densely packed tensors of `d` at `at`, in bhsd
/// ([B, H, S, D]) or bshd ([B, S, H, D]).
template <typename Args>
void setDenseTensors(Args &a, int32_t layout, int32_t dtype, const Dims &d,
                     const Addresses &at) {
  if (layout != SDPA_LAYOUT_BHSD && layout != SDPA_LAYOUT_BSHD)
    throw std::invalid_argument("setDenseTensors: a dense layout only");
  auto shape = [&](int64_t heads, int64_t seq) -> std::vector<int64_t> {
    if (layout == SDPA_LAYOUT_BSHD)
      return {d.batch, seq, heads, d.headDim};
    return {d.batch, heads, seq, d.headDim};
  };
  a.layout = layout;
  a.q = makeTensor(at.q, dtype, shape(d.headsQ, d.seqQ));
  a.k = makeTensor(at.k, dtype, shape(d.headsKv, d.seqKv));
  a.v = makeTensor(at.v, dtype, shape(d.headsKv, d.seqKv));
  a.o = makeTensor(at.o, dtype, shape(d.headsQ, d.seqQ));
  a.lse = makeTensor(at.lse, kF32, {d.batch, d.headsQ, d.seqQ});
}

/// Dense forward arguments for forwardLines(): B = `batch` (2), Hq = 16,
/// Hkv = 4, Sq = 1000, Skv = 1500, D = 64, bf16, bhsd, each tensor 64 GiB
/// from the next (they must not overlap); with `nullData`, every data
/// pointer is 0 (allowed for empty tensors); no sinks.
inline SdpaForwardArgs denseArgs(int64_t batch = 2, bool nullData = false) {
  SdpaForwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BHSD, kBf16, {batch, 16, 4, 1000, 1500, 64},
                  nullData ? Addresses{}
                           : Addresses{0x1000000000, 0x2000000000,
                                       0x3000000000, 0x4000000000,
                                       0x5000000000});
  return a;
}

/// Backward arguments for backwardLines(): f16, D = 128, Tq = 64, B = 2,
/// Hq = 8, Hkv = 2, Sq = 100, Skv = 300, bshd, each tensor 64 GiB from the
/// next (they must not overlap); no sinks.
inline SdpaBackwardArgs backwardArgs() {
  SdpaBackwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BSHD, kF16, {2, 8, 2, 100, 300, 128},
                  {0x1000000000, 0x2000000000, 0x3000000000, 0x4000000000,
                   0x5000000000});
  a.dout = makeTensor(0x6000000000, kF16, {2, 100, 8, 128});
  a.dq = makeTensor(0x7000000000, kF16, {2, 100, 8, 128});
  a.dk = makeTensor(0x8000000000, kF16, {2, 300, 2, 128});
  a.dv = makeTensor(0x9000000000, kF16, {2, 300, 2, 128});
  a.dq_accum = makeTensor(0xa000000000, kF32, {2 * 8 * 100 * 128});
  a.delta = makeTensor(0xb000000000, kF32, {2, 8, 100});
  a.relay_counters = makeTensor(0xc000000000, kI32, {2, 8, 2});
  return a;
}

/// The message checkForward or checkBackward (the one `Args` names) gives
/// for `args`, empty where it accepts them; then `params` holds the kernels'
/// parameters.
template <typename Args>
std::string checkMessage(const Manifest &m, const Args &args,
                         ParamTable &params) {
  static_assert(std::is_same_v<Args, SdpaForwardArgs> ||
                std::is_same_v<Args, SdpaBackwardArgs>);
  Problem problem;
  std::string error;
  bool accepted;
  if constexpr (std::is_same_v<Args, SdpaForwardArgs>)
    accepted = checkForward(m, args, problem, params, error);
  else
    accepted = checkBackward(m, args, problem, params, error);
  if (!accepted && error.empty())
    return "(refused without a message)";
  return error;
}

template <typename Args>
std::string checkMessage(const Manifest &m, const Args &args) {
  ParamTable params;
  return checkMessage(m, args, params);
}

inline bool startsWith(const std::string &text, const std::string &prefix) {
  return text.rfind(prefix, 0) == 0;
}

} // namespace sdpa::runtime::testing

#endif // SDPARUNTIME_TESTS_TESTARTIFACTS_H
