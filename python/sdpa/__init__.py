"""sdpa: windowed scaled-dot-product attention kernels for PyTorch and JAX.

    import sdpa
    o = sdpa.attention(q, k, v, causal=True, window=(127, 0))   # PyTorch op

The kernels are the ones `sdpa-opt` compiles (docs/Artifact.md), chosen by
configuration from a kernel cache (sdpa.kernels) and launched by the C
runtime (sdpa.runtime, ctypes). Submodules import torch, jax or transformers
only when used: `import sdpa` needs none of them. docs/Frontends.md has a
quickstart per frontend.
"""

__version__ = "0.1.0"

__all__ = ["__version__", "attention"]


def __getattr__(name):
    """`sdpa.attention` is sdpa.torch_ops.attention, imported (with torch) on
    first use."""
    if name == "attention":
        from .torch_ops import attention
        return attention
    raise AttributeError(f"module 'sdpa' has no attribute {name!r}")
