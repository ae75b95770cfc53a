//===- SdpaAttrs.td - sdpa attributes and enums ------------*- tablegen -*-===//

#ifndef SDPA_ATTRS_TD
#define SDPA_ATTRS_TD

include "SdpaDialect/SdpaDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Sdpa_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sdpa_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Sdpa_BandAttr : Sdpa_Attr<"Band", "band"> {
  let summary = "The band mask: which keys each query row sees";
  let description = [{
    Per sequence with `Sq` query rows and `Skv` key rows (indices local to the
    sequence), the diagonal offset is `delta = 0` for `top_left` and
    `delta = Skv - Sq` for `bottom_right`, the anchor of row `q` is
    `a(q) = q + delta`, and cell `(q, k)` is visible iff

        0 <= q < Sq  and  0 <= k < Skv  and  a(q) - L <= k <= a(q) + R

    with both edges inclusive. `L` (`left`, past keys) and `R` (`right`,
    future keys) are non-negative integers or `inf`; an unbounded edge drops
    its term. Every common mask is one band:

    | mask                                   | left    | right |
    |----------------------------------------|---------|-------|
    | none (full attention)                  | inf     | inf   |
    | causal                                 | inf     | 0     |
    | causal sliding window of N keys        | N - 1   | 0     |
    | symmetric local window                 | w       | w     |
    | window, future unbounded               | w       | inf   |

    Other libraries' conventions convert exactly:

    | source                                                     | band                                    |
    |------------------------------------------------------------|-----------------------------------------|
    | FlashAttention `window_size=(l, r)`, `-1` unbounded         | `left = l, right = r, bottom_right`     |
    | cuDNN `diagonal_band_left_bound = Lc` (exclusive)           | `left = Lc - 1`                         |
    | cuDNN `diagonal_band_right_bound = Rc` (inclusive)          | `right = Rc`                            |
    | JAX `local_window_size=(l, r)`, `is_causal=c`               | `left = l, right = c ? 0 : r, top_left` |
    | JAX cuDNN `sliding_window_length = n` (0 = off)             | `left = n - 1`, `right = 0` if causal   |
    | FlexAttention `(q >= k) & (q - k < N)`                      | `left = N - 1, right = 0, top_left`     |

    Example: the gpt-oss window of 128 keys, causal:

        #sdpa.band<left = 127, right = 0, align = top_left>
  }];
  let parameters = (ins
    "std::optional<int64_t>":$left,
    "std::optional<int64_t>":$right,
    "::mlir::sdpa::Alignment":$align);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The band as the analysis library sees it.
    ::mlir::sdpa::Band getBand() const {
      return {getLeft(), getRight(), getAlign()};
    }
    static BandAttr get(::mlir::MLIRContext *context,
                        const ::mlir::sdpa::Band &band) {
      return get(context, band.left, band.right, band.align);
    }
  }];
}

def Sdpa_Layout : I32EnumAttr<"Layout", "memory layout of query, key and value", [
    I32EnumAttrCase<"bhsd", 0>,
    I32EnumAttrCase<"bshd", 1>,
    I32EnumAttrCase<"thd", 2>]> {
  let cppNamespace = "::mlir::sdpa";
  let genSpecializedAttr = 0;
}

def Sdpa_LayoutAttr : EnumAttr<Sdpa_Dialect, Sdpa_Layout, "layout"> {
  let summary = "Memory layout of the attention tensors";
  let description = [{
    `bhsd`: `[batch, heads, seq, head_dim]` (the default); `bshd`:
    `[batch, seq, heads, head_dim]` (JAX's); `thd`: packed variable-length
    sequences `[total_tokens, heads, head_dim]` whose sequence `i` holds rows
    `[offsets[i], offsets[i+1])` of the cumulative offsets operands.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Sdpa_ScheduleAttr : Sdpa_Attr<"Schedule", "schedule"> {
  let summary = "The exact tile schedule of a band, as affine maps";
  let description = [{
    Derived by `sdpa-derive-bounds` from the band and the tile sizes `Tq`,
    `Tk`. Every map takes a tile index and the symbols `[Sq, Skv]` (per
    sequence for THD). `*_begin` maps and `kv_first` stand for the max of
    their results (`affine.max`), `*_end` maps and `relay_turn` for the min
    (`affine.min`). With `q0 = t*Tq`, `k0 = u*Tk`:

    * forward: query tile `t` visits key tiles `[kv_begin(t), kv_end(t))`,
      `kv_begin = max(0, (q0 + delta - L) floordiv Tk)`,
      `kv_end = min(Skv ceildiv Tk, (q0 + Tq - 1 + delta + R) floordiv Tk + 1)`
      (plus the terms that empty a tile whose window lies past the keys);
    * interior: `[interior_begin(t), interior_end(t))` need no cell mask,
      `interior_begin = max(0, (q0 + Tq - 1 + delta - L) ceildiv Tk)`,
      `interior_end = min(Skv floordiv Tk, (q0 + delta + R + 1) floordiv Tk)`;
    * backward: key tile `u` visits query tiles `[q_begin(u), q_end(u))`,
      the same relation transposed;
    * backward interior: a full key tile `u` (`u < Skv floordiv Tk`) needs
      no cell mask at `[q_interior_begin(u), q_interior_end(u))`,
      `q_interior_begin = max(0, (k0 + Tk - 1 - delta - R) ceildiv Tq)`,
      `q_interior_end = min(Sq ceildiv Tq, (k0 - delta + L + 1) floordiv Tq)`
      (the forward interior transposed; a partial key tile has none, its
      keys past `Skv` need the mask);
    * relay: `kv_first(t) = max(0, (q0 + delta - L) floordiv Tk)` and
      `relay_turn(u, t) = u - kv_first(t)`, which folds to `u` without a
      left edge.

    Both ranges are exact: a visited tile pair holds a visible cell and every
    pair that holds one is visited. Consumers clamp an interior range into
    its visit range.
  }];
  let parameters = (ins
    "int64_t":$tile_q,
    "int64_t":$tile_kv,
    "::mlir::AffineMap":$kv_begin,
    "::mlir::AffineMap":$kv_end,
    "::mlir::AffineMap":$interior_begin,
    "::mlir::AffineMap":$interior_end,
    "::mlir::AffineMap":$q_begin,
    "::mlir::AffineMap":$q_end,
    "::mlir::AffineMap":$q_interior_begin,
    "::mlir::AffineMap":$q_interior_end,
    "::mlir::AffineMap":$kv_first,
    "::mlir::AffineMap":$relay_turn);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    ::mlir::sdpa::TileShape getTileShape() const {
      return {getTileQ(), getTileKv()};
    }
    ::mlir::sdpa::ScheduleMaps getMaps() const {
      return {getKvBegin(), getKvEnd(), getInteriorBegin(), getInteriorEnd(),
              getQBegin(), getQEnd(), getQInteriorBegin(),
              getQInteriorEnd(), getKvFirst(), getRelayTurn()};
    }
    static ScheduleAttr get(::mlir::MLIRContext *context,
                            ::mlir::sdpa::TileShape tiles,
                            const ::mlir::sdpa::ScheduleMaps &maps) {
      return get(context, tiles.q, tiles.kv, maps.kvBegin, maps.kvEnd,
                 maps.interiorBegin, maps.interiorEnd, maps.qBegin, maps.qEnd,
                 maps.qInteriorBegin, maps.qInteriorEnd,
                 maps.kvFirst, maps.relayTurn);
    }
  }];
}

#endif // SDPA_ATTRS_TD
