#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host-only (CI, no GPU): each workload binary's `--list` names its rows
# without touching CUDA, `--quick --list` too, and a bad argument prints the
# usage and exits 1 (wl_parse), also before any CUDA call.
#   list_test.sh BIN MIN_ROWS [BIN MIN_ROWS ...]
set -uo pipefail
fail=0
checked=0
while [ "$#" -ge 2 ]; do
    bin="$1" want="$2"
    shift 2
    name=$(basename "$bin")
    out=$("$bin" --list) || { echo "$name --list failed"; fail=1; continue; }
    rows=$(grep -c . <<<"$out")
    [ "$rows" -ge "$want" ] || { echo "$name --list: $rows rows, want at least $want"; fail=1; }
    # every row: "operation | config | target or info"
    bad=$(grep -vc -E '^workload: [^|]+ \| [^|]+ \| (target <=[0-9.]+.*|info)$' <<<"$out")
    [ "$bad" -eq 0 ] || { echo "$name --list: $bad rows not of the form 'workload: OP | CONFIG | target/info'"; fail=1; }
    quick=$("$bin" --quick --list | grep -c .) || { echo "$name --quick --list failed"; fail=1; }
    [ "$quick" -eq "$rows" ] || { echo "$name: --quick lists $quick rows, the full run $rows"; fail=1; }
    "$bin" --no-such-option >/dev/null 2>"${TEST_TMPDIR:-/tmp}/usage.$$"
    rc=$?
    [ "$rc" -eq 1 ] && grep -q "^usage: " "${TEST_TMPDIR:-/tmp}/usage.$$" ||
        { echo "$name --no-such-option: exit $rc, want 1 and a usage line"; fail=1; }
    rm -f "${TEST_TMPDIR:-/tmp}/usage.$$"
    checked=$((checked + 1))
    echo "$name --list: $rows rows"
done
[ "$checked" -ge 1 ] || { echo "no binaries given"; fail=1; }
# The line every cgc test binary ends with, which .ci/run sums (one case).
echo "cgc-summary: passed=$((1 - fail)) failed=$fail skipped=0"
exit "$fail"
