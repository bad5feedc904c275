/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_gap256.cu — the device-scope barrier with waiters that let
 * 256 cycles pass between polls, for the benchmark's comparison
 * (barrier/device_barrier.h, docs/design/device_barrier.md).
 */
#define CG_DEVICE_BARRIER_POLL_GAP_CYCLES 256
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_gap256, bench_dbar_stats_gap256)
BENCH_EXPORT(d_dbar_gap256, kd_dbar_gap256)
