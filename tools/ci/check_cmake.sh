#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The CMake package, end to end, no GPU needed: configure, build and install
# cgc into a scratch prefix; build tests/build/consumer (host C + a kernel)
# with find_package(cgc) and run it; build its main.c again with only
# `pkg-config --cflags --libs cgc` and run that; then the same sources in a
# project that takes cgc with add_subdirectory (the build tree's include/cgc
# link). Each includes <cgc/cg/cg.h> and checks no bare cgc folder is on its
# include path. Then: a user kernel built for two targets, sm_80 and sm_90a
# (CUDA_ARCHITECTURES "80;90a"), whose cluster part is guarded by
# CG_ARCH_HAS_SM90; every example (examples/CMakeLists.txt) built against
# the install and run by ctest (without an sm_90 GPU each exits 2: skipped);
# and cgc's own build with -DCGC_BUILD_EXAMPLES=ON building one example.
# Exit 0 when all of it works.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
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
{ cmake -S tests/build/consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" &&
    cmake --build "$work/consumer" -j 2 && "$work/consumer/consumer"; } >"$work/consumer.log" 2>&1 ||
    fail "the consumer project" "$work/consumer.log"

step "pkg-config --cflags --libs cgc"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib64/pkgconfig"
{ flags=$(pkg-config --cflags --libs cgc) &&
    echo 'const void *consumer_kernel_ptr(void) { return (const void *)0x1; }' >"$work/stub.c" &&
    # shellcheck disable=SC2086
    gcc -std=c11 -o "$work/pc" tests/build/consumer/main.c "$work/stub.c" $flags -Wl,-rpath,"$work/prefix/lib" &&
    "$work/pc"; } >"$work/pc.log" 2>&1 || fail "a gcc build with pkg-config's flags" "$work/pc.log"
step "add_subdirectory(cgc)"
mkdir -p "$work/sub"
cat >"$work/sub/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(cgc_sub LANGUAGES C CUDA)
add_subdirectory("$(pwd)" cgc)
add_executable(consumer "$(pwd)/tests/build/consumer/main.c" "$(pwd)/tests/build/consumer/kernel.cu")
set_target_properties(consumer PROPERTIES CUDA_ARCHITECTURES 90a)
target_link_libraries(consumer PRIVATE cgc::cgc)
EOF
{ cmake -S "$work/sub" -B "$work/sub/build" && cmake --build "$work/sub/build" -j 2 &&
    "$work/sub/build/consumer"; } >"$work/sub.log" 2>&1 || fail "a project with add_subdirectory(cgc)" "$work/sub.log"
step "a user kernel for sm_80 and sm_90a (CUDA_ARCHITECTURES \"80;90a\"), guarded by CG_ARCH_HAS_SM90"
mkdir -p "$work/fat"
cat >"$work/fat/CMakeLists.txt" <<'EOF_FAT'
cmake_minimum_required(VERSION 3.18)
project(cgc_fat LANGUAGES CUDA)
find_package(cgc CONFIG REQUIRED)
add_library(fat OBJECT fat.cu)
set_target_properties(fat PROPERTIES CUDA_ARCHITECTURES "80;90a")
target_link_libraries(fat PRIVATE cgc::cgc)
EOF_FAT
cat >"$work/fat/fat.cu" <<'EOF_FAT'
#include <cgc/cg/cg.h>
extern "C" __global__ void fat_kernel(unsigned *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 32);
    unsigned s = cg_reduce(&t, threadIdx.x, CG_OP_PLUS); /* any target */
#if CG_ARCH_HAS_SM90
    cg_cluster_t cl = cg_this_cluster(); /* sm_90a only */
    s += cg_cluster_block_rank(&cl);
#endif
    out[threadIdx.x] = s;
}
EOF_FAT
{ cmake -S "$work/fat" -B "$work/fat/build" -DCMAKE_PREFIX_PATH="$work/prefix" &&
    cmake --build "$work/fat/build" --verbose; } >"$work/fat.log" 2>&1 || fail "the two-target build" "$work/fat.log"
grep -q "sm_80" "$work/fat.log" && grep -q "sm_90a" "$work/fat.log" ||
    fail "the two-target build did not compile for both sm_80 and sm_90a" "$work/fat.log"

step "every example against the install (examples/CMakeLists.txt), run by ctest"
{ cmake -S examples -B "$work/examples" -DCMAKE_PREFIX_PATH="$work/prefix" &&
    cmake --build "$work/examples" -j 2 && ctest --test-dir "$work/examples" --output-on-failure; } \
    >"$work/examples.log" 2>&1 || fail "the examples against the install" "$work/examples.log"
n=$(grep -cE "Test +#[0-9]+: " "$work/examples.log")
[ "$n" -ge 14 ] || fail "ctest ran $n examples, expected 14" "$work/examples.log"

step "cgc's own build with -DCGC_BUILD_EXAMPLES=ON"
{ cmake -S . -B "$work/with_examples" -DCGC_BUILD_EXAMPLES=ON &&
    cmake --build "$work/with_examples" -j 2 --target psum_completion; } >"$work/with_examples.log" 2>&1 ||
    fail "CGC_BUILD_EXAMPLES=ON" "$work/with_examples.log"

echo "cmake package: find_package(cgc), pkg-config and add_subdirectory(cgc) build and run; a guarded" \
    "sm_80 + sm_90a kernel builds; $n examples build against the install and ran under ctest"
