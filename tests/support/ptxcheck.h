/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/support/ptxcheck.h — read PTX that the build produced and ask which
 * instructions a function contains. Probe kernels are declared
 * extern "C" __global__ so their PTX names are not mangled.
 */
#ifndef CGT_PTXCHECK_H
#define CGT_PTXCHECK_H

#include <stddef.h>

/* The whole file (runfiles-relative path, e.g. "tests/barrier/forms.ptx");
 * fails the test if it cannot be read. Caller frees. */
char *cgt_ptx_read(const char *path);

/* A copy of the body of ".entry NAME" or ".func NAME" (from its name to the
 * closing brace); fails the test if absent. Caller frees. */
char *cgt_ptx_function(const char *ptx, const char *name);

/* How many times needle occurs in text. */
size_t cgt_count(const char *text, const char *needle);

/* Instruction lines of a body with comments, labels, directives and register
 * declarations removed, one per line; for comparing two functions' code.
 * Register numbers are kept. Caller frees. */
char *cgt_ptx_instructions(const char *body);

/* The instruction lines of function `name` with its own name (in its
 * parameter names) and the function number in branch labels
 * ($L__BB<n>_<k>) replaced, so two functions with the same code compare
 * equal. Caller frees. */
char *cgt_ptx_normalized(const char *ptx, const char *name);

#endif /* CGT_PTXCHECK_H */
