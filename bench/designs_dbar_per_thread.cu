/*
 * bench/designs_dbar_per_thread.cu — the device-scope barrier with one atomic
 * add per thread (the default counts a warp's lanes on one barrier with one
 * add of their leader), for the benchmark's comparison
 * (barrier/device_barrier.h).
 */
#define CG_DEVICE_BARRIER_AGGREGATE 0
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_per_thread, bench_dbar_stats_per_thread)
BENCH_EXPORT(d_dbar_per_thread, kd_dbar_per_thread)
