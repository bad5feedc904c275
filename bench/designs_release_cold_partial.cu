/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_release_cold_partial.cu — the multicast example's sliced
 * kernel with the library's warp release, except that the form for a block
 * with a partial last warp is a cold, non-inlined call: it times whether the
 * values that form keeps live in the consumer loop are what the cluster-8 row
 * pays (async/pipeline.h, docs/design/cross_cta_release.md).
 */
#include "cg/cg.h"

static __device__ __noinline__ __attribute__((cold)) void bd_release_partial(cg_mbarrier_t *mb, uint32_t cta_mask)
{
    const uint32_t lanes = cg_pipeline_warp_lanes_();
    const uint32_t nactive = (uint32_t)__popc((int)lanes);
    __syncwarp(lanes);
    cg_fence_proxy_async_release_smem_cluster();
    for (uint32_t rank = cg_sreg_laneid(); rank < 16u; rank += nactive) {
        const uint32_t m = (cta_mask >> rank) & 1u;
        cg_mbarrier_arrive_remote_relaxed_if(mb, m ? rank : 0u, m);
    }
}

static __device__ __forceinline__ void bd_release_cold_partial(cg_pipeline_t *p, uint16_t cta_mask)
{
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->tail);
    if (cg_pipeline_block_warps_whole_()) {
        const uint32_t me = cg_sreg_laneid();
        const uint32_t mine = me < 16u ? ((uint32_t)cta_mask >> me) & 1u : 0u;
        __syncwarp();
        cg_mbarrier_release_smem_remote_async_if(mb, mine ? me : 0u, mine);
    } else {
        bd_release_partial(mb, cta_mask);
    }
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
