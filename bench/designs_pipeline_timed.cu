/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_timed.cu — probe rows: the multicast example's
 * kernel (examples/pipeline_project.cuh) built with PJ_TIMED 1, so every
 * consumer warp and producer adds the SM cycles of each step of a stage use
 * (consumer: wait for full, read and multiply, release; producer: wait for
 * empty, issue the copy and the commit) into acc[PJ_TIME_SLOT + ...];
 * bench_stream_row prints the per-use means of the last timed launch in the
 * row's note. The sliced form with the library's release and the twin, on
 * the HBM-bound stream and on the L2-resident input: where the sliced form's
 * time goes, per stage (issue 32 item 4: "measure before changing"). The
 * clock reads cost a few cycles per step; compare these rows with each
 * other, not with the untimed rows.
 */
#define PJ_TIMED 1
#include "cg/cg.h"

#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kp_project_timed_sliced(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(p_project_timed_sliced, kp_project_timed_sliced)

__global__ void __launch_bounds__(PJ_THREADS) kp_project_timed_local(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, a.group, NULL, a.acc, PJ_TWIN);
}
BENCH_EXPORT(p_project_timed_local, kp_project_timed_local)

__global__ void __launch_bounds__(PJ_THREADS) kp_project_timed_sliced_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(p_project_timed_sliced_l2, kp_project_timed_sliced_l2)

__global__ void __launch_bounds__(PJ_THREADS) kp_project_timed_local_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, a.group, NULL, a.acc, PJ_TWIN);
}
BENCH_EXPORT(p_project_timed_local_l2, kp_project_timed_local_l2)
