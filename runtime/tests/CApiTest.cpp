//===- CApiTest.cpp - The C API without a GPU ------------------------------===//
//
// Loading, querying and checking through the C entry points, and the errors
// that must come before any CUDA call.
//
//===----------------------------------------------------------------------===//

#include "SdpaRuntime/SdpaRuntime.h"
#include "TestArtifacts.h"
#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sdpa::runtime::testing;

namespace {

class TempDir {
public:
  TempDir() {
    char pattern[] = "/tmp/sdpa-runtime-test-XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TempDir() {
    for (const std::string &f : files)
      std::remove(f.c_str());
    rmdir(path.c_str());
  }
  std::string write(const std::string &name, const std::string &text) {
    std::string full = path + "/" + name;
    std::ofstream(full) << text;
    files.push_back(full);
    return full;
  }
  std::string path;

private:
  std::vector<std::string> files;
};

constexpr const char *kPtx = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// The artifact of manifest `lines` loaded from `dir`, with a minimal PTX
/// file under the name its `ptx` line gives; null, with a failed
/// expectation, if it does not load.
SdpaArtifact *loadArtifact(TempDir &dir, const std::vector<std::string> &lines) {
  for (const std::string &line : lines)
    if (line.rfind("ptx ", 0) == 0)
      dir.write(line.substr(4), kPtx);
  std::string manifest = dir.write("artifact.manifest", join(lines));
  SdpaArtifact *art = nullptr;
  EXPECT_EQ(sdpaArtifactLoad(manifest.c_str(), &art), SDPA_SUCCESS)
      << sdpaGetLastError();
  return art;
}

TEST(CApi, LoadsAndQueriesAnArtifact) {
  TempDir dir;
  SdpaArtifact *art = loadArtifact(dir, forwardLines());
  ASSERT_NE(art, nullptr);
  int64_t value = 0;
  EXPECT_EQ(sdpaArtifactQuery(art, "head_dim", &value), SDPA_SUCCESS);
  EXPECT_EQ(value, 64);
  EXPECT_EQ(sdpaArtifactQuery(art, "tile_q", &value), SDPA_SUCCESS);
  EXPECT_EQ(value, 128);
  EXPECT_EQ(sdpaArtifactQuery(art, "dtype", &value), SDPA_SUCCESS);
  EXPECT_EQ(value, SDPA_DTYPE_BF16);
  EXPECT_EQ(sdpaArtifactQuery(art, "direction", &value), SDPA_SUCCESS);
  EXPECT_EQ(value, 0);
  value = -1;
  EXPECT_EQ(sdpaArtifactQuery(art, "sinks", &value), SDPA_SUCCESS);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(sdpaArtifactQuery(art, "colour", &value),
            SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(), "sdpaArtifactQuery: unknown key 'colour'");
  int64_t left, right;
  int32_t bottomRight;
  float scale;
  ASSERT_EQ(sdpaArtifactBand(art, &left, &right, &bottomRight, &scale),
            SDPA_SUCCESS);
  EXPECT_EQ(left, 127);
  EXPECT_EQ(right, 0);
  EXPECT_EQ(bottomRight, 0);
  EXPECT_EQ(scale, 0.125f);
  float softcap = -1;
  ASSERT_EQ(sdpaArtifactSoftcap(art, &softcap), SDPA_SUCCESS);
  EXPECT_EQ(softcap, 0.0f);
  EXPECT_EQ(sdpaArtifactSoftcap(art, nullptr), SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(), "sdpaArtifactSoftcap: null argument");
  sdpaArtifactDestroy(art);
}

TEST(CApi, LoadErrorsNameTheFileLineAndKey) {
  TempDir dir;
  SdpaArtifact *art = reinterpret_cast<SdpaArtifact *>(0x1);
  std::string missing = dir.path + "/none.manifest";
  EXPECT_EQ(sdpaArtifactLoad(missing.c_str(), &art), SDPA_ERROR_IO);
  EXPECT_EQ(art, nullptr);
  EXPECT_NE(std::string(sdpaGetLastError()).find("cannot read " + missing),
            std::string::npos)
      << sdpaGetLastError();

  std::vector<std::string> lines = forwardLines();
  lines[5] = "head_dim 36";
  std::string bad = dir.write("bad.manifest", join(lines));
  EXPECT_EQ(sdpaArtifactLoad(bad.c_str(), &art), SDPA_ERROR_INVALID_MANIFEST);
  EXPECT_EQ(std::string(sdpaGetLastError()),
            bad + ": line 6: key 'head_dim': expected a multiple of 8 from "
                  "8 to 256 for a forward artifact, got '36'");

  std::string noPtx = dir.write("noptx.manifest", join(forwardLines()));
  EXPECT_EQ(sdpaArtifactLoad(noPtx.c_str(), &art), SDPA_ERROR_IO);
  EXPECT_NE(std::string(sdpaGetLastError())
                .find(noPtx + ": key 'ptx': cannot read " + dir.path +
                      "/fwd.ptx"),
            std::string::npos)
      << sdpaGetLastError();
}

/// Issue 13: a directory named by `ptx` loaded as empty PTX, and a NUL in
/// the file cut the text the driver JIT-compiles short.
TEST(CApi, RefusesPtxThatIsNoWholeTextFile) {
  TempDir dir;
  std::vector<std::string> lines = forwardLines();
  lines[2] = "ptx sub";
  std::string sub = dir.path + "/sub";
  ASSERT_EQ(mkdir(sub.c_str(), 0700), 0);
  std::string manifest = dir.write("dir.manifest", join(lines));
  SdpaArtifact *art = nullptr;
  EXPECT_EQ(sdpaArtifactLoad(manifest.c_str(), &art), SDPA_ERROR_IO);
  EXPECT_EQ(std::string(sdpaGetLastError()),
            manifest + ": key 'ptx': " + sub + " is not a regular file");
  rmdir(sub.c_str());

  dir.write("fwd.ptx", "");
  manifest = dir.write("fwd.manifest", join(forwardLines()));
  EXPECT_EQ(sdpaArtifactLoad(manifest.c_str(), &art), SDPA_ERROR_IO);
  EXPECT_EQ(std::string(sdpaGetLastError()),
            manifest + ": key 'ptx': " + dir.path + "/fwd.ptx is empty");

  dir.write("fwd.ptx", std::string(kPtx) + std::string("\0// tail", 8));
  EXPECT_EQ(sdpaArtifactLoad(manifest.c_str(), &art), SDPA_ERROR_IO);
  EXPECT_EQ(std::string(sdpaGetLastError()),
            manifest + ": key 'ptx': " + dir.path +
                "/fwd.ptx holds a NUL byte at offset " +
                std::to_string(std::string(kPtx).size()) + " (not PTX text)");
  EXPECT_EQ(art, nullptr);
}

/// Issue 13: sdpaForwardCheck passed a grid past 65535 that sdpaForward
/// refused. The check runs the launch path's grid formation and packing.
TEST(CApi, CheckRefusesWhatTheLaunchRefuses) {
  TempDir dir;
  SdpaArtifact *art = loadArtifact(dir, forwardLines());
  ASSERT_NE(art, nullptr);
  // Hq = 70000, Hkv = 1, Sq = 10, Skv = 12.
  SdpaForwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BHSD, kBf16, {1, 70000, 1, 10, 12, 64},
                  {uint64_t(1) << 32, uint64_t(3) << 32, uint64_t(4) << 32,
                   uint64_t(2) << 32, uint64_t(5) << 32});
  const char *expected = "grid: kernel 'sdpa_fwd' dimension y = 70000 "
                         "(heads_q) exceeds the limit 65535";
  EXPECT_EQ(sdpaForwardCheck(art, &a), SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(), expected);
  EXPECT_EQ(sdpaForward(art, &a, nullptr), SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(), expected);
  sdpaArtifactDestroy(art);
}

/// A valid call past a 32-bit artifact's index arithmetic is its own status
/// (the frontends then take the 64-bit twin), from the check and from the
/// launch alike, before any CUDA call.
TEST(CApi, IndexRangeIsItsOwnStatus) {
  TempDir dir;
  SdpaArtifact *art = loadArtifact(dir, at32Bits(forwardLines()));
  ASSERT_NE(art, nullptr);
  // A head stride of 2^31 elements puts v's last element at
  // 2^31 + 11 * 64 + 63 (the tensors lie 64 GiB apart: no overlap).
  SdpaForwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BHSD, kBf16, {1, 2, 2, 10, 12, 64},
                  {uint64_t(1) << 36, uint64_t(3) << 36, uint64_t(4) << 36,
                   uint64_t(2) << 36, uint64_t(5) << 36});
  EXPECT_EQ(sdpaForwardCheck(art, &a), SDPA_SUCCESS) << sdpaGetLastError();
  a.v.strides[1] = int64_t(1) << 31;
  const char *expected = "v: the last element's offset 2147484415 does not "
                         "fit the artifact's 32-bit index arithmetic (limit "
                         "2147483647; the artifact lowered with "
                         "index-bitwidth=64 takes it)";
  EXPECT_EQ(sdpaForwardCheck(art, &a), SDPA_ERROR_INDEX_RANGE);
  EXPECT_STREQ(sdpaGetLastError(), expected);
  EXPECT_EQ(sdpaForward(art, &a, nullptr), SDPA_ERROR_INDEX_RANGE);
  EXPECT_STREQ(sdpaGetLastError(), expected);
  sdpaArtifactDestroy(art);
}

TEST(CApi, ChecksArgumentsBeforeAnyCudaCall) {
  TempDir dir;
  SdpaArtifact *art = loadArtifact(dir, forwardLines());
  ASSERT_NE(art, nullptr);

  SdpaForwardArgs a{};
  setDenseTensors(a, SDPA_LAYOUT_BHSD, kBf16, {1, 2, 2, 10, 12, 64},
                  {0x1000, 0x3000, 0x4000, 0x2000, 0x5000});
  EXPECT_EQ(sdpaForwardCheck(art, &a), SDPA_SUCCESS) << sdpaGetLastError();

  a.o.data = 0x2004;
  // sdpaForward refuses before loading libcuda, so this holds on any machine.
  EXPECT_EQ(sdpaForward(art, &a, nullptr), SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(),
               "o: data pointer 0x2004 is not 16-byte aligned");

  // The message is per thread: another thread sees its own (empty) one.
  std::string other = "unset";
  std::thread([&] { other = sdpaGetLastError(); }).join();
  EXPECT_EQ(other, "");

  SdpaBackwardArgs b{};
  EXPECT_EQ(sdpaBackwardCheck(art, &b), SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(),
               "artifact: compiled for the forward, not the backward");

  SdpaGridValues grid{};
  EXPECT_EQ(sdpaLaunchKernel(art, "nope", nullptr, 0, &grid, nullptr),
            SDPA_ERROR_UNSUPPORTED);
  EXPECT_STREQ(sdpaGetLastError(), "kernel 'nope' is not in the manifest");
  SdpaNamedValue values[1] = {};
  values[0].name = "q";
  values[0].type = 0;
  values[0].ptr = 0x1000;
  EXPECT_EQ(sdpaLaunchKernel(art, "sdpa_fwd", values, 1, &grid, nullptr),
            SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(), "param: kernel 'sdpa_fwd' takes 'k', which "
                                   "these arguments do not provide");
  values[0].type = 7;
  EXPECT_EQ(sdpaLaunchKernel(art, "sdpa_fwd", values, 1, &grid, nullptr),
            SDPA_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(sdpaGetLastError(), "q: unknown type code 7");
  EXPECT_EQ(sdpaForward(nullptr, &a, nullptr), SDPA_ERROR_INVALID_ARGUMENT);
  sdpaArtifactDestroy(art);
}

/// The workspace sizes sdpaBackwardWorkspace gives for the artifact of
/// `lines` on dense bhsd f16 tensors of 4 query heads, 130 queries and 70
/// keys of `headDim`.
SdpaWorkspaceSizes backwardWorkspace(const std::vector<std::string> &lines,
                                     int64_t headDim) {
  TempDir dir;
  SdpaArtifact *art = loadArtifact(dir, lines);
  SdpaWorkspaceSizes sizes{};
  if (!art)
    return sizes;
  SdpaBackwardArgs b{};
  setDenseTensors(b, SDPA_LAYOUT_BHSD, kF16, {1, 4, 1, 130, 70, headDim},
                  {0x1000, 0x3000, 0x4000, 0x2000, 0x5000});
  EXPECT_EQ(sdpaBackwardWorkspace(art, &b, &sizes), SDPA_SUCCESS)
      << sdpaGetLastError();
  sdpaArtifactDestroy(art);
  return sizes;
}

TEST(CApi, BackwardWorkspaceThroughTheCApi) {
  SdpaWorkspaceSizes sizes = backwardWorkspace(backwardLines(), 128);
  EXPECT_EQ(sizes.dq_accum_elements, 4 * 130 * 128);
  EXPECT_EQ(sizes.delta_elements, 4 * 130);
  EXPECT_EQ(sizes.relay_counter_elements, 4 * 3); // ceil(130 / 64) = 3
}

/// A backward that recomputes dQ (bwd_dq) needs neither dq_accum nor relay
/// counters, deterministic as it is; delta stays.
TEST(CApi, RecomputedDqNeedsNoAccumulatorNorRelay) {
  SdpaWorkspaceSizes sizes = backwardWorkspace(backwardRecomputeLines(), 64);
  EXPECT_EQ(sizes.dq_accum_elements, 0);
  EXPECT_EQ(sizes.delta_elements, 4 * 130);
  EXPECT_EQ(sizes.relay_counter_elements, 0);
}

} // namespace
