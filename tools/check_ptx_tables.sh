#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CI check: every X-macro table of the library's headers is laid out by
# tools/format_ptx_tables.py (one row per line, columns aligned), so a new
# row reads like its neighbours and a reviewer sees one form per line.
set -euo pipefail
cd "$(dirname "$0")/.."
if python3 tools/format_ptx_tables.py --check base/*.h barrier/*.h cluster/*.h dsmem/*.h async/*.h cg/*.h; then
    echo "check_ptx_tables: every table laid out"
else
    echo "check_ptx_tables: FAILED (run python3 tools/format_ptx_tables.py on the files named above)"
    exit 1
fi
