/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_release.cu — the device-scope barrier with arrive as a
 * release add (the default is acq_rel), for the benchmark's comparison
 * (barrier/device_barrier.h, docs/design/device_barrier.md).
 */
#define CG_DEVICE_BARRIER_ARRIVE_ACQ_REL 0
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_release, bench_dbar_stats_release)
BENCH_EXPORT(d_dbar_release, kd_dbar_release)
