//===- ParserTest.cpp - PTX parsing and refusals --------------------------===//

#include "EmuTestUtil.h"

#include <dirent.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace sdpa::emu;
using namespace sdpa::emu::test;

namespace {

std::string parseError(const std::string &body,
                       const std::string &extra = "") {
  Module module;
  std::string error;
  EXPECT_FALSE(parsePtx(kernelPtx(body, 2, extra), module, error));
  return error;
}

TEST(Parser, UnsupportedInstructionNamesItAndItsLine) {
  EXPECT_EQ(parseError("\tmov.u32 %r1, 1;\n\tbrev.b32 %r2, %r1;"),
            "line 16: unsupported instruction 'brev.b32'");
  EXPECT_EQ(parseError("\tadd.sat.s32 %r1, %r1, 1;"),
            "line 15: unsupported instruction 'add.sat.s32'");
  EXPECT_EQ(parseError("\tcvt.rzi.s32.f32 %r1, %r2;"),
            "line 15: unsupported instruction 'cvt.rzi.s32.f32'");
  EXPECT_EQ(parseError("\tld.global.nc.L1::no_allocate.b32 %r1, [%rd1];"),
            "line 15: unsupported instruction "
            "'ld.global.nc.L1::no_allocate.b32'");
  EXPECT_EQ(parseError("\tmma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                       "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7}, "
                       "{%r1, %r2, %r3, %r4};"),
            "line 15: unsupported instruction "
            "'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32'");
}

TEST(Parser, OperandMistakesAreErrors) {
  EXPECT_NE(parseError("\tadd.s64 %rd1, %r1, 1;").find(
                "a 32-bit register where .s64 is expected"),
            std::string::npos);
  EXPECT_NE(parseError("\tadd.s32 %r1, %r999, 1;").find(
                "undeclared register '%r999'"),
            std::string::npos);
  EXPECT_NE(parseError("\tbra $L__nowhere;").find(
                "unknown label '$L__nowhere'"),
            std::string::npos);
  EXPECT_NE(parseError("\tadd.s32 %r1, %r2;").find(
                "expected 3 operands, got 2"),
            std::string::npos);
  EXPECT_NE(parseError("\tadd.f32 %r1, %r2, 1;").find(
                "an integer literal where .f32 is expected"),
            std::string::npos);
  EXPECT_NE(parseError("\tbar.sync 1;").find("only barrier 0"),
            std::string::npos);
  EXPECT_NE(parseError("\tmov.u32 %r1, 4294967296;").find("out of range"),
            std::string::npos);
}

TEST(Parser, DeclarationsAndLiterals) {
  Module module;
  std::string error;
  std::string ptx = kernelPtx(R"(
	mov.b32 %r1, 0f3F800000;
	mov.b64 %rd1, 0d3FF0000000000000;
	mov.b64 %rd2, -4294967296;
	mov.u32 %r2, 0xFFFFFFFF;
	mov.u64 %rd3, s2;
	mov.u64 %rd4, __dynamic_shmem__0;
)",
                              2,
                              "\t.shared .align 4 .b8 s1[10];\n"
                              "\t.shared .align 8 .b8 s2[8];\n"
                              "\t.shared .align 16 .b8 __dynamic_shmem__0;\n");
  ASSERT_TRUE(parsePtx(ptx, module, error)) << error;
  const Kernel &k = module.kernels.at(0);
  EXPECT_EQ(k.name, "k");
  ASSERT_EQ(k.params.size(), 2u);
  EXPECT_EQ(k.params[1].offset, 8u);
  EXPECT_EQ(k.paramBytes, 16u);
  EXPECT_EQ(k.staticShared, 24u); // s1 at 0, s2 at 16
  EXPECT_EQ(k.dynamicBase, 32u);
  auto value = [&](size_t i, unsigned operand) {
    return k.initialRegs[k.code[i].o[operand]];
  };
  EXPECT_EQ(value(0, 1), 0x3f800000u);
  EXPECT_EQ(value(1, 1), 0x3ff0000000000000ull);
  EXPECT_EQ(value(2, 1), 0xffffffff00000000ull);
  EXPECT_EQ(value(3, 1), 0xffffffffu);
  EXPECT_EQ(value(4, 1), 16u);
  EXPECT_EQ(value(5, 1), 32u);
}

TEST(Parser, ParamLayoutFollowsAlignment) {
  Module module;
  std::string error;
  ASSERT_TRUE(parsePtx(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry f(
	.param .u32 f_param_0,
	.param .u64 .ptr .align 1 f_param_1,
	.param .u32 f_param_2
)
.maxntid 128, 1, 1
{
	ret;
}
)",
                       module, error))
      << error;
  const Kernel &k = module.kernels.at(0);
  EXPECT_EQ(k.params[0].offset, 0u);
  EXPECT_EQ(k.params[1].offset, 8u);
  EXPECT_EQ(k.params[2].offset, 16u);
  EXPECT_EQ(k.paramBytes, 20u);
  EXPECT_EQ(k.maxntid[0], 128u);
}

} // namespace
