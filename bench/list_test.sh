#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `bench --list` needs no GPU and names every family, including the checked
# collective, double-buffered DSMEM, staged-copy and self-test rows (one
# broken variant per checked family); a filter that matches nothing lists
# nothing. Host-only: runs in CI.
set -uo pipefail
bin="$1"
out=$("$bin" --list) || { echo "bench --list failed"; exit 1; }
fail=0
for fam in "block sync" "block split arrive+wait" "rotating slow warp" "barrier with completion" \
    "cluster sync" "cluster relaxed arrive+wait" "device barrier arrive+wait" "grid sync" \
    "DSMEM exchange " "DSMEM exchange, double-buffered" "latency: global->shared copy" "reduce" \
    "inclusive_scan" "tile-64 sync" "group memcpy_async + wait_prior" "check cost" \
    "self-test: broken barrier" "self-test: broken block barrier" "self-test: broken cluster barrier" \
    "self-test: broken relaxed cluster barrier" "self-test: broken grid barrier" "self-test: broken copy" \
    "self-test: broken DSMEM exchange" "self-test: broken DSMEM double buffer" "self-test: broken staged copy" \
    "self-test: broken collective" "self-test: broken pipeline" \
    "split grid barrier, work between" "split grid barrier, probe" \
    "self-test: broken multicast"; do
    grep -qF -- "$fam" <<<"$out" || { echo "bench --list lacks the family '$fam'"; fail=1; }
done
for call in cg_tile_reduce_i32 cg_tile_reduce_f32 cg_tile_reduce_f64 cg_tile_inclusive_scan_i32 \
    cg_tile_inclusive_scan_f32 cg_tile_inclusive_scan_f64 cg_coalesced_reduce_i32; do
    [ "$(grep -cF -- "$call" <<<"$out")" -ge 1 ] || { echo "bench --list lacks $call"; fail=1; }
done
n=$(grep -c "double-buffered" <<<"$out")
# clusters 2/4/8 x 1/8 messages x (two pull anchors + the phase-A loop as info)
[ "$n" -eq 18 ] || { echo "want 18 double-buffered DSMEM rows (clusters 2/4/8 x 1/8 messages x 3), got $n"; fail=1; }
# --filter selects the new families (--list shows what a run with it would run).
for spec in "inclusive_scan:6" "tile 16:6" "tile 8:3" "CG_BARRIER_FN_DEFINE:6" "coalesced:1" "tile-64:8" "wait_prior:10" \
    "double-buffered:18" "latency::9" "check cost:6" "self-test:13" "bar.sync id, 64:4"; do
    f=${spec%:*}
    want=${spec##*:}
    got=$("$bin" --list --filter "$f" | grep -c .)
    [ "$got" -eq "$want" ] || { echo "bench --list --filter '$f': $got rows, want $want"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "bench --list: $(wc -l <<<"$out") rows, every family present"
# The line every cgc test binary ends with, which .ci/run sums (one case).
echo "cgc-summary: passed=$((1 - fail)) failed=$fail skipped=0"
exit "$fail"
