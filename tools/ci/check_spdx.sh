#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every source file cgc tracks (C, CUDA, Bazel, shell) carries the SPDX line
# of LICENSE in its first three lines. Prints each file that does not and
# exits 1; third_party/ (vendored rules) is not ours.
cd "$(dirname "$0")/../.." || exit 2
missing=0
while IFS= read -r f; do
    case "$f" in
    third_party/*) continue ;;
    *.h | *.c | *.cu | *.cuh | *.bzl | *.sh | *.py | */BUILD.bazel | BUILD.bazel | WORKSPACE | CMakeLists.txt | *.cmake.in | *.pc.in | .ci/run) ;;
    *) continue ;;
    esac
    if ! head -n 3 "$f" | grep -q "SPDX-License-Identifier: BSD-3-Clause"; then
        echo "no SPDX line: $f"
        missing=$((missing + 1))
    fi
done < <(git ls-files)
[ "$missing" -eq 0 ] && echo "SPDX: every source file carries BSD-3-Clause"
[ "$missing" -eq 0 ]
