/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/fn_after_fence.cu — cg_barrier_fn_t with the stored function and
 * argument read by the completer after its fence (the first design),
 * in the light-function row's kernel (through the pointer), for the
 * benchmark's comparison (barrier/barrier_fn.h,
 * docs/design/completion_barrier.md).
 */
#define CG_BARRIER_FN_READ 0
#include "bench/cgc_kernels.h"

BENCH_COMPL_LIGHT_KERNEL(kd_fn_after_fence, 0)
BENCH_EXPORT(d_fn_after_fence, kd_fn_after_fence)
