#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One chart per operation family from the benchmark's CSV (bench --csv FILE).

    bench/tools/bench_chart.py OUTDIR H100=/path/bench.csv[,workloads.csv] [H200=...]

For every operation (block sync, grid sync, ...) it writes OUTDIR/<operation>.png:
the ratio cgc / anchor of each configuration (lower is better), one bar per
device given, a line at 1.0 (the anchor) and a mark at each row's target.
Rows that are settings (design comparisons), skipped or missing are left out;
a WRONG row is marked "WRONG". Configurations are in numeric order; a chart
whose labels are long is drawn with horizontal bars. Needs gnuplot (Debian:
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
    # DEVICE=a.csv,b.csv: the benchmark's and the workloads' CSVs of one device.
    devices = [(a.split("=", 1)[0], [r for p in a.split("=", 1)[1].split(",") for r in load(p)]) for a in argv[2:]]
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
                # A row is its configuration, its cgc call where the family has
                # several, and its anchor where that call has several (the
                # floor and C++ CG, say): without the anchor the last row of
                # a (config, call) pair drew over the others.
                key = r["config"] + ("" if r["cgc"] == first_call(rows, op) else " (" + r["cgc"] + ")")
                if r["anchor"] != first_anchor(rows, op, r["cgc"]):
                    key += " vs " + r["anchor"]
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
        configs = ordered(configs)
        stem = re.sub(r"[^a-z0-9]+", "_", op.lower()).strip("_")
        dat = os.path.join(outdir, stem + ".dat")
        labels = [short(c) for c in configs]
        with open(dat, "w") as f:
            for i, c in enumerate(configs):
                vals = ["%.4f" % ratio.get((d, c), float("nan")) for d, _ in devices]
                f.write('%d "%s" %s %s\n' % (i, labels[i].replace('"', "'"), " ".join(vals),
                                            "%.4f" % target[c] if c in target else "NaN"))
        png = os.path.join(outdir, stem + ".png")
        wrong_idx = sorted(configs.index(c) for _, c in wrong)
        if max(len(l) for l in labels) > LONG_LABEL:
            script = horizontal(op, dat, png, labels, devices, wrong_idx)
        else:
            script = vertical(op, dat, png, labels, devices, wrong_idx)
        gp = os.path.join(outdir, stem + ".gp")
        with open(gp, "w") as f:
            f.write(script)
        subprocess.run(["gnuplot", gp], check=True)
        made += 1
    print("bench_chart: %d charts in %s" % (made, outdir))
    return 0 if made else 1


# Labels longer than this turn the chart on its side (horizontal bars), so a
# label is read level instead of at a slant or squashed under its bar.
LONG_LABEL = 12


def ordered(configs):
    """Configurations in numeric order (1, 2, 4, 8, 16 blocks per SM, not
    1, 8, 16, 2 as the rows came), by the numbers in their labels; labels
    without numbers keep their order, after the numbered ones."""
    def key(c):
        nums = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", c)]
        per = re.search(r"\((\d+)/SM\)", c)  # grid rows: blocks per SM first
        if per:
            nums.insert(0, float(per.group(1)))
        return (0, nums) if nums else (1, [])
    return sorted(configs, key=key)


def short(label):
    """A shorter label with the same meaning."""
    s = label.replace(" threads", " thr").replace(" x ", "x").replace("messages", "msgs")
    s = s.replace("cg_memcpy_async", "memcpy_async").replace("alignment", "align.")
    s = re.sub(r"\s+", " ", s).strip()
    return s


def vertical(op, dat, png, labels, devices, wrong_idx):
    n = len(devices)
    width = 0.8 / n
    plots = ["'%s' using ($1+%.3f):%d:(%.3f) with boxes title '%s'" % (dat, (k - (n - 1) / 2.0) * width, 3 + k,
                                                                      width, d) for k, (d, _) in enumerate(devices)]
    plots.append("'%s' using 1:%d with points pt 9 ps 2 lc rgb 'black' title 'target'" % (dat, 3 + n))
    plots.append("1.0 with lines dt 2 lc rgb 'black' title 'anchor (1.0)'")
    marks = "".join("set label 'WRONG' at %d,0.1 center tc rgb 'red'\n" % i for i in wrong_idx)
    tics = ", ".join('"%s" %d' % (l.replace('"', "'"), i) for i, l in enumerate(labels))
    return gnuplot(max(640, 90 * len(labels) + 260), 420, png, op, "y", "x", len(labels) - 0.4, tics,
                   "set key outside right top\n", marks, plots)


def gnuplot(width, height, png, op, value_axis, label_axis, label_end, tics, extra, marks, plots):
    """The script of one chart: the ratio along value_axis (0 to at least
    1.15), one configuration per tic along label_axis. The title is a
    single-quoted gnuplot string: a quote in it is doubled ("the
    placement's cost")."""
    return ("set terminal pngcairo size %d,%d noenhanced\n"
            "set output '%s'\n"
            "set title '%s: cgc / anchor (lower is better)'\n"
            "set style fill solid 0.8 border -1\n"
            "set %srange [0:1.15<*]\n"
            "set %srange [-0.6:%f]\n"
            "set %stics nomirror\n"
            "set grid %stics\n"
            "%s"
            "set %stics (%s)\n"
            "%s"
            "plot %s\n") % (width, height, png, op.replace("'", "''"), value_axis, label_axis, label_end, label_axis, value_axis, extra,
                             label_axis, tics, marks, ", ".join(plots))


def horizontal(op, dat, png, labels, devices, wrong_idx):
    """Bars along x (the ratio), one row per configuration top to bottom."""
    n = len(devices)
    h = 0.8 / n
    rows = len(labels)
    plots = []
    for k, (d, _) in enumerate(devices):
        y = "(%d-$1%+.3f)" % (rows - 1, -(k - (n - 1) / 2.0) * h)
        plots.append("'%s' using ($%d/2):%s:($%d/2):(%.3f) with boxxyerror title '%s'" % (dat, 3 + k, y, 3 + k,
                                                                                         h / 2, d))
    plots.append("'%s' using %d:(%d-$1) with points pt 9 ps 2 lc rgb 'black' title 'target'" % (dat, 3 + n, rows - 1))
    marks = "".join("set label 'WRONG' at 0.05,%d left tc rgb 'red'\n" % (rows - 1 - i) for i in wrong_idx)
    tics = ", ".join('"%s" %d' % (l.replace('"', "'"), rows - 1 - i) for i, l in enumerate(labels))
    # The labels take ~11 px a character; the title is centred over the plot
    # area, so that area is as wide as the title (~9 px a character).
    return gnuplot(11 * max(len(l) for l in labels) + max(500, 9 * (len(op) + 36)), max(260, 22 * rows * n + 160),
                   png, op,
                   "x", "y", rows - 0.4, tics,
                   "set key outside bottom center horizontal\n"
                   "set arrow from 1.0, graph 0 to 1.0, graph 1 nohead dt 2 lc rgb 'black'\n", marks, plots)


def first_anchor(rows, op, call):
    for r in rows:
        if r["operation"] == op and r["cgc"] == call:
            return r["anchor"]
    return ""


def first_call(rows, op):
    for r in rows:
        if r["operation"] == op and not r["cgc"].startswith(("setting:", "probe:")):
            return r["cgc"]
    return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv))
