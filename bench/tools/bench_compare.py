#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares two benchmark runs row by row.

    bench/tools/bench_compare.py OLD NEW [--threshold PCT] [--fail-on-regression] [--all]
    bench/tools/bench_compare.py --self-test

OLD and NEW are what `bench --csv PATH` and the workload binaries write:
PATH.json (JSON Lines, with each side's timed samples, median and noise) or
the CSV itself (no samples: the noise is the spread its note gives, where
it gives one, else unknown and only the threshold decides). A row is the same row in both runs when its operation,
configuration, cgc call and anchor match.

For every row in both runs it prints the ratio (cgc / anchor, lower is
better) before and after and the change in percent, and calls the change
real only when it exceeds both the threshold (default 2%) and the noise of
the two runs (the largest (max - min) / median of the four sides' samples);
a verdict that changed (PASS -> MISS, anything -> WRONG) is always listed.
Rows only in one run are listed at the end. --all lists unchanged rows too.
Exit status: 0; with --fail-on-regression, 1 when a row got slower beyond
threshold and noise or turned WRONG.
"""
import argparse
import csv
import json
import os
import re
import sys
import tempfile


def load(path):
    """{key: row} with ratio, verdict, noise (percent or None), metadata."""
    rows, meta = {}, ""
    if path.endswith(".csv") and os.path.exists(path[:-4] + ".json"):
        path = path[:-4] + ".json"
    with open(path, newline="") as f:
        first = f.readline()
        f.seek(0)
        if first.lstrip().startswith("{"):
            for line in f:
                if not line.strip():
                    continue
                o = json.loads(line)
                if o.get("kind") == "metadata":
                    meta = meta or o.get("metadata", "")
                    continue
                noises = [o[s]["noise_pct"] for s in ("cgc_samples", "anchor_samples")
                          if isinstance(o.get(s), dict) and o[s].get("noise_pct") is not None]
                rows[key(o["operation"], o["config"], o["cgc"], o["anchor"])] = {
                    "ratio": o.get("ratio"), "verdict": o.get("verdict", ""),
                    "noise": max(noises) if noises else None, "target": o.get("target", "")}
        else:
            lines = [l for l in f if not l.startswith("#") or (meta := meta or l[1:].strip()) is None]
            for r in csv.DictReader(lines):
                if r.get("operation") in (None, "operation"):
                    continue
                try:
                    ratio = float(r["ratio"])
                except (TypeError, ValueError):
                    ratio = None
                # The CSV's note says the bench's spread ("spread 0.1%/0.2%"): the noise.
                m = re.search(r"spread ([0-9.]+)%(?:/([0-9.]+)%)?", r.get("note", ""))
                noise = max(float(x) for x in m.groups() if x) if m else None
                rows[key(r["operation"], r["config"], r["cgc"], r["anchor"])] = {
                    "ratio": ratio, "verdict": r.get("verdict", ""), "noise": noise, "target": r.get("target", "")}
    return rows, meta


def key(op, config, cgc, anchor):
    return (op, config, cgc, anchor)


def compare(old, new, threshold, show_all, out):
    changed, regressions, lines = 0, 0, []
    for k in [k for k in old if k in new]:
        a, b = old[k], new[k]
        ra, rb = a["ratio"], b["ratio"]
        noise = max([n for n in (a["noise"], b["noise"]) if n is not None], default=None)
        pct = 100.0 * (rb - ra) / ra if ra and rb is not None else None
        bound = max(threshold, noise or 0.0)
        real = pct is not None and abs(pct) > bound
        verdict_moved = a["verdict"] != b["verdict"]
        turned_wrong = b["verdict"] == "WRONG" and a["verdict"] != "WRONG"
        if real or verdict_moved:
            changed += 1
        worse = (real and pct > 0) or turned_wrong
        regressions += worse
        if real or verdict_moved or show_all:
            what = "slower" if real and pct > 0 else "faster" if real else "same"
            lines.append((-(abs(pct) if pct is not None else 1e9), "%-7s %-34.34s %-30.30s %7s -> %7s %8s  %-7s -> %-7s %s" % (
                what, k[0], k[1], fmt(ra), fmt(rb), ("%+.1f%%" % pct) if pct is not None else "-",
                a["verdict"], b["verdict"], "noise %s" % (("%.1f%%" % noise) if noise is not None else "unknown"))))
    out.write("%-7s %-34s %-30s %7s    %7s %8s  %s\n" % ("change", "operation", "config", "old", "new", "delta",
                                                           "verdict old -> new"))
    for _, l in sorted(lines):
        out.write(l + "\n")
    only_old = [k for k in old if k not in new]
    only_new = [k for k in new if k not in old]
    for k in only_old:
        out.write("only in OLD: %s | %s | %s vs %s\n" % k)
    for k in only_new:
        out.write("only in NEW: %s | %s | %s vs %s\n" % k)
    both = len([k for k in old if k in new])
    out.write("%d rows in both runs: %d changed beyond max(threshold %.1f%%, noise), %d of them slower or WRONG; "
              "%d only in OLD, %d only in NEW\n" % (both, changed, threshold, regressions, len(only_old), len(only_new)))
    return regressions


def fmt(x):
    return "%.3f" % x if isinstance(x, (int, float)) else "-"


def self_test():
    """Two synthetic runs: a real slowdown, a change within noise, a verdict
    turned WRONG, a row dropped and one added; the comparison must name them."""
    d = tempfile.mkdtemp()

    def row(op, ratio, verdict, noise_samples):
        return json.dumps({"kind": "row", "operation": op, "config": "c", "cgc": "x", "anchor": "y", "ratio": ratio,
                           "verdict": verdict, "target": "<=1.00",
                           "cgc_samples": {"samples": noise_samples, "median": 1, "noise_pct": noise_samples[0]},
                           "anchor_samples": {"samples": [], "median": None, "noise_pct": None}})

    old = [row("slow", 1.00, "PASS", [1.0]), row("noisy", 1.00, "PASS", [10.0]), row("breaks", 0.9, "PASS", [1.0]),
           row("dropped", 1.0, "PASS", [1.0])]
    new = [row("slow", 1.10, "MISS", [1.0]), row("noisy", 1.05, "MISS", [10.0]), row("breaks", 0.9, "WRONG", [1.0]),
           row("added", 1.0, "PASS", [1.0])]
    for name, rows in (("old.json", old), ("new.json", new)):
        with open(os.path.join(d, name), "w") as f:
            f.write('{"kind":"metadata","metadata":"gpu=test"}\n' + "\n".join(rows) + "\n")
    import io
    buf = io.StringIO()
    regressions = compare(load(os.path.join(d, "old.json"))[0], load(os.path.join(d, "new.json"))[0], 2.0, False, buf)
    text = buf.getvalue()
    checks = [("slower  slow" in text, "a 10% slowdown beyond 1% noise is 'slower'"),
              ("same    noisy" in text, "a 5% change within 10% noise is 'same' (listed for its verdict)"),
              ("PASS    -> WRONG" in text, "a row turned WRONG is listed"),
              ("only in OLD: dropped" in text and "only in NEW: added" in text, "rows in one run only"),
              (regressions == 2, "two regressions (the slowdown, the WRONG), got %d" % regressions)]
    bad = [why for ok, why in checks if not ok]
    for why in bad:
        print("bench_compare self-test: FAILED: " + why)
    if bad:
        print(text)
        return 1
    print("bench_compare self-test: %d checks passed" % len(checks))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", nargs="?")
    ap.add_argument("new", nargs="?")
    ap.add_argument("--threshold", type=float, default=2.0, help="percent below which a change is never real")
    ap.add_argument("--fail-on-regression", action="store_true")
    ap.add_argument("--all", action="store_true", help="list unchanged rows too")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.old or not a.new:
        ap.error("OLD and NEW are needed")
    old, mo = load(a.old)
    new, mn = load(a.new)
    print("OLD %s: %s" % (a.old, mo or "(no metadata)"))
    print("NEW %s: %s" % (a.new, mn or "(no metadata)"))
    regressions = compare(old, new, a.threshold, a.all, sys.stdout)
    return 1 if a.fail_on_regression and regressions else 0


if __name__ == "__main__":
    sys.exit(main())
