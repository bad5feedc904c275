/*
 * bench/designs_grid_tree_sleep128.cu — the grid barrier with the tree's
 * pollers sleeping 128 ns between polls of their group flag (the default:
 * 32), for the benchmark's comparison of poll settings (cg/grid.h).
 */
#define CG_GRID_TREE_POLL_SLEEP_NS 128
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_tree_sleep128)
BENCH_EXPORT(d_grid_sync_tree_sleep128, kd_grid_sync_tree_sleep128)
