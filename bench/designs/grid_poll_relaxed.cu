/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_poll_relaxed.cu — the grid barrier with a flat
 * waiter that polls with relaxed loads and acquires with one fence after the
 * flip (CG_GRID_POLL_ACQUIRE 0) instead of an ld.acquire.gpu per poll, for
 * the benchmark's comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_POLL_ACQUIRE 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_poll_relaxed)
BENCH_EXPORT(d_grid_sync_poll_relaxed, kd_grid_sync_poll_relaxed)
