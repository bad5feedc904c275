/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/copy_tx_split4.cu — cg_memcpy_async_tx issuing its copy as 4
 * bulk copies from its one thread (CG_MEMCPY_ASYNC_TX_PIECES 4,
 * async/copy.h), in the latency row's kernel (issue 33).
 */
#define CG_MEMCPY_ASYNC_TX_PIECES 4
#include "bench/cgc_kernels.h"

BENCH_COPY_TMA_KERNEL(kd_copy_tx_split4, 0)
BENCH_EXPORT(d_copy_tx_split4, kd_copy_tx_split4)
