#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The pre-Hopper tour, no GPU needed: //examples:tour built with
# --define=cuda_arch=compute_80 compiles the examples that need no Hopper
# feature to compute_80 PTX only (-gencode=arch=compute_80,code=compute_80,
# which the driver JIT-compiles on the GPU machine), and the binary names what
# it runs and which Hopper examples it skips. tools/gpu/bundle.sh packs it as
# bin/tour_sm80; tools/gpu/run.sh runs it on the GPU.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() { echo "sm_80 tour: $1"; tail -n 30 "$log"; exit 1; }
bazel build --define=cuda_arch=compute_80 //examples:tour >"$log" 2>&1 || fail "the compute_80 build FAILED"
bazel aquery --define=cuda_arch=compute_80 'mnemonic("Nvcc", //examples:examples_nvcc)' >"$log" 2>&1 ||
    fail "aquery failed"
n=$(grep -c -- '-gencode=arch=compute_80,code=compute_80' "$log")
sass=$(grep -c -- 'code=sm_' "$log")
[ "${n:-0}" -eq 7 ] && [ "${sass:-0}" -eq 0 ] ||
    fail "want 7 example objects as compute_80 PTX only, found $n compute_80 and $sass with machine code"
"$(bazel info bazel-bin 2>/dev/null)/examples/tour" >"$log" 2>&1 # no GPU here: it lists, then exits 2
grep -q "runs psum_completion split_arrive_wait memcpy_async_batches warp_aggregated_atomics binary_partition_odd_even quicksort_partition conjugate_gradient; skips the Hopper examples cluster_neighbor" "$log" ||
    fail "the tour does not list what it runs and skips"
echo "sm_80 tour: //examples:tour for compute_80 (PTX only): psum_completion, split_arrive_wait, memcpy_async_batches and the four CUDA-sample ports"
