#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A fat binary, no GPU needed: the example tour built for sm_90a and sm_100a
# (--define=cuda_arch=sm_90a,sm_100a) carries machine code for both and PTX
# for the newer, so it also runs on GPUs that neither names.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! bazel build --define=cuda_arch=sm_90a,sm_100a //examples:tour >"$log" 2>&1; then
    echo "multi-arch build: FAILED"
    tail -n 30 "$log"
    exit 1
fi
bin="$(bazel info bazel-bin 2>/dev/null)/examples/tour"
n=$(strings "$bin" | grep -c '\.target sm_100a') # -c, not -q: -q closes the pipe early (pipefail)
if [ "${n:-0}" -eq 0 ]; then
    echo "multi-arch build: no sm_100a PTX in $bin"
    exit 1
fi
echo "multi-arch build: //examples:tour for sm_90a + sm_100a, with sm_100a PTX"
