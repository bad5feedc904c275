#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The chart script on the kept results (bench/results/): one PNG per
# operation family, each a real image; and bench/tools/bench_compare.py. No GPU
# needed; needs gnuplot.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The H200 file with the metadata lines today's CSVs start with ("# ...",
# bench --csv and bench/workloads/wl.h), one of them in the middle as a file
# the workloads append to has: the chart must read it the same.
{
    echo "# gpu=NVIDIA H200 sm=9.0 sms=132 driver=13000 runtime=13000 sm_clock_max_mhz=1980 commit=a5280d8"
    head -n 3 bench/results/2026-11-24-h200-grid-a5280d8.csv
    echo "# gpu=NVIDIA H200 sm=9.0 sms=132 driver=13000 runtime=13000 sm_clock_max_mhz=1980 commit=a5280d8"
    tail -n +4 bench/results/2026-11-24-h200-grid-a5280d8.csv
} >"$out/h200-with-metadata.csv"
python3 bench/tools/bench_chart.py "$out" H100=bench/results/2026-11-24-h100-grid-a5280d8.csv \
    H200="$out/h200-with-metadata.csv" || exit 1
for f in "$out"/*.png; do
    [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "not a PNG: $f"; exit 1; }
    [ "$(stat -c %s "$f")" -gt 5000 ] || { echo "too small to be a chart: $f"; exit 1; }
done
echo "bench chart: $(ls "$out"/*.png | wc -l) chart(s) drawn"
# The run-vs-run comparison: its self-test (a slowdown, a change within
# noise, a row turned WRONG, rows in one run only), then two kept runs.
python3 bench/tools/bench_compare.py --self-test || exit 1
python3 bench/tools/bench_compare.py bench/results/2026-11-24-h100-grid-a5280d8.csv bench/results/2026-11-24-h200-grid-a5280d8.csv \
    >"$out/compare.txt" || { cat "$out/compare.txt"; exit 1; }
grep -q "rows in both runs" "$out/compare.txt" || { echo "bench_compare printed no totals"; exit 1; }
echo "bench compare: $(tail -n 1 "$out/compare.txt")"
