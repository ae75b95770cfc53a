//===- StablehloBase.td - Base class, types and constraints -*- tablegen -*-===//
//
// The op base class of the stablehlo dialect, its token and future types
// and the type constraints its ops share.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_BASE_TD
#define SDPA_STABLEHLO_BASE_TD

include "SdpaDialect/StableHLO/StablehloDialect.td"
include "SdpaDialect/StableHLO/StablehloAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Stablehlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stablehlo_Dialect, mnemonic, traits>;

def Stablehlo_TokenType : TypeDef<Stablehlo_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "Orders side effects";
  let description = [{
    `!stablehlo.token`: a value without contents that side-effecting ops
    take and return so that their order is the data flow's.
  }];
}

def Stablehlo_FutureType : TypeDef<Stablehlo_Dialect, "Future"> {
  let mnemonic = "future";
  let summary = "The values an asynchronous op will produce";
  let description = [{
    `!stablehlo.future<tensor<8x8xf32>>`: what `stablehlo.async_start`
    returns and `stablehlo.async_done` waits for; its parameters are the
    types of the values the asynchronous op produces.
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::Type", "value types">:$types);
  let assemblyFormat = "`<` $types `>`";
}

def Stablehlo_Future : Type<CPred<"::llvm::isa<::mlir::sdpa::shlo::FutureType>($_self)">,
                            "future", "::mlir::sdpa::shlo::FutureType">;

def Stablehlo_Token : Type<CPred<"::llvm::isa<::mlir::sdpa::shlo::TokenType>($_self)">,
                           "token", "::mlir::sdpa::shlo::TokenType">;

/// Every StableHLO tensor is ranked (dimensions may be dynamic).
def Stablehlo_Tensor : RankedTensorOf<[AnyType]>;
def Stablehlo_PredTensor : RankedTensorOf<[I1]>;
def Stablehlo_IntTensor : RankedTensorOf<[AnyInteger, Index]>;
def Stablehlo_ScalarIntTensor : 0DTensorOf<[AnyInteger, Index]>;
/// A 1-d integer tensor holding a shape or per-dimension values.
def Stablehlo_ShapeTensor : 1DTensorOf<[AnyInteger, Index]>;
def Stablehlo_TensorOrToken : AnyTypeOf<[Stablehlo_Tensor, Stablehlo_Token]>;
/// What a region, a tuple or a loop may carry.
def Stablehlo_Value : AnyTypeOf<[Stablehlo_Tensor, Stablehlo_Token, AnyTuple]>;

#endif // SDPA_STABLEHLO_BASE_TD
