/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_paced.cu — the device-scope barrier with waiters that
 * read %globaltimer on every poll (pacing the polls as libcu++'s wait loop
 * does; the default polls back to back), for the benchmark's comparison
 * (barrier/device_barrier.h, docs/design/device_barrier.md).
 */
#define CG_DEVICE_BARRIER_POLL_PACE 1
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_paced, bench_dbar_stats_paced)
BENCH_EXPORT(d_dbar_paced, kd_dbar_paced)
