#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cgc from another Bazel workspace, no GPU needed: a scratch workspace with
# tests/build/consumer's sources, WORKSPACE.in (local_repository @cgc and
# cgc_dependencies()) and BUILD.consumer (cuda_binary with @cgc//:cgc) is
# built and its binary run (it includes <cgc/cg/cg.h> and checks that no bare
# cgc folder is on its include path); then a few of cgc's own tests run from
# there as @cgc//tests/... (their data found in cgc's runfiles, not the
# consumer's). Exit 0 when all of it works.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
cgc=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s|@CGC_PATH@|$cgc|" tests/build/consumer/WORKSPACE.in >"$work/WORKSPACE"
cp tests/build/consumer/BUILD.consumer "$work/BUILD.bazel"
cp tests/build/consumer/main.c tests/build/consumer/kernel.cu "$work/"
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
# cgc's tests from the consumer's workspace: sources read from the runfiles
# (layering), a PTX file (smoke), headers compiled through NVRTC.
own="@cgc//tests/build/layering:include_floors_test @cgc//tests/build/smoke:smoke_test @cgc//tests/build/nvrtc:nvrtc_test"
# shellcheck disable=SC2086
if ! (cd "$work" && bazel test $own >"$work/test.log" 2>&1); then
    echo "bazel consumer: cgc's own tests FAILED as @cgc//... from another workspace"
    grep -E "PASSED|FAILED|NO STATUS" "$work/test.log"
    for t in $own; do
        p=${t#@cgc//}
        cat "$work/bazel-testlogs/external/cgc/${p/://}/test.log" 2>/dev/null | grep -E "FAIL|Assert|cannot" | head -n 10
    done
    exit 1
fi
(cd "$work" && bazel shutdown >/dev/null 2>&1)
echo "bazel consumer: @cgc//:cgc and cuda_binary from another workspace build and run; $(echo $own | wc -w) of cgc's tests pass there as @cgc//..."
