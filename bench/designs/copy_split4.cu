/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/copy_split4.cu — cg_memcpy_async(&block, ..., &bar)'s bulk
 * path as 4 bulk copies issued by threads spread over the block
 * (CG_MEMCPY_ASYNC_BULK_PIECES 4, async/copy.h), in the latency row's
 * kernel (issue 33).
 */
#define CG_MEMCPY_ASYNC_BULK_PIECES 4
#include "bench/cgc_kernels.h"

BENCH_COPY_BAR_KERNEL(kd_copy_split4, BENCH_COPY_BAR_PLAIN)
BENCH_EXPORT(d_copy_split4, kd_copy_split4)
