/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_nosleep.cu — the grid barrier whose flat pollers never
 * sleep between polls (CG_GRID_POLL_SLEEP_NS 0; the default sleeps 32 ns
 * above 4 blocks per SM), for the benchmark's comparison
 * (barrier/grid_barrier.h).
 */
#define CG_GRID_POLL_SLEEP_NS 0
#include "bench/cgc_kernels.h"

BENCH_GRID_DESIGN_KERNELS(d_grid_sync_nosleep, d_grid_split_nosleep, d_grid_probe_nosleep)
