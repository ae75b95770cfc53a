//===- ManifestTest.cpp - Manifest parsing, good and bad input ------------===//

#include "TestArtifacts.h"
#include "gtest/gtest.h"

#include <fstream>
#include <sstream>

using namespace sdpa::runtime;
using namespace sdpa::runtime::testing;

namespace {

std::string parseError(const std::vector<std::string> &lines) {
  Manifest manifest;
  std::string error;
  EXPECT_FALSE(parseManifest(join(lines), manifest, error))
      << "expected a parse error";
  return error;
}

std::vector<std::string> replaced(std::vector<std::string> lines, int line,
                                  std::string text) {
  lines[line - 1] = std::move(text);
  return lines;
}

std::vector<std::string> removed(std::vector<std::string> lines, int line) {
  lines.erase(lines.begin() + (line - 1));
  return lines;
}

std::vector<std::string> inserted(std::vector<std::string> lines, int line,
                                  std::string text) {
  lines.insert(lines.begin() + (line - 1), std::move(text));
  return lines;
}

TEST(Manifest, ParsesEveryForwardField) {
  Manifest m = parseOrDie(forwardLines());
  EXPECT_EQ(m.ptxFile, "fwd.ptx");
  EXPECT_EQ(m.direction, Direction::Forward);
  EXPECT_EQ(m.dtype, ElementType::BF16);
  EXPECT_EQ(m.headDim, 64);
  EXPECT_EQ(m.tileQ, 128);
  EXPECT_EQ(m.tileKv, 64);
  ASSERT_TRUE(m.left.has_value());
  EXPECT_EQ(*m.left, 127);
  ASSERT_TRUE(m.right.has_value());
  EXPECT_EQ(*m.right, 0);
  EXPECT_EQ(m.align, Alignment::TopLeft);
  EXPECT_FLOAT_EQ(m.scale, 0.125f);
  EXPECT_FALSE(m.varlen);
  EXPECT_FALSE(m.deterministic);
  ASSERT_EQ(m.kernels.size(), 1u);
  const Kernel &k = m.kernels[0];
  EXPECT_EQ(k.name, "sdpa_fwd");
  EXPECT_EQ(k.role, KernelRole::Forward);
  EXPECT_EQ(k.line, 12);
  EXPECT_EQ(k.block, (std::array<unsigned, 3>{128, 1, 1}));
  EXPECT_EQ(k.sharedBytes, 65536u);
  EXPECT_EQ(k.grid, (std::array<GridTerm, 3>{GridTerm::QTiles,
                                             GridTerm::HeadsQ,
                                             GridTerm::Batch}));
  ASSERT_EQ(k.params.size(), 23u);
  EXPECT_EQ(k.params[0].name, "q");
  EXPECT_EQ(k.params[0].type, ParamType::Ptr);
  EXPECT_EQ(k.params[5].name, "seq_q");
  EXPECT_EQ(k.params[5].type, ParamType::I32);
  EXPECT_EQ(k.params[22].name, "lse_stride_h");
  EXPECT_EQ(k.params[22].type, ParamType::I64);
}

TEST(Manifest, ParsesBackwardWithThreeKernels) {
  Manifest m = parseOrDie(backwardLines());
  EXPECT_EQ(m.direction, Direction::Backward);
  EXPECT_EQ(m.dtype, ElementType::F16);
  EXPECT_FALSE(m.left.has_value());
  EXPECT_EQ(m.right, std::optional<int64_t>(0));
  EXPECT_EQ(m.align, Alignment::BottomRight);
  EXPECT_TRUE(m.deterministic);
  ASSERT_EQ(m.kernels.size(), 3u);
  EXPECT_EQ(m.findKernel(KernelRole::BwdPreprocess)->name, "sdpa_bwd_pre");
  EXPECT_EQ(m.findKernel(KernelRole::BwdMain)->name, "sdpa_bwd");
  EXPECT_EQ(m.findKernel(KernelRole::BwdDqConvert)->name, "sdpa_bwd_dq");
  EXPECT_EQ(m.findKernel(KernelRole::BwdPreprocess)->grid[0], GridTerm::Rows);
  EXPECT_EQ(m.findKernel("sdpa_bwd")->sharedBytes, 98304u);
  EXPECT_EQ(m.findKernel(KernelRole::Forward), nullptr);
}

TEST(Manifest, AcceptsCommentsBlankLinesAndNoFinalNewline) {
  std::vector<std::string> lines = inserted(forwardLines(), 5, "");
  lines = inserted(lines, 6, "# a comment in the middle");
  std::string text = join(lines);
  text.pop_back(); // no final newline
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_EQ(m.kernels[0].line, 14);
  EXPECT_EQ(m.kernels[0].params.size(), 23u);
}

TEST(Manifest, HeaderKeysMayFollowKernels) {
  std::vector<std::string> lines = removed(forwardLines(), 11);
  lines.push_back("varlen 1");
  Manifest m = parseOrDie(lines);
  EXPECT_TRUE(m.varlen);
}

/// A softcap (docs/Semantics.md §7) is optional: absent means no cap.
TEST(Manifest, SoftcapIsOptional) {
  EXPECT_FALSE(parseOrDie(forwardLines()).softcap.has_value());
  Manifest m = parseOrDie(inserted(forwardLines(), 11, "softcap 50"));
  ASSERT_TRUE(m.softcap.has_value());
  EXPECT_EQ(*m.softcap, 50.0f);
  EXPECT_EQ(parseError(inserted(forwardLines(), 11, "softcap 0")),
            "line 11: key 'softcap': expected a positive finite float, got '0'");
  EXPECT_EQ(parseError(inserted(forwardLines(), 11, "softcap inf")),
            "line 11: key 'softcap': expected a positive finite float, got 'inf'");
}

TEST(Manifest, IndexBitsAre32Or64AndPrintedOnlyAt32) {
  EXPECT_EQ(parseOrDie(forwardLines()).indexBits, 64);
  EXPECT_EQ(parseOrDie(inserted(forwardLines(), 11, "index_bits 64")).indexBits,
            64);
  Manifest m = parseOrDie(inserted(forwardLines(), 11, "index_bits 32"));
  EXPECT_EQ(m.indexBits, 32);
  EXPECT_EQ(parseError(inserted(forwardLines(), 11, "index_bits 16")),
            "line 11: key 'index_bits': expected 32 or 64, got '16'");
  std::string printed = sdpa_schema::printManifest(m);
  EXPECT_NE(printed.find("\nindex_bits 32\n"), std::string::npos) << printed;
  EXPECT_EQ(parseOrDie({printed}).indexBits, 32);
  m.indexBits = 64;
  EXPECT_EQ(sdpa_schema::printManifest(m).find("index_bits"), std::string::npos);
}

TEST(Manifest, ScaleAcceptsExponentForm) {
  Manifest m = parseOrDie(replaced(forwardLines(), 10, "scale 1.25e-1"));
  EXPECT_FLOAT_EQ(m.scale, 0.125f);
}

struct BadCase {
  const char *what;
  std::vector<std::string> lines;
  const char *expected;
};

TEST(Manifest, RejectsEachKindOfBadInput) {
  std::vector<std::string> f = forwardLines();
  std::vector<BadCase> cases = {
      {"empty", {""}, "line 1: expected 'sdpa-artifact 1' as the first line"},
      {"not a manifest", replaced(f, 1, "hello"),
       "line 1: expected 'sdpa-artifact 1' as the first line, got 'hello'"},
      {"header not first", inserted(f, 1, "# comment"),
       "line 1: expected 'sdpa-artifact 1'"},
      {"newer version", replaced(f, 1, "sdpa-artifact 2"),
       "line 1: key 'sdpa-artifact': unsupported artifact version '2'"},
      {"header repeated", inserted(f, 5, "sdpa-artifact 1"),
       "line 5: key 'sdpa-artifact' may only appear on line 1"},
      {"unknown key", inserted(f, 4, "layout bhsd"),
       "line 4: unknown key 'layout'"},
      {"unknown kernel key", inserted(f, 14, "registers 128"),
       "line 14: unknown key 'registers'"},
      {"missing ptx", removed(f, 3), "missing key 'ptx'"},
      {"missing direction", removed(f, 4), "missing key 'direction'"},
      {"missing dtype", removed(f, 5), "missing key 'dtype'"},
      {"missing head_dim", removed(f, 6), "missing key 'head_dim'"},
      {"missing tile_q", removed(f, 7), "missing key 'tile_q'"},
      {"missing tile_kv", removed(f, 8), "missing key 'tile_kv'"},
      {"missing band", removed(f, 9), "missing key 'band'"},
      {"missing scale", removed(f, 10), "missing key 'scale'"},
      {"missing varlen", removed(f, 11), "missing key 'varlen'"},
      {"missing kernel", std::vector<std::string>(f.begin(), f.begin() + 11),
       "missing key 'kernel': no kernel of role 'forward'"},
      {"kernel without block", removed(f, 13),
       "line 12: kernel 'sdpa_fwd' has no 'block' key"},
      {"kernel without shared_bytes", removed(f, 14),
       "line 12: kernel 'sdpa_fwd' has no 'shared_bytes' key"},
      {"kernel without grid", removed(f, 15),
       "line 12: kernel 'sdpa_fwd' has no 'grid' key"},
      {"duplicate key", inserted(f, 7, "dtype f16"),
       "line 7: duplicate key 'dtype' (first on line 5)"},
      {"duplicate kernel key", inserted(f, 14, "block 64 1 1"),
       "line 14: duplicate key 'block' in kernel 'sdpa_fwd' (first on line "
       "13)"},
      {"double space", replaced(f, 9, "band 127  0 top_left"),
       "line 9: empty field"},
      {"trailing space", replaced(f, 6, "head_dim 64 "), "line 6: empty field"},
      {"tab", replaced(f, 6, "head_dim\t64"), "line 6: fields must be separated"},
      {"crlf", replaced(f, 6, "head_dim 64\r"),
       "line 6: the line ends in a carriage return: manifests have LF line "
       "endings, not CRLF"},
      {"carriage return inside", replaced(f, 6, "head_dim\r64"),
       "line 6: control character 0x0d in the line"},
      {"too few values", replaced(f, 9, "band 127 0"),
       "line 9: key 'band' expects 3 values (L R align), got 2"},
      {"too many values", replaced(f, 6, "head_dim 64 128"),
       "line 6: key 'head_dim' expects 1 value (D), got 2"},
      {"bad direction", replaced(f, 4, "direction sideways"),
       "line 4: key 'direction': expected 'forward' or 'backward', got "
       "'sideways'"},
      {"bad dtype", replaced(f, 5, "dtype f32"),
       "line 5: key 'dtype': expected 'f16' or 'bf16', got 'f32'"},
      {"bad head_dim", replaced(f, 6, "head_dim 36"),
       "line 6: key 'head_dim': expected a multiple of 8 from 8 to 256 for "
       "a forward artifact, got '36'"},
      {"non-numeric head_dim", replaced(f, 6, "head_dim 6x4"),
       "line 6: key 'head_dim': expected a positive integer, got '6x4'"},
      {"zero tile", replaced(f, 7, "tile_q 0"),
       "line 7: key 'tile_q': expected a positive integer up to 65536, got "
       "'0'"},
      {"negative tile", replaced(f, 8, "tile_kv -64"),
       "line 8: key 'tile_kv': expected a positive integer"},
      {"leading zero", replaced(f, 8, "tile_kv 064"),
       "line 8: key 'tile_kv': expected a positive integer"},
      {"bad L", replaced(f, 9, "band -1 0 top_left"),
       "line 9: key 'band': expected L as a non-negative integer below 2^31 "
       "or 'inf', got '-1'"},
      {"L too large", replaced(f, 9, "band 2147483648 0 top_left"),
       "line 9: key 'band': expected L"},
      {"bad R", replaced(f, 9, "band 127 infinity top_left"),
       "line 9: key 'band': expected R"},
      {"bad align", replaced(f, 9, "band 127 0 center"),
       "line 9: key 'band': expected align 'top_left' or 'bottom_right', got "
       "'center'"},
      {"bad scale", replaced(f, 10, "scale 0.125x"),
       "line 10: key 'scale': expected a positive normal f32, 1.17549435e-38 "
       "to 3.40282347e+38, got '0.125x'"},
      {"negative scale", replaced(f, 10, "scale -1"),
       "line 10: key 'scale': expected a positive normal f32"},
      {"nan scale", replaced(f, 10, "scale nan"),
       "line 10: key 'scale': expected a positive normal f32"},
      {"bad varlen", replaced(f, 11, "varlen yes"),
       "line 11: key 'varlen': expected 0 or 1, got 'yes'"},
      {"absolute ptx", replaced(f, 3, "ptx /tmp/fwd.ptx"),
       "line 3: key 'ptx': expected a file in the manifest's directory or "
       "below it, got '/tmp/fwd.ptx': an absolute path"},
      {"block before kernel", inserted(f, 4, "block 128 1 1"),
       "line 4: key 'block' before any 'kernel' record"},
      {"param before kernel", inserted(f, 4, "param q ptr"),
       "line 4: key 'param' before any 'kernel' record"},
      {"bad role", replaced(f, 12, "kernel sdpa_fwd sideways"),
       "line 12: key 'kernel': expected a role"},
      {"bad kernel name", replaced(f, 12, "kernel 9fwd forward"),
       "line 12: key 'kernel': expected a kernel name"},
      {"backward role in forward", replaced(f, 12, "kernel sdpa_fwd bwd_main"),
       "line 12: kernel 'sdpa_fwd' has role 'bwd_main' but the direction is "
       "forward"},
      {"deterministic forward", inserted(f, 11, "deterministic 1"),
       "line 11: key 'deterministic': 1 is only meaningful for a backward"},
      {"zero block", replaced(f, 13, "block 0 1 1"),
       "line 13: key 'block': expected three integers in [1, 1024], got '0'"},
      {"block too large", replaced(f, 13, "block 512 4 1"),
       "line 13: key 'block': 2048 threads per block, the limit is 1024"},
      {"bad shared", replaced(f, 14, "shared_bytes 48k"),
       "line 14: key 'shared_bytes': expected a non-negative integer, got "
       "'48k'"},
      {"bad grid term", replaced(f, 15, "grid q_tiles heads batch"),
       "line 15: key 'grid': expected a grid term (q_tiles, kv_tiles, "
       "heads_q, heads_kv, batch, 1, rows), got 'heads'"},
      {"unknown param", replaced(f, 16, "param query ptr"),
       "line 16: key 'param': unknown parameter name 'query'"},
      {"bad param type", replaced(f, 16, "param q f64"),
       "line 16: key 'param': expected a type (ptr, i32, i64, f32), got 'f64'"},
      {"wrong param type", replaced(f, 21, "param seq_q i64"),
       "line 21: key 'param': parameter 'seq_q' must have type i32, got 'i64'"},
      {"stride as i32", replaced(f, 25, "param q_stride_b i32"),
       "line 25: key 'param': parameter 'q_stride_b' must have type i64"},
      {"backward param in forward", replaced(f, 16, "param dq ptr"),
       "line 16: key 'param': parameter 'dq' is not available to a forward "
       "kernel"},
      {"duplicate param", replaced(f, 17, "param q ptr"),
       "line 17: key 'param': parameter 'q' listed twice in kernel "
       "'sdpa_fwd'"},
  };
  for (const BadCase &c : cases)
    EXPECT_NE(parseError(c.lines).find(c.expected), std::string::npos)
        << c.what << ": got '" << parseError(c.lines) << "', expected '"
        << c.expected << "'";
}

/// 19-digit integers overflowed int64_t while parsed (found by
/// sdpa-runtime-fuzzer): 9999999999999999999 wrapped to a negative tile size
/// that passed the range check. They are refused like any value out of range.
TEST(Manifest, RejectsIntegersBeyondInt64) {
  std::vector<std::string> f = forwardLines();
  EXPECT_NE(parseError(replaced(f, 7, "tile_q 9999999999999999999"))
                .find("line 7: key 'tile_q': expected a positive integer up "
                      "to 65536, got '9999999999999999999'"),
            std::string::npos);
  EXPECT_NE(parseError(replaced(f, 9, "band 9223372036854775808 0 top_left"))
                .find("line 9: key 'band': expected L"),
            std::string::npos);
  EXPECT_NE(parseError(replaced(f, 14, "shared_bytes 9999999999999999999"))
                .find("line 14: key 'shared_bytes'"),
            std::string::npos);
}

/// Issue 13: scales the kernels cannot hold in f32 were accepted, 1e-50 as
/// 0 (1e300 was refused as +inf, subnormals passed).
TEST(Manifest, RejectsScalesThatAreNoNormalF32) {
  std::vector<std::string> f = forwardLines();
  for (const char *scale : {"1e-50", "1e-39", "1e300", "3.5e38", "0"})
    EXPECT_NE(parseError(replaced(f, 10, std::string("scale ") + scale))
                  .find("line 10: key 'scale': expected a positive normal "
                        "f32"),
              std::string::npos)
        << scale;
  Manifest m = parseOrDie(replaced(f, 10, "scale 1.2e-38"));
  EXPECT_EQ(m.scaleF32(), 1.2e-38f);
}

/// Issue 13: the ptx key refused only a leading '/': `../../etc/passwd`
/// loaded. Every component must be a plain name now.
TEST(Manifest, RejectsPtxPathsOutsideTheArtifact) {
  std::vector<std::string> f = forwardLines();
  const std::pair<const char *, const char *> cases[] = {
      {"../../etc/passwd", "a '..' component"},
      {"kernels/../../x.ptx", "a '..' component"},
      {"./fwd.ptx", "the component '.'"},
      {"a//fwd.ptx", "the component ''"},
      {"kernels/", "the component ''"},
      {".hidden.ptx", "the component '.hidden.ptx'"},
  };
  for (const auto &[path, why] : cases)
    EXPECT_NE(parseError(replaced(f, 3, std::string("ptx ") + path))
                  .find(std::string("line 3: key 'ptx': expected a file in "
                                    "the manifest's directory or below it, "
                                    "got '") +
                        path + "': " + why),
              std::string::npos)
        << path;
  EXPECT_EQ(parseOrDie(replaced(f, 3, "ptx kernels/fwd-1.ptx")).ptxFile,
            "kernels/fwd-1.ptx");
}

/// Issue 13: a NUL in a value cut it short where it was handed on as a C
/// string; a CRLF manifest was reported as "unsupported artifact version
/// '1'". Both are named now.
TEST(Manifest, NamesNulAndCrlf) {
  std::string text = join(forwardLines());
  text.replace(text.find("fwd.ptx"), 7, std::string("fwd\0.ptx", 8));
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(text, m, error));
  EXPECT_EQ(error, "line 3: control character 0x00 (NUL) in the line");
  std::string crlf;
  for (const std::string &line : forwardLines())
    crlf += line + "\r\n";
  EXPECT_FALSE(parseManifest(crlf, m, error));
  EXPECT_EQ(error, "line 1: the line ends in a carriage return: manifests "
                   "have LF line endings, not CRLF");
}

/// One table decides the head dims (lib/Schema), the one the lowering
/// refuses against: both directions take the multiples of 8 up to 256 (40,
/// 72, 224 and 240 among them), nothing else (36, 264, 272).
TEST(Manifest, HeadDimsFollowTheSchemaTable) {
  for (const char *dim : {"8", "16", "40", "72", "80", "96", "120", "224",
                          "240", "248", "256"}) {
    std::string line = std::string("head_dim ") + dim;
    EXPECT_EQ(parseOrDie(replaced(forwardLines(), 6, line)).headDim,
              std::stoll(dim));
    EXPECT_EQ(parseOrDie(replaced(backwardLines(), 5, line)).headDim,
              std::stoll(dim));
  }
  for (const char *dim : {"4", "36", "100", "264", "272", "512"}) {
    EXPECT_EQ(parseError(replaced(forwardLines(), 6,
                                  std::string("head_dim ") + dim)),
              std::string("line 6: key 'head_dim': expected a multiple of 8 "
                          "from 8 to 256 for a forward artifact, got '") +
                  dim + "'");
    EXPECT_EQ(parseError(replaced(backwardLines(), 5,
                                  std::string("head_dim ") + dim)),
              std::string("line 5: key 'head_dim': expected a multiple of 8 "
                          "from 8 to 256 for a backward artifact, got '") +
                  dim + "'");
  }
  // Brute force over 1..300: accepted exactly where the table says.
  for (int64_t d = 1; d <= 300; ++d) {
    bool supported = d % 8 == 0 && d <= 256;
    EXPECT_EQ(isSupportedHeadDim(Direction::Forward, d), supported) << d;
    EXPECT_EQ(isSupportedHeadDim(Direction::Backward, d), supported) << d;
  }
}

TEST(Manifest, RejectsBadKernelSets) {
  std::vector<std::string> b = backwardLines();
  // Line 20 is `kernel sdpa_bwd bwd_main`.
  EXPECT_NE(parseError(replaced(b, 20, "kernel sdpa_bwd bwd_preprocess"))
                .find("line 20: key 'kernel': a second kernel of role "
                      "'bwd_preprocess' (first is 'sdpa_bwd_pre' on line 12)"),
            std::string::npos);
  EXPECT_NE(parseError(replaced(b, 20, "kernel sdpa_bwd_pre bwd_main"))
                .find("line 20: key 'kernel': duplicate kernel name "
                      "'sdpa_bwd_pre' (first on line 12)"),
            std::string::npos);
  EXPECT_NE(parseError(replaced(forwardLines(), 4, "direction backward"))
                .find("line 12: kernel 'sdpa_fwd' has role 'forward' but the "
                      "direction is backward"),
            std::string::npos);
  std::vector<std::string> noMain(b.begin(), b.begin() + 19);
  EXPECT_NE(parseError(noMain).find("no kernel of role 'bwd_main'"),
            std::string::npos);
}

TEST(Manifest, KnowsTheParameterNamesOfTheContract) {
  for (const char *p : {"q", "k", "v", "o", "lse", "do", "dq", "dk", "dv",
                        "dq_accum", "delta", "relay_counters", "cu_seqlens_q",
                        "cu_seqlens_kv"})
    EXPECT_EQ(expectedParamType(p), ParamType::Ptr) << p;
  for (const char *p : {"seq_q", "seq_kv", "heads_q", "heads_kv", "batch"})
    EXPECT_EQ(expectedParamType(p), ParamType::I32) << p;
  for (const char *t : {"q", "k", "v", "o", "do", "dq", "dk", "dv"})
    for (const char *s : {"_stride_b", "_stride_h", "_stride_s"})
      EXPECT_EQ(expectedParamType(std::string(t) + s), ParamType::I64)
          << t << s;
  EXPECT_EQ(expectedParamType("lse_stride_b"), ParamType::I64);
  EXPECT_EQ(expectedParamType("lse_stride_h"), ParamType::I64);
  // lse's sequence stride is 1 by contract, so it is no parameter.
  EXPECT_EQ(expectedParamType("lse_stride_s"), std::nullopt);
  EXPECT_EQ(expectedParamType("seq"), std::nullopt);
}

} // namespace

namespace {

TEST(Manifest, TheGpuTestManifestsParse) {
  for (const char *name : {"copy_dense", "copy_thd", "probe"}) {
    std::string path = std::string(SDPA_RUNTIME_TEST_DIR) + "/gpu/" + name +
                       ".manifest";
    std::ifstream file(path);
    ASSERT_TRUE(file) << path;
    std::stringstream text;
    text << file.rdbuf();
    Manifest m;
    std::string error;
    EXPECT_TRUE(parseManifest(text.str(), m, error)) << path << ": " << error;
  }
}

} // namespace

namespace {

/// The forward manifest exactly as the lowering writes it today (the
/// schema's printer and parameter list, with `ptx` inserted after the header
/// by sdpa-write-artifact): written out by hand here so that a change on
/// either side shows up.
TEST(Manifest, ParsesTheLoweringsForwardFormat) {
  std::string text = "sdpa-artifact 1\n"
                     "ptx bf16_d64_win127.ptx\n"
                     "direction forward\n"
                     "dtype bf16\n"
                     "head_dim 64\n"
                     "tile_q 128\n"
                     "tile_kv 64\n"
                     "band 127 0 top_left\n"
                     "scale 0.125\n"
                     "varlen 0\n"
                     "kernel sdpa_fwd_kernel forward\n"
                     "block 128 1 1\n"
                     "shared_bytes 49152\n"
                     "grid q_tiles heads_q batch\n";
  for (const char *p : {"q", "k", "v", "o", "lse"})
    text += std::string("param ") + p + " ptr\n";
  for (const char *p : {"seq_q", "seq_kv", "heads_q", "heads_kv"})
    text += std::string("param ") + p + " i32\n";
  for (const char *t : {"q", "k", "v", "o"})
    for (const char *d : {"b", "h", "s"})
      text += std::string("param ") + t + "_stride_" + d + " i64\n";
  text += "param lse_stride_b i64\nparam lse_stride_h i64\n";
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_EQ(m.kernels[0].params.size(), 23u);
  EXPECT_EQ(sdpa_schema::printManifest(m), text);
  std::vector<Param> params = sdpa_schema::getKernelParams(
      KernelRole::Forward, /*varlen=*/false, /*deterministic=*/false,
      /*sinks=*/false);
  ASSERT_EQ(params.size(), m.kernels[0].params.size());
  for (size_t i = 0; i < params.size(); ++i)
    EXPECT_EQ(params[i].name, m.kernels[0].params[i].name) << i;
}

/// A backward that recomputes dQ: bwd_dq is its third kernel, it is
/// deterministic without the relay, and its kernels' parameters are the
/// schema's for DqMode::Recompute.
TEST(Manifest, ReadsARecomputedDqBackward) {
  Manifest m = parseOrDie(backwardRecomputeLines());
  EXPECT_EQ(m.dqMode(), sdpa_schema::DqMode::Recompute);
  EXPECT_TRUE(m.deterministic);
  EXPECT_FALSE(m.usesRelay());
  EXPECT_FALSE(m.takesParam("dq_accum"));
  ASSERT_NE(m.findKernel(KernelRole::BwdDq), nullptr);
  EXPECT_EQ(m.findKernel(KernelRole::BwdDqConvert), nullptr);
  EXPECT_EQ(sdpa_schema::getBackwardRoles(m.dqMode()),
            (std::vector<KernelRole>{KernelRole::BwdPreprocess,
                                     KernelRole::BwdMain, KernelRole::BwdDq}));
  // The accumulating artifact of the same options relays its adds.
  Manifest accumulated = parseOrDie(backwardLines());
  EXPECT_EQ(accumulated.dqMode(), sdpa_schema::DqMode::Accumulate);
  EXPECT_TRUE(accumulated.usesRelay());
  // The schema's lists: no dq_accum, no relay counters, dq from bwd_dq.
  for (KernelRole role : sdpa_schema::getBackwardRoles(
           sdpa_schema::DqMode::Recompute))
    for (bool deterministic : {false, true})
      for (const Param &p : sdpa_schema::getKernelParams(
               role, /*varlen=*/false, deterministic, /*sinks=*/true,
               sdpa_schema::DqMode::Recompute)) {
        EXPECT_NE(p.name, "dq_accum") << toString(role);
        EXPECT_NE(p.name, "relay_counters") << toString(role);
      }
  std::vector<Param> dq = sdpa_schema::getKernelParams(
      KernelRole::BwdDq, /*varlen=*/true, /*deterministic=*/true,
      /*sinks=*/true, sdpa_schema::DqMode::Recompute);
  std::vector<std::string> names;
  for (const Param &p : dq)
    if (p.type == sdpa_schema::ParamType::Ptr)
      names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "q", "k", "v", "do", "lse", "delta", "dq",
                       "dsink_partials", "grad_sinks", "cu_seqlens_q",
                       "cu_seqlens_kv"}));
}

/// bwd_dq (recomputed dQ) and bwd_dq_convert (accumulated dQ) form dQ two
/// ways: an artifact with both is refused, naming both.
TEST(Manifest, RefusesBothWaysOfFormingDq) {
  std::vector<std::string> lines = backwardRecomputeLines();
  for (const char *line :
       {"kernel sdpa_bwd_c bwd_dq_convert", "block 128 1 1", "shared_bytes 0",
        "grid q_tiles heads_q batch", "param dq ptr"})
    lines.push_back(line);
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(join(lines), m, error));
  EXPECT_EQ(error, "line 35: kernel 'sdpa_bwd_c' has role 'bwd_dq_convert', "
                   "but kernel 'sdpa_bwd_q' (line 27) recomputes dQ (role "
                   "'bwd_dq'): an artifact has one or the other");
}

/// The deterministic backward as the backward lowering writes it (the
/// schema's printer and parameter lists), scale printed %.17g.
TEST(Manifest, ParsesTheLoweringsBackwardFormat) {
  auto strides = [](std::initializer_list<const char *> tensors) {
    std::string s;
    for (const char *t : tensors)
      for (const char *d : {"b", "h", "s"})
        s += std::string("param ") + t + "_stride_" + d + " i64\n";
    return s;
  };
  std::string text =
      "sdpa-artifact 1\n"
      "ptx bwd.ptx\n"
      "direction backward\n"
      "dtype f16\n"
      "head_dim 128\n"
      "tile_q 64\n"
      "tile_kv 64\n"
      "band 4095 0 bottom_right\n"
      "scale 0.088388347648318433\n"
      "varlen 0\n"
      "deterministic 1\n"
      "kernel sdpa_bwd_preprocess bwd_preprocess\n"
      "block 128 1 1\n"
      "shared_bytes 0\n"
      "grid q_tiles heads_q batch\n"
      "param o ptr\nparam do ptr\nparam delta ptr\nparam dq_accum ptr\n"
      "param relay_counters ptr\nparam seq_q i32\nparam heads_q i32\n" +
      strides({"o", "do"}) +
      "kernel sdpa_bwd_main bwd_main\n"
      "block 256 1 1\n"
      "shared_bytes 98304\n"
      "grid kv_tiles heads_kv batch\n"
      "param q ptr\nparam k ptr\nparam v ptr\nparam do ptr\nparam lse ptr\n"
      "param delta ptr\nparam dq_accum ptr\nparam dk ptr\nparam dv ptr\n"
      "param relay_counters ptr\n"
      "param seq_q i32\nparam seq_kv i32\nparam heads_q i32\n"
      "param heads_kv i32\n" +
      strides({"q", "k", "v", "do", "dk", "dv"}) +
      "param lse_stride_b i64\nparam lse_stride_h i64\n"
      "kernel sdpa_bwd_dq_convert bwd_dq_convert\n"
      "block 128 1 1\n"
      "shared_bytes 0\n"
      "grid q_tiles heads_q batch\n"
      "param dq_accum ptr\nparam dq ptr\nparam seq_q i32\nparam heads_q i32\n" +
      strides({"dq"});
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  ASSERT_EQ(m.kernels.size(), 3u);
  EXPECT_TRUE(m.deterministic);
  EXPECT_EQ(m.findKernel(KernelRole::BwdMain)->params.size(), 34u);
  EXPECT_FLOAT_EQ(m.scaleF32(), 0.0883883476f);
  EXPECT_EQ(sdpa_schema::printManifest(m), text);
  for (const Kernel &kernel : m.kernels) {
    std::vector<Param> params = sdpa_schema::getKernelParams(
        kernel.role, /*varlen=*/false, /*deterministic=*/true,
        /*sinks=*/false);
    ASSERT_EQ(params.size(), kernel.params.size()) << kernel.name;
    for (size_t i = 0; i < params.size(); ++i)
      EXPECT_EQ(params[i].name, kernel.params[i].name) << kernel.name << i;
    EXPECT_EQ(sdpa_schema::getKernelGrid(kernel.role), kernel.grid);
  }
}

} // namespace
