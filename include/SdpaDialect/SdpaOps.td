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
         !listconcat(traits, [Pure, AttrSizedOperandSegments,
                              Sdpa_AttentionOpInterface])>;

def Sdpa_AttnTensor : RankedTensorOf<[F16, BF16]>;
def Sdpa_LseTensor : RankedTensorOf<[F32]>;
def Sdpa_SeqlenTensor : 1DTensorOf<[I32]>;
def Sdpa_SinkTensor : 1DTensorOf<[F32]>;

defvar Sdpa_CommonAttrs = (ins
  Sdpa_BandAttr:$mask,
  OptionalAttr<F64Attr>:$scale,
  OptionalAttr<F32Attr>:$softcap,
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

    Score modifiers (docs/Semantics.md §7), both optional:

    * `softcap = c` (f32, `c > 0`) caps every score before the mask:
      `S[q, k] = c * tanh(scale * dot(Q[q], K[k]) / c)`. A cap of `+inf` is
      no cap and canonicalizes away.
    * `sinks(%sink)` (`[Hq]` f32) adds one logit per query head to every
      row's softmax as a column without a value row:

          LSE[q]  = log(sum_k exp(S[q, k]) + exp(sink[h]))
          P[q, k] = exp(S[q, k] - LSE[q])

      so each row's probabilities sum to `1 - exp(sink[h] - LSE[q])`. A row
      that sees no key gets `O = 0` and `LSE = sink[h]`.

    Neither changes the band or the schedule.

    Example (gpt-oss: causal window of 128 keys):

        %o, %lse = sdpa.attention %q, %k, %v
            {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
            : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
              tensor<2x16x8192x64xbf16>
            -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>

    Example (gpt-oss with its sinks; Gemma 2's cap of 50):

        %o, %lse = sdpa.attention %q, %k, %v sinks(%sink : tensor<64xf32>)
            {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
            : tensor<1x64x4096x64xbf16>, tensor<1x8x4096x64xbf16>,
              tensor<1x8x4096x64xbf16>
            -> tensor<1x64x4096x64xbf16>, tensor<1x64x4096xf32>
        %o2, %lse2 = sdpa.attention %q2, %k2, %v2
            {mask = #sdpa.band<left = 4095, right = 0, align = top_left>,
             softcap = 5.0e+01 : f32}
            : tensor<1x8x8192x256xbf16>, tensor<1x8x8192x256xbf16>,
              tensor<1x8x8192x256xbf16>
            -> tensor<1x8x8192x256xbf16>, tensor<1x8x8192xf32>
  }];
  let arguments = !con((ins Sdpa_AttnTensor:$query, Sdpa_AttnTensor:$key,
                            Sdpa_AttnTensor:$value,
                            Variadic<Sdpa_SeqlenTensor>:$seqlens,
                            Optional<Sdpa_SinkTensor>:$sinks),
                       Sdpa_CommonAttrs);
  let results = (outs Sdpa_AttnTensor:$output, Sdpa_LseTensor:$lse);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`seqlens` `(` $seqlens^ `:` type($seqlens) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
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

    With `softcap = c`, P is recomputed from the capped scores and the chain
    rule through the cap scales dS before dQ and dK:

        dS[q, k] = P[q, k] * (dP[q, k] - Delta[q]) * (1 - (S[q, k] / c)^2)

    where S is the capped score (`S = c * tanh(s / c)`, so
    `1 - (S / c)^2 = 1 - tanh^2(s / c)`). With `sinks(%sink)` the LSE
    includes the sinks, dQ, dK and dV keep the formulas above, and the op
    also returns the sinks' gradient `grad_sinks` (`[Hq]` f32, the type of
    the sinks):

        dsink[h] = - sum_{b, q} exp(sink[h] - LSE[b, h, q]) * Delta[b, h, q]

    summed over every batch entry (or sequence) and row of head `h` in a
    fixed order, bitwise repeatable with `deterministic`.

    Example:

        %dq, %dk, %dv = sdpa.attention_grad %q, %k, %v, %o, %do, %lse
            {mask = #sdpa.band<left = 127, right = 0, align = top_left>,
             deterministic}
            : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
              tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
              tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
            -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
               tensor<2x16x8192x64xbf16>

    Example (sinks, GQA):

        %dq, %dk, %dv, %dsink = sdpa.attention_grad %q, %k, %v, %o, %do, %lse
            sinks(%sink : tensor<64xf32>)
            {mask = #sdpa.band<left = 127, right = 0, align = top_left>,
             deterministic}
            : tensor<1x64x4096x64xbf16>, tensor<1x8x4096x64xbf16>,
              tensor<1x8x4096x64xbf16>, tensor<1x64x4096x64xbf16>,
              tensor<1x64x4096x64xbf16>, tensor<1x64x4096xf32>
            -> tensor<1x64x4096x64xbf16>, tensor<1x8x4096x64xbf16>,
               tensor<1x8x4096x64xbf16>, tensor<64xf32>
  }];
  let arguments = !con((ins Sdpa_AttnTensor:$query, Sdpa_AttnTensor:$key,
                            Sdpa_AttnTensor:$value, Sdpa_AttnTensor:$output,
                            Sdpa_AttnTensor:$grad_output, Sdpa_LseTensor:$lse,
                            Variadic<Sdpa_SeqlenTensor>:$seqlens,
                            Optional<Sdpa_SinkTensor>:$sinks),
                       Sdpa_CommonAttrs, (ins UnitAttr:$deterministic));
  let results = (outs Sdpa_AttnTensor:$grad_query, Sdpa_AttnTensor:$grad_key,
                      Sdpa_AttnTensor:$grad_value,
                      Optional<Sdpa_SinkTensor>:$grad_sinks);
  let assemblyFormat = [{
    $query `,` $key `,` $value `,` $output `,` $grad_output `,` $lse
    (`seqlens` `(` $seqlens^ `:` type($seqlens) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `,`
    type($output) `,` type($grad_output) `,` type($lse)
    `->` type($grad_query) `,` type($grad_key) `,` type($grad_value)
    (`,` type($grad_sinks)^)?
  }];
  let hasVerifier = 1;
  let hasCanonicalizeMethod = 1;
}

#endif // SDPA_OPS_TD
