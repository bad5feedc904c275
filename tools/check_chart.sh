#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The chart script on the kept results (bench/results/): one PNG per
# operation family, each a real image. No GPU needed; needs gnuplot.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 tools/bench_chart.py "$out" H100=bench/results/2026-11-24-h100-grid-a5280d8.csv \
    H200=bench/results/2026-11-24-h200-grid-a5280d8.csv || exit 1
for f in "$out"/*.png; do
    [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "not a PNG: $f"; exit 1; }
    [ "$(stat -c %s "$f")" -gt 5000 ] || { echo "too small to be a chart: $f"; exit 1; }
done
echo "bench chart: $(ls "$out"/*.png | wc -l) chart(s) drawn"
