/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/cluster_group.h — the thread block cluster group (sm_90).
 *
 *   cg_cluster_t cl = cg_this_cluster();
 *   cg_token_t t = cg_cluster_barrier_arrive(&cl);   // release, non-blocking
 *   ... local work ...
 *   int *peer = (int *)cg_cluster_map_shared_rank(&cl, &smem[0], rank);
 *   cg_cluster_barrier_wait(&cl, t);                  // acquire
 *   ... read peer[...] (DSMEM) ...
 *   cg_cluster_exit_sync(&cl);                        // before the CTA exits
 *
 * Works for cluster sizes 1..16 and in kernels launched without a cluster
 * shape (sm_90 runs those as implicit 1-CTA clusters: every call works and the
 * barrier synchronizes the block with itself).
 *
 * Which barrier.cluster forms (cluster/cluster.h), and why:
 *   arrive  barrier.cluster.arrive.release   (non-aligned)
 *   relaxed barrier.cluster.arrive.relaxed   (non-aligned)
 *   wait    barrier.cluster.wait.acquire     (non-aligned)
 * The .aligned forms require the whole warp to execute the instruction
 * together. The split API is meant for code where threads run independent
 * (divergent) work between arrive and wait, so the non-aligned forms are the
 * ones whose contract the caller can always keep. They are not slower: on an
 * H200 (128 blocks of 128 threads, 100k back-to-back phases, cluster sizes
 * 1-16): release+acquire non-aligned 235-238 ns = C++ CG's cluster.sync
 * (same instructions), aligned 239-242 (1.02x); relaxed+acquire about 0.45x
 * (97-106 ns against CG's 193-224 in the same runs).
 *
 * Diverged warps: the PTX non-aligned forms allow them, and ptxas lowers
 * them to the per-warp SASS UCGABAR_ARV / UCGABAR_WAIT, reconverging the warp
 * first in simple code. After divergent work between arrive and wait,
 * compute-sanitizer synccheck was seen to report "Divergent thread(s) in
 * block" at barrier.cluster.wait (the results stayed correct; C++ CG emits the
 * same instructions). A __syncwarp() over the warp in the library would cost
 * ~20 ns per call (1.09x CG's cluster.sync, measured), so the calls stay
 * exactly CG's instructions; a kernel that wants a clean synccheck run
 * reconverges its own warp (__syncwarp()) before cg_cluster_barrier_wait.
 *
 * Memory order: arrive is a release and wait an acquire at cluster scope:
 * shared-memory (local and DSMEM) and global writes of any thread of the
 * cluster before its arrive are visible to every thread of the cluster after
 * its wait. The relaxed arrive orders nothing: use it when the barrier only
 * has to say "every CTA got here" (e.g. "all CTAs of the cluster are running,
 * so their shared memory exists").
 *
 * Exiting: a CTA's shared memory disappears when it exits, and a DSMEM access
 * to an exited CTA is undefined. A CTA whose shared memory other CTAs of the
 * cluster may still read or write must not exit before they are done; the
 * named way is cg_cluster_exit_sync(&cl) as the last cluster operation of
 * every thread (it is cg_cluster_sync: every CTA has finished everything it did
 * before, DSMEM accesses included, when any thread passes it).
 */
#ifndef CG_CG_CLUSTER_GROUP_H
#define CG_CG_CLUSTER_GROUP_H

#include "../base/config.h"
#include "../base/warp.h"
#include "../base/dim3.h"
#include "group_header.h"
#include "../cluster/cluster.h"
#include "../base/address.h"
#include "../base/fence.h"

/* The cluster group. Build it with cg_this_cluster(); pass it by pointer. */
typedef struct cg_cluster {
    cg_group_header_t _hdr;
} cg_cluster_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Queries                                                                   */
/* ------------------------------------------------------------------------- */

/* The calling thread's cluster. Touches no memory; not collective. */
CG_DEVICE cg_cluster_t cg_this_cluster(void)
{
    cg_cluster_t c;
    c._hdr.kind = CG_GROUP_CLUSTER;
    return c;
}

/* This block's rank in the cluster (%cluster_ctarank), 0 .. num_blocks-1. */
CG_DEVICE_SM90 uint32_t cg_cluster_block_rank(const cg_cluster_t *c)
{
    (void)c;
    return cg_hw_cluster_ctarank();
}

/* Blocks in the cluster (%cluster_nctarank), 1 .. 16. */
CG_DEVICE_SM90 uint32_t cg_cluster_num_blocks(const cg_cluster_t *c)
{
    (void)c;
    return cg_hw_cluster_nctarank();
}

/* The cluster's shape in blocks (%cluster_nctaid). */
CG_DEVICE_SM90 cg_dim3_t cg_cluster_dim_blocks(const cg_cluster_t *c)
{
    (void)c;
    return cg_dim3(cg_hw_cluster_nctaid_x(), cg_hw_cluster_nctaid_y(), cg_hw_cluster_nctaid_z());
}

/* This block's 3-D index in the cluster (%cluster_ctaid). */
CG_DEVICE_SM90 cg_dim3_t cg_cluster_block_index(const cg_cluster_t *c)
{
    (void)c;
    return cg_dim3(cg_hw_cluster_ctaid_x(), cg_hw_cluster_ctaid_y(), cg_hw_cluster_ctaid_z());
}

/* Threads in the cluster: blocks * threads per block. */
CG_DEVICE_SM90 uint32_t cg_cluster_num_threads(const cg_cluster_t *c)
{
    (void)c;
    return cg_hw_cluster_nctarank() * (blockDim.x * blockDim.y * blockDim.z);
}

/* The calling thread's rank in the cluster: block rank * block size + rank in
 * the block. */
CG_DEVICE_SM90 uint32_t cg_cluster_thread_rank(const cg_cluster_t *c)
{
    (void)c;
    uint32_t in_block = CG_BLOCK_LINEAR_RANK_();
    return cg_hw_cluster_ctarank() * (blockDim.x * blockDim.y * blockDim.z) + in_block;
}

/* The cluster's shape in threads (cluster shape * blockDim, per dimension). */
CG_DEVICE_SM90 cg_dim3_t cg_cluster_dim_threads(const cg_cluster_t *c)
{
    (void)c;
    return cg_dim3(cg_hw_cluster_nctaid_x() * blockDim.x, cg_hw_cluster_nctaid_y() * blockDim.y,
                   cg_hw_cluster_nctaid_z() * blockDim.z);
}

/* The calling thread's 3-D index in the cluster, in threads (its block's
 * index in the cluster * blockDim + threadIdx, per dimension; C++ CG's
 * thread_index()). sm_90. */
CG_DEVICE_SM90 cg_dim3_t cg_cluster_thread_index(const cg_cluster_t *c)
{
    cg_dim3_t b = cg_cluster_block_index(c);
    return cg_dim3(b.x * blockDim.x + threadIdx.x, b.y * blockDim.y + threadIdx.y, b.z * blockDim.z + threadIdx.z);
}

/* C++ CG's size(): cg_cluster_num_threads under its older name. sm_90. */
CG_DEVICE_SM90 uint32_t cg_cluster_size(const cg_cluster_t *c) { return cg_cluster_num_threads(c); }

/* ------------------------------------------------------------------------- */
/* Distributed shared memory                                                 */
/* ------------------------------------------------------------------------- */

/* The address of the variable at `ptr` (this CTA's shared memory) in the
 * shared memory of block `rank` of the cluster (mapa). Loads and stores
 * through it are DSMEM accesses; the target block must be running (a cluster
 * barrier after its start) and must not exit while they happen. */
CG_DEVICE_SM90 void *cg_cluster_map_shared_rank(const cg_cluster_t *c, const void *ptr, uint32_t rank)
{
    (void)c;
    return cg_smem_map_rank_ptr(ptr, rank);
}

/* The typed form, C++ CG's cluster.map_shared_rank(T *ptr, rank) -> T *:
 * the same address as cg_cluster_map_shared_rank, with ptr's own pointer
 * type (an array decays to a pointer to its element; const stays), so a call
 * site needs no cast:
 *   float *peer = CG_CLUSTER_MAP_SHARED_RANK(&cl, buf, r);
 * A macro (C has no templates); ptr is evaluated once (decltype does not
 * evaluate it). The same instructions as the untyped call. */
#define CG_CLUSTER_MAP_SHARED_RANK(cl, ptr, rank)                                                  \
    ((decltype(+(ptr)))cg_cluster_map_shared_rank((cl), (ptr), (rank)))

/* The rank of the block whose shared memory `ptr` addresses (getctarank). */
CG_DEVICE_SM90 uint32_t cg_cluster_query_shared_rank(const cg_cluster_t *c, const void *ptr)
{
    (void)c;
    return cg_smem_rank_of_ptr(ptr);
}

/* ------------------------------------------------------------------------- */
/* Barrier                                                                   */
/* ------------------------------------------------------------------------- */

/* Arrive on the cluster barrier (barrier.cluster.arrive.release) and return at
 * once. Collective: every thread of the cluster arrives once per phase, then
 * waits once. The token carries nothing (the hardware tracks the phase); it
 * exists so the call pairs with cg_cluster_barrier_wait like every group. */
CG_DEVICE_SM90 cg_token_t cg_cluster_barrier_arrive(const cg_cluster_t *c)
{
    (void)c;
    cg_hw_cluster_arrive_release();
    return cg_token_none_();
}

/* Control-only arrive (barrier.cluster.arrive.relaxed): counts the arrival
 * but publishes no memory. Pair with cg_cluster_barrier_wait. About 0.45x the
 * cost of a release arrive + wait (H200, 103 vs 224 ns per phase). */
CG_DEVICE_SM90 cg_token_t cg_cluster_barrier_arrive_relaxed(const cg_cluster_t *c)
{
    (void)c;
    cg_hw_cluster_arrive_relaxed();
    return cg_token_none_();
}

/* Arrive for a phase that hands over SHARED memory only: a release at
 * cluster scope of this thread's accesses to its own CTA's shared memory,
 * then a relaxed arrive. With cg_cluster_barrier_wait it orders every access
 * a thread made to its own CTA's shared memory before the arrive before every
 * shared-memory access (local or DSMEM) any thread of the cluster makes after
 * its wait: "write your own shared memory, then everyone reads it" and "read
 * your own shared memory, then others overwrite it". It does NOT order global
 * memory, nor DSMEM accesses a thread made to OTHER CTAs' shared memory before
 * the arrive (a DSMEM read of a peer that the peer overwrites after the
 * barrier needs the full cg_cluster_barrier_arrive). Why: the full release
 * waits for the memory system GPU-wide (MEMBAR.ALL.GPU on sm_90); this one
 * is a CTA-level barrier, about the cost of the relaxed arrive.
 * fence.release.sync_restrict::shared::cta.cluster; barrier.cluster.arrive.relaxed. */
CG_DEVICE_SM90 cg_token_t cg_cluster_barrier_arrive_smem(const cg_cluster_t *c)
{
    (void)c;
    cg_fence_release_smem_cluster();
    cg_hw_cluster_arrive_relaxed();
    return cg_token_none_();
}

/* Wait until every thread of the cluster has arrived in this phase
 * (barrier.cluster.wait.acquire). */
CG_DEVICE_SM90 void cg_cluster_barrier_wait(const cg_cluster_t *c, cg_token_t tok)
{
    (void)c;
    (void)tok;
    cg_hw_cluster_wait_acquire();
}

/* Cluster-wide barrier: arrive.release then wait.acquire. */
CG_DEVICE_SM90 void cg_cluster_sync(const cg_cluster_t *c) { cg_cluster_barrier_wait(c, cg_cluster_barrier_arrive(c)); }

/* Cluster-wide barrier for shared memory only: cg_cluster_barrier_arrive_smem
 * then barrier.cluster.wait.acquire (what it orders and what not: there). */
CG_DEVICE_SM90 void cg_cluster_sync_smem(const cg_cluster_t *c)
{
    cg_cluster_barrier_wait(c, cg_cluster_barrier_arrive_smem(c));
}

/* The named way to keep a CTA alive while other CTAs of the cluster may still
 * touch its shared memory: call it last, from every thread, before the kernel
 * returns (or before shared memory that others map is reused). It is a full
 * cg_cluster_sync: when any thread passes it, every thread of the cluster has
 * finished every access (DSMEM included) that it made before. */
CG_DEVICE_SM90 void cg_cluster_exit_sync(const cg_cluster_t *c) { cg_cluster_sync(c); }

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_CLUSTER_GROUP_H */
