/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_fn_null_test.cu — cg_barrier_fn_t with the stored function read
 * before the arrive and a branch on a NULL function before the call,
 * in the light-function row's kernel (through the pointer), for the
 * benchmark's comparison (barrier/barrier_fn.h,
 * docs/design/completion_barrier.md).
 */
#define CG_BARRIER_FN_NO_NULL_TEST 0
#include "bench/cgc_kernels.h"

BENCH_COMPL_LIGHT_KERNEL(kd_fn_null_test, 0)
BENCH_EXPORT(d_fn_null_test, kd_fn_null_test)
