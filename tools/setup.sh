#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what cgc's build needs on a Debian machine, idempotently: Bazel 4.2.3
# (bazel-bootstrap) and the two rule packages it uses offline, Criterion, and
# cmake + pkg-config (the CMake package check, tools/ci/check_cmake.sh) and
# gnuplot (the benchmark charts, bench/tools/bench_chart.py) and doxygen (the API
# reference, tools/ci/check_reference.sh; no graphviz). Then makes the version
# that .bazelversion pins runnable through Debian's bazel wrapper.
# Quick when everything is already there. The CUDA toolkit is not a Debian
# package here: it must already be at $CUDA_PATH or /usr/local/cuda.
set -euo pipefail

packages=(bazel-bootstrap bazel-rules-java bazel-platforms libcriterion-dev cmake pkg-config gnuplot-nox doxygen)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
else
    echo "setup: ${packages[*]} already installed"
fi

# .bazelversion pins the Bazel cgc builds with (Bazelisk downloads it). Debian's
# /usr/bin/bazel wrapper reads the same file and runs /usr/bin/bazel-<version>,
# but bazel-bootstrap installs its 4.2.3 as /usr/bin/bazel-4: link the pinned
# name to it when the installed package is that version.
want=$(tr -d ' \n' <"$(dirname "$0")/../.bazelversion")
have=$(dpkg-query -W -f='${Version}' bazel-bootstrap 2>/dev/null || true)
if [ ! -x "/usr/bin/bazel-$want" ] && [ -x /usr/bin/bazel-4 ]; then
    if [[ "$have" == "$want"+* || "$have" == "$want"-* || "$have" == "$want" ]]; then
        sudo_cmd=""
        [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
        $sudo_cmd ln -s bazel-4 "/usr/bin/bazel-$want"
        echo "setup: /usr/bin/bazel-$want -> bazel-4 (bazel-bootstrap $have), the version .bazelversion pins"
    else
        echo "setup: .bazelversion pins Bazel $want, bazel-bootstrap is $have: set USE_BAZEL_VERSION or install $want" >&2
        exit 1
    fi
fi

cuda="${CUDA_PATH:-/usr/local/cuda}"
if [ ! -x "$cuda/bin/nvcc" ]; then
    echo "setup: no CUDA toolkit at $cuda (no $cuda/bin/nvcc); install CUDA 12.4+ there or set CUDA_PATH" >&2
    exit 1
fi
echo "setup: $("$cuda/bin/nvcc" --version | tail -n 1) at $cuda"
echo "setup: $(bazel --version 2>/dev/null || echo 'bazel') ready"
