// RUN: sdpa-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected left to be non-negative or inf, got -1}}
func.func private @negative_left() attributes {mask = #sdpa.band<left = -1, right = 0, align = top_left>}

// -----

// expected-error @+1 {{expected right to be non-negative or inf, got -3}}
func.func private @negative_right() attributes {mask = #sdpa.band<left = inf, right = -3, align = top_left>}

// -----

/// A width that would overflow 32-bit index arithmetic; unbounded is `inf`.
// expected-error @+1 {{expected left to be at most 2147483647 (use inf for an unbounded edge)}}
func.func private @huge_left() attributes {mask = #sdpa.band<left = 4294967296, right = 0, align = top_left>}

// -----

// expected-error @+1 {{expected align to be top_left or bottom_right, got 'causal'}}
func.func private @bad_align() attributes {mask = #sdpa.band<left = 3, right = 0, align = causal>}

// -----

func.func @rank(%q: tensor<16x128x64xf16>) {
  // expected-error @+1 {{'sdpa.attention' op expected query to have rank 4 for layout bhsd, got 3}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<16x128x64xf16>, tensor<16x128x64xf16>, tensor<16x128x64xf16> -> tensor<16x128x64xf16>, tensor<16x128xf32>
  return
}

// -----

func.func @element_types(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x8x64xbf16>) {
  // expected-error @+1 {{expected query, key and value to have the same element type}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xbf16>, tensor<1x2x8x64xbf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @f32_inputs(%q: tensor<1x2x8x64xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 16-bit float or bfloat16 type values}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf32>, tensor<1x2x8x64xf32>, tensor<1x2x8x64xf32> -> tensor<1x2x8x64xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @key_value_shapes(%q: tensor<1x2x8x64xf16>, %v: tensor<1x2x9x64xf16>) {
  // expected-error @+1 {{expected key and value to have the same shape}}
  %o, %lse = sdpa.attention %q, %q, %v {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x9x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @head_dims(%q: tensor<1x2x8x64xf16>, %k: tensor<1x2x8x128xf16>) {
  // expected-error @+1 {{expected query and key to have the same head dimension}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x128xf16>, tensor<1x2x8x128xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @batch(%q: tensor<1x2x8x64xf16>, %k: tensor<2x2x8x64xf16>) {
  // expected-error @+1 {{expected query and key to have the same batch size}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<2x2x8x64xf16>, tensor<2x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @empty_head_dim(%q: tensor<1x2x8x0xf16>) {
  // expected-error @+1 {{expected a positive head dimension}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x0xf16>, tensor<1x2x8x0xf16>, tensor<1x2x8x0xf16> -> tensor<1x2x8x0xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @gqa_not_divisible(%q: tensor<1x16x8x64xf16>, %k: tensor<1x5x8x64xf16>) {
  // expected-error @+1 {{expected the number of query heads (16) to be a multiple of the number of key/value heads (5)}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x16x8x64xf16>, tensor<1x5x8x64xf16>, tensor<1x5x8x64xf16> -> tensor<1x16x8x64xf16>, tensor<1x16x8xf32>
  return
}

// -----

func.func @thd_without_offsets(%q: tensor<100x8x64xf16>) {
  // expected-error @+1 {{expected layout thd to have the cumulative sequence offsets of queries and keys as 2 seqlens operands, got 0}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<100x8x64xf16>, tensor<100x8x64xf16>, tensor<100x8x64xf16> -> tensor<100x8x64xf16>, tensor<8x100xf32>
  return
}

// -----

func.func @one_seqlen(%q: tensor<1x2x8x64xf16>, %len: tensor<1xi32>) {
  // expected-error @+1 {{expected 0 or 2 seqlens operands (per-batch lengths of queries and keys), got 1}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%len : tensor<1xi32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @offsets_mismatch(%q: tensor<100x8x64xf16>, %a: tensor<3xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{expected the query and key seqlens to have the same number of entries}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%a, %b : tensor<3xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<100x8x64xf16>, tensor<100x8x64xf16>, tensor<100x8x64xf16> -> tensor<100x8x64xf16>, tensor<8x100xf32>
  return
}

// -----

func.func @offsets_too_short(%q: tensor<100x8x64xf16>, %a: tensor<1xi32>) {
  // expected-error @+1 {{expected cumulative sequence offsets with at least 2 entries (one sequence), got 1}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%a, %a : tensor<1xi32>, tensor<1xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<100x8x64xf16>, tensor<100x8x64xf16>, tensor<100x8x64xf16> -> tensor<100x8x64xf16>, tensor<8x100xf32>
  return
}

// -----

func.func @per_batch_lengths(%q: tensor<2x2x8x64xf16>, %len: tensor<3xi32>) {
  // expected-error @+1 {{expected per-batch lengths with one entry per batch entry (2), got 3}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%len, %len : tensor<3xi32>, tensor<3xi32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<2x2x8x64xf16>, tensor<2x2x8x64xf16>, tensor<2x2x8x64xf16> -> tensor<2x2x8x64xf16>, tensor<2x2x8xf32>
  return
}

// -----

func.func @seqlens_type(%q: tensor<2x2x8x64xf16>, %len: tensor<2xi64>) {
  // expected-error @+1 {{operand #3 must be variadic of 1D tensor of 32-bit signless integer values}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%len, %len : tensor<2xi64>, tensor<2xi64>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<2x2x8x64xf16>, tensor<2x2x8x64xf16>, tensor<2x2x8x64xf16> -> tensor<2x2x8x64xf16>, tensor<2x2x8xf32>
  return
}

// -----

func.func @scale(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected scale to be positive and finite}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = -1.0 : f64}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @output_type(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected output to have type 'tensor<1x2x8x64xf16>', got 'tensor<1x2x8x64xbf16>'}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xbf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @lse_type(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected lse to have type 'tensor<1x2x8xf32>', got 'tensor<1x8x2xf32>'}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x8x2xf32>
  return
}

// -----

/// A schedule that does not belong to the mask would give wrong code.
func.func @stale_schedule(%q: tensor<1x2x256x64xf16>) {
  // expected-error @+1 {{expected schedule to be the one derived from the mask for tile sizes 64x64 (run sdpa-derive-bounds)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 3, right = 0, align = top_left>,
      schedule = #sdpa.schedule<tile_q = 64, tile_kv = 64, kv_begin = (d0)[s0, s1] -> (0), kv_end = (d0)[s0, s1] -> (4),
        interior_begin = (d0)[s0, s1] -> (0), interior_end = (d0)[s0, s1] -> (4), q_begin = (d0)[s0, s1] -> (0),
        q_end = (d0)[s0, s1] -> (4), q_interior_begin = (d0)[s0, s1] -> (0), q_interior_end = (d0)[s0, s1] -> (4), kv_first = (d0)[s0, s1] -> (0), relay_turn = (d0, d1)[s0, s1] -> (d0)>}
      : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16> -> tensor<1x2x256x64xf16>, tensor<1x2x256xf32>
  return
}

// -----

func.func @schedule_tiles(%q: tensor<1x2x256x64xf16>) {
  // expected-error @+1 {{expected schedule tile sizes to be positive}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>,
      schedule = #sdpa.schedule<tile_q = 0, tile_kv = 64, kv_begin = (d0)[s0, s1] -> (0), kv_end = (d0)[s0, s1] -> (4),
        interior_begin = (d0)[s0, s1] -> (0), interior_end = (d0)[s0, s1] -> (4), q_begin = (d0)[s0, s1] -> (0),
        q_end = (d0)[s0, s1] -> (4), q_interior_begin = (d0)[s0, s1] -> (0), q_interior_end = (d0)[s0, s1] -> (4), kv_first = (d0)[s0, s1] -> (0), relay_turn = (d0, d1)[s0, s1] -> (d0)>}
      : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16> -> tensor<1x2x256x64xf16>, tensor<1x2x256xf32>
  return
}

// -----

func.func @grad_output_type(%q: tensor<1x2x8x64xf16>, %do: tensor<1x2x8x64xbf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{expected grad_output to have type 'tensor<1x2x8x64xf16>', got 'tensor<1x2x8x64xbf16>'}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %do, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xbf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_output_operand(%q: tensor<1x2x8x64xf16>, %o: tensor<1x2x4x64xf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{expected output to have type 'tensor<1x2x8x64xf16>', got 'tensor<1x2x4x64xf16>'}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %o, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x4x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_lse_type(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x9xf32>) {
  // expected-error @+1 {{expected lse to have type 'tensor<1x2x8xf32>', got 'tensor<1x2x9xf32>'}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x9xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_query_type(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{expected grad_query to have type 'tensor<1x2x8x64xf16>', got 'tensor<1x2x8x64xbf16>'}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xbf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_key_type(%q: tensor<1x4x8x64xf16>, %k: tensor<1x2x8x64xf16>, %lse: tensor<1x4x8xf32>) {
  // expected-error @+1 {{expected grad_key to have type 'tensor<1x2x8x64xf16>', got 'tensor<1x4x8x64xf16>'}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x4x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x4x8x64xf16>, tensor<1x4x8x64xf16>, tensor<1x4x8xf32>
      -> tensor<1x4x8x64xf16>, tensor<1x4x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_value_type(%q: tensor<1x4x8x64xf16>, %k: tensor<1x2x8x64xf16>, %lse: tensor<1x4x8xf32>) {
  // expected-error @+1 {{expected grad_value to have type 'tensor<1x2x8x64xf16>', got 'tensor<1x4x8x64xf16>'}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x4x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x4x8x64xf16>, tensor<1x4x8x64xf16>, tensor<1x4x8xf32>
      -> tensor<1x4x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x4x8x64xf16>
  return
}

// -----

// expected-error @+1 {{expected right to be at most 2147483647 (use inf for an unbounded edge)}}
func.func private @huge_right() attributes {mask = #sdpa.band<left = 0, right = 2147483648, align = top_left>}

// -----

func.func @no_query_heads(%q: tensor<1x0x8x64xf16>, %k: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected a positive number of query heads}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x0x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x0x8x64xf16>, tensor<1x0x8xf32>
  return
}

// -----

func.func @no_kv_heads(%q: tensor<1x2x8x64xf16>, %k: tensor<1x0x8x64xf16>) {
  // expected-error @+1 {{expected a positive number of key/value heads}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x0x8x64xf16>, tensor<1x0x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

/// The layout also fixes where the sizes are read: bshd takes heads from
/// dimension 2.
func.func @bshd_rank(%q: tensor<1x8x2x64xf16>, %k: tensor<1x8x64xf16>) {
  // expected-error @+1 {{expected key to have rank 4 for layout bshd, got 3}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<bshd>}
      : tensor<1x8x2x64xf16>, tensor<1x8x64xf16>, tensor<1x8x64xf16> -> tensor<1x8x2x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

/// One sink per query head, not per key/value head.
func.func @sinks_per_kv_head(%q: tensor<1x16x8x64xf16>, %k: tensor<1x4x8x64xf16>, %sink: tensor<4xf32>) {
  // expected-error @+1 {{expected sinks to have one entry per query head (16), got 4}}
  %o, %lse = sdpa.attention %q, %k, %k sinks(%sink : tensor<4xf32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x16x8x64xf16>, tensor<1x4x8x64xf16>, tensor<1x4x8x64xf16> -> tensor<1x16x8x64xf16>, tensor<1x16x8xf32>
  return
}

// -----

/// THD puts the query heads in dimension 1.
func.func @thd_sinks(%q: tensor<100x8x64xf16>, %cu: tensor<3xi32>, %sink: tensor<100xf32>) {
  // expected-error @+1 {{expected sinks to have one entry per query head (8), got 100}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>) sinks(%sink : tensor<100xf32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<100x8x64xf16>, tensor<100x8x64xf16>, tensor<100x8x64xf16> -> tensor<100x8x64xf16>, tensor<8x100xf32>
  return
}

// -----

/// Sink logits are f32 whatever the inputs' element type.
func.func @sinks_type(%q: tensor<1x2x8x64xbf16>, %sink: tensor<2xbf16>) {
  // expected-error @+1 {{operand #3 must be 1D tensor of 32-bit float values}}
  %o, %lse = sdpa.attention %q, %q, %q sinks(%sink : tensor<2xbf16>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xbf16>, tensor<1x2x8x64xbf16>, tensor<1x2x8x64xbf16> -> tensor<1x2x8x64xbf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @sinks_rank(%q: tensor<1x2x8x64xf16>, %sink: tensor<1x2xf32>) {
  // expected-error @+1 {{operand #3 must be 1D tensor of 32-bit float values}}
  %o, %lse = sdpa.attention %q, %q, %q sinks(%sink : tensor<1x2xf32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

/// A cap of 0 would divide by zero.
func.func @softcap_zero(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected softcap to be positive (inf for no cap), got 0.000000e+00}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 0.0 : f32}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @softcap_negative(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected softcap to be positive (inf for no cap), got -5.000000e+01}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = -50.0 : f32}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

/// NaN (0x7FC00000) compares false to everything, so `cap > 0` refuses it.
func.func @softcap_nan(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{expected softcap to be positive (inf for no cap), got nan}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 0x7FC00000 : f32}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @softcap_f64(%q: tensor<1x2x8x64xf16>) {
  // expected-error @+1 {{attribute 'softcap' failed to satisfy constraint: 32-bit float attribute}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 50.0 : f64}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16> -> tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
  return
}

// -----

func.func @grad_softcap(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{'sdpa.attention_grad' op expected softcap to be positive (inf for no cap), got -1.000000e+00}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = -1.0 : f32}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_sinks_shape(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>, %sink: tensor<3xf32>) {
  // expected-error @+1 {{'sdpa.attention_grad' op expected sinks to have one entry per query head (2), got 3}}
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%sink : tensor<3xf32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<3xf32>
  return
}

// -----

/// Sinks without their gradient would drop dsinks.
func.func @grad_sinks_missing(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>, %sink: tensor<2xf32>) {
  // expected-error @+1 {{expected a grad_sinks result (the gradient of the sinks), got none}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%sink : tensor<2xf32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>
  return
}

// -----

func.func @grad_sinks_without_sinks(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>) {
  // expected-error @+1 {{expected no grad_sinks result without sinks}}
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<2xf32>
  return
}

// -----

func.func @grad_sinks_type(%q: tensor<1x2x8x64xf16>, %lse: tensor<1x2x8xf32>, %sink: tensor<2xf32>) {
  // expected-error @+1 {{expected grad_sinks to have type 'tensor<2xf32>', got 'tensor<?xf32>'}}
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%sink : tensor<2xf32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8xf32>
      -> tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<?xf32>
  return
}
