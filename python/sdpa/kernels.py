"""The kernel cache: one compiled artifact per configuration, found or built.

    cache = KernelCache()                    # $SDPA_CACHE_DIR or ~/.cache/sdpa-dialect
    path = cache.manifest(select("forward", "bf16", 64, left=127, right=0))

On disk (docs/Frontends.md): `<root>/v1/<key>.ptx` and `<key>.manifest`, the
artifact `sdpa-opt` writes (docs/Artifact.md), named by the configuration's
key (sdpa.config). A lookup searches, in order, the directories of
$SDPA_KERNEL_PATH (colon-separated; prebuilt sets), the package's own
prebuilt/ folder, and the cache; a configuration found nowhere is compiled
into the cache by sdpa-opt ($SDPA_OPT, PATH, or the checkout's build/bin),
once: later lookups of any shape find it. Without sdpa-opt a
MissingKernelError names the configuration and the exact command that
builds it. Every artifact found is checked against its configuration (the
manifest's direction, dtype, head dim, band, layout, dQ mode, scale,
softcap), so a
stale or misplaced file is an error, never another attention.

The prebuilt set (machines without MLIR):

    python3 -m sdpa.kernels prebuild --out DIR [--sdpa-opt PATH] [-j N]   # COMMON, a line each
    python3 -m sdpa.kernels build --out DIR KEY...                 # named configurations
    python3 -m sdpa.kernels list                                   # COMMON's keys
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from .config import HEAD_DIMS, ConfigError, KernelConfig, float32, select

__all__ = ["KernelCache", "MissingKernelError", "StaleKernelError", "COMMON", "read_manifest",
           "find_sdpa_opt", "default_cache_dir", "FORMAT"]

#: The cache's layout version: the folder under the root.
FORMAT = "v1"


class MissingKernelError(LookupError):
    """No artifact for a configuration, and no sdpa-opt to compile it."""


class StaleKernelError(RuntimeError):
    """An artifact whose manifest does not say what its key says."""


def _common():
    """The prebuilt set: both dtypes and head dims, forward and both
    backwards, for full attention, causal, and the causal sliding windows of
    gpt-oss (128 keys) and Mistral (4096 keys), top-left aligned (which is
    every band of a dense call with Sq = Skv, sdpa.torch_ops), dense; and
    packed (THD) bf16 causal and window 128 at both head dims; and Gemma 2's
    logit softcap 50 (bf16, causal and its 4096-key window): both ways at
    d 64 and 128, the forward at its own d 256 (the backward where the
    schema's table has d 256); and gpt-oss's sinks (both dtypes, d 64, its
    128-key window and dense causal). Each at `select`'s index width, and
    each 32-bit one's 64-bit twin too (`wide()`: the calls past 2^31 - 1
    elements)."""
    configs = []
    bands = ((None, None), (None, 0), (127, 0), (4095, 0))
    for dtype in ("bf16", "f16"):
        for head_dim in (64, 128):
            for left, right in bands:
                configs += _directions(dtype, head_dim, left, right, False)
    for head_dim in (64, 128):
        for left, right in bands[1:3]:
            configs += _directions("bf16", head_dim, left, right, True)
    for head_dim in (64, 128, 256):
        for left, right in ((None, 0), (4095, 0)):
            configs += _directions("bf16", head_dim, left, right, False, softcap=50.0)
    for dtype in ("bf16", "f16"):
        for left, right in ((127, 0), (None, 0)):
            configs += _directions(dtype, 64, left, right, False, sinks=True)
    return tuple(configs) + tuple(c.wide() for c in configs if c.index_bits != 64)


def _directions(dtype, head_dim, left, right, varlen, softcap=None, sinks=False):
    """The forward and both backwards of one attention (the backwards where
    the schema has the head dim)."""
    configs = [select("forward", dtype, head_dim, left, right, varlen=varlen, softcap=softcap,
                      sinks=sinks)]
    if head_dim in HEAD_DIMS["backward"]:
        configs += [select("backward", dtype, head_dim, left, right, varlen=varlen,
                           deterministic=det, softcap=softcap, sinks=sinks)
                    for det in (False, True)]
    return configs


COMMON = _common()


def default_cache_dir():
    """$SDPA_CACHE_DIR, else $XDG_CACHE_HOME/sdpa-dialect, else ~/.cache/sdpa-dialect."""
    if os.environ.get("SDPA_CACHE_DIR"):
        return os.environ["SDPA_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sdpa-dialect")


def find_sdpa_opt():
    """sdpa-opt from $SDPA_OPT, PATH, or the checkout's build/bin; None if none."""
    env = os.environ.get("SDPA_OPT")
    if env:
        return env if os.path.isfile(env) else None
    found = shutil.which("sdpa-opt")
    if found:
        return found
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    candidate = os.path.join(root, "build", "bin", "sdpa-opt")
    return candidate if os.path.isfile(candidate) else None


def read_manifest(path):
    """The header keys of a manifest (docs/Artifact.md) as strings, and its
    kernels as a list of (name, role): enough to check it against a
    configuration and to name its kernels, without the runtime."""
    header, kernels = {}, []
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "sdpa-artifact 1":
        raise StaleKernelError(f"{path}: line 1: expected 'sdpa-artifact 1'")
    for line in lines[1:]:
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "kernel":
            name, _, role = value.partition(" ")
            kernels.append((name, role))
        elif not kernels:
            header[key] = value
        elif key not in ("block", "shared_bytes", "grid", "param"):
            header[key] = value  # header keys may follow the kernels
    return header, kernels


def _expected_header(cfg):
    edge = lambda e: "inf" if e is None else str(e)  # noqa: E731
    want = {"direction": cfg.direction, "dtype": cfg.dtype, "head_dim": str(cfg.head_dim),
            "band": f"{edge(cfg.left)} {edge(cfg.right)} {cfg.align}",
            "varlen": "1" if cfg.varlen else "0", "sinks": "1" if cfg.sinks else "0",
            "index_bits": str(cfg.index_bits)}
    if cfg.direction == "backward":
        want["deterministic"] = "1" if cfg.deterministic else "0"
    if cfg.tile_q:
        want["tile_q"] = str(cfg.tile_q)
    if cfg.tile_kv:
        want["tile_kv"] = str(cfg.tile_kv)
    return want


def check_manifest(path, cfg):
    """Raises StaleKernelError unless the manifest at `path` is `cfg`'s."""
    header, kernels = read_manifest(path)
    absent = {"deterministic": "0", "sinks": "0", "index_bits": "64"}  # keys written only if not
    for key, value in _expected_header(cfg).items():
        if header.get(key, absent.get(key)) != value:
            raise StaleKernelError(f"{path}: {key} is {header.get(key)!r}, but its key "
                                   f"{cfg.key} says {value!r} (a stale or misplaced "
                                   "artifact: delete it to rebuild)")
    try:
        scale = float32(float(header.get("scale", "nan")))
    except ValueError:
        scale = float("nan")
    if scale != cfg.scale:
        raise StaleKernelError(f"{path}: scale is {header.get('scale')!r}, but its key "
                               f"{cfg.key} says {cfg.scale:.9g} (a stale or misplaced "
                               "artifact: delete it to rebuild)")
    # The cap the kernels bake in: no `softcap` key is none.
    try:
        softcap = float32(float(header["softcap"])) if "softcap" in header else None
    except ValueError:
        softcap = float("nan")
    if softcap != cfg.softcap:
        raise StaleKernelError(f"{path}: softcap is {header.get('softcap', 'none')!r}, but its "
                               f"key {cfg.key} says "
                               f"{'none' if cfg.softcap is None else f'{cfg.softcap:.9g}'} "
                               "(a stale or misplaced artifact: delete it to rebuild)")
    ptx = os.path.join(os.path.dirname(path), header.get("ptx", ""))
    if not header.get("ptx") or not os.path.isfile(ptx):
        raise StaleKernelError(f"{path}: its PTX {ptx} is missing (delete the manifest to rebuild)")
    return header, kernels


def compile_config(cfg, out_dir, sdpa_opt):
    """Compiles `cfg` with `sdpa_opt` into `out_dir/<key>.{ptx,manifest}`,
    atomically: into a fresh folder first, then renamed into place (PTX
    before manifest), so a concurrent lookup sees the whole artifact or
    none. Returns the manifest path; RuntimeError with sdpa-opt's
    diagnostic if it refuses."""
    os.makedirs(out_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".compile-", dir=out_dir)
    try:
        res = subprocess.run([sdpa_opt, cfg.pipeline(tmp), "-o", os.devnull], input=cfg.mlir(),
                             text=True, capture_output=True)
        if res.returncode != 0:
            first = (res.stderr.strip().splitlines() or ["(no diagnostic)"])[0]
            raise RuntimeError(f"sdpa-opt refused {cfg.key} ({cfg.describe()}): {first}")
        for ext in ("ptx", "manifest"):
            os.replace(os.path.join(tmp, f"{cfg.key}.{ext}"),
                       os.path.join(out_dir, f"{cfg.key}.{ext}"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return os.path.join(out_dir, f"{cfg.key}.manifest")


class KernelCache:
    """Artifacts by configuration (see the module's doc for the lookup order)."""

    def __init__(self, root=None, search_path=None, sdpa_opt="auto"):
        self.root = root or default_cache_dir()
        self.dir = os.path.join(self.root, FORMAT)
        if search_path is None:
            env = os.environ.get("SDPA_KERNEL_PATH", "")
            search_path = [p for p in env.split(os.pathsep) if p]
            bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prebuilt")
            if os.path.isdir(bundled):
                search_path.append(bundled)
        self.search_path = list(search_path)
        self.sdpa_opt = find_sdpa_opt() if sdpa_opt == "auto" else sdpa_opt
        #: Configurations compiled by this object (each at most once).
        self.compiled = []

    def locate(self, cfg):
        """The manifest path of `cfg` if an artifact exists, else None."""
        for d in self.search_path + [self.dir]:
            path = os.path.join(d, f"{cfg.key}.manifest")
            if os.path.isfile(path):
                return path
        return None

    def manifest(self, cfg):
        """The checked manifest path of `cfg`, compiling it if needed."""
        path = self.locate(cfg)
        if path is None:
            if not self.sdpa_opt:
                raise MissingKernelError(self.missing_message(cfg))
            path = compile_config(cfg, self.dir, self.sdpa_opt)
            self.compiled.append(cfg)
        check_manifest(path, cfg)
        return path

    def missing_message(self, cfg):
        places = ", ".join(self.search_path + [self.dir])
        return (f"no kernel for {cfg.describe()} (key {cfg.key}): not in {places}, and no "
                "sdpa-opt to compile it (set SDPA_OPT or put sdpa-opt on PATH). Build it "
                "where sdpa-opt is installed with `python3 -m sdpa.kernels build --out DIR "
                f"{cfg.key}` and set SDPA_KERNEL_PATH=DIR here")


def _build(configs, out_dir, sdpa_opt, log=sys.stdout, jobs=1):
    """Compiles each configuration not yet in `out_dir` (`jobs` sdpa-opt
    processes at a time), with a progress line each as it finishes; returns
    the number refused."""
    total = len(configs)
    done = [0, 0]  # finished, refused
    lock = threading.Lock()

    def one(cfg):
        t0 = time.monotonic()
        if os.path.isfile(os.path.join(out_dir, f"{cfg.key}.manifest")):
            status = "present"
        else:
            try:
                compile_config(cfg, out_dir, sdpa_opt)
                status = f"compiled in {time.monotonic() - t0:.1f} s"
            except RuntimeError as e:
                status = f"REFUSED: {e}"
        with lock:
            done[0] += 1
            done[1] += status.startswith("REFUSED")
            print(f"[{done[0]:{len(str(total))}}/{total}] {cfg.key}: {status}", file=log,
                  flush=True)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, configs))
    return done[1]


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m sdpa.kernels",
                                description="Builds kernel artifacts by configuration key.")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name, text in (("prebuild", "compile the common set (COMMON)"),
                       ("build", "compile the configurations named by key")):
        s = sub.add_parser(name, help=text)
        s.add_argument("--out", required=True, help="the directory (SDPA_KERNEL_PATH entry)")
        s.add_argument("--sdpa-opt", help="sdpa-opt (default: $SDPA_OPT, PATH, build/bin)")
        s.add_argument("-j", "--jobs", type=int, default=1, help="sdpa-opt processes at a time")
        if name == "build":
            s.add_argument("keys", nargs="+", help="configuration keys")
    sub.add_parser("list", help="print the common set's keys")
    args = p.parse_args(argv)
    if args.cmd == "list":
        for cfg in COMMON:
            print(cfg.key)
        return 0
    try:
        configs = COMMON if args.cmd == "prebuild" else [KernelConfig.from_key(k)
                                                         for k in args.keys]
    except ConfigError as e:
        p.error(str(e))
    sdpa_opt = args.sdpa_opt or find_sdpa_opt()
    if not sdpa_opt or not os.path.isfile(sdpa_opt):
        p.error("no sdpa-opt: pass --sdpa-opt or set SDPA_OPT")
    refused = _build(configs, args.out, sdpa_opt, jobs=args.jobs)
    print(f"{len(configs) - refused} of {len(configs)} in {args.out}", flush=True)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
