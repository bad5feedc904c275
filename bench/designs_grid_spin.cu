/*
 * bench/designs_grid_spin.cu — the grid barrier with its pollers
 * never sleeping, flat or tree (the default: flat pollers spin up to 4 blocks
 * per SM, sleep 32 ns above; tree pollers sleep 32 ns), for the benchmark's
 * comparison of poll settings (cg/grid.h).
 */
#define CG_GRID_POLL_SLEEP_NS 0
#define CG_GRID_TREE_POLL_SLEEP_NS 0
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_spin)
BENCH_EXPORT(d_grid_sync_spin, kd_grid_sync_spin)
