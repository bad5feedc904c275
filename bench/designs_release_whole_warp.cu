/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_release_whole_warp.cu — the multicast example's sliced kernel
 * with the warp release it had before partial warps were supported: no lane
 * test, lane i arrives for CTA i. Wrong for a warp of fewer lanes than the
 * mask's highest rank (the kernel here has whole warps only); it times what
 * the lane test costs (async/pipeline.h, docs/design/cross_cta_release.md).
 */
#include "cg/cg.h"

static __device__ __forceinline__ void bd_release_whole_warp(cg_pipeline_t *p, uint16_t cta_mask)
{
    cg_pipeline_release_all_whole_warp_(cg_pipeline_empty_barrier(p, p->tail), cta_mask, cg_sreg_laneid());
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}
#define PJ_RELEASE_ALL_WARP bd_release_whole_warp
#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_whole_warp(bench_args_t a)
{
    pj_project((const uint32_t *)a.src, a.ntiles, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_whole_warp, kd_project_release_whole_warp)
