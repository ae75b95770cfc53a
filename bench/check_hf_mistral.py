#!/usr/bin/env python3
"""Hugging Face Mistral (sliding window) trained through sdpa.hf against its eager attention.

A small MistralForCausalLM (transformers' own class; 2 layers, 4 query and 2
kv heads of dim 64, sliding_window 128, random weights of std 0.1 so that
attention is peaked enough for the window to matter, bf16) is run on a
batch of 2 x 512 random tokens: logits, loss and, after loss.backward(),
every parameter's gradient, with attn_implementation "dialect_attention"
(sdpa.hf.register(): our kernels, causal window left = 127) and with
"eager" (transformers' matmul-softmax attention with its sliding-window
mask). Both are compared with the same model in float32 (eager) as
max|x - ref| / max|ref|: ours must be within 2x (+1e-3) of eager bf16's
own error, and within --tol (a sanity cap: at std 0.1 eager bf16 itself is
about 7e-2 off float32 in the logits and 1e-1 in the worst gradient). A control: the float32 model without its window
must differ from the windowed one by more than ours does (the comparison can
fail). Then a padded batch must be refused by name.

Kernels come from --kernels (a prebuilt set, sdpa.kernels) or the cache.
Prints one line per check; exits 1 on any failure.

    python3 bench/check_hf_mistral.py --kernels .artifacts/sdpa-kernels
"""

import argparse
import copy
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)


def arguments(description):
    """The parser with the options every Hugging Face check takes."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--kernels", help="a prebuilt kernel set (put first on SDPA_KERNEL_PATH)")
    p.add_argument("--seq", type=int, default=512)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--tol", type=float, default=0.15)
    p.add_argument("--seed", type=int, default=0)
    return p


def parse_args(argv=None):
    p = arguments(__doc__.split("\n")[0])
    p.add_argument("--window", type=int, default=128)
    return p.parse_args(argv)


def use_implementation(model, impl):
    """`model` with attention implementation `impl` (transformers 4.5x and 5.x)."""
    if hasattr(model, "set_attn_implementation"):
        model.set_attn_implementation(impl)
    else:
        model.config._attn_implementation = impl
    return model


def check_against_eager(report, tol, ours, eager, ref, elapsed):
    """Prints ours' and eager bf16's errors against float32 eager and reports
    the forward and the gradients: ours within `tol` and within 2x (+1e-3) of
    eager bf16's own error. Returns ours' (logits, loss, worst gradient)."""
    e_ours, e_eager = compare(ours, ref), compare(eager, ref)
    print(f"vs float32 eager (logits, loss, worst gradient): ours {e_ours[0]:.2e} "
          f"{e_ours[1]:.2e} {e_ours[2]:.2e}; eager bf16 {e_eager[0]:.2e} {e_eager[1]:.2e} "
          f"{e_eager[2]:.2e}; ours vs eager bf16 "
          + " ".join(f"{x:.2e}" for x in compare(ours, eager))
          + f" ({elapsed:.1f} s)", flush=True)
    report("forward", e_ours[0] <= tol and e_ours[0] <= 2 * e_eager[0] + 1e-3,
           f"logits {e_ours[0]:.2e} (eager bf16 {e_eager[0]:.2e})")
    report("gradients", e_ours[2] <= tol and e_ours[2] <= 2 * e_eager[2] + 1e-3,
           f"worst parameter gradient {e_ours[2]:.2e} (eager bf16 {e_eager[2]:.2e})")
    return e_ours


def rel(x, ref):
    x, ref = x.double(), ref.double()
    return ((x - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()


def run(model, ids):
    """Logits, loss and gradients (by parameter name) of one step."""
    model.zero_grad(set_to_none=True)
    out = model(input_ids=ids, labels=ids)
    out.loss.backward()
    grads = {n: p.grad.detach().clone() for n, p in model.named_parameters() if p.grad is not None}
    return out.logits.detach(), out.loss.detach(), grads


def compare(a, b):
    """(logits, loss, worst gradient) relative errors of step `a` against `b`."""
    worst = max(rel(a[2][n], b[2][n]) for n in b[2])
    return rel(a[0], b[0]), rel(a[1].reshape(1), b[1].reshape(1)), worst


class Report:
    """A check script's PASS/FAIL lines; `failed` counts the failures."""

    def __init__(self, script):
        self.script, self.failed = script, 0

    def __call__(self, check, ok, detail):
        self.failed += 0 if ok else 1
        print(f"{'PASS' if ok else 'FAIL'} {check}: {detail}", flush=True)

    def finish(self):
        """Prints the verdict; the exit status."""
        print(f"{self.script}: {'all passed' if not self.failed else f'{self.failed} failed'}")
        return 1 if self.failed else 0


def start(args):
    """What every Hugging Face check does first: the prebuilt kernels of
    --kernels first on SDPA_KERNEL_PATH, the versions printed, sdpa.hf
    registered. Returns (torch, the implementation's name)."""
    if args.kernels:
        os.environ["SDPA_KERNEL_PATH"] = os.path.abspath(args.kernels)
    import torch
    import transformers

    import sdpa.hf
    print(f"torch {torch.__version__}, transformers {transformers.__version__}", flush=True)
    return torch, sdpa.hf.register()


def main():
    args = parse_args()
    torch, name = start(args)
    from transformers import MistralConfig, MistralForCausalLM
    report = Report("check_hf_mistral")

    torch.manual_seed(args.seed)
    config = MistralConfig(vocab_size=1000, hidden_size=256, intermediate_size=512,
                           num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                           head_dim=64, max_position_embeddings=4096,
                           sliding_window=args.window, attention_dropout=0.0,
                           initializer_range=0.1)
    config._attn_implementation = "eager"
    base = MistralForCausalLM(config).cuda().float()
    ids = torch.randint(0, config.vocab_size, (args.batch, args.seq), device="cuda")

    def variant(impl, dtype, window=args.window):
        m = copy.deepcopy(base).to(dtype)
        m.config.sliding_window = window
        return use_implementation(m, impl)

    t0 = time.monotonic()
    ref = run(variant("eager", torch.float32), ids)
    eager = run(variant("eager", torch.bfloat16), ids)
    ours = run(variant(name, torch.bfloat16), ids)
    nowin = run(variant("eager", torch.float32, None), ids)
    e_ours = check_against_eager(report, args.tol, ours, eager, ref, time.monotonic() - t0)
    e_control = rel(nowin[0], ref[0])
    report("control", e_control > 4 * e_ours[0],
           f"the unwindowed model is {e_control:.2e} off (ours {e_ours[0]:.2e}): the window "
           "matters at this length")

    padded = torch.ones_like(ids)
    padded[0, :7] = 0
    try:
        variant(name, torch.bfloat16)(input_ids=ids, attention_mask=padded)
        report("padding", False, "a padded batch ran")
    except ValueError as e:
        report("padding", "attention_mask has padding" in str(e), f"refused: {e}")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
