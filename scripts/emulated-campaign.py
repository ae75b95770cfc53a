#!/usr/bin/env python3
"""Random kernel configurations, compiled and run on the PTX emulator.

Draws --count configurations of bench/make_artifacts.py's Config (direction,
element type, head dim, band edges and alignment, THD, sinks, softcap, dQ
mode, deterministic, tiles and warps) from --seed, compiles
each with sdpa-opt (a configuration the lowering refuses is counted, with
its diagnostic, and skipped) and runs it with sdpa-kernel-check on the
emulator's libcuda.so.1 (emulator/) against the float64 reference, one
process per artifact. Writes campaign.md to --out and exits 1 on any
failure; a failing configuration is printed whole, to go into CONFIGS.

  scripts/emulated-campaign.py --build build --count 200 --seed 1 --out DIR
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
from make_artifacts import B, F, Config, compile_artifact  # noqa: E402


def draw(rng):
    """One random configuration (the lowering decides what it accepts)."""
    direction = rng.choice([F, B])
    head_dim = rng.choice([8 * rng.randint(1, 32), 64, 128, 256])
    edge = lambda: rng.choice([None, 0, rng.randint(0, 40), rng.randint(0, 300)])  # noqa: E731
    tile = lambda: rng.choice([None, None, 16, 32, 64, 128])  # noqa: E731
    backward = direction == B
    warps = None if backward else rng.choice([None, None, 2, 4, 8])
    tile_q, tile_kv = tile(), tile()
    # Mostly shapes the lowering takes (the rest check its refusals): the
    # backward's tile_q at most tile_kv, the forward's a multiple of 16 rows
    # per warp.
    if rng.random() < 0.8:
        if backward and tile_q and tile_kv and tile_q > tile_kv:
            tile_q, tile_kv = tile_kv, tile_q
        if not backward and warps and tile_q:
            tile_q = max(tile_q, 16 * warps)
    return Config(
        direction, rng.choice(["f16", "bf16"]), head_dim, edge(), edge(),
        rng.choice(["top_left", "bottom_right"]), thd=rng.random() < 0.3,
        deterministic=backward and rng.random() < 0.5, tile_q=tile_q, tile_kv=tile_kv,
        softcap=rng.choice([None, None, 2.0, 50.0]), sinks=rng.random() < 0.25,
        warps=warps,
        dq_mode=rng.choice([None, "recompute"]) if backward else None)


def check(kernel_check, driver_dir, manifest):
    env = dict(os.environ, LD_LIBRARY_PATH=driver_dir)
    res = subprocess.run([kernel_check, manifest], text=True, capture_output=True, env=env)
    return res.returncode, res.stdout + res.stderr


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=int(time.time()))
    p.add_argument("--out", default="emulated-campaign")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    configs = {f"c{i:04d}": draw(rng) for i in range(args.count)}
    # A copy of sdpa-opt, so that a rebuild during the campaign cannot swap
    # it out between configurations.
    sdpa_opt = os.path.join(args.out, "sdpa-opt")
    shutil.copy2(os.path.join(args.build, "bin", "sdpa-opt"), sdpa_opt)
    compile_args = SimpleNamespace(sdpa_opt=sdpa_opt, out=args.out, ptxas=None)
    kernel_check = os.path.join(args.build, "runtime", "check", "sdpa-kernel-check")
    driver_dir = os.path.join(args.build, "emulator", "driver")

    def one(name):
        refused = compile_artifact(name, configs, compile_args)
        if refused:
            return name, "refused", refused
        code, text = check(kernel_check, driver_dir, os.path.join(args.out, name + ".manifest"))
        return name, "ok" if code == 0 else "FAIL", text

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, configs))
    counts = {k: sum(r[1] == k for r in results) for k in ("ok", "refused", "FAIL")}
    lines = [f"# Emulated kernel campaign, seed {args.seed}, {args.count} configurations\n",
             f"{counts['ok']} passed, {counts['refused']} refused by the lowering, "
             f"{counts['FAIL']} failed.\n"]
    for name, verdict, text in results:
        if verdict == "FAIL":
            lines.append(f"\n## FAIL {name}: {configs[name]}\n\n```\n{text.strip()}\n```\n")
    refusals = {}
    for name, verdict, text in results:
        if verdict == "refused":
            reason = text.split("error: ")[-1][:120]
            refusals[reason] = refusals.get(reason, 0) + 1
    lines.append("\n## Refusals (first diagnostic, count)\n\n")
    lines += [f"* {n} x {r}\n" for r, n in sorted(refusals.items(), key=lambda x: -x[1])]
    with open(os.path.join(args.out, "campaign.md"), "w") as f:
        f.writelines(lines)
    print("".join(lines[:2]))
    for name, verdict, _ in results:
        if verdict == "FAIL":
            print(f"FAIL {name}: {configs[name]}")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
