/*
 * bench/designs_dbar_match.cu — the device-scope barrier grouping a warp's
 * lanes with __match_any_sync on every arrive (the default first checks with
 * a shuffle and a ballot whether every lane names the same barrier), for the
 * benchmark's comparison (barrier/device_barrier.h).
 */
#define CG_DEVICE_BARRIER_ALWAYS_MATCH 1
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_match, bench_dbar_stats_match)
BENCH_EXPORT(d_dbar_match, kd_dbar_match)
