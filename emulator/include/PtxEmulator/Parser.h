//===- Parser.h - PTX text to a decoded module --------------------*- C++ -*-===//
//
// Parses the PTX subset the sdpa lowering emits. Every instruction outside
// the supported set is refused with a diagnostic naming it and its line:
// nothing is ever decoded approximately.
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_PARSER_H
#define PTXEMULATOR_PARSER_H

#include "PtxEmulator/Program.h"

#include <string>
#include <string_view>

namespace sdpa::emu {

/// Parses `text` into `module`. On failure returns false and sets `error` to
/// "line N: <what>", e.g. "line 12: unsupported instruction 'tex.1d...'".
bool parsePtx(std::string_view text, Module &module, std::string &error);

} // namespace sdpa::emu

#endif // PTXEMULATOR_PARSER_H
