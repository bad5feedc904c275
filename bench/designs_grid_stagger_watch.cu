/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_grid_stagger_watch.cu — the grid barrier's spread barrier with
 * overlapped polls (three loads in flight, one issued every 150 cycles) in
 * its watchers, for the benchmark's comparison
 * (cg/grid.h, CG_GRID_SPREAD_WATCH_STAGGER_CYCLES).
 */
#define CG_GRID_SPREAD_WATCH_STAGGER_CYCLES 150

#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_stagger_watch)
BENCH_EXPORT(d_grid_sync_stagger_watch, kd_grid_sync_stagger_watch)
