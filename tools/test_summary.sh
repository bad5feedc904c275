#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# After `bazel test //...`: what each test binary actually ran. Bazel counts
# targets, and a GPU test whose every case skipped (no sm_90 device here)
# counts as a passed target; this lists, per binary, its cases passed, failed
# and skipped (from the "cgc-summary:" line every cgc test binary prints) and
# the first skip reason, then the totals (the sums .ci/run prints).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0 skipped=0 ran_nothing=0
while IFS= read -r log; do
    name=${log#bazel-testlogs/}
    name=${name%/test.log}
    line=$(grep -h "^cgc-summary:" "$log" | tail -n 1)
    if [ -z "$line" ]; then
        printf '%-44s no summary (crashed before Criterion finished)\n' "$name"
        failed=$((failed + 1))
        continue
    fi
    p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$line")
    f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$line")
    s=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$line")
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
    note=$(grep -h "^cgc: .*SKIPPED" "$log" | tail -n 1 | sed -E 's/^cgc: //')
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -gt 0 ]; then
        ran_nothing=$((ran_nothing + 1))
    fi
    printf '%-44s %3d passed %3d failed %3d skipped  %s\n' "$name" "$p" "$f" "$s" "${note:0:110}"
done < <(find -L bazel-testlogs/ -name test.log 2>/dev/null | sort)
echo "cases: $passed passed, $failed failed, $skipped skipped; $ran_nothing binaries ran nothing (every case skipped)"
