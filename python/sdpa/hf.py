"""Hugging Face transformers: the kernels as an attention implementation.

    import sdpa.hf
    sdpa.hf.register()                                   # "dialect_attention"
    model = MistralForCausalLM(config, attn_implementation="dialect_attention")
    # or model.set_attn_implementation("dialect_attention")

The attention function (transformers' AttentionInterface) runs
sdpa.torch_ops.attention with the layer's band: causal (`module.is_causal`),
its `sliding_window` W as left = W - 1 (a query sees itself and the W - 1
keys before it, as transformers' sliding-window mask), `scaling`, GQA as
given. Alignment is bottom-right: with a KV cache the queries are the last
Sq of Skv positions (without one Sq = Skv and both alignments agree).

The kernels take no mask tensor, so the mask function registered with it
(AttentionMaskInterface) checks instead that the model's mask is the band:
no padding in `attention_mask`, and every query sees itself and, unless
the window is 1, the key before it (a packed sequence given by
position_ids breaks the second at each boundary). Otherwise the mask
function returns a mask and the attention function refuses it with a
message. Gemma 2's `softcap` goes to the op, and so do gpt-oss's sinks
(`s_aux`, the layer's `sinks` parameter: one logit per query head, whose
gradient the op returns), on its sliding and full layers alike (each layer
passes its own `sliding_window`, None on the full ones). Refused: dropout > 0.
"""

import torch

from .torch_ops import attention

__all__ = ["NAME", "register", "attention_forward", "band_mask"]

#: The attention implementation's name, without "sdpa" in it: transformers
#: takes every name containing "sdpa" for PyTorch's SDPA and refuses it for
#: models without SDPA support (gpt-oss).
NAME = "dialect_attention"


class _NotTheBand:
    """The mask function's answer when the model's mask is not the band."""

    def __init__(self, why):
        self.why = why


def band_mask(batch_size=None, cache_position=None, kv_length=None, kv_offset=0,
              mask_function=None, attention_mask=None, q_length=None, q_offset=0, **kwargs):
    """transformers' mask-interface entry for NAME: None when the model's mask
    is the band the attention function applies, else a marker it refuses.
    The query positions are `cache_position` (transformers 4.5x) or
    `q_offset + arange(q_length)` (5.x)."""
    if attention_mask is not None and attention_mask.dim() == 2 and \
            not bool(attention_mask.bool().all()):
        return _NotTheBand("attention_mask has padding (the kernels take no mask tensor: pack "
                           "the sequences and call sdpa.attention with layout='thd')")
    if cache_position is None and q_length is not None:
        device = attention_mask.device if attention_mask is not None else None
        cache_position = torch.arange(q_length, device=device) + q_offset
    if mask_function is None or cache_position is None or batch_size is None:
        return None
    b = torch.arange(batch_size, device=cache_position.device)[:, None]
    h = torch.zeros((), dtype=torch.long, device=cache_position.device)
    q = cache_position[None, :].long()
    if not bool(mask_function(b, h, q, q).all()):
        return _NotTheBand("the model's mask hides a query's own key (not a band)")
    later = q[:, 1:]
    if later.numel() and not bool(mask_function(b, h, later, later - 1).all()):
        return _NotTheBand("the model's mask hides the key just before a query (packed "
                           "sequences or a window of 1; call sdpa.attention with "
                           "layout='thd' for packed sequences)")
    return None


def attention_forward(module, query, key, value, attention_mask, dropout=0.0, scaling=None,
                      sliding_window=None, softcap=None, s_aux=None, is_causal=None, **kwargs):
    """transformers' attention-interface entry: query [B, Hq, S, D], key/value
    [B, Hkv, S, D]; returns (output [B, S, Hq, D], None)."""
    if isinstance(attention_mask, _NotTheBand):
        raise ValueError(f"attention_mask: {attention_mask.why}")
    if attention_mask is not None:
        raise ValueError(f"attention_mask: {NAME} takes the band only; register its mask "
                         f"function (sdpa.hf.register()) so the model builds none")
    if dropout:
        raise ValueError(f"dropout: {NAME} has no attention dropout, got {dropout}")
    if kwargs.get("output_attentions"):
        raise ValueError(f"output_attentions: {NAME} does not form the attention weights")
    if is_causal is None:
        is_causal = getattr(module, "is_causal", True)
    left = None
    if sliding_window is not None:
        left = sliding_window - 1
    right = 0 if is_causal else left
    out = attention(query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2),
                    window=(left, right), align="bottom_right", scale=scaling,
                    softcap=softcap, sinks=s_aux, layout="bshd")
    return out, None


def register(name=NAME):
    """Registers the attention function and its mask function under `name`."""
    from transformers import AttentionInterface
    AttentionInterface.register(name, attention_forward)
    try:
        from transformers.masking_utils import AttentionMaskInterface
    except ImportError:
        # Before transformers 4.53 models build their own 4-D mask, which the
        # attention function refuses (it takes the band only).
        return name
    AttentionMaskInterface.register(name, band_mask)
    return name
