/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_deep.cu — the multicast example's kernel
 * (examples/pipeline_project.cuh) with an 8-stage ring of the same 16 KiB
 * tiles (144 KiB of shared memory, one CTA per SM as at 4 stages): the
 * sliced multicast form with the library's warp release, and its twin (every
 * CTA loads every tile) of the same depth; on the HBM-bound stream and on
 * the L2-resident input. Twice the bytes in flight per SM: whether the
 * per-stage release or the depth of the ring is what the sliced form pays
 * (issue 32 item 4), and how far an L2-bound twin goes with more in flight.
 */
#define PJ_STAGES 8u
#include "cg/cg.h"

#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kd_project_sliced_s8(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_sliced_s8, kd_project_sliced_s8)

__global__ void __launch_bounds__(PJ_THREADS) kd_project_local_s8(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, a.group, NULL, a.acc, PJ_TWIN);
}
BENCH_EXPORT(d_project_local_s8, kd_project_local_s8)

__global__ void __launch_bounds__(PJ_THREADS) kd_project_sliced_s8_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_sliced_s8_l2, kd_project_sliced_s8_l2)

__global__ void __launch_bounds__(PJ_THREADS) kd_project_local_s8_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, a.group, NULL, a.acc, PJ_TWIN);
}
BENCH_EXPORT(d_project_local_s8_l2, kd_project_local_s8_l2)
