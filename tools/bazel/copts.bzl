# SPDX-License-Identifier: BSD-3-Clause
"""Compiler flags shared by every cgc target (one place, per STYLE.md)."""

# nvcc: optimized device code with line info (compute-sanitizer reports name
# source lines; it changes no instructions), warnings are errors.
CGC_NVCC_FLAGS = [
    "-O3",
    "-std=c++17",
    "-lineinfo",
    "-Werror=all-warnings",
]

# Host C (gcc): cgc's own sources build warning-free. _GNU_SOURCE for
# clock_gettime/getpid in the test support code under -std=c11.
CGC_C_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-D_GNU_SOURCE",
]
