/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/release_elected.cuh — a design of the sliced multicast
 * kernel's release (examples/pipeline_project.cuh) with ONE remote arrival
 * per CTA per stage instead of one per consumer warp: each consumer warp
 * counts itself on a per-stage counter in shared memory (atomicInc_block,
 * fenced at CTA scope on both sides: a release and an acquire pattern), and
 * the warp that counts last (old == PJ_WARPS - 1; the counter wraps to 0 for
 * the stage's next use) makes the stage's release to every CTA of the mask:
 * the whole-warp form, lane i for CTA i. Every CTA's empty barrier then
 * counts the mask's CTAs, not CTAs x warps (PJ_RELEASES_PER_CTA 1).
 *
 * Why the order holds (docs/design/cross_cta_release.md): warp w's reads of
 * the stage -> its __syncwarp -> lane 0's fence (release, CTA scope) and
 * counter increment; the last warp's lane 0 reads that increment (the
 * increments form one release sequence of RMWs) and fences (acquire, CTA
 * scope): every earlier warp's reads happen before what follows in the last
 * warp; __shfl_sync / __syncwarp hand that to its other lanes; each lane's
 * restricted proxy release fence is cumulative over what its thread
 * observed, then its relaxed remote arrive: the producers' cluster-scope
 * acquire synchronizes with it. Costs per stage and CTA: PJ_WARPS shared
 * atomics and 2 x PJ_WARPS CTA fences (cheap, local) against
 * PJ_WARPS - 1 fewer restricted fences and (PJ_WARPS - 1) x C fewer remote
 * arrivals, and the empty barrier completes after C arrivals, not 4 C.
 *
 * Include after defining PJ_STAGES (if not the default); defines the
 * release and the hooks pipeline_project.cuh looks for, then brings in the
 * body and bench/project_forms.cuh.
 */
#ifndef CGC_BENCH_DESIGNS_RELEASE_ELECTED_CUH
#define CGC_BENCH_DESIGNS_RELEASE_ELECTED_CUH

#include "cg/cg.h"

#ifndef PJ_STAGES
#define PJ_STAGES 4u
#endif
/* The kernel's consumer warps (PJ_WARPS, defined by pipeline_project.cuh,
 * which comes after this file; the .cu files assert that they agree). */
#define BD_ELECT_WARPS 4u

/* One counter per stage: consumer warps that are done with its current use. */
static __device__ __forceinline__ unsigned *bd_elect_counters(void)
{
    __shared__ unsigned ctr[PJ_STAGES];
    return ctr;
}

static __device__ __forceinline__ void bd_elect_setup(void)
{
    if (threadIdx.x < PJ_STAGES)
        bd_elect_counters()[threadIdx.x] = 0u; /* published by the block / cluster barrier that follows */
}

static __device__ __forceinline__ void bd_release_elected(cg_pipeline_t *p, uint16_t cta_mask)
{
    const uint32_t lane = cg_sreg_laneid();
    unsigned last = 0;
    __syncwarp();
    if (lane == 0) {
        __threadfence_block(); /* release: this warp's reads (through __syncwarp) before the count */
        const unsigned old = atomicInc_block(&bd_elect_counters()[p->tail], BD_ELECT_WARPS - 1u);
        __threadfence_block(); /* acquire: the counted warps' reads before the release below */
        last = old == BD_ELECT_WARPS - 1u;
    }
    last = __shfl_sync(0xffffffffu, last, 0);
    if (last)
        cg_pipeline_release_all_whole_warp_(cg_pipeline_empty_barrier(p, p->tail), cta_mask, lane);
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

#define PJ_RELEASE_ALL_WARP bd_release_elected
#define PJ_RELEASES_PER_CTA 1u
#define PJ_SETUP() bd_elect_setup()

#include "bench/project_forms.cuh"

static_assert(BD_ELECT_WARPS == PJ_WARPS, "the elected release counts the kernel's consumer warps");

#endif /* CGC_BENCH_DESIGNS_RELEASE_ELECTED_CUH */
