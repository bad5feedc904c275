/*
 * bench/designs_grid_flags.cu — the grid barrier's flag algorithm at every
 * grid size, one block per SM included (CG_GRID_FLAGS_MIN_BLOCKS_PER_SM=0),
 * for the benchmark's comparison (cg/grid.h).
 */
#define CG_GRID_FLAGS_MIN_BLOCKS_PER_SM 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_flags)
BENCH_EXPORT(d_grid_sync_flags, kd_grid_sync_flags)
