/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_grid_arrive_eager.cu — the split grid barrier's flat arrive
 * as it was until 2026-11-28 (CG_GRID_ARRIVE_FORM 2): an atom.add.acq_rel.gpu
 * whose old value thread 0 tests in the arrive (the last arrival then skips
 * its polls) instead of the release reduction, for the benchmark's
 * comparison (barrier/grid_barrier.h). Split rows and probe only: below the
 * spread barrier's size cg_grid_sync is that atom in every build.
 */
#define CG_GRID_ARRIVE_FORM 2
#include "bench/cgc_kernels.h"

BENCH_GRID_SPLIT_KERNEL(kd_grid_split_arrive_eager, 0)
BENCH_EXPORT(d_grid_split_arrive_eager, kd_grid_split_arrive_eager)
BENCH_GRID_SPLIT_KERNEL(kd_grid_probe_arrive_eager, 1)
BENCH_EXPORT(d_grid_probe_arrive_eager, kd_grid_probe_arrive_eager)
