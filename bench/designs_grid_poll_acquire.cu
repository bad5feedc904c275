/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_grid_poll_acquire.cu — the grid barrier with the earlier
 * flat waiter: every poll an ld.acquire.gpu (CG_GRID_POLL_ACQUIRE 1) instead
 * of relaxed polls and one fence after the flip, for the benchmark's
 * comparison (cg/grid_barrier.h).
 */
#define CG_GRID_POLL_ACQUIRE 1
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_poll_acquire)
BENCH_EXPORT(d_grid_sync_poll_acquire, kd_grid_sync_poll_acquire)
