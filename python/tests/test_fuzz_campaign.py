#!/usr/bin/env python3
"""scripts/fuzz-campaign.sh on stand-in fuzz targets (no LLVM, no libFuzzer):
a bundle of small bash programs that answer like libFuzzer (-help=1, the
regression replay, -runs and -seed, the final stats) checks the campaign's
bookkeeping: the executions summed over workers, a target short of its runs
(exit 3), a crash input copied out (exit 1) and a failing regression (exit 1).
"""

import io
import lzma
import os
import shutil
import subprocess
import tarfile
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAMPAIGN = os.path.join(ROOT, "scripts", "fuzz-campaign.sh")

# FAKE_KIND: ok (runs all its -runs), short (half), crash (the worker of seed
# 2 leaves a crash input and exits 1). Given input files instead of -runs (the
# regression replay), it fails on a file that says BAD.
FAKE = r"""#!/usr/bin/env bash
kind=@KIND@
runs=0; seed=0; prefix=; inputs=()
for a in "$@"; do
  case $a in
    -help=1) echo "Usage: fake"; exit 0 ;;
    -runs=*) runs=${a#-runs=} ;;
    -seed=*) seed=${a#-seed=} ;;
    -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;;
    -*) ;;
    *) [ -f "$a" ] && inputs+=("$a") ;;
  esac
done
if [ "$runs" = 0 ]; then
  for f in "${inputs[@]}"; do grep -q BAD "$f" && { echo "==ERROR: bad input $f"; exit 1; }; done
  exit 0
fi
[ "$kind" = short ] && runs=$((runs / 2))
echo "#$runs DONE cov: 7 ft: 9"
if [ "$kind" = crash ] && [ "$seed" = 2 ]; then
  echo crash > "${prefix}crash-0123abcd"
  echo "==ERROR: deadly signal"
  exit 1
fi
echo "stat::number_of_executed_units: $runs"
echo "stat::average_exec_per_sec:     1000"
echo "stat::new_units_added:          3"
echo "stat::slowest_unit_time_sec:    0"
echo "stat::peak_rss_mb:              20"
"""


def tar_xz(path, files):
    with tarfile.open(path, "w:xz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def make_bundle(root, kinds, regressions):
    """A bundle of targets fake-<kind>; `regressions` maps target -> inputs."""
    bundle = os.path.join(root, "bundle")
    os.makedirs(os.path.join(bundle, "bin"))
    os.makedirs(os.path.join(bundle, "dict"))
    lines = []
    for kind in kinds:
        name = f"fake-{kind}"
        with lzma.open(os.path.join(bundle, "bin", name + ".xz"), "wb") as f:
            f.write(FAKE.replace("@KIND@", kind).encode())
        lines.append(f"{name} -max_len=64 @/seeds/{name}")
    with open(os.path.join(bundle, "targets"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(bundle, "BUILD_INFO"), "w") as f:
        f.write("commit test\n")
    tar_xz(os.path.join(bundle, "seeds.tar.xz"),
           {f"seeds/fake-{k}/seed0": "seed\n" for k in kinds})
    tar_xz(os.path.join(bundle, "regressions.tar.xz"),
           {f"regressions/{t}/{i}": text for t, inputs in regressions.items()
            for i, text in enumerate(inputs)})
    return bundle


class FuzzCampaignTest(unittest.TestCase):
    def campaign(self, kinds, runs, cores, regressions=None):
        root = tempfile.mkdtemp(prefix="sdpa-campaign-test-")
        self.addCleanup(shutil.rmtree, root, True)
        bundle = make_bundle(root, kinds, regressions or {})
        out = os.path.join(root, "out")
        env = dict(os.environ, OUT=out, DEADLINE="40", SDPA_FUZZ_RUNS=str(runs),
                   SDPA_FUZZ_CPUS=str(cores), WORK=os.path.join(root, "work"))
        res = subprocess.run(["bash", CAMPAIGN, bundle], env=env, capture_output=True,
                             text=True, timeout=120)
        with open(os.path.join(out, "summary.txt")) as f:
            return res.returncode, f.read(), out

    def test_executions_are_summed_over_workers(self):
        rc, summary, _ = self.campaign(["ok"], runs=1001, cores=2,
                                       regressions={"fake-ok": ["fine\n"]})
        self.assertEqual(rc, 0, summary)
        self.assertIn("fake-ok: 1 regression inputs replayed, ok", summary)
        # Two workers of ceil(1001 / 2) = 501 runs each.
        self.assertIn("fake-ok: 1002 executions (reached 1001), no finding; 2 workers", summary)
        self.assertIn("  w1: exit 0, 501 executions, 1000/s, cov 7, 3 new units", summary)

    def test_a_short_target_exits_3(self):
        rc, summary, _ = self.campaign(["ok", "short"], runs=1000, cores=2)
        self.assertEqual(rc, 3, summary)
        self.assertIn("fake-ok: 1000 executions (reached 1000)", summary)
        self.assertIn("fake-short: 500 executions (SHORT of 1000), no finding", summary)

    def test_a_crash_input_comes_back(self):
        rc, summary, out = self.campaign(["crash"], runs=300, cores=3)
        self.assertEqual(rc, 1, summary)
        self.assertIn("FINDINGS: w1-crash-0123abcd", summary)
        self.assertTrue(os.path.exists(os.path.join(out, "crashes",
                                                    "fake-crash-w1-crash-0123abcd")))
        with open(os.path.join(out, "fake-crash-w1.tail")) as f:
            self.assertIn("deadly signal", f.read())

    def test_a_failing_regression_fails_the_campaign(self):
        rc, summary, out = self.campaign(["ok"], runs=10, cores=1,
                                         regressions={"fake-ok": ["fine\n", "BAD\n"]})
        self.assertEqual(rc, 1, summary)
        self.assertIn("fake-ok: REGRESSION FAILED", summary)
        with open(os.path.join(out, "fake-ok-regressions.tail")) as f:
            self.assertIn("bad input", f.read())


if __name__ == "__main__":
    unittest.main()
