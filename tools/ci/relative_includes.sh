#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Rewrites a library file's internal includes to the form the library uses,
# relative to the including file, so they resolve in every layout (the
# repository, an install under <prefix>/include/cgc/, Bazel's virtual include
# dir, NVRTC with -I<dir holding cgc/>). In cg/groups.h:
#
#   #include "barrier/mbarrier.h"   ->  #include "../barrier/mbarrier.h"
#   #include <base/config.h>        ->  #include "../base/config.h"
#   #include "cg/tile.h"            ->  #include "tile.h"      (own folder)
#
# for the six library folders (base barrier cluster dsmem async cg).
# Idempotent: an include already in that form is left as it is. With no
# arguments it rewrites every .h and .c of those folders; otherwise the files
# named (paths inside the repository). tests/build/layering fails on any include
# this script would still change.
set -euo pipefail
cd "$(dirname "$0")/../.."
folders='base|barrier|cluster|dsmem|async|cg'
if [ "$#" -eq 0 ]; then
    set -- $(find base barrier cluster dsmem async cg -maxdepth 1 \( -name '*.h' -o -name '*.c' \) | sort)
fi
inc='^([[:space:]]*#[[:space:]]*include[[:space:]]*)'
changed=0
for f in "$@"; do
    own=$(basename "$(dirname "$f")")
    before=$(cksum <"$f")
    sed -E -i \
        -e "s@${inc}\"(${folders})/([^\"]+)\"@\1\"../\2/\3\"@" \
        -e "s@${inc}<(${folders})/([^>]+)>@\1\"../\2/\3\"@" \
        -e "s@${inc}\"\.\./${own}/([^\"/]+)\"@\1\"\2\"@" \
        "$f"
    if [ "$before" != "$(cksum <"$f")" ]; then
        echo "relative includes: $f"
        changed=$((changed + 1))
    fi
done
echo "relative includes: $changed file(s) changed"
