#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CI check: no file sits in a place the layout moved away from (tests on one
# axis, tools split, the bench's designs in bench/designs/; the table is
# tools/ci/relayout.py), and the table's rewrite rules pass their own tests
# (tools/ci/relayout_test.py). A file added to an old folder fails here;
# python3 tools/ci/relayout.py moves it and rewrites its references.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PYTHONDONTWRITEBYTECODE=1
python3 tools/ci/relayout_test.py >/dev/null 2>&1 ||
    { python3 tools/ci/relayout_test.py; echo "check_layout: FAILED (tools/ci/relayout_test.py, above)"; exit 1; }
python3 tools/ci/relayout.py --check ||
    { echo "check_layout: FAILED (the files above: run python3 tools/ci/relayout.py and commit)"; exit 1; }
echo "check_layout: every file is where tools/ci/relayout.py puts it"
