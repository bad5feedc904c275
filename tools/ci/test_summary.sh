#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# After `bazel test //...`: what each test binary actually ran, from the JUnit
# XML Bazel keeps per target (bazel-testlogs/<target>/test.xml). Every cgc
# Criterion binary writes its own there (tests/support/cgtest.c: one testcase
# per case, SKIPPED ones marked); for a target that writes none (a shell
# test, or a binary that crashed before Criterion finished) Bazel writes one
# testcase for the whole target, failed when the target failed. Bazel counts
# targets, and a GPU test whose every case skipped (no sm_90 device here)
# counts as a passed target: this lists, per binary, its cases passed, failed
# and skipped and the first skip reason, then the totals.
#   tools/ci/test_summary.sh          the table and a totals line
#   tools/ci/test_summary.sh --sums   one line "PASSED FAILED SKIPPED FILES" (.ci/run)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
python3 - "${1:-}" <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

sums = sys.argv[1] == "--sums"
files = []
for d, _, fs in os.walk("bazel-testlogs", followlinks=True):
    if "test.xml" in fs:
        files.append(os.path.join(d, "test.xml"))
files.sort()
tp = tf = ts = nothing = 0
for path in files:
    name = os.path.dirname(path)[len("bazel-testlogs/"):]
    p = f = s = 0
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        f = 1
        note = "unreadable test.xml (%s): counted as one failure" % e
    else:
        for case in root.iter("testcase"):
            status = (case.get("status") or "").upper()
            if case.find("failure") is not None or case.find("error") is not None or status in ("FAILED", "CRASHED"):
                f += 1
            elif case.find("skipped") is not None or status == "SKIPPED":
                s += 1
            else:
                p += 1
        note = ""
        log = os.path.join(os.path.dirname(path), "test.log")
        if os.path.exists(log):
            for line in open(log, errors="replace"):
                if line.startswith("cgc: ") and "SKIPPED" in line:
                    note = line[5:].strip()
    if p == 0 and f == 0 and s > 0:
        nothing += 1
    tp, tf, ts = tp + p, tf + f, ts + s
    if not sums:
        print("%-44s %3d passed %3d failed %3d skipped  %s" % (name, p, f, s, note[:110]))
if sums:
    print(tp, tf, ts, len(files))
else:
    print("cases: %d passed, %d failed, %d skipped; %d binaries ran nothing (every case skipped); %d test.xml files"
          % (tp, tf, ts, nothing, len(files)))
PY
