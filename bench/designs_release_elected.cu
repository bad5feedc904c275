/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_release_elected.cu — the sliced multicast kernel with one
 * remote release per CTA per stage, made by the last consumer warp to finish
 * the stage (bench/designs_release_elected.cuh), 4 stages; on the HBM-bound
 * stream and on the L2-resident input.
 */
#include "bench/designs_release_elected.cuh"

#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

static_assert(BD_ELECT_WARPS == PJ_WARPS, "the elected release counts the kernel's consumer warps");

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_elected(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_elected, kd_project_release_elected)

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_elected_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_elected_l2, kd_project_release_elected_l2)
