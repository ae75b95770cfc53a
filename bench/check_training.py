#!/usr/bin/env python3
"""One training step through the runtime's autograd Function, against PyTorch.

A small attention layer, x -> Wq, Wk, Wv -> attention -> Wo (f16 compute on
CUDA, float32 master parameters, bhsd B=2, H=4, S=300, head_dim from the
artifact, loss = sum((y - target)^2) / (B S)), takes one SGD step twice from
the same parameters and data: with our attention (sdpa_runtime's
attention_function over --forward and a backward artifact) and with
torch.nn.functional.scaled_dot_product_attention in --ref-dtype (float64 by
default) on the same f16 q, k, v, with the dense boolean mask of the
artifact's band (attention_ref.band_mask). Projections, loss and optimizer are
the same code. Compared as max|x - ref| / max|ref|: the loss, the loss after
the step, the gradients of q, k, v (the attention's inputs) and of every
parameter, and the updated parameters. Done for the non-deterministic
(--backward) and the deterministic (--backward-det) artifact; the
deterministic step runs twice and all its gradients must be bitwise equal
(the non-deterministic one's repeat is reported, not required).

Checks of the harness itself: the band mask equals a cell-by-cell evaluation
of docs/Semantics.md §1, and a reference without the band's left edge (plain
causal) must be told apart from ours (a control: the comparison can fail).
Before each step the allocator's cached blocks are filled with NaN bytes, so
outputs a kernel leaves unwritten show up as NaN instead of as values of the
previous step (best effort: it relies on PyTorch reusing those blocks).

Writes check_training.md to --out; exits 1 on any failure. --self-test puts a
float64 stand-in in place of the runtime (no artifact needed; CPU if no GPU),
to prove the harness, the control and the table.

    python3 bench/check_training.py --out /tmp/out
    python3 bench/check_training.py --self-test --out /tmp/out
"""

import argparse
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runtime", "python"))
sys.path.insert(0, HERE)

KERNELS = ".artifacts/kernels"
#: Relative error limit for f16 compute against the reference (of max |ref|).
DEFAULT_TOL = 2e-2


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--forward", default=f"{KERNELS}/f16_d64_win127.manifest",
                   help="forward artifact manifest")
    p.add_argument("--backward", default=f"{KERNELS}/bwd_f16_d64_win127_nd.manifest",
                   help="non-deterministic backward artifact manifest")
    p.add_argument("--backward-det", default=f"{KERNELS}/bwd_f16_d64_win127_det.manifest",
                   help="deterministic backward artifact manifest")
    p.add_argument("--out", default=os.environ.get("OUT", "bench/out"))
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--seq", type=int, default=300)
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate")
    p.add_argument("--tol", type=float, default=DEFAULT_TOL,
                   help="relative error limit (of max |ref|)")
    p.add_argument("--ref-dtype", choices=("float32", "float64"), default="float64",
                   help="dtype the reference attention computes in")
    p.add_argument("--seed", type=int, default=None, help="default: the time")
    p.add_argument("--self-test", action="store_true",
                   help="a float64 stand-in instead of the runtime")
    args = p.parse_args(argv)
    for name in ("batch", "heads", "seq"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    if args.seed is None:
        args.seed = int(time.time())
    return args


def visible(qi, ki, sq, skv, left, right, align):
    """docs/Semantics.md §1 for one cell: 0 <= q < Sq, 0 <= k < Skv and
    a(q) - L <= k <= a(q) + R, a(q) = q (top_left) or q + Skv - Sq
    (bottom_right); None is an unbounded edge."""
    if not (0 <= qi < sq and 0 <= ki < skv):
        return False
    a = qi + (skv - sq if align == "bottom_right" else 0)
    return (left is None or ki >= a - left) and (right is None or ki <= a + right)


def cell_mask(sq, skv, left, right, align):
    """The band as a nested list of bools, cell by cell (slow; for checking
    the vectorized mask)."""
    return [[visible(i, j, sq, skv, left, right, align) for j in range(skv)]
            for i in range(sq)]


# -- the layer ----------------------------------------------------------------

PARAMS = ("Wq", "Wk", "Wv", "Wo")


def make_data(args, head_dim, device, dtype):
    """Initial float32 parameters, input x (dtype) and target (float32)."""
    import torch
    gen = torch.Generator(device=device).manual_seed(args.seed)
    e = args.heads * head_dim

    def randn(*shape):
        return torch.randn(*shape, device=device, generator=gen)

    init = {n: randn(e, e) / math.sqrt(e) for n in PARAMS}
    x = randn(args.batch, args.seq, e).to(dtype)
    target = randn(args.batch, args.seq, e)
    return init, x, target


def layer(params, x, attend, heads):
    """y = attention(x Wq, x Wk, x Wv) Wo in x's dtype, and q, k, v (bhsd)."""
    b, s, e = x.shape
    d = e // heads

    def project(w):  # [B, S, E] -> [B, H, S, D], a strided view
        return (x @ params[w].to(x.dtype)).view(b, s, heads, d).transpose(1, 2)

    q, k, v = project("Wq"), project("Wk"), project("Wv")
    for t in (q, k, v):
        if t.requires_grad:
            t.retain_grad()
    o = attend(q, k, v)
    y = o.transpose(1, 2).reshape(b, s, e) @ params["Wo"].to(x.dtype)
    return y, (q, k, v)


def loss_of(y, target):
    return ((y.float() - target) ** 2).sum() / (y.shape[0] * y.shape[1])


def poison_cache(device):
    """Refills the caching allocator with blocks of 0xFF bytes (NaN as f16 and
    f32), 4 KiB to 4 MiB, 8 of each (64 MiB), and frees them for reuse."""
    import torch
    if device.type != "cuda":
        return
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    blocks = [torch.full((1 << (k - 2),), -1, dtype=torch.int32, device=device)
              for k in range(12, 23) for _ in range(8)]
    torch.cuda.synchronize()
    del blocks


def train_step(init, x, target, attend, heads, lr):
    """One SGD step from `init`; returns losses, gradients and new parameters."""
    import torch
    poison_cache(x.device)
    params = {n: p.clone().requires_grad_() for n, p in init.items()}
    opt = torch.optim.SGD(params.values(), lr=lr)
    opt.zero_grad()
    y, (q, k, v) = layer(params, x, attend, heads)
    loss = loss_of(y, target)
    loss.backward()
    opt.step()
    with torch.no_grad():
        loss_after = loss_of(layer(params, x, attend, heads)[0], target)
    if x.device.type == "cuda":
        torch.cuda.synchronize()
    return {
        "loss": loss.detach(), "loss after": loss_after,
        "attn grads": {"dq": q.grad, "dk": k.grad, "dv": v.grad},
        "param grads": {n: p.grad for n, p in params.items()},
        "params after": {n: p.detach() for n, p in params.items()},
    }


def compare(ours, ref):
    """{quantity: error}, one entry per loss, gradient and parameter."""
    from attention_ref import rel
    errs = {"loss": rel(ours["loss"], ref["loss"]),
            "loss after": rel(ours["loss after"], ref["loss after"])}
    for group, prefix in (("attn grads", ""), ("param grads", "grad "),
                          ("params after", "new ")):
        for name, t in ours[group].items():
            if t is None:
                errs[prefix + name] = math.nan  # no gradient reached it
            else:
                errs[prefix + name] = rel(t, ref[group][name])
    return errs


def bitwise_equal(a, b):
    import torch
    pairs = [(a["loss"], b["loss"])]
    for group in ("attn grads", "param grads"):
        pairs += [(a[group][n], b[group][n]) for n in a[group]]
    return all(x is not None and y is not None and torch.equal(x, y) for x, y in pairs)


# -- attention implementations ------------------------------------------------

def sdpa_attend(mask, scale, dtype):
    """PyTorch's attention in `dtype` on the f16 q, k, v; result in q's dtype."""
    import torch.nn.functional as F

    def attend(q, k, v):
        o = F.scaled_dot_product_attention(q.to(dtype), k.to(dtype), v.to(dtype),
                                           attn_mask=mask, scale=scale)
        return o.to(q.dtype)
    return attend


def standin_attend(mask, scale):
    """Masked softmax attention in float64 written out (for --self-test)."""
    import torch

    def attend(q, k, v):
        s = (q.double() @ k.double().transpose(-1, -2)) * scale
        p = torch.softmax(s.masked_fill(~mask, -math.inf), dim=-1)
        return (p @ v.double()).to(q.dtype)
    return attend


class Band:
    """The attention an artifact computes (or the self-test's stand-in)."""

    def __init__(self, head_dim, left, right, align, scale):
        self.head_dim, self.left, self.right = head_dim, left, right
        self.align, self.scale = align, scale

    def describe(self):
        left, right = ("inf" if e is None else str(e) for e in (self.left, self.right))
        return f"d={self.head_dim}, band {left} {right} {self.align}, scale {self.scale:g}"


# -- the check ----------------------------------------------------------------

class Report:
    def __init__(self, tol):
        self.tol = tol
        self.rows = []
        self.failures = 0

    def add(self, step, artifact, errs=None, bitwise="", problem=""):
        def worst(prefix, names):
            vals = [(errs.get(prefix + n, math.nan), n) for n in names]
            bad = [v for v in vals if math.isnan(v[0])]
            return bad[0] if bad else max(vals)
        if errs is not None and not problem:
            nan = [q for q, e in errs.items() if math.isnan(e)]
            over = [q for q, e in errs.items() if e > self.tol]
            if nan:
                problem = "NaN or missing: " + ", ".join(nan)
            elif over:
                problem = "tolerance: " + ", ".join(over)
        if bitwise == "NO" and not problem:
            problem = "deterministic runs differ"
        self.failures += bool(problem)
        cells = ["", "", "", "", ""]
        if errs is not None:
            attn = worst("", ("dq", "dk", "dv"))
            grad = worst("grad ", PARAMS)
            new = worst("new ", PARAMS)
            cells = [f"{errs['loss']:.2e}", f"{errs['loss after']:.2e}",
                     f"{attn[0]:.2e} ({attn[1]})", f"{grad[0]:.2e} ({grad[1]})",
                     f"{new[0]:.2e} ({new[1]})"]
        self.rows.append((step, artifact, *cells, bitwise, problem or "ok"))
        print(" | ".join(str(c) for c in self.rows[-1]), flush=True)
        if errs is not None:
            print("    " + ", ".join(f"{q} {e:.2e}" for q, e in errs.items()), flush=True)

    def markdown(self, title, notes):
        head = ("| step | artifact | loss | loss after | worst dq/dk/dv | worst param grad "
                "| worst new param | bitwise | result |\n"
                "|---|---|---|---|---|---|---|---|---|\n")
        body = "".join("| " + " | ".join(str(c) for c in r) + " |\n" for r in self.rows)
        return (f"# {title} {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n"
                f"{notes}\n\n{head}{body}\n{self.failures} failure(s) in "
                f"{len(self.rows)} rows.\n")


def check_mask(report, band, sq, device):
    """The vectorized band mask against the cell-by-cell rule."""
    import torch
    from attention_ref import band_mask
    mask = band_mask(sq, sq, band.left, band.right, band.align, device)
    cells = torch.tensor(cell_mask(sq, sq, band.left, band.right, band.align),
                         device=device)
    differ = int((mask != cells).sum())
    problem = (f"{differ} cells differ from docs/Semantics.md §1"
               if differ else "")
    if not problem and bool((~mask).all(dim=-1).any()):
        problem = "a query row sees no key (the reference would give NaN)"
    report.add("harness: band mask", band.describe(), problem=problem)
    return mask


def run(args):
    import torch
    report = Report(args.tol)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if not args.self_test and device.type != "cuda":
        report.add("setup", "", problem="no CUDA device (use --self-test without one)")
        return report, "no device"
    dtype = torch.float16 if device.type == "cuda" else torch.float32
    ref_dtype = getattr(torch, args.ref_dtype)

    if args.self_test:
        band = Band(64, 127, 0, "top_left", 1 / math.sqrt(64))
        variants = [("stand-in", "float64 stand-in", None, False),
                    ("stand-in (det)", "float64 stand-in", None, True)]
    else:
        import sdpa_runtime
        try:
            fwd = sdpa_runtime.Artifact(args.forward)
            sdpa_runtime.check_artifact_pair(fwd, None)
        except Exception as e:  # noqa: BLE001 - reported in the table
            report.add("setup", args.forward, problem=f"{type(e).__name__}: {e}")
            return report, ""
        band = Band(fwd.head_dim, fwd.left, fwd.right, fwd.align, fwd.scale)
        variants = [("non-deterministic", args.backward, fwd, False),
                    ("deterministic", args.backward_det, fwd, True)]
    mask = check_mask(report, band, args.seq, device)
    init, x, target = make_data(args, band.head_dim, device, dtype)
    ref = train_step(init, x, target, sdpa_attend(mask, band.scale, ref_dtype),
                     args.heads, args.lr)
    ours_nd = None
    for step, path, fwd, det in variants:
        name = os.path.basename(path)
        print(f"== {step}: {path}", flush=True)
        try:
            if fwd is None:
                attend = standin_attend(mask, band.scale)
            else:
                bwd = sdpa_runtime.Artifact(path)
                Fn = sdpa_runtime.attention_function(deterministic=det)
                sdpa_runtime.check_artifact_pair(fwd, bwd, deterministic=det)
                attend = lambda q, k, v, f=fwd, b=bwd, Fn=Fn: Fn.apply(  # noqa: E731
                    q, k, v, f, b, "bhsd")
            first = train_step(init, x, target, attend, args.heads, args.lr)
            again = train_step(init, x, target, attend, args.heads, args.lr)
            same = bitwise_equal(first, again)
            bitwise = ("yes" if same else "NO") if det else ("yes" if same else "no (allowed)")
            report.add(step, name, compare(first, ref), bitwise)
            if not det:
                ours_nd = first
        except Exception as e:  # noqa: BLE001 - reported in the table
            report.add(step, name, problem=f"{type(e).__name__}: {e}")

    # The control: a reference without the left edge must not match ours.
    if ours_nd is not None and band.left is not None:
        from attention_ref import band_mask
        causal = band_mask(args.seq, args.seq, None, band.right, band.align, device)
        wrong = train_step(init, x, target, sdpa_attend(causal, band.scale, ref_dtype),
                           args.heads, args.lr)
        finite = [e for e in compare(ours_nd, wrong).values() if not math.isnan(e)]
        worst = max(finite) if finite else math.nan
        problem = "" if worst > args.tol else (
            f"not told apart from a reference without the left edge (worst {worst:.2e})")
        report.add("control: no left edge", f"worst {worst:.2e} must exceed {args.tol:g}",
                   problem=problem)
    elif band.left is None:
        print("control skipped: the band has no left edge to remove")

    notes = (f"Device: {torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu'}; "
             f"torch {torch.__version__}; command: `{' '.join(sys.argv)}`; seed {args.seed}.\n"
             f"Layer: B={args.batch}, H={args.heads}, S={args.seq}, {band.describe()}, "
             f"{str(dtype).replace('torch.', '')} compute, float32 parameters, SGD lr "
             f"{args.lr}. Reference: scaled_dot_product_attention in {args.ref_dtype} with "
             f"the dense boolean band mask. Errors are max|x - ref| / max|ref|; limit "
             f"{args.tol:g}. 'bitwise': a second step from the same state gives equal "
             f"loss and gradients (required for the deterministic backward).")
    return report, notes


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    try:
        report, notes = run(args)
    except Exception as e:  # noqa: BLE001 - a crash still writes a report
        import traceback
        traceback.print_exc()
        report, notes = Report(args.tol), ""
        report.add("crash", "", problem=f"{type(e).__name__}: {e}")
    title = "Training-step check" + (" (self-test)" if args.self_test else "")
    text = report.markdown(title, notes)
    name = "check_training_selftest.md" if args.self_test else "check_training.md"
    with open(os.path.join(args.out, name), "w") as f:
        f.write(text)
    print(text)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
