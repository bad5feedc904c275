#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tools/gpu/run.sh judged on a fake bundle (no GPU: host-only, runs in CI).
# The bundle holds shell scripts in place of the test binaries, the tour, the
# benchmark and a workload, and the PATH a fake nvidia-smi and
# compute-sanitizer; FAKE_PLANT tells them which failure to plant. run.sh
# must exit 0 on the clean run (a documented skip, the torch test's, included)
# and 1, with a verdict line naming the problem, on each planted one: a
# failing test, a crash, a GPU binary whose every case skipped, a test that
# exits nonzero after passing, a case skipped for an undocumented reason, a
# WRONG benchmark row, a benchmark or workload row with a target that came
# out SKIP or MISSING, a benchmark that dies, a self-test that misses a
# broken variant, a launch-overhead benchmark that prints WRONG or dies, a
# workload that prints WRONG, a failed tour, a sanitizer report, a sanitizer
# run cut by the deadline, the benchmark, the launch-overhead benchmark, a
# tour or a listed workload missing from the bundle, a bundle with no
# workload list, a CGC_SASS request that matches nothing, and a run that
# would leave more than the 8 files the device tool brings back (its extras
# left unpacked). It also checks the progress lines ("[i/N]"), that every
# run leaves at most 8 files in $OUT (one killed in its sanitizer passes,
# as the device call's time limit would, included), and that
# extras.tar.gz holds the JSON files, launch.csv, the SASS file CGC_SASS
# asks for and a stray file a binary left beside its CSV.
set -uo pipefail
runsh=$(realpath "$1")
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/run_sh_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- the fake bundles ------------------------------------------------------------
# "clean" (a host test and a GPU test that pass, the torch test and the
# one-GPU launch test skipping for their documented reasons), "planted" (the same plus five GPU tests that fail,
# crash, skip every case, pass but exit 2, or skip a case for a reason
# skips_allowed.txt does not document), "gaps" (clean without the benchmark,
# the compute_80 tour and the listed workload) and "nolist" (clean without
# workloads.txt). A fake test binary does what its name says.
stage="$tmp/stage"
mkdir -p "$stage/tests" "$stage/bin" "$stage/lib" "$tmp/path"
echo "fakecommit0123" >"$stage/commit.txt"
: >"$stage/dirty.txt"
fake_test() { # fake_test ID BEHAVIOUR
    local dir="$stage/tests/$1.runfiles/cgc/tests/$1"
    mkdir -p "$dir"
    case "$2" in
    ok) printf '#!/usr/bin/env bash\necho "cgc-summary: passed=3 failed=0 skipped=0"\n' ;;
    fail) printf '#!/usr/bin/env bash\necho "[FAIL] one: 3 wrong values"\necho "cgc-summary: passed=2 failed=1 skipped=0"\nexit 1\n' ;;
    crash) printf '#!/usr/bin/env bash\necho "[RUN ] one"\nkill -SEGV $$\n' ;;
    allskip) printf '#!/usr/bin/env bash\necho "[SKIP] one: no CUDA device (CUDA driver version is insufficient)"\necho "cgc-summary: passed=0 failed=0 skipped=3"\necho "cgc: all 3 cases SKIPPED (no CUDA device): nothing ran"\n' ;;
    nonzero) printf '#!/usr/bin/env bash\necho "cgc-summary: passed=3 failed=0 skipped=0"\nexit 2\n' ;;
    undocskip) printf '#!/usr/bin/env bash\necho "[SKIP] contracts::cluster_8: sliced pipeline, cluster 8: the device cannot hold one cluster of this shape"\necho "cgc-summary: passed=2 failed=0 skipped=1"\n' ;;
    torchskip) printf '#!/usr/bin/env bash\necho "[SKIP] python_examples::the_torch_extension_builds_and_matches_torch: torch is not installed (python3 -c ...)"\necho "[PASS] python_examples::the_scripts_are_valid_python"\necho "cgc-summary: passed=1 failed=0 skipped=1"\n' ;;
    onegpu) printf '#!/usr/bin/env bash\necho "[SKIP] cg_launch_gpu::prepared_handle_on_another_device_is_refused: one device: the other-device check needs two"\necho "cgc-summary: passed=10 failed=0 skipped=1"\n' ;;
    esac >"$dir/bin"
    chmod +x "$dir/bin"
    echo "$1 tests/$1/bin" >>"$stage/tests/index.txt"
    case "$1" in host_*) ;; *) echo "$1" >>"$stage/tests/gpu_ids.txt" ;; esac
}
cp "$(dirname "$runsh")/skips_allowed.txt" "$stage/skips_allowed.txt"
echo wl_demo >"$stage/workloads.txt"
cat >"$stage/bin/tour" <<'SH'
#!/usr/bin/env bash
echo "[ok] example"
[[ " ${FAKE_PLANT:-} " == *" tour "* ]] && { echo "[FAIL] example2"; exit 1; }
exit 0
SH
cp "$stage/bin/tour" "$stage/bin/tour_sm80"

cat >"$stage/bin/bench" <<'SH'
#!/usr/bin/env bash
if [ "${1:-}" = --self-test ]; then
    if [[ " ${FAKE_PLANT:-} " == *" selftest "* ]]; then
        echo "self-test: caught 8 of 9 broken variants"
        echo "self-test: NOT CAUGHT: self-test: broken grid barrier (8 x 256)"
        exit 6
    fi
    echo "self-test: caught 9 of 9 broken variants"
    exit 0
fi
if [ "$1" = --csv ]; then
    echo '{"kind": "meta", "commit": "'"$CGC_COMMIT"'"}' >"${2%.csv}.json" # the JSON Lines beside the CSV
    echo "# gpu=fake commit=$CGC_COMMIT" >"$2"
    echo "operation,config,cgc,anchor,cgc_ns,anchor_ns,ratio,speedup,target,verdict,note" >>"$2"
    echo '"block sync","128 thr, 132 blk","cg","bar","1.0","1.0","1.000","1.000","<=1.02","PASS","ok, ""quoted"""' >>"$2"
    echo '"tile sync","64 thr","cg","bar","","","","","info","SKIP","an info row may skip"' >>"$2"
    [[ " ${FAKE_PLANT:-} " == *" benchskip "* ]] &&
        echo '"cluster sync","cluster 8","cg","cpp","-","-","-","","<=1.02","SKIP","no cluster of 8 x 128 threads fits"' >>"$2"
    [[ " ${FAKE_PLANT:-} " == *" benchmissing "* ]] &&
        echo '"grid sync","4 blk/SM","cg","cpp","-","1.0","-","","<=1.00","MISSING","cgc kernel not built"' >>"$2"
fi
echo "block sync | 128 thr | 1.0 | 1.0 | 1.000 | <=1.02 | PASS    | x vs y"
case " ${FAKE_PLANT:-} " in
*" wrong "*)
    echo "grid sync | 8 x 256 | 1.0 | 1.0 | 0.500 | <=1.00 | WRONG   | x vs y; checked: cgc 5 wrong"
    echo "1 PASS, 0 MISS, 1 WRONG, 0 info, 0 cgc kernel missing, 0 skipped; 1.0 s"
    exit 3 ;;
*" benchdies "*)
    echo "bench: CUDA error in row 'grid sync': an illegal memory access was encountered" >&2
    exit 2 ;;
esac
echo "1 PASS, 0 MISS, 0 WRONG, 0 info, 0 cgc kernel missing, 0 skipped; 1.0 s"
SH

cat >"$stage/bin/launch_overhead" <<'SH'
#!/usr/bin/env bash
[ "${1:-}" = --csv ] && printf 'form,us_per_call,ratio_to_anchor,checked\nanchor,5.0,1.0000,ok\n' >"$2"
echo "launch overhead, 132 blocks x 256 threads, cooperative, 15 x 200 launches per form (median of 15)"
case " ${FAKE_PLANT:-} " in
*" launchwrong "*) echo "WRONG prepared: 199 launches counted of 200, 0 grid-sync mismatches, 0 words not the last launch's"; exit 3 ;;
*" launchdies "*) echo "launch_overhead: cg_launch_prepare: invalid configuration" >&2; exit 2 ;;
esac
echo "  anchor        5.00 us/call  1.000 x anchor   cudaLaunchCooperativeKernel (anchor)"
echo "  prepared      5.04 us/call  1.008 x anchor   cg_launch_prepared, handle checked once (target <= 1.05 x anchor)"
SH

cat >"$stage/bin/wl_demo" <<'SH'
#!/usr/bin/env bash
if [ "$1" = --csv ]; then
    echo "# gpu=fake commit=$CGC_COMMIT" >>"$2"
    echo '{"kind": "meta"}' >>"${2%.csv}.json"
    [[ " ${FAKE_PLANT:-} " == *" stray "* ]] && echo "a file no one listed" >"$(dirname "$2")/wl_demo_extra.txt"
fi
[[ " ${FAKE_PLANT:-} " == *" wlskip "* ]] &&
    echo '"workload: demo","N = 2^18, 1 block/SM","cgc","C++ CG","0.0","0.0","","","<=0.90","SKIP","1 blocks/SM do not fit"' >>"$2"
[[ " ${FAKE_PLANT:-} " == *" wlwrong "* ]] && { echo "workload: demo | WRONG"; exit 3; }
echo "workload: demo | PASS"
SH
chmod +x "$stage"/bin/*
fake_test host_ok ok
fake_test gpu_ok ok
fake_test host_torchskip torchskip
fake_test gpu_launch onegpu
tar -C "$stage" -czf "$tmp/clean.tar.gz" .
mv "$stage/workloads.txt" "$tmp/workloads.txt"
tar -C "$stage" -czf "$tmp/nolist.tar.gz" .
mv "$tmp/workloads.txt" "$stage/workloads.txt"
mkdir -p "$tmp/hold"
mv "$stage/bin/bench" "$stage/bin/launch_overhead" "$stage/bin/tour_sm80" "$stage/bin/wl_demo" "$tmp/hold/"
tar -C "$stage" -czf "$tmp/gaps.tar.gz" .
mv "$tmp/hold"/* "$stage/bin/"
for b in fail crash allskip nonzero undocskip; do
    fake_test "gpu_$b" "$b"
done
tar -C "$stage" -czf "$tmp/planted.tar.gz" .

# --- the fake tools on PATH ---------------------------------------------------------
cat >"$tmp/path/nvidia-smi" <<'SH'
#!/usr/bin/env bash
echo "name, compute_cap, driver_version"
echo "Fake H100, 9.0, 580.00"
SH
cat >"$tmp/path/cuobjdump" <<'SH'
#!/usr/bin/env bash
printf 'Fatbin elf code:\n================\n\t\tFunction : _Z11k_cgc_solve13cgs_problem\n'
printf '        /*0010*/              @!P0 MEMBAR.ALL.GPU ;   /* 0x0000000000007992 */\n'
printf '        /*0020*/                   RED.E.ADD.STRONG.GPU [R2.64], R5 ;\n\t\t..........\n'
printf '\t\tFunction : _Z11k_cpp_solve13cgs_problem\n        /*0010*/                   MEMBAR.SC.GPU ;\n'
SH
cat >"$tmp/path/compute-sanitizer" <<'SH'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "Fake compute-sanitizer 2026.1"; exit 0; }
# "cut": the device call's time limit ends the run here: run.sh's whole
# process group (run_case started it in a session of its own) is killed.
[[ " ${FAKE_PLANT:-} " == *" cut "* ]] && kill -KILL -- "-$(cat "$FAKE_RUNSH_PID")"
tool=memcheck
while [ $# -gt 0 ] && [ "${1#./}" = "$1" ]; do
    [ "$1" = --tool ] && tool=$2
    shift
done
"$@"
rc=$?
if [ "$tool" = racecheck ]; then
    echo "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
elif [ "${FAKE_PLANT#*sanreport}" != "${FAKE_PLANT:-}" ] && [ "$tool" = memcheck ] && [ "$1" = ./tests/gpu_ok/bin ]; then
    echo "========= Invalid __global__ read of size 4 bytes"
    echo "========= ERROR SUMMARY: 2 errors"
else
    echo "========= ERROR SUMMARY: 0 errors"
fi
exit $rc
SH
chmod +x "$tmp/path"/*

# --- the runs -------------------------------------------------------------------
fail=0
# run_case NAME BUNDLE WANT_EXIT PLANTS [ENV...] -- PATTERN...: run.sh on the
# bundle with FAKE_PLANT=PLANTS (and ENV); it must exit WANT_EXIT and its
# summary must hold every PATTERN (one line each); it must leave at most
# $max_files files in $OUT (the device tool's 8, unless a case says else).
# Its console output goes to $tmp/stdout-NAME, outside $OUT.
max_files=8
run_case() {
    local name=$1 bundle=$2 want=$3 plants=$4
    shift 4
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        envs+=("$1")
        shift
    done
    shift
    local out="$tmp/out-$name"
    mkdir -p "$out"
    # run.sh in a session of its own (its pid in $tmp/pid-NAME), so the
    # "cut" plant can kill its process group and nothing else.
    # shellcheck disable=SC2016
    (cd "$tmp" && env PATH="$tmp/path:$PATH" OUT="$out" CGC_BUNDLE="$tmp/$bundle.tar.gz" CGC_WORK="$tmp/work-$name" \
        CGC_SAN_JOBS=2 FAKE_PLANT="$plants" FAKE_RUNSH_PID="$tmp/pid-$name" "${envs[@]}" \
        setsid bash -c 'echo $$ >"$FAKE_RUNSH_PID"; exec bash "$0"' "$runsh" >"$tmp/stdout-$name" 2>&1) 2>/dev/null
    local rc=$? bad=0
    if [ "$rc" -ne "$want" ]; then
        echo "case $name: run.sh exited $rc, want $want"
        bad=1
    fi
    [ "$rc" = 137 ] && sleep 1 # a killed run: its last sanitizer job ends (it is outside the group)
    for pattern in "$@"; do
        if ! grep -qE -- "$pattern" "$out/summary.txt" 2>/dev/null; then
            echo "case $name: the summary lacks /$pattern/"
            bad=1
        fi
    done
    local files
    files=$(find "$out" -type f | wc -l)
    if [ "$files" -gt "$max_files" ]; then
        echo "case $name: $files files under \$OUT; the device tool brings back 8"
        bad=1
    fi
    if [ "$bad" -ne 0 ]; then
        echo "  its summary:"
        sed 's/^/    /' "$out/summary.txt" 2>/dev/null || sed 's/^/    /' "$tmp/stdout-$name"
        fail=1
    else
        echo "case $name: exit $rc, every expected line in the summary"
    fi
}

# The clean run writes every file a real run does (the JSON files beside the
# CSVs, launch.csv, sass.txt), plus a stray one beside the workloads' CSV:
# twelve files, of which it must leave eight.
run_case clean clean 0 "stray" "CGC_SASS=wl_demo:k_(cgc|cpp)_solve" -- "^verdict: PASSED" \
    "^tests: 4 binaries, 17 cases passed, 0 failed, 2 skipped" \
    "^memcheck: 2 runs, 0 errors" "^documented skips" "host_torchskip: python_examples::the_torch_extension" \
    "gpu_launch: cg_launch_gpu::prepared_handle_on_another_device_is_refused: one device" \
    "^ +prepared +5.04 us/call" "^extras.tar.gz: bench.json launch.csv sass.txt wl_demo_extra.txt workloads.json " \
    "^files in .OUT: 8$"
# The progress lines: one per test, tour, benchmark part, workload and
# sanitizer run, each "[i/N] ...".
for want in "^\[1/4\] test host_ok: exit-code: 0" "^\[3/4\] test host_torchskip" "^\[2/6\] tour-sm80: exit 0" \
    "^\[4/6\] self-test: exit 0" "^\[5/6\] launch-overhead: exit 0" "^\[6/6\] workload-wl_demo: exit 0" \
    "^\[[1-8]/8\] memcheck gpu_ok: exit-code: 0"; do
    grep -qE -- "$want" "$tmp/stdout-clean" || { echo "case clean: no progress line /$want/ on the console"; fail=1; }
done
# What $OUT holds: the seven named files and extras.tar.gz, which unpacks to
# the rest.
want_out="bench.csv bench.log extras.tar.gz sanitizers.log summary.txt tests.log tours.log workloads.csv "
got_out=$(cd "$tmp/out-clean" && find . -type f | sed 's#^\./##' | sort | tr '\n' ' ')
[ "$got_out" = "$want_out" ] || { echo "case clean: \$OUT holds '$got_out', want '$want_out'"; fail=1; }
mkdir -p "$tmp/extras-clean"
tar -C "$tmp/extras-clean" -xzf "$tmp/out-clean/extras.tar.gz" || { echo "case clean: extras.tar.gz does not unpack"; fail=1; }
for f in bench.json workloads.json launch.csv sass.txt wl_demo_extra.txt; do
    [ -s "$tmp/extras-clean/$f" ] || { echo "case clean: extras.tar.gz lacks $f"; fail=1; }
done
# The positive control of the count: the same run with the extras left
# unpacked leaves twelve files, and run.sh itself fails it.
max_files=99
run_case nopack clean 1 "stray" "CGC_SASS=wl_demo:k_(cgc|cpp)_solve" CGC_PACK_EXTRAS=0 -- \
    "^FAIL out: the run leaves 12 files in .OUT; the device tool brings back 8"
max_files=8
[ "$(find "$tmp/out-nopack" -type f | wc -l)" = 12 ] || { echo "case nopack: not the 12 files the control needs"; fail=1; }
# Every planted failure in one run: the summary names each.
run_case planted planted 1 "wrong selftest launchwrong wlwrong tour sanreport benchskip benchmissing wlskip" -- \
    "^FAIL tests: failed cases in gpu_fail\(1\)" \
    "^FAIL tests: crashed or timed out: gpu_crash" \
    "^FAIL tests: every case skipped in GPU binaries: gpu_allskip" \
    "^FAIL tests: nonzero exit: gpu_nonzero\(2\)" \
    "^FAIL bench: exit code 3, 1 WRONG row" \
    "^FAIL self-test: exit code 6 .*NOT CAUGHT" \
    "^FAIL launch-overhead: exit code 3, WRONG prepared: 199 launches counted of 200" \
    "^FAIL workload wl_demo: a row printed WRONG" \
    "^FAIL tour exited 1" \
    "^FAIL sanitizers: reports in memcheck:gpu_ok\(2\)" \
    "^FAIL sanitizers: test failures in.*memcheck:gpu_fail" \
    "^FAIL sanitizers: crashed:.*gpu_crash" \
    "^FAIL tests: 2 case\(s\) skipped in the plain pass for a reason" "gpu_undocskip: contracts::cluster_8" \
    "^FAIL bench: a row with a target came out SKIP: cluster sync \| cluster 8" \
    "^FAIL bench: a row with a target came out MISSING: grid sync" \
    "^FAIL workloads: a row with a target came out SKIP: workload: demo \| N = 2\^18, 1 block/SM"
if grep -q "info row may skip" "$tmp/out-planted/summary.txt"; then
    echo "case planted: an info row's SKIP was reported as a gap"
    fail=1
fi
# Parts missing from the bundle; then the same bundle with their switches.
run_case gaps gaps 1 "" -- "^FAIL bundle: bin/bench is missing" "^FAIL bundle: bin/tour_sm80 is missing" \
    "^FAIL bundle: bin/launch_overhead is missing" \
    "^FAIL bundle: bin/wl_demo is missing"
run_case gaps_switched gaps 0 "" CGC_SKIP_BENCH=1 CGC_SKIP_TOURS=1 -- "^verdict: PASSED"
run_case nolist nolist 1 "" -- "^FAIL bundle: no workloads.txt"
# CGC_SASS: the kernels' SASS and fence counts in sass.txt; a regex that
# matches nothing, or a binary not in the bundle, fails.
run_case sass clean 1 "" CGC_SKIP_SANITIZERS=1 "CGC_SASS=wl_demo:k_(cgc|cpp)_solve wl_demo:k_nothing* wl_none:k_x" -- \
    "^FAIL sass: no kernel of bin/wl_demo matches /k_nothing\\*/" "^FAIL sass: bin/wl_none is not in the bundle"
mkdir -p "$tmp/extras-sass"
tar -C "$tmp/extras-sass" -xzf "$tmp/out-sass/extras.tar.gz" sass.txt || echo "case sass: no sass.txt in extras.tar.gz"
for want in "^--- kernel _Z11k_cgc_solve13cgs_problem" "^fence/barrier instructions:.*MEMBAR.ALL.GPU=1" \
    "^--- kernel _Z11k_cpp_solve13cgs_problem" "^fence/barrier instructions: MEMBAR.SC.GPU=1"; do
    grep -qE -- "$want" "$tmp/extras-sass/sass.txt" 2>/dev/null || { echo "case sass: sass.txt lacks /$want/"; fail=1; }
done
# A run the device call cuts short (killed in the sanitizer passes, no
# summary): the extras written so far are already packed, so it still
# leaves at most 8 files, and extras.tar.gz holds them.
run_case cut clean 137 "stray cut" "CGC_SASS=wl_demo:k_(cgc|cpp)_solve" --
[ -e "$tmp/out-cut/summary.txt" ] && { echo "case cut: the run was not cut (a summary)"; fail=1; }
got=$(tar -tzf "$tmp/out-cut/extras.tar.gz" 2>/dev/null | sort | tr '\n' ' ')
[ "$got" = "bench.json launch.csv sass.txt wl_demo_extra.txt workloads.json " ] ||
    { echo "case cut: extras.tar.gz holds '$got'"; fail=1; }
# A benchmark that dies, and sanitizer runs the deadline stops.
run_case deadline clean 1 "benchdies launchdies" CGC_DEADLINE=-1000 -- "^FAIL bench: exit code 2" \
    "^FAIL launch-overhead: exit code 2$" \
    "^FAIL sanitizers: cut by the deadline:.*gpu_ok\(not started\)"
# The switches still work: no sanitizers, no benchmark: a clean pass.
run_case skips clean 0 "wrong" CGC_SKIP_SANITIZERS=1 CGC_SKIP_BENCH=1 -- "^verdict: PASSED"
# The commit reaches the benchmark's CSV (CGC_COMMIT from commit.txt).
if ! grep -q "commit=fakecommit0123" "$tmp/out-clean/bench.csv" "$tmp/out-clean/workloads.csv"; then
    echo "CGC_COMMIT did not reach the CSVs"
    fail=1
fi
# The line every cgc test binary ends with, which .ci/run sums (one case).
echo "cgc-summary: passed=$((1 - fail)) failed=$fail skipped=0"
exit "$fail"
