#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CI check: the bench's design files are what their table of settings says
# (bench/designs/designs.tbl, bench/tools/gen_designs.py --check), and every
# bench/designs/*.cu is in the table.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONDONTWRITEBYTECODE=1
if python3 bench/tools/gen_designs.py --check; then
    exit 0
fi
echo "check_designs: FAILED (edit bench/designs/designs.tbl, not the generated .cu; run python3 bench/tools/gen_designs.py and commit)"
exit 1
