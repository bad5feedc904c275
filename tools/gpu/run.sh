#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine, from the checkout, with .bundle/ carried
# (tools/gpu/bundle.sh made it). In one go: every test binary, the example
# tour (and the compute_80 PTX tour, JIT-compiled), the benchmark, its
# self-test (`bench --self-test`: every deliberately broken variant must print
# WRONG), every workload binary (bin/wl_*), then every GPU test under
# compute-sanitizer memcheck, racecheck, synccheck and initcheck (with
# CGT_QUICK=1, which scales long loops down). Progress goes to stdout as
# "[i/N] ..." lines; a summary prints last.
#
# Exit status: 0 ("verdict: PASSED") only for a whole run with nothing wrong;
# 1 otherwise, and the summary's "FAIL ..." lines name each problem:
#   - a part is missing from the bundle: the benchmark, the launch-overhead
#     benchmark, the tour or the compute_80 tour, or a workload binary that
#     bundle.sh listed in workloads.txt (or no workloads.txt at all), unless
#     the matching CGC_SKIP_* below says to run without it;
#   - a test case failed; a test binary crashed, timed out or exited nonzero
#     (no cgc-summary line, or an exit code other than 0);
#   - every case of a GPU test binary skipped (a driver/runtime mismatch, no
#     sm_90 device: nothing ran, which must not read as a pass);
#   - any case skipped in the plain pass ("[SKIP] ..."), unless its reason
#     matches a line of the bundle's skips_allowed.txt (a part the GPU
#     machine is documented to lack, tools/gpu/skips_allowed.txt): those are
#     listed in the summary as documented skips, not failures;
#   - a tour exited nonzero;
#   - the benchmark printed WRONG, exited nonzero or did not finish;
#   - the launch-overhead benchmark (bin/launch_overhead) printed WRONG,
#     exited nonzero or did not finish;
#   - a row with a target (not "info") of the benchmark or a workload came
#     out SKIP or MISSING (its CSV's target and verdict columns);
#   - the self-test exited nonzero (a broken variant was not caught) or did
#     not finish;
#   - a workload binary exited nonzero (3: a WRONG row) or did not finish;
#   - a sanitizer reported an error, a test failed or crashed under one, or
#     a sanitizer run was cut by the deadline (not started, or timed out);
#   - CGC_SASS named a binary that is not in the bundle or a regex that
#     matched no kernel;
#   - the run would leave more than 8 files in $OUT (extras.tar.gz could not
#     be made, or CGC_PACK_EXTRAS=0).
# 2: no bundle.
#
# Logs go to $OUT. The device tool brings back at most 8 files (more: some
# are dropped, at random), so the run leaves exactly these:
#   tests.log, tours.log, bench.log (the benchmark's, the self-test's, the
#   launch-overhead benchmark's and the workloads' output), bench.csv,
#   workloads.csv, sanitizers.log, summary.txt, and extras.tar.gz: every
#   other file the run wrote to $OUT, packed at the end (bench.json and
#   workloads.json, the JSON Lines beside the CSVs; launch.csv; sass.txt
#   when CGC_SASS asks for it; anything a binary left beside its CSV).
#   `tar -xzf extras.tar.gz` unpacks them; summary.txt lists them. Files in
#   $OUT from before the run (other than these names) are left alone.
#
#   CGC_SKIP_SANITIZERS=1   skip the sanitizer passes
#   CGC_ONLY_SANITIZERS=1   only the sanitizer passes (a second device call when
#                           the whole suite no longer fits one)
#   CGC_ONLY="re"           only test ids matching the extended regex (a rerun)
#   CGC_SKIP_BENCH=1        no benchmark, self-test, launch overhead or workloads
#   CGC_SKIP_SELF_TEST=1    no self-test
#   CGC_SKIP_WORKLOADS=1    no workload binaries
#   CGC_SKIP_TOURS=1        no tours (neither is then required in the bundle)
#   CGC_SAN_TOOLS="..."     which compute-sanitizer tools (default: all four)
#   CGC_SAN_JOBS=N          sanitizer runs in parallel (default 6)
#   CGC_BENCH_ARGS="..."    extra arguments for the benchmark
#   CGC_WL_ARGS="..."       extra arguments for every workload binary
#   CGC_SASS="BIN:REGEX ..." cuobjdump -sass of the kernels of bin/BIN whose
#                           mangled name matches the extended REGEX, with a
#                           count of each fence/barrier instruction, into
#                           sass.txt in extras.tar.gz (tools/gpu/sass.sh), e.g.
#                           CGC_SASS="wl_cg_solver:k_(cgc|cpp)_solve" (an awk
#                           ERE: no \b; no blank inside one)
#   CGC_PACK_EXTRAS=0       leave the extra files unpacked in $OUT (local runs;
#                           more than 8 files then fails the run)
#   CGC_DEADLINE=S          start no sanitizer run after S seconds (default 480),
#                           so the whole script fits one 10-minute device call
#   CGC_BUNDLE=PATH         the bundle (default .bundle/bundle.tar.gz)
#   CGC_WORK=DIR            where it is unpacked (default /tmp/cgc-bundle)
# The benchmark and the workloads read CGC_COMMIT (exported here from the
# bundle's commit.txt) into their CSVs' metadata lines.
set -uo pipefail
repo=$(pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # tools/gpu: sass.sh
out=${OUT:-$repo/.gpu-out}
mkdir -p "$out"
work=${CGC_WORK:-/tmp/cgc-bundle}
bundle=${CGC_BUNDLE:-$repo/.bundle/bundle.tar.gz}
rm -rf "$work" && mkdir -p "$work"
tar -C "$work" -xzf "$bundle" || { echo "no bundle at $bundle: run tools/gpu/bundle.sh first"; exit 2; }
# $OUT's files: the seven logs and CSVs this run writes under their own names
# (kept), and extras.tar.gz, which packs every other file the run leaves
# there. A file of an earlier run is removed first (the workloads append to
# workloads.csv); anything else already in $OUT stays and is not packed.
keep_files="tests.log tours.log bench.log bench.csv workloads.csv sanitizers.log summary.txt"
for f in $keep_files extras.tar.gz bench.json workloads.json launch.csv sass.txt; do rm -f "$out/$f"; done
(cd "$out" && find . -mindepth 1 | sort) >"$work/out_before.txt"
extras="$work/extras" # what extras.tar.gz holds, unpacked
mkdir -p "$extras"
# new_entries: what the run added to $OUT (names, sorted), the kept ones and
# extras.tar.gz left out.
new_entries() {
    (cd "$out" && find . -mindepth 1 -maxdepth 1 | sort) | comm -23 - "$work/out_before.txt" | sed 's#^\./##' |
        while read -r e; do
            case " $keep_files extras.tar.gz " in *" $e "*) ;; *) printf '%s\n' "$e" ;; esac
        done
}
# pack_extras: moves the new entries into $extras and (re)writes
# $OUT/extras.tar.gz from it, whole or not at all. Called after each part
# that writes extra files, so a run the device call cuts short still leaves
# at most 8 files; a failure is a FAIL line, the files then stay in $OUT.
pack_extras() {
    [ "${CGC_PACK_EXTRAS:-1}" = 0 ] && return 0
    local e moved=()
    while read -r e; do
        [ -n "$e" ] && mv "$out/$e" "$extras/" && moved+=("$e")
    done < <(new_entries)
    [ ${#moved[@]} -gt 0 ] || return 0
    if (cd "$extras" && find . -mindepth 1 -maxdepth 1 | sed 's#^\./##' | sort | tar -czf "$work/extras.part" -T -) &&
        mv "$work/extras.part" "$out/extras.tar.gz"; then
        return 0
    fi
    echo "FAIL extras: could not pack ${moved[*]} into extras.tar.gz (left in \$OUT)" >>"$verdict"
    for e in "${moved[@]}"; do mv "$extras/$e" "$out/"; done
}
# out_count: how many files the run leaves in $OUT, summary.txt (written
# last) counted.
out_count() {
    local n=0 f e
    for f in $keep_files extras.tar.gz; do [ -f "$out/$f" ] || [ "$f" = summary.txt ] && n=$((n + 1)); done
    while read -r e; do
        [ -n "$e" ] && n=$((n + $(find "$out/$e" -type f | wc -l)))
    done < <(new_entries)
    echo "$n"
}
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CGC_COMMIT=$(cat "$work/commit.txt" 2>/dev/null || echo unknown)
export CGC_COMMIT
start=$(date +%s)
skip_bench=${CGC_SKIP_BENCH:-0}
only_san=${CGC_ONLY_SANITIZERS:-0}
skip_tours=${CGC_SKIP_TOURS:-0}
skip_wl=${CGC_SKIP_WORKLOADS:-0}
[ "$skip_bench" = 1 ] && skip_wl=1
# Every check appends a line "FAIL <what>" to $verdict; the script exits 1 when
# there is any.
verdict="$work/verdict.txt"
: >"$verdict"

{
    echo "commit: $CGC_COMMIT"
    [ -s "$work/dirty.txt" ] && { echo "uncommitted changes in the bundle:"; cat "$work/dirty.txt"; }
    nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
    compute-sanitizer --version | tail -n 1
} >"$work/device.txt" 2>&1
cat "$work/device.txt"

# --- what the bundle must hold ------------------------------------------------
# A part missing from the bundle fails the run unless its switch says to run
# without it: a run that silently left the benchmark out must not read PASSED.
if [ "$only_san" != 1 ]; then
    if [ "$skip_tours" != 1 ]; then
        for b in tour tour_sm80; do
            [ -x "$work/bin/$b" ] || echo "FAIL bundle: bin/$b is missing (bundle.sh did not build it; CGC_SKIP_TOURS=1 runs without the tours)" >>"$verdict"
        done
    fi
    if [ "$skip_bench" != 1 ] && [ ! -x "$work/bin/bench" ]; then
        echo "FAIL bundle: bin/bench is missing (the benchmark and its self-test; CGC_SKIP_BENCH=1 runs without them)" >>"$verdict"
    fi
    if [ "$skip_bench" != 1 ] && [ ! -x "$work/bin/launch_overhead" ]; then
        echo "FAIL bundle: bin/launch_overhead is missing (the launch-overhead benchmark; CGC_SKIP_BENCH=1 runs without it)" >>"$verdict"
    fi
    if [ "$skip_wl" != 1 ]; then
        if [ ! -s "$work/workloads.txt" ]; then
            echo "FAIL bundle: no workloads.txt (bundle.sh lists the workload binaries there; CGC_SKIP_WORKLOADS=1 runs without them)" >>"$verdict"
        else
            while read -r wl; do
                [ -n "$wl" ] && [ ! -x "$work/bin/$wl" ] &&
                    echo "FAIL bundle: bin/$wl is missing (listed in workloads.txt; CGC_SKIP_WORKLOADS=1 runs without the workloads)" >>"$verdict"
            done <"$work/workloads.txt"
        fi
    fi
fi

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
if [ "$only_san" != 1 ]; then
    ntests=$(wc -l <"$work/tests/index.txt")
    i=0
    while read -r id _; do
        i=$((i + 1))
        t0=$(date +%s)
        echo "=== $id" >>"$out/tests.log"
        run_test "$id" >>"$out/tests.log" 2>&1
        echo "[$i/$ntests] test $id: $(tail -n 1 "$out/tests.log"), $(($(date +%s) - t0)) s"
    done <"$work/tests/index.txt"
fi
echo "tests done in $(($(date +%s) - start)) s"

# --- examples tours, benchmark, self-test, workloads (alone on the GPU) -------
# run_part N WHAT LOG TIMEOUT CMD...: one of them, its output appended to LOG
# and a line "WHAT-exit-code: CODE" after it; a progress line on stdout.
nparts=0
[ "$skip_tours" != 1 ] && nparts=$((nparts + 2))
[ "$skip_bench" != 1 ] && nparts=$((nparts + 1))
[ "$skip_bench" != 1 ] && [ "${CGC_SKIP_SELF_TEST:-0}" != 1 ] && nparts=$((nparts + 1))
[ "$skip_bench" != 1 ] && [ -x "$work/bin/launch_overhead" ] && nparts=$((nparts + 1))
if [ "$skip_wl" != 1 ]; then
    for wl in "$work"/bin/wl_*; do [ -x "$wl" ] && nparts=$((nparts + 1)); done
fi
ipart=0
run_part() {
    local what=$1 log=$2 limit=$3 t0 rc
    shift 3
    ipart=$((ipart + 1))
    t0=$(date +%s)
    timeout "$limit" "$@" >>"$log" 2>&1
    rc=$?
    echo "$what-exit-code: $rc" >>"$log"
    echo "[$ipart/$nparts] $what: exit $rc, $(($(date +%s) - t0)) s"
}
: >"$out/tours.log"
if [ "$only_san" != 1 ] && [ "$skip_tours" != 1 ] && [ -x "$work/bin/tour" ]; then
    echo "=== tour" >>"$out/tours.log"
    run_part tour "$out/tours.log" 120 "$work/bin/tour"
fi
# The pre-Hopper examples as compute_80 PTX, JIT-compiled by the driver for
# this GPU (bundle.sh builds it with --define=cuda_arch=compute_80).
if [ "$only_san" != 1 ] && [ "$skip_tours" != 1 ] && [ -x "$work/bin/tour_sm80" ]; then
    echo "=== tour_sm80" >>"$out/tours.log"
    run_part tour-sm80 "$out/tours.log" 120 "$work/bin/tour_sm80"
fi
: >"$out/bench.log"
if [ "$only_san" != 1 ] && [ "$skip_bench" != 1 ] && [ -x "$work/bin/bench" ]; then
    echo "=== bench" >>"$out/bench.log"
    # shellcheck disable=SC2086
    run_part bench "$out/bench.log" 240 "$work/bin/bench" --csv "$out/bench.csv" ${CGC_BENCH_ARGS:-}
fi
if [ "$only_san" != 1 ] && [ "$skip_bench" != 1 ] && [ "${CGC_SKIP_SELF_TEST:-0}" != 1 ] && [ -x "$work/bin/bench" ]; then
    echo "=== self-test" >>"$out/bench.log"
    run_part self-test "$out/bench.log" 120 "$work/bin/bench" --self-test
fi
# The host cost of a cooperative launch, cgc's forms against
# cudaLaunchCooperativeKernel (bench/launch_overhead.cu): its table into
# bench.log, its CSV (launch.csv) into extras.tar.gz.
if [ "$only_san" != 1 ] && [ "$skip_bench" != 1 ] && [ -x "$work/bin/launch_overhead" ]; then
    echo "=== launch-overhead" >>"$out/bench.log"
    run_part launch-overhead "$out/bench.log" 120 "$work/bin/launch_overhead" --csv "$out/launch.csv"
fi
if [ "$only_san" != 1 ] && [ "$skip_wl" != 1 ]; then
    for wl in "$work"/bin/wl_*; do
        [ -x "$wl" ] || continue
        echo "=== workload $(basename "$wl")" >>"$out/bench.log"
        # shellcheck disable=SC2086
        run_part "workload-$(basename "$wl")" "$out/bench.log" 180 "$wl" --csv "$out/workloads.csv" ${CGC_WL_ARGS:-}
    done
fi
pack_extras
echo "tours, bench, self-test and workloads done at $(($(date +%s) - start)) s"

# --- SASS of named kernels (CGC_SASS) -------------------------------------------
if [ -n "${CGC_SASS:-}" ]; then
    : >"$out/sass.txt"
    read -r -a sass_specs <<<"$CGC_SASS" # split on blanks, no globbing of the regexes
    for spec in "${sass_specs[@]}"; do
        bin=${spec%%:*}
        re=${spec#*:}
        echo "=== sass $bin: $re" >>"$out/sass.txt"
        if [ ! -x "$work/bin/$bin" ]; then
            echo "FAIL sass: bin/$bin is not in the bundle (CGC_SASS=\"$spec\")" >>"$verdict"
            continue
        fi
        if ! bash "$here/sass.sh" "$re" "$work/bin/$bin" >>"$out/sass.txt" 2>&1; then
            echo "FAIL sass: no kernel of bin/$bin matches /$re/ (or cuobjdump failed; sass.txt says which)" >>"$verdict"
        fi
    done
    pack_extras
    echo "sass done at $(($(date +%s) - start)) s"
fi

# --- sanitizers on the GPU tests ---------------------------------------------
: >"$out/sanitizers.log"
if [ "${CGC_SKIP_SANITIZERS:-0}" != 1 ]; then
    export -f run_test
    export work start CGT_QUICK=1
    nsan=0
    for tool in ${CGC_SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
        nsan=$((nsan + $(wc -l <"$work/tests/gpu_ids.txt")))
    done
    export nsan
    # Each run's log goes to sanitizers.log; its progress line ("[i/N]",
    # numbered in the order the runs start) to stderr, which is the console.
    for tool in ${CGC_SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
        while read -r id; do echo "$tool $id"; done <"$work/tests/gpu_ids.txt"
    done | awk '{print NR, $0}' | xargs -P "${CGC_SAN_JOBS:-6}" -L 1 bash -c '
        t0=$(date +%s)
        log=$(CGT_SANITIZER=$1 run_test "$2" compute-sanitizer --tool "$1" --target-processes all --print-limit 20 2>&1)
        printf "=== %s %s\n%s\n" "$1" "$2" "$log"
        printf "[%s/%s] %s %s: %s, %s s\n" "$0" "$nsan" "$1" "$2" "$(printf "%s\n" "$log" | tail -n 1)" \
            "$(($(date +%s) - t0))" >&2' >>"$out/sanitizers.log"
fi
echo "sanitizers done at $(($(date +%s) - start)) s"

# --- at most 8 files back: the rest into extras.tar.gz ---------------------------
pack_extras
nout=$(out_count)
if [ "$nout" -gt 8 ]; then
    echo "FAIL out: the run leaves $nout files in \$OUT; the device tool brings back 8 and drops the rest at random (extras.tar.gz packs them; CGC_PACK_EXTRAS=${CGC_PACK_EXTRAS:-1})" >>"$verdict"
fi

# --- summary and verdict --------------------------------------------------------
# targeted_gaps CSV WHO: a "FAIL" line for each row of CSV (bench.csv,
# workloads.csv: every field quoted, target and verdict the 9th and 10th)
# that has a target and came out SKIP or MISSING; the rows on stdout.
targeted_gaps() {
    [ -s "$1" ] || return 0
    awk -F'","' -v who="$2" -v verdict="$verdict" '
        /^"/ && $9 != "info" && ($10 == "SKIP" || $10 == "MISSING") {
            op = substr($1, 2); n++
            print "  " $10 ": " op " | " $2 " (target " $9 ")"
            print "FAIL " who ": a row with a target came out " $10 ": " op " | " $2 >> verdict
        }
        END { if (n) print who ": " n " row(s) with a target SKIP or MISSING (above)" }' "$1"
}
summarize() {
    echo
    echo "== cgc GPU run summary =="
    cat "$work/device.txt"
    if [ "$only_san" != 1 ]; then
        awk -v gpu="$work/tests/gpu_ids.txt" -v verdict="$verdict" -v allowed="$work/skips_allowed.txt" '
            BEGIN {
                while ((getline l < gpu) > 0) isgpu[l] = 1
                while ((getline l < allowed) > 0) if (l !~ /^#/ && l != "") ok_re[++nok] = l
            }
            /^=== / { id = $2; ids[++n] = id }
            # A skipped case: allowed only for a part the GPU machine is
            # documented to lack (skips_allowed.txt); listed either way.
            /^\[SKIP\] / {
                documented = 0
                for (k = 1; k <= nok; ++k) if ($0 ~ ok_re[k]) documented = 1
                if (documented) docskip = docskip "\n  " id ": " substr($0, 8)
                else if (++nundoc <= 20) undoc = undoc "\n  " id ": " substr($0, 8)
            }
            /^cgc-summary:/ {
                split($0, f, /[ =]/); p += f[3]; fl += f[5]; s += f[7]; seen[id] = 1
                cp[id] = f[3]; cf[id] = f[5]; cs[id] = f[7]
                if (f[5] > 0) bad = bad " " id "(" f[5] ")"
            }
            /^cgc: all [0-9]+ cases SKIPPED/ && !(id in why) { why[id] = $0 }
            /^exit-code:/ { code[id] = $2 }
            END {
                for (i = 1; i <= n; ++i) {
                    id = ids[i]
                    if (!(id in code)) { nosum = nosum " " id "(no exit code)"; continue }
                    if (!(id in seen)) { nosum = nosum " " id "(exit " code[id] ")"; fl += 1; continue }
                    if (code[id] != 0 && cf[id] == 0) { nonzero = nonzero " " id "(" code[id] ")"; fl += 1 }
                    if ((id in isgpu) && cp[id] == 0 && cf[id] == 0 && cs[id] > 0) {
                        allskip = allskip " " id
                        if (firstwhy == "") firstwhy = why[id]
                    }
                }
                printf "tests: %d binaries, %d cases passed, %d failed, %d skipped\n", n, p, fl, s
                if (bad != "") { print "failing binaries (failed cases):" bad; print "FAIL tests: failed cases in" bad >> verdict }
                if (nosum != "") { print "binaries with no summary (crash/timeout):" nosum; print "FAIL tests: crashed or timed out:" nosum >> verdict }
                if (nonzero != "") { print "binaries that passed every case but exited nonzero:" nonzero; print "FAIL tests: nonzero exit:" nonzero >> verdict }
                if (allskip != "") {
                    print "GPU binaries whose every case skipped:" allskip
                    if (firstwhy != "") print "  first reason: " firstwhy
                    print "FAIL tests: every case skipped in GPU binaries:" allskip >> verdict
                }
                if (n == 0) print "FAIL tests: no test binary ran" >> verdict
                if (docskip != "") print "documented skips (a part this machine lacks; not failures):" docskip
                if (nundoc > 0) {
                    print "skipped cases with no documented reason:" undoc
                    if (nundoc > 20) print "  ... and " nundoc - 20 " more (tests.log)"
                    print "FAIL tests: " nundoc " case(s) skipped in the plain pass for a reason skips_allowed.txt does not document (listed above)" >> verdict
                }
            }' "$out/tests.log"
    fi
    if [ -s "$out/tours.log" ]; then
        grep -E "^\[(ok|FAIL|SKIP)\]|examples:|tour-exit-code|tour-sm80-exit-code" "$out/tours.log"
        grep -E "^tour(-sm80)?-exit-code: " "$out/tours.log" | while read -r what code; do
            [ "$code" = 0 ] || echo "FAIL ${what%-exit-code:} exited $code" >>"$verdict"
        done
    fi
    if [ -s "$out/bench.log" ] && grep -q "^=== bench" "$out/bench.log"; then
        sed -n '/^=== bench/,/^bench-exit-code/p' "$out/bench.log" | grep -E "^[0-9]+ PASS, |bench-exit-code"
        targeted_gaps "$out/bench.csv" bench
        local code nwrong
        code=$(sed -n 's/^bench-exit-code: //p' "$out/bench.log")
        nwrong=$(sed -n '/^=== bench/,/^bench-exit-code/p' "$out/bench.log" | grep -c "| WRONG ")
        [ "$nwrong" -gt 0 ] && sed -n '/^=== bench/,/^bench-exit-code/p' "$out/bench.log" | grep "| WRONG " | cut -c1-160
        if [ "$code" = 124 ]; then
            echo "FAIL bench: did not finish in 240 s (timeout)" >>"$verdict"
        elif [ "$code" != 0 ] || [ "$nwrong" -gt 0 ]; then
            echo "FAIL bench: exit code $code, $nwrong WRONG row(s)" >>"$verdict"
        fi
    fi
    if grep -q "^=== self-test" "$out/bench.log" 2>/dev/null; then
        local st
        st=$(sed -n '/^=== self-test/,/^self-test-exit-code/p' "$out/bench.log")
        printf "%s\n" "$st" | grep -E "^self-test:|self-test-exit-code"
        local code
        code=$(printf "%s\n" "$st" | sed -n 's/^self-test-exit-code: //p')
        if [ "$code" = 124 ]; then
            echo "FAIL self-test: did not finish in 120 s" >>"$verdict"
        elif [ "$code" != 0 ]; then
            local first
            first=$(printf "%s\n" "$st" | grep -E '^self-test: NOT CAUGHT' | head -n 1 | cut -c1-300)
            echo "FAIL self-test: exit code $code${first:+ ($first)}" >>"$verdict"
        fi
    fi
    if grep -q "^=== launch-overhead" "$out/bench.log" 2>/dev/null; then
        local lo code
        lo=$(sed -n '/^=== launch-overhead/,/^launch-overhead-exit-code/p' "$out/bench.log")
        printf "%s\n" "$lo" | grep -E "x anchor|^WRONG|launch-overhead-exit-code"
        code=$(printf "%s\n" "$lo" | sed -n 's/^launch-overhead-exit-code: //p')
        if [ "$code" = 124 ]; then
            echo "FAIL launch-overhead: did not finish in 120 s (timeout)" >>"$verdict"
        elif [ "$code" != 0 ] || printf "%s\n" "$lo" | grep -q "^WRONG"; then
            echo "FAIL launch-overhead: exit code $code$(printf "%s\n" "$lo" | grep -m 1 "^WRONG" | cut -c1-200 | sed 's/^/, /')" >>"$verdict"
        fi
    fi
    if grep -q "^workload-.*-exit-code:" "$out/bench.log" 2>/dev/null; then
        sed -n 's/^workload-\(.*\)-exit-code: \(.*\)$/\1 \2/p' "$out/bench.log" | while read -r name code; do
            case "$code" in
            0) echo "workload $name: ok" ;;
            3) echo "workload $name: WRONG (exit 3)"; echo "FAIL workload $name: a row printed WRONG (exit 3)" >>"$verdict" ;;
            124) echo "workload $name: did not finish"; echo "FAIL workload $name: did not finish in 180 s" >>"$verdict" ;;
            *) echo "workload $name: exit $code"; echo "FAIL workload $name: exit code $code" >>"$verdict" ;;
            esac
        done
        targeted_gaps "$out/workloads.csv" workloads
    fi
    if [ "${CGC_SKIP_SANITIZERS:-0}" != 1 ]; then
        awk -v verdict="$verdict" '
            # One sanitizer run ends: judge it. A binary whose every test
            # skipped (by reason) before any CUDA call makes the tool exit
            # 255: listed, not a failure.
            function close_run() {
                if (tool == "") return
                runs[tool]++
                if (cut) cuts = cuts " " tool ":" id "(not started)"
                else if (code == 124 || code == 137) cuts = cuts " " tool ":" id "(timed out)"
                else if (!has_summary) crashed = crashed " " tool ":" id "(exit " code ")"
                else if (code != 0 && nocuda && failed == 0) skipped_all = skipped_all " " tool ":" id
                else if (code != 0 && failed == 0) nonzero = nonzero " " tool ":" id "(" code ")"
            }
            /^=== / { close_run(); tool = $2; id = $3; cut = 0; has_summary = 0; nocuda = 0; failed = 0; code = "" }
            /^not run: deadline reached/ { cut = 1 }
            /ERROR SUMMARY: [0-9]+ errors?$/ { n[tool] += $4; if ($4 > 0) bad = bad " " tool ":" id "(" $4 ")" }
            /^\[SKIP\].*not run under compute-sanitizer/ { skipped[tool]++ }
            /RACECHECK SUMMARY:/ {
                e = $0; sub(/.*\(/, "", e); split(e, w, " "); n[tool] += w[1] + w[3]
                if (w[1] + w[3] > 0) bad = bad " " tool ":" id "(" w[1] + w[3] ")"
            }
            /^cgc-summary:/ { has_summary = 1; split($0, f, /[ =]/); failed = f[5]; if (f[5] > 0) fails = fails " " tool ":" id }
            /before first instrumented API call/ { nocuda = 1 }
            /^exit-code:/ { code = $2 }
            END {
                close_run()
                for (t in runs) printf "%s: %d runs, %d errors, %d tests skipped by reason\n", t, runs[t], n[t], skipped[t]
                if (bad != "") { print "sanitizer reports in:" bad; print "FAIL sanitizers: reports in" bad >> verdict }
                if (fails != "") { print "test failures under sanitizer:" fails; print "FAIL sanitizers: test failures in" fails >> verdict }
                if (crashed != "") { print "crashed under a sanitizer (no summary):" crashed; print "FAIL sanitizers: crashed:" crashed >> verdict }
                if (nonzero != "") { print "nonzero exits under a sanitizer:" nonzero; print "FAIL sanitizers: nonzero exit:" nonzero >> verdict }
                if (cuts != "") { print "sanitizer runs cut by the deadline:" cuts; print "FAIL sanitizers: cut by the deadline:" cuts >> verdict }
                if (skipped_all != "") print "every test skipped before any CUDA call (the tool exits 255; each says why):" skipped_all
            }' "$out/sanitizers.log"
        if [ -s "$work/tests/gpu_ids.txt" ] && ! grep -q "^=== " "$out/sanitizers.log"; then
            echo "FAIL sanitizers: none ran (set CGC_SKIP_SANITIZERS=1 to skip them on purpose)" >>"$verdict"
        fi
    fi
    if [ -s "$out/extras.tar.gz" ]; then
        echo "extras.tar.gz: $( (cd "$extras" && find . -mindepth 1 -maxdepth 1 | sed 's#^\./##' | sort) | tr '\n' ' ')(tar -xzf extras.tar.gz)"
    fi
    echo "files in \$OUT: $nout"
    echo "wall time: $(($(date +%s) - start)) s"
    echo
    if [ -s "$verdict" ]; then
        echo "verdict: FAILED ($(wc -l <"$verdict") problem(s))"
        cat "$verdict"
    else
        echo "verdict: PASSED"
    fi
}
summarize 2>&1 | tee "$out/summary.txt"
[ ! -s "$verdict" ]
