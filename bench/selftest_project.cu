/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/selftest_project.cu — the self-test's broken multicast kernel: the
 * multicast example's own sliced kernel (examples/pipeline_project.cuh)
 * built with PJ_READ_BEFORE_WAIT, so its consumers read each stage before
 * the wait (then wait and release as the protocol asks). Its own file
 * because the switch is a macro of the example's header (as PJ_TIMED of
 * designs/pipeline_timed.cu is). The per-rank checksums (stream.cu) must
 * come out wrong.
 */
#define PJ_READ_BEFORE_WAIT 1
#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kd_project_sliced_broken(bench_args_t a)
{
    pj_project((const uint32_t *)a.src, a.ntiles, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_sliced_broken, kd_project_sliced_broken)
