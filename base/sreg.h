/*
 * cg/sreg.h — reads of PTX special registers that several layers need.
 *
 * One wrapper per register, here only; the cluster registers live in
 * cluster/cluster.h.
 */
#ifndef CG_SREG_H
#define CG_SREG_H

#include "cg/config.h"

#if CG_DEVICE_CODE_VISIBLE

/* mov.u64 d, %globaltimer;   PTX ISA 3.1, sm_30. Nanoseconds of wall time;
 * volatile: two reads must not merge. Bounds the timed and debug waits. */
CG_DEVICE uint64_t cg_sreg_globaltimer_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* mov.u32 d, %laneid;   PTX ISA 1.3, sm_10. The calling thread's lane
 * (threadIdx.x & 31 is wrong in 2D/3D blocks). */
CG_DEVICE uint32_t cg_sreg_laneid(void)
{
    uint32_t l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

/* mov.u32 d, %lanemask_lt;   PTX ISA 2.0, sm_20. Bit i set for every lane
 * i below the caller's (a coalesced group's rank is the popcount of it and
 * the group's mask). */
CG_DEVICE uint32_t cg_sreg_lanemask_lt(void)
{
    uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

/* mov.u32 d, %nsmid;   PTX ISA 2.0, sm_20. An upper bound on SM ids (the SM
 * count on current parts). */
CG_DEVICE uint32_t cg_sreg_nsmid(void)
{
    uint32_t n;
    asm("mov.u32 %0, %%nsmid;" : "=r"(n));
    return n;
}

/* mov.u64 d, %gridid;   PTX ISA 3.0, sm_30. The launch's grid identifier:
 * with the block index it names a CTA among all CTAs that ever ran. */
CG_DEVICE uint64_t cg_sreg_gridid(void)
{
    uint64_t g;
    asm("mov.u64 %0, %%gridid;" : "=l"(g));
    return g;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_SREG_H */
