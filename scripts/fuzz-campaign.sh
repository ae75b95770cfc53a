#!/usr/bin/env bash
# Runs a fuzz campaign of at least SDPA_FUZZ_RUNS executions per target on a
# machine without LLVM, from the bundle scripts/fuzz-bundle.sh packs
# (statically linked ASan + UBSan + libFuzzer binaries, seed corpora,
# dictionaries, regressions, flags). Needs bash, coreutils and python3 only.
#   OUT=<dir> DEADLINE=<seconds> bash scripts/fuzz-campaign.sh BUNDLE_DIR
# Unpacks the bundle, replays fuzz/regressions first, then runs the targets at
# once, each on its share of the cores: worker i of a target is one libFuzzer
# process with -seed=SEED+i and -runs=RUNS/workers, from the seed corpus into
# a corpus of its own (libFuzzer's -jobs mode by hand, so that each worker has
# its seed, but -reload=0: re-running each other's finds would cost the
# lowering target a PTX compile per new kernel and worker, and every target a
# growing share of its runs on inputs already run). Flags and sanitizer
# options are scripts/fuzz.sh's.
# Every worker stops at -max_total_time, so that the summary is written
# before DEADLINE; SIGINT 12 s later if it has not. Writes to OUT (a few KB):
#   summary.txt        one line per target: executions (the sum over its
#                      workers of stat::number_of_executed_units), whether
#                      that reached SDPA_FUZZ_RUNS, findings, then each
#                      worker's exit status and final stats
#   <target>-w<i>.tail the end of the log of a worker that failed
#   crashes/           every crash-, leak-, timeout- and oom- input
# The exit status is 1 after a finding or a failed regression, 3 if a target
# fell short of its executions, else 0.
#   DEADLINE          seconds from the start to the summary (default 540)
#   SDPA_FUZZ_ONLY    the targets, space-separated (default: the bundle's)
#   SDPA_FUZZ_RUNS    executions per target (default 1000000)
#   SDPA_FUZZ_CORES   workers per target, e.g. "sdpa-bounds-fuzzer=10
#                     sdpa-ir-fuzzer=1"; unnamed targets share what is left
#                     of SDPA_FUZZ_CPUS in proportion to the cost below
#   SDPA_FUZZ_CPUS    workers in all (default: nproc)
#   SDPA_FUZZ_SEED    worker i runs -seed=SEED+i (default 1)
#   SDPA_FUZZ_TIMEOUT seconds per input before libFuzzer reports a timeout
#                     (default 60: a timeout ends that worker's share)
#   WORK              scratch directory (default: a new one under /tmp)
set -uo pipefail
start=$SECONDS
bundle=$(realpath "${1:?usage: OUT=dir DEADLINE=s bash scripts/fuzz-campaign.sh BUNDLE_DIR}")
out=${OUT:?OUT must name the output directory}
mkdir -p "$out/crashes"
out=$(realpath "$out")
deadline=${DEADLINE:-540}
runs=${SDPA_FUZZ_RUNS:-1000000}
cpus=${SDPA_FUZZ_CPUS:-$(nproc)}
seed=${SDPA_FUZZ_SEED:-1}
work=${WORK:-$(mktemp -d /tmp/sdpa-fuzz-campaign.XXXXXX)}
mkdir -p "$work"
export ASAN_OPTIONS="allow_user_poisoning=0:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# Core-seconds per 10^6 executions of each target on the 2-core machine the
# bundle is made on (one worker, ASan + UBSan, seeds included; the lowering's
# includes about 100 s per worker of PTX for its seeds; docs/Robustness.md,
# "Campaigns on a lent machine"): the default split gives each target cores
# in proportion, so that they reach their runs at about the same time.
declare -A cost=(
  [sdpa-bounds-fuzzer]=22000
  [sdpa-lowering-fuzzer]=8000
  [sdpa-import-fuzzer]=1700
  [sdpa-ir-fuzzer]=350
)

targets=()
declare -A flags
while read -r name rest; do
  [ -n "$name" ] || continue
  case " ${SDPA_FUZZ_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
  targets+=("$name")
  flags[$name]=${rest//@/$work}
done < "$bundle/targets"
[ ${#targets[@]} -gt 0 ] || { echo "no target of '${SDPA_FUZZ_ONLY:-}' in $bundle/targets"; exit 1; }

# Unpack with python3 (no xz needed), the binaries in parallel.
python3 - "$bundle" "$work" "${targets[@]}" <<'EOF' || exit 1
import concurrent.futures, lzma, os, shutil, sys, tarfile
bundle, work, targets = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(f"{work}/bin", exist_ok=True)
def unpack(target):
    with lzma.open(f"{bundle}/bin/{target}.xz") as src, open(f"{work}/bin/{target}", "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 24)
    os.chmod(f"{work}/bin/{target}", 0o755)
with concurrent.futures.ThreadPoolExecutor() as pool:
    list(pool.map(unpack, targets))
for archive in ("seeds", "regressions"):
    with tarfile.open(f"{bundle}/{archive}.tar.xz") as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.12, 3.11.4
            tar.extractall(work, filter="data")
        else:
            tar.extractall(work)
shutil.copytree(f"{bundle}/dict", f"{work}/dict", dirs_exist_ok=True)
EOF

# The binaries need glibc 2.36 and libstdc++ (and nothing of LLVM's).
for target in "${targets[@]}"; do
  if ! "$work/bin/$target" -help=1 > "$work/$target.help" 2>&1; then
    { echo "$target does not start here:"; tail -5 "$work/$target.help"; } | tee -a "$out/summary.txt"
    exit 1
  fi
done

# Workers per target: SDPA_FUZZ_CORES, the rest in proportion to cost.
declare -A workers
for spec in ${SDPA_FUZZ_CORES:-}; do workers[${spec%%=*}]=${spec#*=}; done
split=$(python3 - "$cpus" "${targets[@]}" <<EOF
import sys
cost = {$(for t in "${!cost[@]}"; do printf '"%s": %s, ' "$t" "${cost[$t]}"; done)}
given = {$(for t in "${!workers[@]}"; do printf '"%s": %s, ' "$t" "${workers[$t]}"; done)}
cpus, targets = int(sys.argv[1]), sys.argv[2:]
rest = [t for t in targets if t not in given]
left = max(len(rest), cpus - sum(given.get(t, 0) for t in targets))
total = sum(cost.get(t, 1000) for t in rest) or 1
share = {t: max(1, int(left * cost.get(t, 1000) / total)) for t in rest}
while rest and sum(share.values()) < left:  # hand out what rounding left
    t = max(rest, key=lambda t: cost.get(t, 1000) / share[t])
    share[t] += 1
while sum(share.values()) > left and max(share.values(), default=1) > 1:
    t = min((t for t in rest if share[t] > 1), key=lambda t: cost.get(t, 1000) / share[t])
    share[t] -= 1  # at least one each, which the minimum may overdraw
print(" ".join(f"{t}={given.get(t, share.get(t))}" for t in targets))
EOF
)
for spec in $split; do workers[${spec%%=*}]=${spec#*=}; done

summary=$out/summary.txt
{
  echo "# sdpa fuzz campaign, $(date -u +%Y-%m-%dT%H:%MZ)"
  sed 's/^/# bundle: /' "$bundle/BUILD_INFO"
  echo "# machine: $(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(awk '/MemTotal/ {print int($2/1048576) " GiB"}' /proc/meminfo)"
  echo "# runs per target $runs, deadline $deadline s, timeout ${SDPA_FUZZ_TIMEOUT:-60} s, workers: $split"
} > "$summary"
findings=0

# Regressions first: each target replays its fuzz/regressions inputs.
for target in "${targets[@]}"; do
  dir=$work/regressions/$target
  [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] || continue
  read -ra f <<< "${flags[$target]}"
  opts=(); for x in "${f[@]}"; do [ "${x#-}" != "$x" ] && opts+=("$x"); done
  if "$work/bin/$target" "${opts[@]}" "$dir"/* > "$work/$target.regressions.log" 2>&1; then
    echo "$target: $(ls "$dir" | wc -l) regression inputs replayed, ok" >> "$summary"
  else
    echo "$target: REGRESSION FAILED (see $target-regressions.tail)" >> "$summary"
    tail -60 "$work/$target.regressions.log" > "$out/$target-regressions.tail"
    findings=1
  fi
done

# The campaign. Each worker stops itself at -max_total_time; the guard
# interrupts one that is still inside a long input 12 s later (libFuzzer
# prints its final stats on SIGINT and exits 72) and kills it 5 s after that.
fuzz_time=$(( deadline - (SECONDS - start) - 20 ))
if [ "$fuzz_time" -lt 10 ]; then
  echo "no time left to fuzz (DEADLINE=$deadline)" | tee -a "$summary"; exit 1
fi
for target in "${targets[@]}"; do
  n=${workers[$target]}
  per=$(( (runs + n - 1) / n ))
  read -ra f <<< "${flags[$target]}"
  opts=(); dirs=()
  for x in "${f[@]}"; do if [ "${x#-}" != "$x" ]; then opts+=("$x"); else dirs+=("$x"); fi; done
  mkdir -p "$work/$target/artifacts"
  for ((i = 0; i < n; i++)); do
    mkdir -p "$work/$target/w$i.corpus"
    (
      cd "$work/$target" || exit 1
      timeout -s INT -k 5 $((fuzz_time + 12)) "$work/bin/$target" \
        -seed=$((seed + i)) -runs="$per" -max_total_time="$fuzz_time" \
        -timeout="${SDPA_FUZZ_TIMEOUT:-60}" -rss_limit_mb=3072 \
        -print_final_stats=1 -artifact_prefix="$work/$target/artifacts/w$i-" \
        -reload=0 "${opts[@]}" "w$i.corpus" "${dirs[@]}" > "w$i.log" 2>&1
      echo $? > "w$i.rc"
    ) &
  done
done
wait

# The summary, from each worker's -print_final_stats.
python3 - "$work" "$out" "$runs" "${targets[@]}" >> "$summary" <<'EOF'
import glob, os, re, shutil, sys
work, out, runs, targets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
status = 0
noise = re.compile(r"^#\d+\s+(NEW|REDUCE|pulse|RELOAD)\b")
for target in targets:
    d = f"{work}/{target}"
    total, lines, bad = 0, [], False
    for log in sorted(glob.glob(f"{d}/w*.log"), key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])):
        w = os.path.basename(log)[:-4]
        text = open(log, errors="replace").read()
        stats = dict(re.findall(r"^stat::(\w+):\s*(\d+)", text, re.M))
        rc = open(f"{d}/{w}.rc").read().strip() if os.path.exists(f"{d}/{w}.rc") else "?"
        execs = int(stats.get("number_of_executed_units", 0))
        total += execs
        cov = re.findall(r"cov: (\d+)", text)
        lines.append(f"  {w}: exit {rc}, {execs} executions, {stats.get('average_exec_per_sec', '?')}/s, "
                     f"cov {cov[-1] if cov else '?'}, {stats.get('new_units_added', '?')} new units, "
                     f"peak rss {stats.get('peak_rss_mb', '?')} MB, slowest input {stats.get('slowest_unit_time_sec', '?')} s")
        if rc not in ("0", "124"):  # 124: stopped by the guard (final stats printed)
            bad = True
            kept = [l for l in text.splitlines() if not noise.match(l)]
            with open(f"{out}/{target}-{w}.tail", "w") as f:
                f.write("\n".join(kept[-60:]) + "\n")
    found = []
    for path in sorted(glob.glob(f"{d}/artifacts/*")):
        name = os.path.basename(path)
        if re.match(r"w\d+-(crash|leak|timeout|oom)-", name):
            shutil.copy(path, f"{out}/crashes/{target}-{name}")
            found.append(name)
    slow = len(glob.glob(f"{d}/artifacts/w*-slow-unit-*"))
    verdict = "reached" if total >= runs else "SHORT of"
    print(f"{target}: {total} executions ({verdict} {runs}), "
          f"{'FINDINGS: ' + ' '.join(found) if found else 'no finding'}"
          f"{', a worker exited non-zero' if bad and not found else ''}; "
          f"{len(lines)} workers, {slow} slow-unit files (each a new slowest input, over 10 s)")
    print("\n".join(lines))
    if found or bad:
        status = max(status, 1)
    elif total < runs and status == 0:
        status = 3
sys.exit(status)
EOF
status=$?
[ $findings -ne 0 ] && status=1
echo "# done in $((SECONDS - start)) s, exit $status" >> "$summary"
cat "$summary"
exit $status
