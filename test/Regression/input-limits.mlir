// RUN: %python -c "print('func.func private @f() attributes {a = ' + '[' * 255 + ']' * 255 + '}')" | sdpa-opt | %python -c "import sys; t = sys.stdin.read(); print('brackets', t.count('['), t.count(']'))" | FileCheck %s --check-prefix=DEPTH256
// RUN: %python -c "print('func.func private @f() attributes {a = ' + '[' * 256 + ']' * 256 + '}')" | not sdpa-opt 2>&1 | FileCheck %s --check-prefix=DEPTH257
// RUN: %python -c "print('func.func private @f() -> ' + '(() -> ' * 300 + '()' + ')' * 300)" | not sdpa-opt 2>&1 | FileCheck %s --check-prefix=ARROW
// RUN: %python -c "print('\n'.join(['!t0 = tuple<f32>'] + ['!t%%d = tuple<!t%%d>' %% (i + 1, i) for i in range(255)] + ['func.func private @f() -> !t255']))" | sdpa-opt | %python -c "import sys; t = sys.stdin.read(); print('tuples', t.count('tuple<'))" | FileCheck %s --check-prefix=ALIAS256
// RUN: %python -c "print('\n'.join(['!t0 = tuple<f32>'] + ['!t%%d = tuple<!t%%d>' %% (i + 1, i) for i in range(300)]))" | not sdpa-opt 2>&1 | FileCheck %s --check-prefix=ALIAS257
// RUN: %python -c "print('func.func private @f() attributes {s = \"' + '(' * 1000 + '\"}  // ' + '[' * 1000)" | sdpa-opt | FileCheck %s --check-prefix=STRING
// RUN: %python -c "print('#m = affine_map<(d0) -> (' + 'd0 + ' * 4096 + 'd0)>\nfunc.func private @f() attributes {m = #m}')" | sdpa-opt | FileCheck %s --check-prefix=AFFINE4096
// RUN: %python -c "print('#m = affine_map<(d0) -> (' + 'd0 - ' * 4097 + 'd0)>\nfunc.func private @f() attributes {m = #m}')" | not sdpa-opt 2>&1 | FileCheck %s --check-prefix=AFFINE4097
// RUN: not sdpa-opt %sdpa_src_root/fuzz/regressions/sdpa-ir-fuzzer/nested-function-type.mlir 2>&1 | FileCheck %s --check-prefix=FUZZ

/// Limits sdpa-opt checks on its input before MLIR parses it
/// (SdpaDialect/Utils/InputLimits.h): past them MLIR's recursive parser,
/// printer and affine simplifier overflow the stack (a function type nested
/// 23,395 deep, found by sdpa-ir-fuzzer; an array 20,000 deep; a chain of
/// 30,000 aliases; an affine sum of 100,000 terms). Each case sits next to
/// the limit, generated so that the file itself stays small.

/// 256 levels (the attribute dictionary's brace and 255 brackets) parse.
// DEPTH256: brackets 255 255
/// Level 257 is the 256th bracket: column 39 + 256 of
/// `func.func private @f() attributes {a = [...`.
// DEPTH257: <stdin>:1:295: error: IR nested deeper than 256 levels (the limit keeps MLIR's recursive parser within its stack)

/// `->` closes nothing: a function type nested through its results counts
/// every level.
// ARROW: error: IR nested deeper than 256 levels

/// An alias nests as deep as its definition: !t255 is 256 deep, and MLIR
/// prints it written out, 256 tuples deep (within the limit again).
// ALIAS256: tuples 256
/// !t256 would be 257 deep: the error is at its use of !t255 (line 257,
/// column 15 of `!t256 = tuple<!t255>`).
// ALIAS257: <stdin>:257:15: error: IR nested deeper than 256 levels through alias '!t255'

/// Brackets in string literals and comments do not count.
// STRING: s = "(((

/// 4096 operators in one affine map are accepted, 4097 are not; the error
/// points at `affine_map` (column 6 of `#m = affine_map<`).
// AFFINE4096: #map = affine_map<(d0) -> (d0 * 4097)>
// AFFINE4097: <stdin>:1:6: error: affine map or set with more than 4096 operators (the limit keeps MLIR's recursive affine simplifier within its stack)

/// The fuzzer's input: 23,395 nested parentheses, a SIGSEGV before.
// FUZZ: nested-function-type.mlir:1:{{[0-9]+}}: error: IR nested deeper than 256 levels
