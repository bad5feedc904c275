#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One chart per operation family from the benchmark's CSV (bench --csv FILE).

    tools/bench_chart.py OUTDIR H100=/path/bench.csv [H200=/path/bench.csv ...]

For every operation (block sync, grid sync, ...) it writes OUTDIR/<operation>.png:
the ratio cgc / anchor of each configuration (lower is better), one bar per
device given, a line at 1.0 (the anchor) and a mark at each row's target.
Rows that are settings (design comparisons), skipped or missing are left out;
a WRONG row is drawn in grey with "WRONG" over it. Needs gnuplot (Debian:
gnuplot-nox); the CSV comes back from a GPU run (tools/gpu/run.sh).
"""
import csv
import os
import re
import subprocess
import sys


def load(path):
    """The rows of a benchmark CSV. Lines that start with '#' are metadata
    (GPU, driver, clocks, commit: bench --csv and the workload binaries write
    them first; a file the workloads appended to holds several) and are
    skipped wherever they are."""
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]


def main(argv):
    if len(argv) < 3 or any("=" not in a for a in argv[2:]):
        sys.stderr.write(__doc__)
        return 2
    outdir = argv[1]
    devices = [(a.split("=", 1)[0], load(a.split("=", 1)[1])) for a in argv[2:]]
    os.makedirs(outdir, exist_ok=True)
    ops = []
    for _, rows in devices:
        for r in rows:
            if r["operation"] not in ops:
                ops.append(r["operation"])
    made = 0
    for op in ops:
        configs, ratio, target, wrong = [], {}, {}, set()
        for dev, rows in devices:
            for r in rows:
                if r["operation"] != op or r["cgc"].startswith("setting:") or r["cgc"].startswith("probe:"):
                    continue
                if r["verdict"] in ("SKIP", "MISSING") or not r["ratio"]:
                    continue
                key = r["config"] + ("" if r["cgc"] == first_call(rows, op) else " (" + r["cgc"] + ")")
                if key not in configs:
                    configs.append(key)
                ratio[(dev, key)] = float(r["ratio"])
                m = re.match(r"<=\s*([0-9.]+)", r["target"])
                if m:
                    target[key] = float(m.group(1))
                if r["verdict"] == "WRONG":
                    wrong.add((dev, key))
        if not configs:
            continue
        stem = re.sub(r"[^a-z0-9]+", "_", op.lower()).strip("_")
        dat = os.path.join(outdir, stem + ".dat")
        with open(dat, "w") as f:
            for i, c in enumerate(configs):
                vals = ["%.4f" % ratio.get((d, c), float("nan")) for d, _ in devices]
                f.write('%d "%s" %s %s\n' % (i, c.replace('"', "'"), " ".join(vals),
                                            "%.4f" % target[c] if c in target else "NaN"))
        n = len(devices)
        width = 0.8 / n
        plots = []
        for k, (d, _) in enumerate(devices):
            plots.append("'%s' using ($1+%.3f):%d:(%.3f) with boxes title '%s'" %
                         (dat, (k - (n - 1) / 2.0) * width, 3 + k, width, d))
        plots.append("'%s' using 1:%d with points pt 9 ps 2 lc rgb 'black' title 'target'" % (dat, 3 + n))
        plots.append("1.0 with lines dt 2 lc rgb 'black' title 'anchor (1.0)'")
        labels = "".join("set label 'WRONG' at %d,0.1 center tc rgb 'red'\n" % configs.index(c)
                         for _, c in wrong)
        script = """set terminal pngcairo size %d,480 noenhanced
set output '%s'
set title '%s: cgc / anchor (lower is better)'
set style fill solid 0.8 border -1
set yrange [0:1.15<*]
set xrange [-0.6:%f]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
set xtics (%s)
%s
plot %s
""" % (max(640, 120 * len(configs) + 240), os.path.join(outdir, stem + ".png"), op, len(configs) - 0.4,
       ", ".join('"%s" %d' % (c.replace('"', "'"), i) for i, c in enumerate(configs)), labels, ", ".join(plots))
        gp = os.path.join(outdir, stem + ".gp")
        with open(gp, "w") as f:
            f.write(script)
        subprocess.run(["gnuplot", gp], check=True)
        made += 1
    print("bench_chart: %d charts in %s" % (made, outdir))
    return 0 if made else 1


def first_call(rows, op):
    for r in rows:
        if r["operation"] == op and not r["cgc"].startswith(("setting:", "probe:")):
            return r["cgc"]
    return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv))
