//===- FfiCallTest.cpp - The XLA FFI handler's checks, without XLA --------===//
//
// Path resolution, the artifact cache, every check of a call against its
// artifact (each with its exact message) and the row-major tensors the
// handler builds from XLA's buffers.
//
//===----------------------------------------------------------------------===//

#include "FfiCall.h"

#include "../tests/TestArtifacts.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace sdpa::ffi;
using namespace sdpa::runtime::testing;

namespace {

/// A forward (tests' gpt-oss-like: band 127 0 top_left, scale 0.125,
/// kernel sdpa_fwd) and a deterministic backward (band inf 0 bottom_right,
/// kernel sdpa_bwd) artifact in a fresh directory.
class Artifacts : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/sdpa-ffi-test-XXXXXX";
    dir = mkdtemp(pattern);
    write("fwd.ptx", ".version 8.0\n");
    write("bwd.ptx", ".version 8.0\n");
    write("fwd.manifest", join(forwardLines()));
    write("bwd.manifest", join(backwardLines()));
    // The forward with the kernels' logit cap 50 (Gemma 2).
    std::vector<std::string> capped = forwardLines();
    capped.insert(capped.begin() + 10, "softcap 50");
    write("cap.manifest", join(capped));
    // Both directions compiled with sinks (gpt-oss).
    write("fwd_sinks.manifest", join(forwardSinksLines()));
    write("bwd_sinks.manifest", join(backwardSinksLines()));
  }
  void TearDown() override {
    for (const std::string &f : files)
      std::remove(f.c_str());
    rmdir(dir.c_str());
  }
  void write(const std::string &name, const std::string &text) {
    files.push_back(dir + "/" + name);
    std::ofstream(files.back()) << text;
  }
  const CachedArtifact &load(const std::string &stem) {
    std::string error;
    const CachedArtifact *cached =
        loadArtifact(manifestPathFor(dir + "/" + stem, nullptr), error);
    if (!cached)
      throw std::runtime_error(error);
    return *cached;
  }
  static CallAttrs forwardCall() {
    return {"fwd", "sdpa_fwd", "bshd", 127, 0, false, 0.125f, 0.0f,
            std::nullopt};
  }
  static CallAttrs backwardCall() {
    return {"bwd", "sdpa_bwd", "bhsd", -1, 0, true, 0.08838834764831845f,
            0.0f, true};
  }
  std::string dir;
  std::vector<std::string> files;
};

TEST(FfiPath, ManifestNextToTheStemOrInTheOverrideDirectory) {
  EXPECT_EQ(manifestPathFor("out/sdpa_fwd_0", nullptr),
            "out/sdpa_fwd_0.manifest");
  EXPECT_EQ(manifestPathFor("out/sdpa_fwd_0", ""), "out/sdpa_fwd_0.manifest");
  EXPECT_EQ(manifestPathFor("out/sdpa_fwd_0", "/data/k"),
            "/data/k/sdpa_fwd_0.manifest");
  EXPECT_EQ(manifestPathFor("sdpa_bwd_0", "k"), "k/sdpa_bwd_0.manifest");
}

TEST_F(Artifacts, LoadsOncePerManifest) {
  const CachedArtifact &first = load("fwd");
  const CachedArtifact &again = load("fwd");
  EXPECT_EQ(&first, &again);
  EXPECT_NE(&first, &load("bwd"));
  EXPECT_EQ(first.kernels, std::vector<std::string>{"sdpa_fwd"});
  EXPECT_EQ(load("bwd").kernels,
            (std::vector<std::string>{"sdpa_bwd_pre", "sdpa_bwd",
                                      "sdpa_bwd_dq"}));
}

TEST_F(Artifacts, AMissingArtifactIsAnErrorNotCached) {
  std::string error;
  std::string path = dir + "/none.manifest";
  EXPECT_EQ(loadArtifact(path, error), nullptr);
  EXPECT_NE(error.find("none.manifest"), std::string::npos) << error;
  write("none.manifest", join(forwardLines()));
  // The manifest names fwd.ptx, which exists: now it loads.
  EXPECT_NE(loadArtifact(path, error), nullptr) << error;
}

TEST_F(Artifacts, AMatchingCallPasses) {
  int32_t layout = -1;
  EXPECT_EQ(checkCall(load("fwd"), forwardCall(), false, layout), "");
  EXPECT_EQ(layout, SDPA_LAYOUT_BSHD);
  EXPECT_EQ(checkCall(load("bwd"), backwardCall(), true, layout), "");
  EXPECT_EQ(layout, SDPA_LAYOUT_BHSD);
}

TEST_F(Artifacts, EachMismatchIsNamed) {
  const CachedArtifact &fwd = load("fwd");
  std::string at = "artifact '" + fwd.manifestPath + "'";
  int32_t layout = -1;
  CallAttrs call = forwardCall();
  call.layout = "thd";
  EXPECT_EQ(checkCall(fwd, call, false, layout),
            "layout: expected \"bhsd\" or \"bshd\", got \"thd\"");
  EXPECT_EQ(checkCall(fwd, forwardCall(), true, layout),
            at + " is a forward artifact, the call is sdpa_backward");
  call = forwardCall();
  call.kernel = "sdpa_fwd_1";
  EXPECT_EQ(checkCall(fwd, call, false, layout),
            "kernel: " + at + " has no kernel 'sdpa_fwd_1'");
  call = forwardCall();
  call.left = -1;
  EXPECT_EQ(checkCall(fwd, call, false, layout),
            "band: the call says left = inf, right = 0, top_left, " + at +
                " was compiled for left = 127, right = 0, top_left");
  call = forwardCall();
  call.bottomRight = true;
  EXPECT_NE(checkCall(fwd, call, false, layout).find("bottom_right"),
            std::string::npos);
  call = forwardCall();
  call.scale = 0.126f;
  EXPECT_EQ(checkCall(fwd, call, false, layout),
            "scale: the call says 0.126, " + at + " was compiled for 0.125");

  const CachedArtifact &bwd = load("bwd");
  call = backwardCall();
  call.deterministic = false;
  EXPECT_EQ(checkCall(bwd, call, true, layout),
            "deterministic: the call says false, artifact '" +
                bwd.manifestPath + "' was compiled with deterministic 1");
  EXPECT_EQ(checkCall(bwd, backwardCall(), false, layout),
            "artifact '" + bwd.manifestPath +
                "' is a backward artifact, the call is sdpa_forward");
}

/// The kernels bake the cap in: a call must state the artifact's cap, and
/// an uncapped call must not run a capped artifact, nor the reverse.
TEST_F(Artifacts, TheSoftcapMatchesTheArtifacts) {
  int32_t layout = -1;
  const CachedArtifact &cap = load("cap");
  std::string at = "artifact '" + cap.manifestPath + "'";
  CallAttrs call = forwardCall();
  call.softcap = 50.0f;
  EXPECT_EQ(checkCall(cap, call, false, layout), "");
  EXPECT_EQ(checkCall(load("fwd"), call, false, layout),
            "softcap: the call says 50, artifact '" + load("fwd").manifestPath +
                "' was compiled for 0");
  EXPECT_EQ(checkCall(cap, forwardCall(), false, layout),
            "softcap: the call says 0, " + at + " was compiled for 50");
  call.softcap = 30.0f;
  EXPECT_EQ(checkCall(cap, call, false, layout),
            "softcap: the call says 30, " + at + " was compiled for 50");
}

/// The sinks are an operand of the `_sinks` targets only: an artifact
/// compiled with them refuses the sink-less target (its kernels would read
/// no sinks), one without them the `_sinks` target (they would be dropped),
/// each naming the target to use.
TEST_F(Artifacts, TheTargetMatchesTheArtifactsSinks) {
  int32_t layout = -1;
  const CachedArtifact &fwd = load("fwd_sinks");
  const CachedArtifact &bwd = load("bwd_sinks");
  CallAttrs forward = forwardCall(), backward = backwardCall();
  forward.sinks = backward.sinks = true;
  EXPECT_EQ(checkCall(fwd, forward, false, layout), "");
  EXPECT_EQ(checkCall(bwd, backward, true, layout), "");
  EXPECT_EQ(checkCall(fwd, forwardCall(), false, layout),
            "sinks: artifact '" + fwd.manifestPath +
                "' was compiled with sinks, the call is sdpa_forward (use "
                "sdpa_forward_sinks)");
  EXPECT_EQ(checkCall(bwd, backwardCall(), true, layout),
            "sinks: artifact '" + bwd.manifestPath +
                "' was compiled with sinks, the call is sdpa_backward (use "
                "sdpa_backward_sinks)");
  EXPECT_EQ(checkCall(load("fwd"), forward, false, layout),
            "sinks: artifact '" + load("fwd").manifestPath +
                "' was compiled without sinks, the call is "
                "sdpa_forward_sinks (use sdpa_forward)");
  EXPECT_EQ(checkCall(load("bwd"), backward, true, layout),
            "sinks: artifact '" + load("bwd").manifestPath +
                "' was compiled without sinks, the call is "
                "sdpa_backward_sinks (use sdpa_backward)");
  // The direction is checked first and names the target called.
  EXPECT_EQ(checkCall(fwd, forward, true, layout),
            "artifact '" + fwd.manifestPath +
                "' is a forward artifact, the call is sdpa_backward_sinks");
}

TEST(FfiTensor, RowMajorStrides) {
  const int64_t dims[] = {2, 256, 16, 64};
  SdpaTensor t;
  std::string error;
  ASSERT_TRUE(makeTensor("q", SDPA_DTYPE_BF16, dims, 4,
                         reinterpret_cast<void *>(0x1000), t, error));
  EXPECT_EQ(t.data, 0x1000u);
  EXPECT_EQ(t.dtype, SDPA_DTYPE_BF16);
  EXPECT_EQ(t.rank, 4);
  EXPECT_EQ(t.strides[0], 256 * 16 * 64);
  EXPECT_EQ(t.strides[1], 16 * 64);
  EXPECT_EQ(t.strides[2], 64);
  EXPECT_EQ(t.strides[3], 1);
  const int64_t empty[] = {2, 0, 3};
  ASSERT_TRUE(makeTensor("lse", SDPA_DTYPE_F32, empty, 3, nullptr, t, error));
  EXPECT_EQ(t.strides[0], 3);
  const int64_t five[] = {1, 1, 1, 1, 1};
  EXPECT_FALSE(makeTensor("q", SDPA_DTYPE_F16, five, 5, nullptr, t, error));
  EXPECT_EQ(error, "q: expected 1 to 4 dimensions, got 5");
}

} // namespace
