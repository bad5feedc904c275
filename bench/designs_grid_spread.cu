/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_grid_spread.cu — the grid barrier with the spread barrier at
 * every grid size (the default uses it from 10 blocks per SM), for the
 * benchmark's comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_SPREAD_MIN_BLOCKS_PER_SM 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_spread)
BENCH_EXPORT(d_grid_sync_spread, kd_grid_sync_spread)
