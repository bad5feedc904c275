/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_grid_spread_spin.cu — the grid barrier's spread barrier with
 * its watchers and waiters spinning between polls (CG_GRID_SPREAD_POLL_SLEEP_NS
 * 0, the default until 2026-11-28; now they sleep 32 ns), for the benchmark's
 * comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_SPREAD_POLL_SLEEP_NS 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_spread_spin)
BENCH_EXPORT(d_grid_sync_spread_spin, kd_grid_sync_spread_spin)
BENCH_GRID_SPLIT_KERNEL(kd_grid_split_spread_spin, 0)
BENCH_EXPORT(d_grid_split_spread_spin, kd_grid_split_spread_spin)
