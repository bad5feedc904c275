/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_broken.cu — the benchmark's self-test: the device-barrier
 * kernel with every wait skipped (a barrier that releases at once). Its rows
 * run only under `bench --self-test`, where the checks must print WRONG and
 * the run exit 3: proof that a fast wrong barrier cannot pass.
 */
#define BENCH_DBAR_SKIP_WAIT 1
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_broken, bench_dbar_stats_broken)
BENCH_EXPORT(d_dbar_broken, kd_dbar_broken)
