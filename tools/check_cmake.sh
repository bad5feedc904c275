#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The CMake package, end to end, no GPU needed: configure, build and install
# cgc into a scratch prefix; build tests/consumer (host C + a kernel)
# with find_package(cgc) and run it; build its main.c again with only
# `pkg-config --cflags --libs cgc` and run that; then the same sources in a
# project that takes cgc with add_subdirectory (the build tree's include/cgc
# link). Each includes <cgc/cg/cg.h> and checks no bare cgc folder is on its
# include path. Exit 0 when all of it works.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { echo "cmake package: $1"; }
fail() { echo "cmake package: FAILED at: $1 (log: $2)"; tail -n 30 "$2"; exit 1; }

step "configure, build, install cgc"
{ cmake -S . -B "$work/build" -DCMAKE_INSTALL_PREFIX="$work/prefix" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$work/build" -j 2 && cmake --install "$work/build"; } >"$work/cgc.log" 2>&1 ||
    fail "cgc's own build" "$work/cgc.log"
[ -f "$work/prefix/include/cgc/cg/cg.h" ] || fail "headers under include/cgc/" "$work/cgc.log"

step "find_package(cgc) from a consumer project"
{ cmake -S tests/consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" &&
    cmake --build "$work/consumer" -j 2 && "$work/consumer/consumer"; } >"$work/consumer.log" 2>&1 ||
    fail "the consumer project" "$work/consumer.log"

step "pkg-config --cflags --libs cgc"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib64/pkgconfig"
{ flags=$(pkg-config --cflags --libs cgc) &&
    echo 'const void *consumer_kernel_ptr(void) { return (const void *)0x1; }' >"$work/stub.c" &&
    # shellcheck disable=SC2086
    gcc -std=c11 -o "$work/pc" tests/consumer/main.c "$work/stub.c" $flags -Wl,-rpath,"$work/prefix/lib" &&
    "$work/pc"; } >"$work/pc.log" 2>&1 || fail "a gcc build with pkg-config's flags" "$work/pc.log"
step "add_subdirectory(cgc)"
mkdir -p "$work/sub"
cat >"$work/sub/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(cgc_sub LANGUAGES C CUDA)
add_subdirectory("$(pwd)" cgc)
add_executable(consumer "$(pwd)/tests/consumer/main.c" "$(pwd)/tests/consumer/kernel.cu")
set_target_properties(consumer PROPERTIES CUDA_ARCHITECTURES 90a)
target_link_libraries(consumer PRIVATE cgc::cgc)
EOF
{ cmake -S "$work/sub" -B "$work/sub/build" && cmake --build "$work/sub/build" -j 2 &&
    "$work/sub/build/consumer"; } >"$work/sub.log" 2>&1 || fail "a project with add_subdirectory(cgc)" "$work/sub.log"
echo "cmake package: find_package(cgc), pkg-config and add_subdirectory(cgc) all build and run"
