/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/release_cold_partial.cu — the multicast example's sliced
 * kernel with the library's warp release, except that the form for a block
 * with a partial last warp is a cold, non-inlined call: it times whether the
 * values that form keeps live in the consumer loop are what the cluster-8 row
 * pays (async/pipeline.h, docs/design/cross_cta_release.md).
 */
#include "cg/cg.h"

static __device__ __noinline__ __attribute__((cold)) void bd_release_partial(cg_mbarrier_t *mb, uint32_t cta_mask)
{
    cg_pipeline_release_all_lanes_(mb, (uint16_t)cta_mask, cg_sreg_laneid());
}

static __device__ __forceinline__ void bd_release_cold_partial(cg_pipeline_t *p, uint16_t cta_mask)
{
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->tail);
    if (cg_pipeline_block_warps_whole_())
        cg_pipeline_release_all_whole_warp_(mb, cta_mask, cg_sreg_laneid());
    else
        bd_release_partial(mb, cta_mask);
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}
#define PJ_RELEASE_ALL_WARP bd_release_cold_partial
#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_cold_partial(bench_args_t a)
{
    pj_project((const uint32_t *)a.src, a.ntiles, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_cold_partial, kd_project_release_cold_partial)
