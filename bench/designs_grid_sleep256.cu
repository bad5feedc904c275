/*
 * bench/designs_grid_sleep256.cu — the grid barrier with its pollers sleeping
 * 256 ns between polls when blocks outnumber SMs (the default is CG_GRID_POLL_SLEEP_NS),
 * for the benchmark's comparison of poll settings (cg/grid.h).
 */
#define CG_GRID_POLL_SLEEP_NS 256
#include "bench/cgc_kernels.h"

BENCH_GRID_SYNC_KERNEL(kd_grid_sync_sleep256)
BENCH_EXPORT(d_grid_sync_sleep256, kd_grid_sync_sleep256)
