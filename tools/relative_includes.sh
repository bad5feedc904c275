#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Rewrites a library file's internal includes to the relative form the library
# uses, so they resolve in every layout (the repository, an install under
# <prefix>/include/cgc/, Bazel's virtual include dir, NVRTC with -I<dir>):
#
#   #include "barrier/mbarrier.h"   ->  #include "../barrier/mbarrier.h"
#   #include <cg/tile.h>            ->  #include "../cg/tile.h"
#
# for the six library folders (base barrier cluster dsmem async cg).
# Idempotent: a relative include is left as it is. With no arguments it
# rewrites every .h and .c in those folders; otherwise the files named.
# tests/layering fails on any include this script would still change.
set -euo pipefail
cd "$(dirname "$0")/.."
folders='base|barrier|cluster|dsmem|async|cg'
if [ "$#" -eq 0 ]; then
    set -- $(find base barrier cluster dsmem async cg -maxdepth 1 \( -name '*.h' -o -name '*.c' \) | sort)
fi
changed=0
for f in "$@"; do
    before=$(cksum <"$f")
    sed -E -i \
        -e "s#^([[:space:]]*\#[[:space:]]*include[[:space:]]*)\"(${folders})/([^\"]+)\"#\1\"../\2/\3\"#" \
        -e "s#^([[:space:]]*\#[[:space:]]*include[[:space:]]*)<(${folders})/([^>]+)>#\1\"../\2/\3\"#" \
        "$f"
    if [ "$before" != "$(cksum <"$f")" ]; then
        echo "relative includes: $f"
        changed=$((changed + 1))
    fi
done
echo "relative includes: $changed file(s) changed"
