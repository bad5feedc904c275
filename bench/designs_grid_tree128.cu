/*
 * bench/designs_grid_tree128.cu — the grid barrier with the combining tree at
 * every grid size and groups of 128 blocks (the default: 64), for the benchmark's comparison (cg/grid.h).
 */
#define CG_GRID_TREE_MIN_BLOCKS_PER_SM 0
#define CG_GRID_TREE_GROUP 128
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_tree128)
BENCH_EXPORT(d_grid_sync_tree128, kd_grid_sync_tree128)
