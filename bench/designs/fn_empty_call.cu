/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/fn_empty_call.cu — cg_barrier_fn_t with the stored function
 * read before the arrive and, for a NULL function, an empty function called
 * instead of a branch on NULL (so the call's code-address lookup can issue
 * beside the fence), in the light-function row's kernel (through the
 * pointer), for the benchmark's comparison (barrier/barrier_fn.h,
 * docs/design/completion_barrier.md).
 */
#define CG_BARRIER_FN_NO_NULL_TEST 1
#include "bench/cgc_kernels.h"

BENCH_COMPL_LIGHT_KERNEL(kd_fn_empty_call, 0)
BENCH_EXPORT(d_fn_empty_call, kd_fn_empty_call)
