/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_spread_group32.cu — the grid barrier's spread barrier
 * releasing groups of 32 blocks (the default: 64), for the benchmark's
 * comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_SPREAD_GROUP 32
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_spread_group32)
BENCH_EXPORT(d_grid_sync_spread_group32, kd_grid_sync_spread_group32)
