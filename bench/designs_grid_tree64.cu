/*
 * bench/designs_grid_tree64.cu — the grid barrier with
 * the combining tree with groups of 64 blocks (the default: 32), for the benchmark's comparison (cg/grid.h).
 */
#define CG_GRID_TREE_MIN_BLOCKS_PER_SM 0
#define CG_GRID_TREE_GROUP 64
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_tree64)
BENCH_EXPORT(d_grid_sync_tree64, kd_grid_sync_tree64)
