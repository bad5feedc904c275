#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CI: compile time and registers of the five reference kernels with cgc, with
# C++ CG / libcu++ and bare (tools/ci/compile_time.py, issue 23). Fails when a
# cgc kernel takes more than the bare one + 0.5 s of CPU time to compile, or
# more than twice C++'s registers. Prints the table README.md shows.
cd "$(dirname "$0")/../.." || exit 2
python3 tools/ci/compile_time.py --check
