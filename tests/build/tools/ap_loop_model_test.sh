#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tools/gpu/ap_loop_model.py on an excerpt of the 2026-11-28 H200 SASS
# (tests/build/tools/data/ap_loop_sass.txt: the A p row loop of k_cgc_solve and
# k_cpp_solve, commit 0267475): it must find both loops and give the round
# trips docs/design/workloads.md quotes (a row of 4 nonzeros: 4.2 and 7.1;
# the mean: 7.6 and 13.9), say so for a kernel without the loop, and exit 1
# when nothing matched. Host-only (CI).
#   ap_loop_model_test.sh MODEL SASS
set -uo pipefail
model=$1
sass=$2
fail=0
out=$(python3 "$model" "$sass") || { echo "the model exited $? on the excerpt"; fail=1; }
for want in "^_Z11k_cgc_solve11cgs_problem: mean 7\.6 round trips a row \| by nonzeros 4:4\.2 " \
    "^_Z11k_cpp_solve11cgs_problem: mean 13\.9 round trips a row \| by nonzeros 4:7\.1 "; do
    grep -qE -- "$want" <<<"$out" || { echo "no line /$want/ in:"; echo "$out"; fail=1; }
done
# A section without the loop is named, not modelled.
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/ap_loop.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{
    echo "--- kernel _Z6k_none11cgs_problem"
    echo "        /*0000*/                   EXIT ;"
} >"$tmp/none.txt"
out=$(python3 "$model" "$tmp/none.txt")
rc=$?
[ "$rc" = 1 ] || { echo "no loop anywhere: exit $rc, want 1"; fail=1; }
grep -q "^_Z6k_none11cgs_problem: no A p row loop found" <<<"$out" || { echo "the loopless kernel was not named"; fail=1; }
python3 "$model" "$sass" 'k_nothing' >/dev/null
rc=$?
[ "$rc" = 1 ] || { echo "a regex that matches nothing: exit $rc, want 1"; fail=1; }
# The line every cgc test binary ends with, which .ci/run sums (one case).
echo "cgc-summary: passed=$((1 - fail)) failed=$fail skipped=0"
exit "$fail"
