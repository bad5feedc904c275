/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_dbar_no_done.cu — the device-scope barrier with the
 * library's paced polls but no done token (CG_DEVICE_BARRIER_DONE_TOKEN 0:
 * the completer's wait polls too, as libcu++'s does), for the benchmark's
 * comparison: does the done token still gain once the polls are paced?
 * (barrier/device_barrier.h, docs/design/device_barrier.md, issue 33).
 */
#define CG_DEVICE_BARRIER_DONE_TOKEN 0
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_no_done, bench_dbar_stats_no_done)
BENCH_EXPORT(d_dbar_no_done, kd_dbar_no_done)
