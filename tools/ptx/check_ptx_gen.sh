#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CI check: the generated PTX form layer is what its data says. tools/ptx/gen.py
# --check regenerates every *_forms.h and every generated region of the family
# headers (mbarrier.h, tensor.h) from the *_forms.tbl / *_calls.tbl data files,
# in memory, and prints the diff of any checked-in file that differs (a hand
# edit of generated code, or a data row whose output was not committed); and
# tools/ptx/gen_test.py, the generator's own tests, first. Then the typed
# collectives: tools/ptx/gen_collectives.py --check, the generated regions of
# cg/collectives.h, cg/coalesced.h and cg/wide_tile.h against cg/collectives.tbl.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONDONTWRITEBYTECODE=1
if ! python3 tools/ptx/gen_test.py 2>&1 | tail -n 3 | grep -q '^OK'; then
    python3 tools/ptx/gen_test.py || true
    echo "check_ptx_gen: FAILED (the generator's own tests, tools/ptx/gen_test.py, above)"
    exit 1
fi
if python3 tools/ptx/gen.py --check; then
    echo "check_ptx_gen: every generated form file matches its data"
else
    echo "check_ptx_gen: FAILED (edit the .tbl data, not the generated C; run python3 tools/ptx/gen.py and commit)"
    exit 1
fi
if python3 tools/ptx/gen_collectives.py --check; then
    echo "check_ptx_gen: the typed collectives match cg/collectives.tbl"
else
    echo "check_ptx_gen: FAILED (edit cg/collectives.tbl, not the generated C; run python3 tools/ptx/gen_collectives.py and commit)"
    exit 1
fi
if python3 tools/ptx/gen_form_lines.py --check; then
    echo "check_ptx_gen: the PTX tests' expected lines match the forms data"
else
    echo "check_ptx_gen: FAILED (run python3 tools/ptx/gen_form_lines.py and commit tests/support/ptx_form_lines.h)"
    exit 1
fi
