/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/release_hybrid.cu — the multicast example's sliced kernel with
 * a warp release that has no branch for a whole warp: every lane makes its
 * first (predicated) arrival, and only a warp of fewer than 16 lanes loops
 * for the ranks left over. Correct for partial warps like the library's
 * form; it times whether the branch-free shape is cheaper (async/pipeline.h).
 */
#include "cg/cg.h"

static __device__ __forceinline__ void bd_release_hybrid(cg_pipeline_t *p, uint16_t cta_mask)
{
    const uint32_t lanes = cg_pipeline_warp_lanes_();
    const uint32_t me = cg_sreg_laneid();
    const uint32_t nactive = (uint32_t)__popc((int)lanes);
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->tail);
    const uint32_t mine = me < 16u ? ((uint32_t)cta_mask >> me) & 1u : 0u;
    __syncwarp(lanes);
    cg_mbarrier_release_smem_remote_async_if(mb, mine ? me : 0u, mine);
    if (nactive < 16u) {
        for (uint32_t rank = me + nactive; rank < 16u; rank += nactive) {
            const uint32_t m = ((uint32_t)cta_mask >> rank) & 1u;
            cg_mbarrier_arrive_remote_relaxed_if(mb, m ? rank : 0u, m);
        }
    }
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}
#define PJ_RELEASE_ALL_WARP bd_release_hybrid
#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

__global__ void __launch_bounds__(PJ_THREADS) kd_project_release_hybrid(bench_args_t a)
{
    pj_project((const uint32_t *)a.src, a.ntiles, NULL, a.acc, PJ_SLICED);
}
BENCH_EXPORT(d_project_release_hybrid, kd_project_release_hybrid)
