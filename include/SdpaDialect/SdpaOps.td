//===- SdpaOps.td - sdpa operations ------------------------*- tablegen -*-===//

#ifndef SDPA_OPS_TD
#define SDPA_OPS_TD

include "SdpaDialect/SdpaDialect.td"
include "SdpaDialect/SdpaAttrs.td"
include "SdpaDialect/SdpaInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Sdpa_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sdpa_Dialect, mnemonic,
         !listconcat(traits, [Pure, Sdpa_AttentionOpInterface])>;

def Sdpa_AttnTensor : RankedTensorOf<[F16, BF16]>;
def Sdpa_LseTensor : RankedTensorOf<[F32]>;
def Sdpa_SeqlenTensor : 1DTensorOf<[I32]>;

defvar Sdpa_CommonAttrs = (ins
  Sdpa_BandAttr:$mask,
  OptionalAttr<F64Attr>:$scale,
  DefaultValuedAttr<Sdpa_LayoutAttr, "::mlir::sdpa::Layout::bhsd">:$layout,
  OptionalAttr<Sdpa_ScheduleAttr>:$schedule);

def Sdpa_AttentionOp : Sdpa_Op<"attention"> {
  let summary = "Scaled-dot-product attention under a band mask";
  let description = [{
    Per batch entry (or THD sequence), query head `h` and row `q`:

        S[q, k]  = scale * dot(Q[q], K[k])   (masked cells: -inf)
        P        = softmax(S) row-wise
        O[q]     = sum_k P[q, k] * V[k]
        LSE[q]   = log(sum_k exp(S[q, k]))   (natural log, f32)

    with `scale` defaulting to `1/sqrt(head_dim)` and the visible cells given
    by `mask` (`#sdpa.band`). A row that sees no key gets `O = 0` and
    `LSE = -inf`, never NaN. Accumulation is f32.

    Layouts (`layout`): `bhsd` `[B, H, S, D]` (default), `bshd`
    `[B, S, H, D]`, `thd` `[T, H, D]`. Query head `h` reads key/value head
    `h / (Hq / Hkv)` (GQA/MQA; `Hq` must be a multiple of `Hkv`). The output
    has the query's shape and element type; `lse` is `[B, Hq, Sq]` f32
    (`[Hq, T]` for THD).

    `seqlens` gives per-sequence lengths: for `thd`, the cumulative offsets
    of queries and of keys (`N + 1` entries each, sequence `i` is rows
    `[off[i], off[i+1])`); for dense layouts, optionally the valid lengths of
    each batch entry (`[B]` each): rows and keys past them are not part of
    the sequence, and alignment uses those lengths.

    Example (gpt-oss: causal window of 128 keys):

        %o, %lse = sdpa.attention %q, %k, %v
            {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
            : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
              tensor<2x16x8192x64xbf16>
            -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
  }];
  let arguments = !con((ins Sdpa_AttnTensor:$query, Sdpa_AttnTensor:$key,
                            Sdpa_AttnTensor:$value,
                            Variadic<Sdpa_SeqlenTensor>:$seqlens),
                       Sdpa_CommonAttrs);
  let results = (outs Sdpa_AttnTensor:$output, Sdpa_LseTensor:$lse);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`seqlens` `(` $seqlens^ `:` type($seqlens) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value)
    `->` type($output) `,` type($lse)
  }];
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

def Sdpa_AttentionGradOp : Sdpa_Op<"attention_grad"> {
  let summary = "Gradients of sdpa.attention";
  let description = [{
    Given the forward's operands, its `output` O and `lse`, and the gradient
    of the output `grad_output` dO, with P recomputed from LSE:

        dV = P^T dO          dP = dO V^T          Delta = rowsum(dO * O)
        dS = P * (dP - Delta)
        dQ = scale * dS K    dK = scale * dS^T Q

    Same mask, scale, layout, GQA and THD rules as `sdpa.attention`; for GQA,
    dK and dV of a key/value head are the sum over its query heads in a fixed
    order. A row that sees no key contributes exactly 0. With `deterministic`
    the dQ partials of the key tiles visiting a query tile are added in
    ascending key-tile order (the relay of the schedule), so every gradient
    is bitwise repeatable.

    Example:

        %dq, %dk, %dv = sdpa.attention_grad %q, %k, %v, %o, %do, %lse
            {mask = #sdpa.band<left = 127, right = 0, align = top_left>,
             deterministic}
            : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
              tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
              tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
            -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
               tensor<2x16x8192x64xbf16>
  }];
  let arguments = !con((ins Sdpa_AttnTensor:$query, Sdpa_AttnTensor:$key,
                            Sdpa_AttnTensor:$value, Sdpa_AttnTensor:$output,
                            Sdpa_AttnTensor:$grad_output, Sdpa_LseTensor:$lse,
                            Variadic<Sdpa_SeqlenTensor>:$seqlens),
                       Sdpa_CommonAttrs, (ins UnitAttr:$deterministic));
  let results = (outs Sdpa_AttnTensor:$grad_query, Sdpa_AttnTensor:$grad_key,
                      Sdpa_AttnTensor:$grad_value);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $output `,` $grad_output `,` $lse
    (`seqlens` `(` $seqlens^ `:` type($seqlens) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `,`
    type($output) `,` type($grad_output) `,` type($lse)
    `->` type($grad_query) `,` type($grad_key) `,` type($grad_value)
  }];
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

#endif // SDPA_OPS_TD
