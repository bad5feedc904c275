/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_flat.cu — the grid barrier with the spread barrier off
 * (CG_GRID_SPREAD_SLOTS 0): the flat counter at every grid size, for the
 * benchmark's comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_SPREAD_SLOTS 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_flat)
BENCH_EXPORT(d_grid_sync_flat, kd_grid_sync_flat)
BENCH_GRID_SPLIT_KERNEL(kd_grid_split_flat, 0)
BENCH_EXPORT(d_grid_split_flat, kd_grid_split_flat)
