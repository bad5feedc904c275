/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_release_elected_s8.cu — the elected one-release-per-CTA
 * sliced kernel (bench/designs_release_elected.cuh) with an 8-stage ring;
 * its twin is d_project_local_s8 (bench/designs_pipeline_deep.cu).
 */
#define PJ_STAGES 8u
#include "bench/designs_release_elected.cuh"

#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

static_assert(BD_ELECT_WARPS == PJ_WARPS, "the elected release counts the kernel's consumer warps");

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_elected_s8(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_elected_s8, kd_project_release_elected_s8)

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_elected_s8_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_elected_s8_l2, kd_project_release_elected_s8_l2)
