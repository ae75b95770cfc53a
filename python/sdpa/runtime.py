"""ctypes wrapper of the sdpa kernel runtime, taking PyTorch tensors.

    art = Artifact("gptoss_fwd.manifest")           # PTX + manifest (docs/Artifact.md)
    o, lse = art.forward(q, k, v, layout="bshd")     # dense
    o, lse = art.forward(q, k, v, layout="thd", cu_seqlens_q=cu, cu_seqlens_kv=cu)

The shared library is found by `find_library` (below). torch is imported only
when a tensor is passed, so loading and manifest errors work without it. Every
failure raises SdpaError carrying the runtime's message, e.g.
"q: expected 4 dimensions for layout bhsd, got 3". The bench scripts import
this module as `sdpa_runtime` (runtime/python/sdpa_runtime.py re-exports it).
"""

import ctypes
import os

__all__ = ["Artifact", "SdpaError", "load_library", "find_library", "LAYOUTS",
           "attention_function", "check_artifact_pair", "SDPA_ERROR_INDEX_RANGE"]

LAYOUTS = {"bhsd": 0, "bshd": 1, "thd": 2}
_STATUS = {
    0: "success",
    1: "invalid argument",
    2: "invalid manifest",
    3: "io error",
    4: "cuda unavailable",
    5: "cuda error",
    6: "unsupported",
    7: "index range",
}
#: The status of a valid call past a 32-bit artifact's index arithmetic: the
#: configuration's 64-bit twin takes it (sdpa.config.KernelConfig.wide).
SDPA_ERROR_INDEX_RANGE = 7
_PARAM_TYPES = {"ptr": 0, "i32": 1, "i64": 2, "f32": 3}


class SdpaError(RuntimeError):
    """A runtime call failed; .status is the SdpaStatus code."""

    def __init__(self, status, message):
        super().__init__(f"{message} [{_STATUS.get(status, status)}]")
        self.status = status
        self.message = message


class Tensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_uint64),
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.c_int64 * 4),
        ("strides", ctypes.c_int64 * 4),
    ]


class ForwardArgs(ctypes.Structure):
    _fields_ = [("layout", ctypes.c_int32)] + [
        (n, Tensor) for n in ("q", "k", "v", "o", "lse", "cu_seqlens_q", "cu_seqlens_kv")
    ] + [
        ("max_seqlen_q", ctypes.c_int64),
        ("max_seqlen_kv", ctypes.c_int64),
        ("host_cu_seqlens_q", ctypes.POINTER(ctypes.c_int32)),
        ("host_cu_seqlens_kv", ctypes.POINTER(ctypes.c_int32)),
        ("sinks", Tensor),
    ]


class BackwardArgs(ctypes.Structure):
    _fields_ = [("layout", ctypes.c_int32)] + [
        (n, Tensor)
        for n in ("q", "k", "v", "o", "lse", "dout", "dq", "dk", "dv", "dq_accum",
                  "delta", "relay_counters", "cu_seqlens_q", "cu_seqlens_kv")
    ] + [
        ("max_seqlen_q", ctypes.c_int64),
        ("max_seqlen_kv", ctypes.c_int64),
        ("host_cu_seqlens_q", ctypes.POINTER(ctypes.c_int32)),
        ("host_cu_seqlens_kv", ctypes.POINTER(ctypes.c_int32)),
    ] + [(n, Tensor) for n in ("sinks", "grad_sinks", "dsink_partials")]


class WorkspaceSizes(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in
                ("dq_accum_elements", "delta_elements", "relay_counter_elements",
                 "dsink_partial_elements")]


class NamedValue(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("type", ctypes.c_int32),
        ("ptr", ctypes.c_uint64),
        ("i32", ctypes.c_int32),
        ("i64", ctypes.c_int64),
        ("f32", ctypes.c_float),
    ]


class GridValues(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in
                ("q_tiles", "kv_tiles", "heads_q", "heads_kv", "batch", "total_rows")]


_lib = None


#: The library's file name, as runtime/CMakeLists.txt builds it.
LIBRARY_NAME = "libsdpa_runtime.so"


def library_candidates():
    """Where find_library looks, in order: $SDPA_RUNTIME_LIB, the copy bundled
    into the installed package (python/setup.py), then the build folders of
    the source checkout this file lives in (build-runtime/lib, build/lib)."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    env = os.environ.get("SDPA_RUNTIME_LIB")
    return ([env] if env else []) + [
        os.path.join(here, "_lib", LIBRARY_NAME),
        os.path.join(root, "build-runtime", "lib", LIBRARY_NAME),
        os.path.join(root, "build", "lib", LIBRARY_NAME),
    ]


def find_library():
    """The path of libsdpa_runtime.so; SdpaError (io error) naming every place
    looked at, and how to build the library, when there is none. A
    $SDPA_RUNTIME_LIB that names no file is an error of its own."""
    env = os.environ.get("SDPA_RUNTIME_LIB")
    if env:
        if not os.path.isfile(env):
            raise SdpaError(3, f"SDPA_RUNTIME_LIB={env}: no such file")
        return env
    candidates = library_candidates()
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    raise SdpaError(3, f"{LIBRARY_NAME} not found (looked at {', '.join(candidates)}): "
                       "build it with `cmake -G Ninja -S runtime -B build-runtime && "
                       "ninja -C build-runtime` in the repository and set "
                       f"SDPA_RUNTIME_LIB=build-runtime/lib/{LIBRARY_NAME}, or reinstall "
                       "the package from a checkout with cmake on PATH (it bundles the library)")


def load_library(path=None):
    """Loads libsdpa_runtime.so once (find_library unless `path` is given)
    and declares the C signatures."""
    global _lib
    if _lib is not None and path is None:
        return _lib
    if path is None:
        path = find_library()
    lib = ctypes.CDLL(path)
    P = ctypes.POINTER
    art = ctypes.c_void_p
    lib.sdpaGetLastError.restype = ctypes.c_char_p
    lib.sdpaGetLastError.argtypes = []
    sigs = {
        "sdpaArtifactLoad": [ctypes.c_char_p, P(art)],
        "sdpaArtifactPrepare": [art],
        "sdpaArtifactQuery": [art, ctypes.c_char_p, P(ctypes.c_int64)],
        "sdpaArtifactBand": [art, P(ctypes.c_int64), P(ctypes.c_int64),
                             P(ctypes.c_int32), P(ctypes.c_float)],
        "sdpaArtifactSoftcap": [art, P(ctypes.c_float)],
        "sdpaForwardCheck": [art, P(ForwardArgs)],
        "sdpaForward": [art, P(ForwardArgs), ctypes.c_void_p],
        "sdpaBackwardWorkspace": [art, P(BackwardArgs), P(WorkspaceSizes)],
        "sdpaBackwardCheck": [art, P(BackwardArgs)],
        "sdpaBackward": [art, P(BackwardArgs), ctypes.c_void_p],
        "sdpaLaunchKernel": [art, ctypes.c_char_p, P(NamedValue), ctypes.c_int32,
                             P(GridValues), ctypes.c_void_p],
    }
    for name, argtypes in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes = argtypes
        fn.restype = ctypes.c_int
    lib.sdpaArtifactDestroy.argtypes = [art]
    lib.sdpaArtifactDestroy.restype = None
    _lib = lib
    return lib


def _check(lib, status):
    if status != 0:
        raise SdpaError(status, lib.sdpaGetLastError().decode(errors="replace"))


_dtype_codes = None


def _dtype_code(t):
    """The SdpaDtype code of a torch tensor's dtype (the table built once)."""
    global _dtype_codes
    if _dtype_codes is None:
        import torch
        _dtype_codes = {torch.float16: 0, torch.bfloat16: 1, torch.float32: 2, torch.int32: 3}
    code = _dtype_codes.get(t.dtype)
    if code is None:
        raise SdpaError(1, f"unsupported tensor dtype {t.dtype}")
    return code


def _desc(t):
    """The C descriptor of a torch tensor (or an empty one for None). On the
    path of every call: slice assignments, not a loop (a backward builds 12
    to 15 of these)."""
    d = Tensor()
    if t is None:
        return d
    rank = t.dim()
    if rank > 4:
        raise SdpaError(1, f"tensor of rank {rank}: at most 4 dimensions")
    d.data = t.data_ptr()
    d.dtype = _dtype_code(t)
    d.rank = rank
    d.shape[:rank] = t.shape
    d.strides[:rank] = t.stride()
    return d


def _check_devices(**tensors):
    """All given tensors must live on one CUDA device (the runtime cannot tell
    a host address from a device one)."""
    device = None
    for name, t in tensors.items():
        if t is None:
            continue
        if t.device.type != "cuda":
            raise SdpaError(1, f"{name}: expected a CUDA tensor, got one on {t.device}")
        if device is not None and t.device != device:
            raise SdpaError(1, f"{name}: on {t.device}, but q is on {device}")
        device = device or t.device


class _NoGuard:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _device_guard(device):
    """torch.cuda.device(device), skipped when it is already current (the
    guard costs microseconds per call)."""
    import torch
    if device.index is None or device.index == torch.cuda.current_device():
        return _NoGuard()
    return torch.cuda.device(device)


def _stream_of(t, stream):
    import torch
    if stream is None:
        stream = torch.cuda.current_stream(t.device)
    return ctypes.c_void_p(getattr(stream, "cuda_stream", stream))


class Artifact:
    """One loaded artifact (a forward or a backward)."""

    def __init__(self, manifest_path, library=None):
        self._lib = load_library(library)
        handle = ctypes.c_void_p()
        _check(self._lib, self._lib.sdpaArtifactLoad(os.fsencode(manifest_path),
                                                     ctypes.byref(handle)))
        self._handle = handle
        self.path = manifest_path
        q = {}
        for key in ("head_dim", "tile_q", "tile_kv", "dtype", "varlen", "direction",
                    "deterministic", "sinks"):
            value = ctypes.c_int64()
            _check(self._lib, self._lib.sdpaArtifactQuery(handle, key.encode(),
                                                          ctypes.byref(value)))
            q[key] = value.value
        self.head_dim = q["head_dim"]
        self.tile_q = q["tile_q"]
        self.tile_kv = q["tile_kv"]
        self.dtype_name = {0: "f16", 1: "bf16"}[q["dtype"]]
        self.varlen = bool(q["varlen"])
        self.direction = "backward" if q["direction"] else "forward"
        self.deterministic = bool(q["deterministic"])
        #: The kernels take one f32 sink logit per query head (and the
        #: backward returns their gradient).
        self.sinks = bool(q["sinks"])
        left, right = ctypes.c_int64(), ctypes.c_int64()
        bottom_right, scale = ctypes.c_int32(), ctypes.c_float()
        _check(self._lib, self._lib.sdpaArtifactBand(
            handle, ctypes.byref(left), ctypes.byref(right),
            ctypes.byref(bottom_right), ctypes.byref(scale)))
        #: Band edges (None = unbounded), alignment and softmax scale.
        self.left = None if left.value < 0 else left.value
        self.right = None if right.value < 0 else right.value
        self.align = "bottom_right" if bottom_right.value else "top_left"
        self.scale = scale.value
        cap = ctypes.c_float()
        _check(self._lib, self._lib.sdpaArtifactSoftcap(handle, ctypes.byref(cap)))
        #: The logit cap c (c * tanh(s / c)), or None.
        self.softcap = cap.value or None

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._lib.sdpaArtifactDestroy(handle)
            self._handle = None

    @property
    def torch_dtype(self):
        import torch
        return {"f16": torch.float16, "bf16": torch.bfloat16}[self.dtype_name]

    def prepare(self):
        """Loads the PTX into the current context now (JIT errors surface here)."""
        _check(self._lib, self._lib.sdpaArtifactPrepare(self._handle))

    # -- forward -----------------------------------------------------------

    def _varlen_fields(self, args, q, k, cu_q, cu_kv, max_q, max_kv, check_offsets):
        import torch
        if cu_q is None or cu_kv is None:
            raise SdpaError(1, "cu_seqlens_q/cu_seqlens_kv: required for layout thd")
        host_q = cu_q.to("cpu", torch.int32).contiguous()
        host_kv = cu_kv.to("cpu", torch.int32).contiguous()
        # Offsets given on the host are copied to q's device.
        cu_q = cu_q if cu_q.device == q.device else cu_q.to(q.device)
        cu_kv = cu_kv if cu_kv.device == q.device else cu_kv.to(q.device)
        if max_q is None:
            max_q = int((host_q[1:] - host_q[:-1]).max()) if host_q.numel() > 1 else 0
        if max_kv is None:
            max_kv = int((host_kv[1:] - host_kv[:-1]).max()) if host_kv.numel() > 1 else 0
        args.cu_seqlens_q = _desc(cu_q)
        args.cu_seqlens_kv = _desc(cu_kv)
        args.max_seqlen_q = max_q
        args.max_seqlen_kv = max_kv
        keep = (host_q, host_kv, cu_q, cu_kv)
        if check_offsets:
            i32p = ctypes.POINTER(ctypes.c_int32)
            args.host_cu_seqlens_q = ctypes.cast(host_q.data_ptr(), i32p)
            args.host_cu_seqlens_kv = ctypes.cast(host_kv.data_ptr(), i32p)
        return keep

    def forward(self, q, k, v, layout="bhsd", cu_seqlens_q=None, cu_seqlens_kv=None,
                max_seqlen_q=None, max_seqlen_kv=None, out=None, lse=None, stream=None,
                check_offsets=True, sinks=None):
        """O, LSE of attention(q, k, v) with the artifact's band and scale.

        Shapes: bhsd q [B, Hq, Sq, D]; bshd q [B, Sq, Hq, D]; thd q [Tq, Hq, D]
        with int32 cu_seqlens_* [N + 1] (max_seqlen_* computed from them if not
        given). lse is f32 [B, Hq, Sq] (thd: [Hq, Tq]). `out`/`lse` may be
        given to write into existing tensors. `sinks` (f32 [Hq]) is required by
        an artifact compiled with sinks and refused by any other.
        """
        import torch
        if layout not in LAYOUTS:
            raise SdpaError(1, f"layout: unknown layout '{layout}' (bhsd, bshd, thd)")
        if out is None:
            out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
        if lse is None:
            if layout == "bhsd":
                shape = (q.shape[0], q.shape[1], q.shape[2]) if q.dim() == 4 else ()
            elif layout == "bshd":
                shape = (q.shape[0], q.shape[2], q.shape[1]) if q.dim() == 4 else ()
            else:
                shape = (q.shape[1], q.shape[0]) if q.dim() == 3 else ()
            lse = torch.empty(shape, dtype=torch.float32, device=q.device)
        _check_devices(q=q, k=k, v=v, o=out, lse=lse, sinks=sinks)
        args = ForwardArgs()
        args.layout = LAYOUTS[layout]
        args.q, args.k, args.v, args.o, args.lse = map(_desc, (q, k, v, out, lse))
        if sinks is not None:
            args.sinks = _desc(sinks)
        keep = None
        if layout == "thd":
            keep = self._varlen_fields(args, q, k, cu_seqlens_q, cu_seqlens_kv,
                                       max_seqlen_q, max_seqlen_kv, check_offsets)
        elif cu_seqlens_q is not None or cu_seqlens_kv is not None:
            args.cu_seqlens_q = _desc(cu_seqlens_q)
            args.cu_seqlens_kv = _desc(cu_seqlens_kv)
        with _device_guard(q.device):
            _check(self._lib, self._lib.sdpaForward(self._handle, ctypes.byref(args),
                                                    _stream_of(q, stream)))
        del keep
        return out, lse

    # -- backward ----------------------------------------------------------

    def backward(self, q, k, v, o, lse, do, layout="bhsd", cu_seqlens_q=None,
                 cu_seqlens_kv=None, max_seqlen_q=None, max_seqlen_kv=None,
                 stream=None, check_offsets=True, dq=None, dk=None, dv=None,
                 sinks=None):
        """dQ, dK, dV; allocates the workspaces the artifact needs.

        dq/dk/dv may be given to write into existing tensors. With `sinks`
        (f32 [Hq], for an artifact compiled with sinks) it returns dQ, dK,
        dV, dsinks (f32 [Hq]).
        """
        import torch
        if layout not in LAYOUTS:
            raise SdpaError(1, f"layout: unknown layout '{layout}' (bhsd, bshd, thd)")
        args = BackwardArgs()
        args.layout = LAYOUTS[layout]
        if dq is None:
            dq = torch.empty(q.shape, dtype=q.dtype, device=q.device)
        if dk is None:
            dk = torch.empty(k.shape, dtype=k.dtype, device=k.device)
        if dv is None:
            dv = torch.empty(v.shape, dtype=v.dtype, device=v.device)
        dsinks = None
        named = [("q", q), ("k", k), ("v", v), ("o", o), ("lse", lse), ("dout", do),
                 ("dq", dq), ("dk", dk), ("dv", dv)]
        if sinks is not None:
            dsinks = torch.empty(sinks.shape, dtype=torch.float32, device=sinks.device)
            named += [("sinks", sinks), ("grad_sinks", dsinks)]
        _check_devices(**dict(named))
        for name, t in named:
            setattr(args, name, _desc(t))
        keep = None
        if layout == "thd":
            keep = self._varlen_fields(args, q, k, cu_seqlens_q, cu_seqlens_kv,
                                       max_seqlen_q, max_seqlen_kv, check_offsets)
        sizes = WorkspaceSizes()
        _check(self._lib, self._lib.sdpaBackwardWorkspace(self._handle, ctypes.byref(args),
                                                          ctypes.byref(sizes)))
        dq_accum = torch.empty(sizes.dq_accum_elements, dtype=torch.float32, device=q.device)
        delta = torch.empty(sizes.delta_elements, dtype=torch.float32, device=q.device)
        counters = torch.empty(sizes.relay_counter_elements, dtype=torch.int32,
                               device=q.device)
        args.dq_accum, args.delta, args.relay_counters = map(_desc, (dq_accum, delta, counters))
        partials = None
        if sizes.dsink_partial_elements:
            partials = torch.empty(sizes.dsink_partial_elements, dtype=torch.float32,
                                   device=q.device)
            args.dsink_partials = _desc(partials)
        with _device_guard(q.device):
            _check(self._lib, self._lib.sdpaBackward(self._handle, ctypes.byref(args),
                                                     _stream_of(q, stream)))
        del keep, partials
        if sinks is not None:
            return dq, dk, dv, dsinks
        return dq, dk, dv

    # -- generic path ------------------------------------------------------

    def launch(self, kernel, values, grid=None, stream=None):
        """Launches `kernel` with parameters by name.

        values: {name: (type, value)} with type "ptr" (a tensor or an int
        address), "i32", "i64" or "f32"; grid: {q_tiles, kv_tiles, heads_q,
        heads_kv, batch, total_rows} (missing terms are 0).
        """
        import torch
        named = (NamedValue * max(len(values), 1))()
        device = None
        for i, (name, (type_name, value)) in enumerate(values.items()):
            named[i].name = name.encode()
            named[i].type = _PARAM_TYPES[type_name]
            if type_name == "ptr":
                if isinstance(value, torch.Tensor):
                    device = value.device
                    value = value.data_ptr()
                named[i].ptr = value
            elif type_name == "i32":
                named[i].i32 = value
            elif type_name == "i64":
                named[i].i64 = value
            else:
                named[i].f32 = value
        g = GridValues(**(grid or {}))
        device = device or torch.device("cuda", torch.cuda.current_device())
        with torch.cuda.device(device):
            if stream is None:
                stream = torch.cuda.current_stream(device)
            _check(self._lib, self._lib.sdpaLaunchKernel(
                self._handle, kernel.encode(), named, len(values), ctypes.byref(g),
                ctypes.c_void_p(getattr(stream, "cuda_stream", stream))))


#: What a forward and a backward artifact must agree on to be one attention.
_PAIR_KEYS = ("dtype_name", "head_dim", "left", "right", "align", "scale", "varlen",
              "softcap", "sinks")


def check_artifact_pair(fwd, bwd, deterministic=None):
    """Raises SdpaError unless `fwd` is a forward artifact and `bwd` (if not
    None) a backward one for the same attention: dtype, head_dim, band,
    alignment, scale, dense/THD form, softcap and sinks. A mismatched pair would run, but
    give the gradients of another attention than the forward computed.
    `deterministic` True/False also requires bwd's deterministic flag.
    """
    if fwd.direction != "forward":
        raise SdpaError(1, f"{fwd.path}: expected a forward artifact, got a {fwd.direction} one")
    if bwd is None:
        return
    if bwd.direction != "backward":
        raise SdpaError(1, f"{bwd.path}: expected a backward artifact, got a {bwd.direction} one")
    for key in _PAIR_KEYS:
        want, got = getattr(fwd, key), getattr(bwd, key)
        if want != got:
            raise SdpaError(1, f"{bwd.path}: {key} is {got!r}, but the forward artifact "
                               f"{fwd.path} has {want!r}")
    if deterministic is not None and bwd.deterministic != bool(deterministic):
        raise SdpaError(1, f"{bwd.path}: expected a "
                           f"{'' if deterministic else 'non-'}deterministic backward artifact")


def attention_function(deterministic=None):
    """A torch.autograd.Function over a forward and a backward artifact.

        Fn = attention_function()
        o = Fn.apply(q, k, v, fwd_artifact, bwd_artifact, "bshd")

    The forward saves q, k, v, O and LSE; the backward runs the backward
    artifact's kernels on them. Dense layouts only. The pair is checked by
    check_artifact_pair (same band, scale, dtype, head_dim); with
    `deterministic` True (False) the backward artifact must (must not) be
    deterministic. bwd_artifact None gives a forward-only function whose
    backward raises.
    """
    import torch

    class SdpaAttention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, fwd, bwd, layout="bhsd"):
            if layout == "thd":
                raise SdpaError(1, "layout: the autograd function takes dense layouts "
                                   "(bhsd, bshd), not thd")
            check_artifact_pair(fwd, bwd, deterministic)
            o, lse = fwd.forward(q, k, v, layout=layout)
            ctx.save_for_backward(q, k, v, o, lse)
            ctx.bwd = bwd
            ctx.layout = layout
            return o

        @staticmethod
        def backward(ctx, do):
            if ctx.bwd is None:
                raise SdpaError(1, "backward: no backward artifact was given")
            q, k, v, o, lse = ctx.saved_tensors
            dq, dk, dv = ctx.bwd.backward(q, k, v, o, lse, do.contiguous(),
                                          layout=ctx.layout)
            return dq, dk, dv, None, None, None

    return SdpaAttention
