/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/fn_before_fence.cu — cg_barrier_fn_t with the stored function and
 * argument read by the completer between its arrive and its fence,
 * in the light-function row's kernel (through the pointer), for the
 * benchmark's comparison (barrier/barrier_fn.h,
 * docs/design/completion_barrier.md).
 */
#define CG_BARRIER_FN_READ 2
#include "bench/cgc_kernels.h"

BENCH_COMPL_LIGHT_KERNEL(kd_fn_before_fence, 0)
BENCH_EXPORT(d_fn_before_fence, kd_fn_before_fence)
