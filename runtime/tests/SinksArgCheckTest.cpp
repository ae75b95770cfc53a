//===- SinksArgCheckTest.cpp - The sinks' tensors and workspace -----------===//
//
// An artifact compiled with sinks (manifest key `sinks 1`, docs/Artifact.md)
// takes sinks f32 [Hq] in both directions and returns grad_sinks f32 [Hq]
// from the backward through the dsink_partials workspace; every other
// artifact refuses them (its kernels would drop the sink column).
//
//===----------------------------------------------------------------------===//

#include "TestArtifacts.h"
#include "gtest/gtest.h"

#include <functional>

using namespace sdpa::runtime;
using namespace sdpa::runtime::testing;

namespace {

Manifest forwardWithSinks() { return parseOrDie(forwardSinksLines()); }

Manifest backwardWithSinks() { return parseOrDie(backwardSinksLines()); }

/// denseArgs() with sinks f32 [Hq = 16].
SdpaForwardArgs sinksForwardArgs() {
  SdpaForwardArgs a = denseArgs();
  a.sinks = makeTensor(0x6000000000, kF32, {16});
  return a;
}

/// backwardArgs() with sinks: sinks and grad_sinks f32 [Hq = 8], the
/// dsink_partials workspace [B, Hq, ceil(Sq / Tq)] = [2, 8, 2].
SdpaBackwardArgs sinksBackwardArgs() {
  SdpaBackwardArgs a = backwardArgs();
  a.sinks = makeTensor(0xd000000000, kF32, {8});
  a.grad_sinks = makeTensor(0xd000001000, kF32, {8});
  a.dsink_partials = makeTensor(0xe000000000, kF32, {2, 8, 2});
  return a;
}

/// How a case's message is compared: all of it, or its start (the rest
/// names addresses).
enum class Match { Exact, Prefix };

/// One change to valid arguments and the check's message for it.
template <typename Args> struct Case {
  std::function<void(Args &)> change;
  std::string message;
  Match match = Match::Exact;
};

/// Checks each case's change of `valid` against `m`.
template <typename Args>
void expectMessages(const Manifest &m, const Args &valid,
                    const std::vector<Case<Args>> &cases) {
  for (const Case<Args> &c : cases) {
    SCOPED_TRACE(c.message);
    Args a = valid;
    c.change(a);
    if (c.match == Match::Prefix)
      EXPECT_PRED2(startsWith, checkMessage(m, a), c.message);
    else
      EXPECT_EQ(checkMessage(m, a), c.message);
  }
}

using Fwd = SdpaForwardArgs;
using Bwd = SdpaBackwardArgs;

TEST(SinksManifest, KeyIsOptionalAndPrintedOnlyWhenSet) {
  EXPECT_FALSE(parseOrDie(forwardLines()).sinks);
  Manifest m = forwardWithSinks();
  EXPECT_TRUE(m.sinks);
  std::string text = sdpa_schema::printManifest(m);
  EXPECT_NE(text.find("\nsinks 1\n"), std::string::npos) << text;
  EXPECT_EQ(sdpa_schema::printManifest(parseOrDie(forwardLines()))
                .find("sinks"),
            std::string::npos);
  std::vector<std::string> lines = forwardLines();
  lines.insert(lines.begin() + 11, "sinks yes");
  Manifest bad;
  std::string error;
  EXPECT_FALSE(parseManifest(join(lines), bad, error));
  EXPECT_EQ(error, "line 12: key 'sinks': expected 0 or 1, got 'yes'");
}

/// The schema's parameter lists: only bwd_main is unchanged by sinks.
TEST(SinksSchema, ParameterLists) {
  using sdpa_schema::KernelRole;
  auto names = [](KernelRole role, bool sinks) {
    std::vector<std::string> result;
    for (const Param &p : sdpa_schema::getKernelParams(
             role, /*varlen=*/false, /*deterministic=*/true, sinks))
      result.push_back(p.name);
    return result;
  };
  auto without = names(KernelRole::Forward, false);
  auto with = names(KernelRole::Forward, true);
  ASSERT_EQ(with.size(), without.size() + 1);
  EXPECT_EQ(with[5], "sinks"); // right after lse
  EXPECT_EQ(names(KernelRole::BwdMain, true), names(KernelRole::BwdMain, false));
  std::vector<std::string> pre = names(KernelRole::BwdPreprocess, true);
  std::vector<std::string> preHead(pre.begin(), pre.begin() + 8);
  EXPECT_EQ(preHead, (std::vector<std::string>{"o", "do", "delta", "dq_accum",
                                               "lse", "sinks", "dsink_partials",
                                               "relay_counters"}));
  EXPECT_EQ(pre.back(), "lse_stride_h");
  std::vector<std::string> convert = names(KernelRole::BwdDqConvert, true);
  EXPECT_EQ(convert[2], "dsink_partials");
  EXPECT_EQ(convert[3], "grad_sinks");
  for (const char *name : {"sinks", "grad_sinks", "dsink_partials"}) {
    EXPECT_EQ(sdpa_schema::getParamType(name), sdpa_schema::ParamType::Ptr);
    EXPECT_EQ(sdpa_schema::getPointeeType(name, sdpa_schema::ElementType::BF16),
              sdpa_schema::ElementType::F32);
  }
  EXPECT_FALSE(sdpa_schema::isBackwardOnlyParam("sinks"));
  EXPECT_TRUE(sdpa_schema::isBackwardOnlyParam("grad_sinks"));
  EXPECT_TRUE(sdpa_schema::isBackwardOnlyParam("dsink_partials"));
}

TEST(SinksForward, FillsTheParameter) {
  ParamTable params;
  EXPECT_EQ(checkMessage(forwardWithSinks(), sinksForwardArgs(), params), "");
  EXPECT_EQ(params.at("sinks").ptr, 0x6000000000u);
}

TEST(SinksForward, RefusesBadSinks) {
  expectMessages<Fwd>(
      forwardWithSinks(), sinksForwardArgs(),
      {
          {[](Fwd &a) { a.sinks = SdpaTensor{}; },
           "sinks: missing, the artifact was compiled with sinks (f32 "
           "[heads_q] = [16])"},
          {[](Fwd &a) { a.sinks = makeTensor(0x6000000000, kF32, {4}); },
           "sinks: expected shape [16] (heads_q), got [4]"},
          {[](Fwd &a) { a.sinks = makeTensor(0x6000000000, kF32, {2, 8}); },
           "sinks: expected 1 dimensions [heads_q], got 2"},
          {[](Fwd &a) { a.sinks.dtype = kBf16; },
           "sinks: expected dtype f32, got bf16"},
          {[](Fwd &a) { a.sinks.strides[0] = 2; },
           "sinks: the stride must be 1, got 2"},
          {[](Fwd &a) { a.sinks.data = 0x6000000002; },
           "sinks: data pointer 0x6000000002 is not 4-byte aligned"},
          {[](Fwd &a) { a.sinks.data = 0; }, "sinks: null data pointer"},
          // An input: it may share memory with the other inputs, not with o.
          {[](Fwd &a) { a.sinks.data = a.q.data; }, ""},
          {[](Fwd &a) { a.sinks.data = a.lse.data; },
           "lse: its memory overlaps sinks's", Match::Prefix},
      });
}

TEST(SinksForward, RefusedByAnArtifactWithoutThem) {
  EXPECT_EQ(checkMessage(parseOrDie(forwardLines()), sinksForwardArgs()),
            "sinks: given, but the artifact was compiled without sinks (its "
            "kernels would ignore them)");
  SdpaForwardArgs a = sinksForwardArgs();
  a.sinks = SdpaTensor{};
  EXPECT_EQ(checkMessage(parseOrDie(forwardLines()), a), "");
}

TEST(SinksBackward, WorkspaceAndParameters) {
  Manifest m = backwardWithSinks();
  SdpaWorkspaceSizes sizes{};
  std::string error;
  ASSERT_TRUE(backwardWorkspace(m, sinksBackwardArgs(), sizes, error)) << error;
  EXPECT_EQ(sizes.dsink_partial_elements, 2 * 8 * 2); // B Hq ceil(100 / 64)
  ASSERT_TRUE(backwardWorkspace(parseOrDie(backwardLines()), sinksBackwardArgs(),
                                sizes, error))
      << error;
  EXPECT_EQ(sizes.dsink_partial_elements, 0);

  ParamTable params;
  EXPECT_EQ(checkMessage(m, sinksBackwardArgs(), params), "");
  EXPECT_EQ(params.at("sinks").ptr, 0xd000000000u);
  EXPECT_EQ(params.at("grad_sinks").ptr, 0xd000001000u);
  EXPECT_EQ(params.at("dsink_partials").ptr, 0xe000000000u);
}

TEST(SinksBackward, RefusesBadTensors) {
  expectMessages<Bwd>(
      backwardWithSinks(), sinksBackwardArgs(),
      {
          {[](Bwd &a) { a.grad_sinks = SdpaTensor{}; },
           "grad_sinks: missing, the artifact was compiled with sinks (f32 "
           "[heads_q] = [8])"},
          {[](Bwd &a) { a.sinks = makeTensor(0xd000000000, kF32, {2}); },
           "sinks: expected shape [8] (heads_q), got [2]"},
          {[](Bwd &a) { a.grad_sinks.dtype = kF16; },
           "grad_sinks: expected dtype f32, got f16"},
          {[](Bwd &a) {
             a.dsink_partials = makeTensor(0xe000000000, kF32, {2, 8});
           },
           "dsink_partials: holds 16 elements, expected 32"},
          {[](Bwd &a) { a.dsink_partials.dtype = kI32; },
           "dsink_partials: expected dtype f32, got i32"},
          // grad_sinks is written: it must not overlap an input or a
          // workspace.
          {[](Bwd &a) { a.grad_sinks.data = a.sinks.data; },
           "grad_sinks: its memory overlaps sinks's", Match::Prefix},
          {[](Bwd &a) { a.dsink_partials.data = a.grad_sinks.data; },
           "grad_sinks: its memory overlaps dsink_partials's", Match::Prefix},
      });
}

TEST(SinksBackward, RefusedByAnArtifactWithoutThem) {
  Manifest m = parseOrDie(backwardLines());
  SdpaBackwardArgs a = sinksBackwardArgs();
  EXPECT_EQ(checkMessage(m, a),
            "sinks: given, but the artifact was compiled without sinks (its "
            "kernels would ignore them)");
  a.sinks = SdpaTensor{};
  EXPECT_EQ(checkMessage(m, a),
            "grad_sinks: given, but the artifact was compiled without sinks "
            "(its kernels would ignore them)");
  // The workspace, like the relay counters, is ignored where not needed.
  a.grad_sinks = SdpaTensor{};
  EXPECT_EQ(checkMessage(m, a), "");
}

} // namespace
