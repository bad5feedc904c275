/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_spread_sleep32.cu — the grid barrier's spread barrier
 * with its watchers and waiters sleeping 32 ns between polls (the default:
 * spin), for the benchmark's comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_SPREAD_POLL_SLEEP_NS 32
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_spread_sleep32)
BENCH_EXPORT(d_grid_sync_spread_sleep32, kd_grid_sync_spread_sleep32)
