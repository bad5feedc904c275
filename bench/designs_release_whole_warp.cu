/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_release_whole_warp.cu — the multicast example's sliced kernel
 * with the caller-declared whole-warp release
 * (cg_pipeline_cluster_consumer_release_all_whole_warp: no lane test, lane i
 * arrives for CTA i; the kernel's warps are whole). It times what the
 * general warp release's run-time test of the block's shape costs
 * (async/pipeline.h, docs/design/cross_cta_release.md), on the HBM-bound
 * stream (d_project_release_whole_warp) and on the L2-resident input
 * (d_project_release_whole_warp_l2).
 */
#include "cg/cg.h"

#define PJ_RELEASE_ALL_WARP cg_pipeline_cluster_consumer_release_all_whole_warp
#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_whole_warp(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_whole_warp, kd_project_release_whole_warp)

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_whole_warp_l2(bench_args_t a)
{
    pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, 0u, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_whole_warp_l2, kd_project_release_whole_warp_l2)
