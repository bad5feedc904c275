/*
 * cluster/cluster.h — the raw Hopper cluster hardware: the cluster barrier
 * (barrier.cluster.*) and the cluster special registers.
 *
 * One wrapper per PTX form. Above each: the PTX line it emits, the PTX ISA
 * version that introduced it and the lowest SM. Everything here needs sm_90:
 * a build for an older target that calls one of these fails at compile time
 * with the message CG_REQUIRE_SM90() carries (see cg/config.h).
 *
 * Most code wants the group API of cg/cluster_group.h (cg_this_cluster(),
 * cg_cluster_sync(), ...); these wrappers are its building blocks.
 *
 * Hardware facts this header relies on:
 *   - Every kernel on sm_90 runs in clusters. A launch without a cluster shape
 *     runs in implicit 1x1x1 clusters: %cluster_nctarank reads 1,
 *     %cluster_ctarank 0, %is_explicit_cluster false, and barrier.cluster
 *     works (it synchronizes the one CTA with itself).
 *   - Cluster size: at most 8 CTAs portably, 16 with the non-portable opt-in
 *     (cudaFuncAttributeNonPortableClusterSizeAllowed, done by cg_launch).
 *   - The cluster barrier counts every non-exited thread of every CTA of the
 *     cluster; each thread arrives once per phase and then waits once.
 *
 * Aligned vs non-aligned forms. `.aligned` promises that every thread of the
 * warp executes the same barrier.cluster instruction (warp-converged, like
 * bar.sync); the hardware may then arrive once per warp. The non-aligned form
 * is correct under divergence at some extra cost. Both forms are wrapped; the
 * group API picks the one whose contract it can keep (cg/cluster_group.h
 * explains the choice).
 */
#ifndef CG_CLUSTER_CLUSTER_H
#define CG_CLUSTER_CLUSTER_H

#include "cg/config.h"

#if CG_DEVICE_CODE_VISIBLE

/* The body of a wrapper whose PTX exists only on sm_90+: `asm_stmt` on sm_90,
 * a build-time error on older device targets, `fallback` in the host pass
 * (never executed; it keeps the host compiler quiet). */
#if CG_ARCH_HAS_SM90
#define CG__SM90_ONLY(asm_stmt, fallback) asm_stmt
#elif defined(__CUDA_ARCH__)
#define CG__SM90_ONLY(asm_stmt, fallback) \
    CG_REQUIRE_SM90();                    \
    fallback
#else
#define CG__SM90_ONLY(asm_stmt, fallback) fallback
#endif

/* ------------------------------------------------------------------------- */
/* Cluster barrier: arrive                                                   */
/* ------------------------------------------------------------------------- */

/* barrier.cluster.arrive.release;            PTX ISA 8.0, sm_90
 * Marks this thread's arrival. Release at cluster scope: this thread's prior
 * memory operations (shared, DSMEM, global) are performed, as seen from the
 * cluster, before any thread's matching wait.acquire returns. Non-aligned:
 * correct when the warp is diverged. */
CG_DEVICE void cg_hw_cluster_arrive_release(void)
{
    CG__SM90_ONLY(asm volatile("barrier.cluster.arrive.release;" ::: "memory"), (void)0);
}

/* barrier.cluster.arrive.release.aligned;    PTX ISA 8.0, sm_90
 * As above; the whole warp must execute this same instruction together. */
CG_DEVICE void cg_hw_cluster_arrive_release_aligned(void)
{
    CG__SM90_ONLY(asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"), (void)0);
}

/* barrier.cluster.arrive.relaxed;            PTX ISA 8.0, sm_90
 * Arrival with no memory ordering: for control-only synchronization (e.g.
 * "every CTA of the cluster has started"). Data written before it is NOT
 * guaranteed visible after the wait. The "memory" clobber only stops the
 * compiler from moving memory accesses across the call. */
CG_DEVICE void cg_hw_cluster_arrive_relaxed(void)
{
    CG__SM90_ONLY(asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"), (void)0);
}

/* barrier.cluster.arrive.relaxed.aligned;    PTX ISA 8.0, sm_90 */
CG_DEVICE void cg_hw_cluster_arrive_relaxed_aligned(void)
{
    CG__SM90_ONLY(asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"), (void)0);
}

/* ------------------------------------------------------------------------- */
/* Cluster barrier: wait                                                     */
/* ------------------------------------------------------------------------- */

/* barrier.cluster.wait.acquire;              PTX ISA 8.0, sm_90
 * Blocks until every non-exited thread of the cluster has arrived in the
 * current phase. Acquire at cluster scope: memory operations after it see
 * what every thread released with its arrive.release. */
CG_DEVICE void cg_hw_cluster_wait_acquire(void)
{
    CG__SM90_ONLY(asm volatile("barrier.cluster.wait.acquire;" ::: "memory"), (void)0);
}

/* barrier.cluster.wait.acquire.aligned;      PTX ISA 8.0, sm_90 */
CG_DEVICE void cg_hw_cluster_wait_acquire_aligned(void)
{
    CG__SM90_ONLY(asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"), (void)0);
}

/* ------------------------------------------------------------------------- */
/* Special registers                                                         */
/*                                                                           */
/* Constant for the life of the CTA, so the asm is not volatile: the         */
/* compiler may merge repeated reads (as it does for threadIdx).             */
/* ------------------------------------------------------------------------- */

/* mov.u32 d, %cluster_ctarank;               PTX ISA 7.8, sm_90
 * This CTA's rank in its cluster, 0 .. %cluster_nctarank-1. */
CG_DEVICE uint32_t cg_hw_cluster_ctarank(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)), (void)0);
    return r;
}

/* mov.u32 d, %cluster_nctarank;              PTX ISA 7.8, sm_90
 * Number of CTAs in this cluster (1 .. 16). */
CG_DEVICE uint32_t cg_hw_cluster_nctarank(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)), (void)0);
    return r;
}

/* mov.u32 d, %cluster_ctaid.{x,y,z};         PTX ISA 7.8, sm_90
 * This CTA's 3-D index inside its cluster. */
CG_DEVICE uint32_t cg_hw_cluster_ctaid_x(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_cluster_ctaid_y(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_cluster_ctaid_z(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(r)), (void)0);
    return r;
}

/* mov.u32 d, %cluster_nctaid.{x,y,z};        PTX ISA 7.8, sm_90
 * The cluster's shape in CTAs. */
CG_DEVICE uint32_t cg_hw_cluster_nctaid_x(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_cluster_nctaid_y(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_cluster_nctaid_z(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(r)), (void)0);
    return r;
}

/* mov.u32 d, %clusterid.{x,y,z};             PTX ISA 7.8, sm_90
 * This cluster's 3-D index in the grid of clusters. */
CG_DEVICE uint32_t cg_hw_clusterid_x(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%clusterid.x;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_clusterid_y(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%clusterid.y;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_clusterid_z(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("mov.u32 %0, %%clusterid.z;" : "=r"(r)), (void)0);
    return r;
}

/* mov.u32 d, %nclusterid.{x,y,z};            PTX ISA 7.8, sm_90
 * The grid's shape in clusters. */
CG_DEVICE uint32_t cg_hw_nclusterid_x(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%nclusterid.x;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_nclusterid_y(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%nclusterid.y;" : "=r"(r)), (void)0);
    return r;
}
CG_DEVICE uint32_t cg_hw_nclusterid_z(void)
{
    uint32_t r = 1;
    CG__SM90_ONLY(asm("mov.u32 %0, %%nclusterid.z;" : "=r"(r)), (void)0);
    return r;
}

/* mov.pred p, %is_explicit_cluster;          PTX ISA 7.8, sm_90
 * 1 when the launch named a cluster shape (even 1x1x1), 0 for the implicit
 * 1-CTA clusters of a launch without one. */
CG_DEVICE uint32_t cg_hw_is_explicit_cluster(void)
{
    uint32_t r = 0;
    CG__SM90_ONLY(asm("{\n\t.reg .pred p;\n\t"
                      "mov.pred p, %%is_explicit_cluster;\n\t"
                      "selp.u32 %0, 1, 0, p;\n\t}"
                      : "=r"(r)),
                  (void)0);
    return r;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CLUSTER_CLUSTER_H */
