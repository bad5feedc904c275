#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine, from the checkout, with .bundle/ carried
# (tools/gpu/bundle.sh made it). In one go: every test binary, the example
# tour (and the compute_80 PTX tour, JIT-compiled), the benchmark, then every GPU test under compute-sanitizer memcheck,
# racecheck, synccheck and initcheck (with CGT_QUICK=1, which scales long
# loops down).
# Logs go to $OUT (at most 8 files come back); a summary table prints last.
#
#   CGC_SKIP_SANITIZERS=1   skip the sanitizer passes
#   CGC_ONLY_SANITIZERS=1   only the sanitizer passes (a second device call when
#                           the whole suite no longer fits one)
#   CGC_ONLY="re"           only test ids matching the extended regex (a rerun)
#   CGC_SKIP_BENCH=1        no benchmark
#   CGC_SAN_TOOLS="..."     which compute-sanitizer tools (default: all four)
#   CGC_SAN_JOBS=N          sanitizer runs in parallel (default 6)
#   CGC_BENCH_ARGS="..."    extra arguments for the benchmark
#   CGC_DEADLINE=S          start no sanitizer run after S seconds (default 480),
#                           so the whole script fits one 10-minute device call
set -uo pipefail
repo=$(pwd)
out=${OUT:-$repo/.gpu-out}
mkdir -p "$out"
work=/tmp/cgc-bundle
rm -rf "$work" && mkdir -p "$work"
tar -C "$work" -xzf "$repo/.bundle/bundle.tar.gz" || { echo "no bundle: run tools/gpu/bundle.sh first"; exit 2; }
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
start=$(date +%s)

{
    echo "commit: $(cat "$work/commit.txt")"
    [ -s "$work/dirty.txt" ] && { echo "uncommitted changes in the bundle:"; cat "$work/dirty.txt"; }
    nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
    compute-sanitizer --version | tail -n 1
} >"$out/device.txt" 2>&1
cat "$out/device.txt"

# run_test ID [wrapper...]: runs one test binary from its runfiles root.
run_test() {
    local id=$1
    shift
    local path limit=400
    if [ $# -gt 0 ]; then # a sanitizer run: bounded by what is left of the deadline
        limit=$((start + ${CGC_DEADLINE:-480} + 60 - $(date +%s)))
        if [ "$limit" -lt 30 ]; then
            echo "not run: deadline reached"
            return
        fi
    fi
    path=$(awk -v id="$id" '$1 == id {print $2}' "$work/tests/index.txt")
    (cd "$work/tests/$id.runfiles/cgc" && timeout "$limit" "$@" "./$path" --verbose 2>&1)
    echo "exit-code: $?"
}

# --- all tests, plain -------------------------------------------------------
: >"$out/tests.log"
if [ -n "${CGC_ONLY:-}" ]; then
    grep -E "^[^ ]*(${CGC_ONLY})" "$work/tests/index.txt" >"$work/tests/index.sel" || true
    grep -E "(${CGC_ONLY})" "$work/tests/gpu_ids.txt" >"$work/tests/gpu_ids.sel" || true
    mv "$work/tests/index.sel" "$work/tests/index.txt"
    mv "$work/tests/gpu_ids.sel" "$work/tests/gpu_ids.txt"
fi
if [ "${CGC_ONLY_SANITIZERS:-0}" != 1 ]; then
    while read -r id _; do
        echo "=== $id" >>"$out/tests.log"
        run_test "$id" >>"$out/tests.log" 2>&1
    done <"$work/tests/index.txt"
fi
echo "tests done in $(($(date +%s) - start)) s"

# --- examples tour and benchmark (alone on the GPU) ------------------------
if [ "${CGC_ONLY_SANITIZERS:-0}" != 1 ] && [ -x "$work/bin/tour" ]; then
    timeout 120 "$work/bin/tour" >"$out/tour.log" 2>&1
    echo "tour-exit-code: $?" >>"$out/tour.log"
fi
# The pre-Hopper examples as compute_80 PTX, JIT-compiled by the driver for
# this GPU (bundle.sh builds it with --define=cuda_arch=compute_80).
if [ "${CGC_ONLY_SANITIZERS:-0}" != 1 ] && [ -x "$work/bin/tour_sm80" ]; then
    timeout 120 "$work/bin/tour_sm80" >"$out/tour_sm80.log" 2>&1
    echo "tour-sm80-exit-code: $?" >>"$out/tour_sm80.log"
fi
if [ "${CGC_ONLY_SANITIZERS:-0}" != 1 ] && [ "${CGC_SKIP_BENCH:-0}" != 1 ] && [ -x "$work/bin/bench" ]; then
    # shellcheck disable=SC2086
    timeout 240 "$work/bin/bench" --csv "$out/bench.csv" ${CGC_BENCH_ARGS:-} >"$out/bench.log" 2>&1
    echo "bench-exit-code: $?" >>"$out/bench.log"
fi
echo "tour and bench done at $(($(date +%s) - start)) s"

# --- sanitizers on the GPU tests ---------------------------------------------
: >"$out/sanitizers.log"
if [ "${CGC_SKIP_SANITIZERS:-0}" != 1 ]; then
    export -f run_test
    export work start CGT_QUICK=1
    for tool in ${CGC_SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
        while read -r id; do echo "$tool $id"; done <"$work/tests/gpu_ids.txt"
    done | xargs -P "${CGC_SAN_JOBS:-6}" -L 1 bash -c '
        log=$(CGT_SANITIZER=$0 run_test "$1" compute-sanitizer --tool "$0" --target-processes all --print-limit 20 2>&1)
        printf "=== %s %s\n%s\n" "$0" "$1" "$log"' >>"$out/sanitizers.log" 2>&1
fi
echo "sanitizers done at $(($(date +%s) - start)) s"

# --- summary ------------------------------------------------------------------
{
    echo
    echo "== cgc GPU run summary =="
    head -n 3 "$out/device.txt"
    awk '
        /^=== / { id = $2 }
        /^cgc-summary:/ {
            split($0, f, /[ =]/); p += f[3]; fl += f[5]; s += f[7]; seen[id] = 1
            if (f[5] > 0) bad = bad " " id
        }
        /^exit-code:/ && !(id in seen) { nosum = nosum " " id; fl += 1 }
        /^exit-code:/ && (id in seen) && $2 != 0 { nonzero = nonzero " " id "(" $2 ")"; fl += 1 }
        END {
            printf "tests: %d passed, %d failed, %d skipped\n", p, fl, s
            if (bad != "") print "failing binaries:" bad
            if (nosum != "") print "binaries with no summary (crash/timeout):" nosum
            if (nonzero != "") print "binaries that passed every test but exited nonzero (bazel test fails them):" nonzero
        }' "$out/tests.log"
    if [ -s "$out/sanitizers.log" ]; then
        awk '
            /^=== / { tool = $2; id = $3 }
            /ERROR SUMMARY: [0-9]+ errors?$/ { n[tool] += $4; runs[tool]++; if ($4 > 0) bad = bad " " tool ":" id }
            /^\[SKIP\].*not run under compute-sanitizer/ { skipped[tool]++ }
            /RACECHECK SUMMARY:/ {
                e = $0; sub(/.*\(/, "", e); split(e, w, " "); n[tool] += w[1] + w[3]; runs[tool]++
                if (w[1] + w[3] > 0) bad = bad " " tool ":" id
            }
            /^cgc-summary:/ { split($0, f, /[ =]/); if (f[5] > 0) fails = fails " " tool ":" id }
            /before first instrumented API call/ { nocuda = nocuda " " tool ":" id }
            /^exit-code:/ && $2 != 0 { nonzero = nonzero " " tool ":" id "(" $2 ")" }
            END {
                for (t in runs) printf "%s: %d runs, %d errors, %d tests skipped by reason\n", t, runs[t], n[t], skipped[t]
                if (bad != "") print "sanitizer reports in:" bad
                if (fails != "") print "test failures under sanitizer:" fails
                if (nonzero != "") print "nonzero exits under a sanitizer:" nonzero
                if (nocuda != "") print "  of which every test skipped before any CUDA call (the tool exits 255):" nocuda
            }' "$out/sanitizers.log"
    fi
    [ -f "$out/tour.log" ] && grep -E "^\[(ok|FAIL|SKIP)\]|tour-exit-code" "$out/tour.log"
    if [ -f "$out/tour_sm80.log" ]; then
        echo "sm_80 tour (compute_80 PTX, JIT-compiled here):"
        grep -E "^\[(ok|FAIL|SKIP)\]|examples:|tour-sm80-exit-code" "$out/tour_sm80.log"
    fi
    [ -f "$out/bench.log" ] && grep -E "\|" "$out/bench.log"
    echo "wall time: $(($(date +%s) - start)) s"
} | tee "$out/summary.txt"
