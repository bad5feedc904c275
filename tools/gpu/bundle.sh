#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds every test, example, the benchmark and the workload benchmarks here
# (no GPU needed), and packs them with Criterion's runtime libraries into
# .bundle/bundle.tar.gz, ready to travel to the GPU machine:
#
#   tools/gpu/bundle.sh            # here
#   device run: carry [".bundle"], command "bash tools/gpu/run.sh"
#
# Test binaries keep their runfiles (PTX files etc.) so each runs from its own
# runfiles root, as under `bazel test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

scope=${CGC_SCOPE:-//...} # a narrower pattern while packages are being written
bazel build "$scope" "$@" 2>&1 | grep -v linux-sandbox | tail -n 3

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests" "$stage/bin" "$stage/lib"

# Every test target; gpu-tagged ones are listed for the sanitizer passes.
bazel query "kind(\"cc_test\", $scope)" 2>/dev/null | sort >"$stage/all_tests.txt"
bazel query "attr(\"tags\", \"\\bgpu\\b\", kind(\"cc_test\", $scope))" 2>/dev/null | sort >"$stage/gpu_tests.txt"

while read -r label; do
    pkg=${label#//}
    pkg=${pkg%%:*}
    name=${label##*:}
    id="${pkg//\//_}__${name}"
    cp -rL "bazel-bin/$pkg/$name.runfiles" "$stage/tests/$id.runfiles"
    echo "$id $pkg/$name" >>"$stage/tests/index.txt"
done <"$stage/all_tests.txt"
sed -E 's#^//([^:]*):(.*)$#\1 \2#' "$stage/gpu_tests.txt" | while read -r pkg name; do
    echo "${pkg//\//_}__${name}"
done >"$stage/tests/gpu_ids.txt"

for b in examples/tour bench/bench bench/launch_overhead; do
    [ -x "bazel-bin/$b" ] && cp -L "bazel-bin/$b" "$stage/bin/"
done
# The workload benchmarks (bench/workloads:wl_*, static binaries; Bazel's
# .params and manifest files beside them are left out): run.sh runs every one
# it finds in bin/.
# workloads.txt names every one the package defines, built or not: run.sh
# fails the run when one of them is missing from bin/.
bazel query 'kind("cc_binary", attr(name, "^wl_", //bench/workloads:all))' 2>/dev/null | while read -r label; do
    echo "${label##*:}" >>"$stage/workloads.txt"
    wl="bazel-bin/bench/workloads/${label##*:}"
    if [ -f "$wl" ] && [ -x "$wl" ]; then
        cp -L "$wl" "$stage/bin/"
    fi
done
# The skips run.sh accepts in the plain pass: parts the GPU machine is
# documented to lack (the file says which and why).
cp tools/gpu/skips_allowed.txt "$stage/skips_allowed.txt"

# The pre-Hopper tour: the examples that need no Hopper feature as compute_80
# PTX only (tools/ci/check_sm80_tour.sh); run.sh runs it on the GPU, where the
# driver JIT-compiles the PTX. Built after the copies above: it replaces
# bazel-bin/examples/tour.
if [ -x "$stage/bin/tour" ]; then
    bazel build --define=cuda_arch=compute_80 //examples:tour >"$stage/tour_sm80_build.log" 2>&1 &&
        cp -L bazel-bin/examples/tour "$stage/bin/tour_sm80" ||
        { echo "bundle: the compute_80 tour did not build:"; tail -n 20 "$stage/tour_sm80_build.log"; exit 1; }
    rm -f "$stage/tour_sm80_build.log"
fi

# Criterion and the shared libraries it pulls in (everything but glibc's own).
first=$(head -n 1 "$stage/tests/index.txt" | cut -d' ' -f2)
ldd "bazel-bin/$first" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libresolv.so.* | ld-linux*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
    esac
done

git rev-parse HEAD >"$stage/commit.txt" 2>/dev/null || echo unknown >"$stage/commit.txt"
git status --porcelain | head -n 20 >"$stage/dirty.txt" || true

mkdir -p .bundle
tar -C "$stage" -czf .bundle/bundle.tar.gz .
echo "bundle: .bundle/bundle.tar.gz $(du -h .bundle/bundle.tar.gz | cut -f1), $(wc -l <"$stage/tests/index.txt") test binaries ($(wc -l <"$stage/tests/gpu_ids.txt") gpu), commit $(cat "$stage/commit.txt")"
