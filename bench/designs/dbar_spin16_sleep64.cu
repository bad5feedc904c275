/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_spin16_sleep64.cu — the device-scope barrier with
 * waiters that poll 16 times back to back, then sleep 64 ns between polls
 * (the default spins), for the benchmark's comparison
 * (barrier/device_barrier.h).
 */
#define CG_DEVICE_BARRIER_POLL_SLEEP_NS 64
#define CG_DEVICE_BARRIER_POLL_SPINS 16
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_spin16_sleep64, bench_dbar_stats_spin16_sleep64)
BENCH_EXPORT(d_dbar_spin16_sleep64, kd_dbar_spin16_sleep64)
