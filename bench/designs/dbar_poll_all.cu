/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/dbar_poll_all.cu — the device-scope barrier whose completing
 * arrive does not mark its token (CG_DEVICE_BARRIER_DONE_TOKEN 0: every
 * wait polls the word, the completer's too, as libcu++'s does), for the
 * benchmark's comparison (barrier/device_barrier.h, issue 33).
 */
#define CG_DEVICE_BARRIER_DONE_TOKEN 0
#include "bench/cgc_kernels.h"

BENCH_DEVICE_BARRIER_KERNEL(kd_dbar_poll_all, bench_dbar_stats_poll_all)
BENCH_EXPORT(d_dbar_poll_all, kd_dbar_poll_all)
