#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The release's bookkeeping, no GPU needed:
#  1. one version: the headers' CG_VERSION_MAJOR/MINOR/PATCH (base/config.h)
#     is the newest dated section of CHANGELOG.md ("## X.Y.Z (YYYY-MM-DD)",
#     with a "### Breaking" list when the minor or major moved), and what
#     CMake configures (cgc.pc's Version, cgcConfigVersion.cmake);
#  2. cgc.pc is relocatable: an install moved elsewhere gives flags that
#     name the new place;
#     and every find_package(cgc X.Y) in the repository asks for it;
#  3. CGC_INSTALL: a project that takes cgc with FetchContent (from this
#     checkout's git, at HEAD) links cgc::cgc and its own install carries
#     none of cgc's files.
# Exit 0 when all of it holds.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "release check: FAILED: $1"; [ -f "${2:-}" ] && tail -n 20 "$2"; exit 1; }

v() { sed -nE "s/^#define CG_VERSION_$1 +([0-9]+).*/\1/p" base/config.h; }
version="$(v MAJOR).$(v MINOR).$(v PATCH)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "no CG_VERSION_MAJOR/MINOR/PATCH in base/config.h"
newest=$(grep -m1 -E '^## [0-9]+\.[0-9]+\.[0-9]+' CHANGELOG.md)
[[ "$newest" =~ ^##\ ([0-9.]+)\ \(([0-9]{4}-[0-9]{2}-[0-9]{2})\) ]] ||
    fail "CHANGELOG.md's newest release section is not '## X.Y.Z (YYYY-MM-DD)': '$newest'"
[ "${BASH_REMATCH[1]}" = "$version" ] ||
    fail "CHANGELOG.md's newest release is ${BASH_REMATCH[1]}, the headers say $version"
if [ "${version%.*}" != "$(grep -E '^## [0-9]+\.[0-9]+\.[0-9]+' CHANGELOG.md | sed -n 2p | sed -E 's/^## ([0-9]+\.[0-9]+)\..*/\1/')" ]; then
    awk -v h="$newest" '$0 == h { on = 1; next } on && /^## / { exit } on && /^### Breaking/ { found = 1 } END { exit !found }' \
        CHANGELOG.md || fail "release $version changes the minor version but its CHANGELOG section has no '### Breaking' list"
fi

# The repository's own consumers ask for this minor version (a stale
# find_package(cgc 0.1) fails against 0.2 at configure time).
while IFS= read -r hit; do
    want=$(sed -E 's/.*find_package\(cgc ([0-9]+\.[0-9]+).*/\1/' <<<"$hit")
    [ "$want" = "${version%.*}" ] || fail "${hit%%:*} asks for cgc $want, the headers are $version"
done < <(git grep -n -E 'find_package\(cgc [0-9]+\.[0-9]+' -- '*CMakeLists.txt' '*.cmake' '*.sh' | grep -v '^tools/ci/check_release.sh')

{ cmake -S . -B "$work/build" -DCMAKE_INSTALL_PREFIX="$work/prefix" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$work/build" -j 2 && cmake --install "$work/build"; } >"$work/cgc.log" 2>&1 ||
    fail "cgc's CMake build" "$work/cgc.log"
pc=$(find "$work/prefix" -name cgc.pc | head -n 1)
grep -q "^Version: $version$" "$pc" || fail "cgc.pc's version is not $version" "$pc"
grep -rq "\"$version\"" "$work/build/cgcConfigVersion.cmake" || fail "cgcConfigVersion.cmake is not $version"

mv "$work/prefix" "$work/moved"
flags=$(PKG_CONFIG_PATH="$(dirname "${pc/prefix/moved}")" pkg-config --cflags --libs cgc) || fail "pkg-config on the moved install"
inc=$(sed -E 's/^-I([^ ]+) .*/\1/' <<<"$flags")
[ -f "$inc/cgc/cg/cg.h" ] || fail "the moved install's cgc.pc gives $inc, which does not hold cgc/cg/cg.h (flags: $flags)"

mkdir -p "$work/app"
cat >"$work/app/CMakeLists.txt" <<EOF_APP
cmake_minimum_required(VERSION 3.18)
project(app LANGUAGES C)
include(FetchContent)
FetchContent_Declare(cgc GIT_REPOSITORY "$root" GIT_TAG "$(git rev-parse HEAD)")
FetchContent_MakeAvailable(cgc)
add_executable(app main.c)
target_link_libraries(app PRIVATE cgc::cgc)
install(TARGETS app)
EOF_APP
printf '#include <stdio.h>\n#include <cgc/cg/cg.h>\nint main(void) { printf("%%d\\n", cgc_version()); return cgc_version() != CG_VERSION; }\n' \
    >"$work/app/main.c"
{ cmake -S "$work/app" -B "$work/app/build" -DCMAKE_INSTALL_PREFIX="$work/app/prefix" &&
    cmake --build "$work/app/build" -j 2 && "$work/app/build/app" && cmake --install "$work/app/build"; } \
    >"$work/app.log" 2>&1 || fail "a FetchContent project" "$work/app.log"
[ -z "$(find "$work/app/prefix" -path '*cgc*' | head -n 1)" ] ||
    fail "a FetchContent project's install carries cgc's files (CGC_INSTALL should default OFF there): $(find "$work/app/prefix" -path '*cgc*' | head -n 3)"
echo "release check: version $version (headers, CHANGELOG, CMake, cgc.pc); cgc.pc relocatable; FetchContent installs no cgc files"
