/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_copy_tx_nofence.cu — the latency row's cg_memcpy_async_tx
 * kernel without the proxy fence before each copy (BENCH_COPY_TMA_FENCE 0:
 * seed 001's and libcu++'s pattern), to price the fence the PTX memory model
 * asks for when the engine overwrites a tile generic loads read
 * (docs/design/measurements_log.md, issue 33).
 */
#define BENCH_COPY_TMA_FENCE 0
#include "bench/cgc_kernels.h"

BENCH_COPY_TMA_KERNEL(kd_copy_tx_nofence, 0)
BENCH_EXPORT(d_copy_tx_nofence, kd_copy_tx_nofence)
