/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_arrive_lazy.cu — the grid barrier whose flat arrive is
 * an atom.add.acq_rel.gpu whose old value is first read in the wait (C++
 * CG's shape; CG_GRID_ARRIVE_FORM 1) instead of a release reduction, for the
 * benchmark's comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_ARRIVE_FORM 1
#include "bench/cgc_kernels.h"

BENCH_GRID_DESIGN_KERNELS(d_grid_sync_arrive_lazy, d_grid_split_arrive_lazy, d_grid_probe_arrive_lazy)
