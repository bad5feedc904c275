#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cgc from another Bazel workspace, no GPU needed: a scratch workspace with
# tests/consumer's sources, WORKSPACE.in (local_repository @cgc and
# cgc_dependencies()) and BUILD.consumer (cuda_binary with @cgc//:cgc) is
# built and its binary run. Exit 0 when both work.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
cgc=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s|@CGC_PATH@|$cgc|" tests/consumer/WORKSPACE.in >"$work/WORKSPACE"
cp tests/consumer/BUILD.consumer "$work/BUILD.bazel"
cp tests/consumer/main.c tests/consumer/kernel.cu "$work/"
cp .bazelrc "$work/.bazelrc" 2>/dev/null
if ! (cd "$work" && bazel build //:consumer >"$work/build.log" 2>&1); then
    echo "bazel consumer: FAILED to build"
    tail -n 30 "$work/build.log"
    exit 1
fi
if ! (cd "$work" && ./bazel-bin/consumer >"$work/run.log" 2>&1); then
    echo "bazel consumer: the binary failed"
    cat "$work/run.log"
    exit 1
fi
(cd "$work" && bazel shutdown >/dev/null 2>&1)
echo "bazel consumer: @cgc//:cgc and cuda_binary from another workspace build and run"
