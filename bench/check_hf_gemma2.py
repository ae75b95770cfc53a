#!/usr/bin/env python3
"""Hugging Face Gemma 2 (logit softcap, head dim 256) trained through sdpa.hf against eager.

A small Gemma2ForCausalLM (transformers' own class; 2 layers, sliding then
full, 4 query and 2 kv heads of dim 256, query_pre_attn_scalar 256 (scale
1/16), sliding_window 4096, attn_logit_softcapping 50, random weights of std
--init (0.02), bf16) is run on a batch of 2 x 512 random tokens; its q_proj
and k_proj weights are multiplied by --boost (30: scores of standard
deviation about 0.1 * 30^2 = 90 before the cap) so that the cap 50 is what
shapes the softmax. Logits, loss and, after loss.backward(), every
parameter's gradient with attn_implementation "dialect_attention"
(sdpa.hf.register(): our kernels with softcap 50, d 256 both ways) and with
"eager" (transformers' attention: scores capped as 50 tanh(s / 50), masked,
softmax). Both are compared with the same model in float32 (eager) as
max|x - ref| / max|ref|: ours must be within 2x (+1e-3) of eager bf16's own
error and within --tol. Checked too: the op ran the softcap kernels of both
layers (window 4095 and causal), and a control: the float32 model without
its cap must differ from the capped one by more than 4x what ours does, so
the forward check tells a kernel that ignores the cap apart.

Why --tol is 1 here (0.15 for Mistral and gpt-oss): scores that reach the
cap make this random model's softmax nearly one-hot, and eager bf16 (which
rounds the scores to bf16 before the softmax) is itself 0.3 off float32 in
the logits and 0.9 in the worst gradient. The limits that tell a wrong
kernel apart are the 2x-of-eager rule and the control.

Measured 2026-12-02 (H200, torch 2.11, transformers 5.17, seed 0), init
0.02: at boost 10 to 20 the cap's effect (0.45 to 1.1) is no larger than
bf16's own error, so the control cannot pass; at boost 30 ours is 1.4e-1
(eager bf16 3.1e-1) in the logits, 4.8e-1 (9.4e-1) in the worst gradient,
and the model without its cap is 1.15 off. At init 0.1 or 0.05 eager bf16
is 0.19 to 0.35 off in the logits and the cap changes less than that.

    python3 bench/check_hf_gemma2.py --kernels .artifacts/sdpa-kernels
"""

import copy
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

from check_hf_mistral import (  # noqa: E402
    Report, arguments, check_against_eager, rel, run, start, use_implementation)

CAP = 50.0


def parse_args(argv=None):
    p = arguments(__doc__.split("\n")[0])
    p.add_argument("--boost", type=float, default=30.0)
    p.add_argument("--init", type=float, default=0.02,
                   help="the weights' standard deviation (initializer_range)")
    p.set_defaults(tol=1.0)  # see the module's doc: eager bf16 is 0.3 to 0.9 off
    return p.parse_args(argv)


def main():
    args = parse_args()
    torch, name = start(args)
    from transformers import Gemma2Config, Gemma2ForCausalLM
    from sdpa import torch_ops
    from sdpa.config import select
    report = Report("check_hf_gemma2")

    torch.manual_seed(args.seed)
    config = Gemma2Config(vocab_size=1000, hidden_size=256, intermediate_size=512,
                          num_hidden_layers=2, layer_types=["sliding_attention", "full_attention"],
                          num_attention_heads=4, num_key_value_heads=2, head_dim=256,
                          query_pre_attn_scalar=256, max_position_embeddings=8192,
                          sliding_window=4096, attn_logit_softcapping=CAP,
                          attention_dropout=0.0, initializer_range=args.init)
    config._attn_implementation = "eager"
    base = Gemma2ForCausalLM(config).cuda().float()
    with torch.no_grad():
        for n, p in base.named_parameters():
            if n.endswith(("q_proj.weight", "k_proj.weight")):
                p.mul_(args.boost)
    ids = torch.randint(0, config.vocab_size, (args.batch, args.seq), device="cuda")

    def variant(impl, dtype, cap=CAP):
        m = copy.deepcopy(base).to(dtype)
        m.config.attn_logit_softcapping = cap
        for mod in m.modules():  # the layers keep the config's cap
            if hasattr(mod, "attn_logit_softcapping"):
                mod.attn_logit_softcapping = cap
        return use_implementation(m, impl)

    t0 = time.monotonic()
    ref = run(variant("eager", torch.float32), ids)
    eager = run(variant("eager", torch.bfloat16), ids)
    torch_ops._artifacts.clear()
    ours = run(variant(name, torch.bfloat16), ids)
    used = sorted(cfg.key for cfg in torch_ops._artifacts)
    nocap = run(variant("eager", torch.float32, None), ids)
    e_ours = check_against_eager(report, args.tol, ours, eager, ref, time.monotonic() - t0)
    e_control = rel(nocap[0], ref[0])
    want = [select(d, "bf16", 256, left, 0, scale=0.0625, softcap=CAP).key
            for left in (4095, None) for d in ("forward", "backward")]
    report("layers", sorted(want) == used,
           f"the op ran {', '.join(used) or 'nothing'} (want the sliding and the full "
           "layer's softcap kernels, both ways)")
    report("control", e_control > 4 * e_ours[0],
           f"the model without its cap is {e_control:.2e} off (ours {e_ours[0]:.2e}): the "
           "cap matters")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
