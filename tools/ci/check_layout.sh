#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CI check: no file sits in a place the layout moved away from (tests on one
# axis, tools split, the bench's designs in bench/designs/; the table is
# tools/ci/relayout.py). A file added to an old folder fails here; running
# python3 tools/ci/relayout.py moves it and rewrites its references.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONDONTWRITEBYTECODE=1
if ! python3 tools/ci/relayout_test.py 2>&1 | tail -n 3 | grep -q '^OK'; then
    python3 tools/ci/relayout_test.py || true
    echo "check_layout: FAILED (the rewrite rules' own tests, tools/ci/relayout_test.py, above)"
    exit 1
fi
if python3 tools/ci/relayout.py --check; then
    echo "check_layout: every file is where tools/ci/relayout.py puts it"
    exit 0
fi
echo "check_layout: FAILED (the files above; run python3 tools/ci/relayout.py and commit)"
exit 1
