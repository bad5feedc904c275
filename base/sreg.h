/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/sreg.h — every read of a PTX special register in the library: the
 * thread's and warp's registers, clocks and timers, the grid workspace's
 * %envreg1/2 and the cluster registers (sm_90). One wrapper per register,
 * here only.
 */
#ifndef CG_BASE_SREG_H
#define CG_BASE_SREG_H

#include "config.h"

#if CG_DEVICE_CODE_VISIBLE

/* mov.u64 d, %globaltimer;   PTX ISA 3.1, sm_30. Nanoseconds of wall time;
 * volatile: two reads must not merge. Bounds the timed and debug waits. */
CG_DEVICE uint64_t cg_sreg_globaltimer_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* The debug-build wait bound, in one 32-bit register: %globaltimer in units
 * of 1024 ns (2^32 of them are 73 minutes, far above any bound), so a wait
 * site keeps one register for its start time instead of two. Start, then
 * test after each failed try; CG_DEBUG_WAIT_TIMEOUT_NS rounds down to
 * 1024 ns. */
#define CG_DEBUG_TIMER_SHIFT_ 10
CG_DEVICE uint32_t cg_debug_timer_start_(void)
{
    return (uint32_t)(cg_sreg_globaltimer_ns() >> CG_DEBUG_TIMER_SHIFT_);
}
CG_DEVICE bool cg_debug_timer_expired_(uint32_t t0)
{
    return cg_debug_timer_start_() - t0 > (uint32_t)((uint64_t)CG_DEBUG_WAIT_TIMEOUT_NS >> CG_DEBUG_TIMER_SHIFT_);
}

/* mov.u32 d, %clock;   PTX ISA 1.0. The SM's cycle counter (wraps; compare
 * differences); volatile: two reads must not merge. Paces poll loops. */
CG_DEVICE uint32_t cg_sreg_clock32(void)
{
    uint32_t t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
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

/* mov.u32 d, %envreg1; mov.u32 d, %envreg2;   PTX ISA 2.1, sm_20.
 * The driver's grid workspace address in a launch, high word in %envreg1,
 * low word in %envreg2 (the ABI C++ cooperative groups reads too); 0 when
 * the launch has none. The two registers are only ever read together. */
CG_DEVICE uint64_t cg_sreg_grid_workspace_(void)
{
    uint32_t hi, lo;
    asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
    asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
    return ((uint64_t)hi << 32) | lo;
}

/* ------------------------------------------------------------------------- */
/* Cluster special registers (sm_90)                                                         */
/*                                                                           */
/* Constant for the life of the CTA, so the asm is not volatile: the         */
/* compiler may merge repeated reads (as it does for threadIdx).             */
/* ------------------------------------------------------------------------- */

/* mov.u32 d, %cluster_ctarank;               PTX ISA 7.8, sm_90
 * This CTA's rank in its cluster, 0 .. %cluster_nctarank-1. */
CG_DEVICE_SM90 uint32_t cg_hw_cluster_ctarank(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

/* mov.u32 d, %cluster_nctarank;              PTX ISA 7.8, sm_90
 * Number of CTAs in this cluster (1 .. 16). */
CG_DEVICE_SM90 uint32_t cg_hw_cluster_nctarank(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

/* mov.u32 d, %cluster_ctaid.{x,y,z};         PTX ISA 7.8, sm_90
 * This CTA's 3-D index inside its cluster. */
CG_DEVICE_SM90 uint32_t cg_hw_cluster_ctaid_x(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_cluster_ctaid_y(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_cluster_ctaid_z(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

/* mov.u32 d, %cluster_nctaid.{x,y,z};        PTX ISA 7.8, sm_90
 * The cluster's shape in CTAs. */
CG_DEVICE_SM90 uint32_t cg_hw_cluster_nctaid_x(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_cluster_nctaid_y(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_cluster_nctaid_z(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

/* mov.u32 d, %clusterid.{x,y,z};             PTX ISA 7.8, sm_90
 * This cluster's 3-D index in the grid of clusters. */
CG_DEVICE_SM90 uint32_t cg_hw_clusterid_x(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_clusterid_y(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_clusterid_z(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%clusterid.z;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

/* mov.u32 d, %nclusterid.{x,y,z};            PTX ISA 7.8, sm_90
 * The grid's shape in clusters. */
CG_DEVICE_SM90 uint32_t cg_hw_nclusterid_x(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_nclusterid_y(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}
CG_DEVICE_SM90 uint32_t cg_hw_nclusterid_z(void)
{
    uint32_t r = 1;
#if CG_ARCH_HAS_SM90
    asm("mov.u32 %0, %%nclusterid.z;" : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

/* mov.pred p, %is_explicit_cluster;          PTX ISA 7.8, sm_90
 * 1 when the launch named a cluster shape (even 1x1x1), 0 for the implicit
 * 1-CTA clusters of a launch without one. */
CG_DEVICE_SM90 uint32_t cg_hw_is_explicit_cluster(void)
{
    uint32_t r = 0;
#if CG_ARCH_HAS_SM90
    asm("{\n\t.reg .pred p;\n\t"
                      "mov.pred p, %%is_explicit_cluster;\n\t"
                      "selp.u32 %0, 1, 0, p;\n\t}"
                      : "=r"(r));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return r;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_SREG_H */
