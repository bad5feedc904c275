/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_dbar_poll_all.cu — the device-scope barrier as it was before
 * issue 33: no done token (every wait polls the word, the completer's too)
 * and polls back to back (CG_DEVICE_BARRIER_POLL_PACE 0), for the
 * benchmark's comparison (barrier/device_barrier.h).
 */
#define CG_DEVICE_BARRIER_DONE_TOKEN 0
#define CG_DEVICE_BARRIER_POLL_PACE 0
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_poll_all, bench_dbar_stats_poll_all)
BENCH_EXPORT(d_dbar_poll_all, kd_dbar_poll_all)
