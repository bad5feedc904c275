/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_spin16_paced.cu — the device-scope barrier with waiters
 * that poll 16 times back to back, then read %globaltimer on every poll (the
 * shape of libcu++'s wait loop), for the benchmark's comparison
 * (barrier/device_barrier.h, docs/design/device_barrier.md).
 */
#define CG_DEVICE_BARRIER_POLL_SPINS 16
#define CG_DEVICE_BARRIER_POLL_PACE 1
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_spin16_paced, bench_dbar_stats_spin16_paced)
BENCH_EXPORT(d_dbar_spin16_paced, kd_dbar_spin16_paced)
