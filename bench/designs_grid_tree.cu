/*
 * bench/designs_grid_tree.cu — the grid barrier with
 * the combining tree at every grid size (the default uses it from 12
 * blocks per SM; groups of 64 as the default), for the benchmark's comparison (cg/grid.h).
 */
#define CG_GRID_TREE_MIN_BLOCKS_PER_SM 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_tree)
BENCH_EXPORT(d_grid_sync_tree, kd_grid_sync_tree)
