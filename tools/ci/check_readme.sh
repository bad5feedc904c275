#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's quick start, verbatim, no GPU needed: every fenced block of
# README.md marked `<!-- readme-check: file PATH -->` is written to PATH in
# a scratch directory, and every block marked `<!-- readme-check: sh DIR -->`
# runs there (bash -e, in DIR), in the README's order, with CGC set to this
# checkout and PREFIX to a fresh install prefix. A block that ends by running
# the program counts as run when the program says "no CUDA device" and exits
# 2 (no GPU here). Then the fat-build guard is checked the other way: the
# same kernel without its CG_ARCH_HAS_SM90 guard must fail to build for
# sm_80 + sm_90a, naming the call. Exit 0 when all of it holds.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CGC="$root" PREFIX="$work/prefix"
fail() { echo "README check: FAILED at: $1"; [ -f "${2:-}" ] && tail -n 30 "$2"; exit 1; }

# Split README.md into numbered steps: step.N.kind (file|sh), step.N.arg, step.N.body.
awk -v out="$work/steps" '
    BEGIN { n = 0; want = ""; body = 0 }
    /^<!-- readme-check: (file|sh) [^ ]+ -->$/ { n++; split($0, a, " "); want = a[3]; arg = a[4]; next }
    want != "" && body == 0 && /^```/ { body = 1; print want > (out "." n ".kind"); print arg > (out "." n ".arg");
                                        printf "" > (out "." n ".body"); next }
    body == 1 && /^```/ { body = 0; want = ""; next }
    body == 1 { print >> (out "." n ".body") }
' README.md
steps=$(find "$work" -maxdepth 1 -name 'steps.*.kind' | wc -l)
[ "$steps" -ge 8 ] || fail "only $steps marked snippets in README.md (expected the install, quick start and fat build)"

ran=0 nogpu=0
for ((i = 1; i <= steps; i++)); do
    kind=$(cat "$work/steps.$i.kind") arg=$(cat "$work/steps.$i.arg")
    if [ "$kind" = file ]; then
        mkdir -p "$work/$(dirname "$arg")"
        cp "$work/steps.$i.body" "$work/$arg"
        continue
    fi
    mkdir -p "$work/$arg"
    log="$work/step.$i.log"
    (cd "$work/$arg" && bash -e "$work/steps.$i.body") >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 2 ] && tail -n 1 "$log" | grep -q "no CUDA device"; then
        nogpu=$((nogpu + 1))
    elif [ "$rc" -ne 0 ]; then
        echo "--- snippet $i (sh, in $arg):"
        cat "$work/steps.$i.body"
        fail "snippet $i" "$log"
    fi
    ran=$((ran + 1))
done

# The guard, the other way: without it the sm_80 pass stops at the call.
sed 's/#if CG_ARCH_HAS_SM90/#if 1/' "$work/fat/ranks.cu" >"$work/fat/unguarded.cu"
if (cd "$work/fat" && nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a \
    -I"$PREFIX/include" -c unguarded.cu) >"$work/unguarded.log" 2>&1; then
    fail "the unguarded fat kernel built for sm_80" "$work/unguarded.log"
fi
grep -q "needs sm_90 or newer" "$work/unguarded.log" || fail "the unguarded fat kernel's error" "$work/unguarded.log"

echo "README check: $steps snippets, $ran command blocks ran ($nogpu ended at 'no CUDA device': no GPU here);" \
    "the fat build needs its guard"
