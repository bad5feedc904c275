/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/pipeline_group.h — the group forms of async/pipeline.h: collective
 * set-up and the group copy, for a thread block or a cluster.
 *
 *   cg_pipeline_t p = cg_thread_block_pipeline(&block, smem, N, bytes, producers, consumers);
 *   cg_pipeline_t p = cg_cluster_pipeline(&cluster, smem, N, bytes, root, consumers);
 *   cg_pipeline_t p = cg_cluster_pipeline_sliced(&cluster, smem, N, bytes, consumers);
 *   cg_thread_block_pipeline_memcpy_async(&block, &p, offset, src, bytes);
 *
 * The set-up calls are collective: every thread of the group calls them
 * (converged, as a block or cluster barrier needs); one thread initializes the
 * barriers and the group's barrier makes them visible before any returns.
 * They are the one-thread cg_pipeline_init_barriers[_cluster] plus that
 * barrier, for kernels that would rather not write it out.
 */
#ifndef CG_CG_PIPELINE_GROUP_H
#define CG_CG_PIPELINE_GROUP_H

#include "../async/pipeline.h"
#include "../base/config.h"
#include "cluster_group.h"
#include "thread_block.h"

#if CG_DEVICE_CODE_VISIBLE

/* Collective over the block: a pipeline of `stages` stages of `stage_bytes`
 * at `smem`, full[k] expecting `producer_arrivals` commits and empty[k]
 * `consumer_arrivals` releases per use (the plain-block form: the block's
 * thread count for both). Thread rank 0 initializes; then a block barrier. */
CG_DEVICE cg_pipeline_t cg_thread_block_pipeline(const cg_thread_block_t *b, void *smem, uint32_t stages,
                                                 uint32_t stage_bytes, uint32_t producer_arrivals,
                                                 uint32_t consumer_arrivals)
{
    cg_pipeline_t p = cg_pipeline_attach(smem, stages, stage_bytes);
    if (cg_thread_block_thread_rank(b) == 0)
        cg_pipeline_init_barriers(&p, producer_arrivals, consumer_arrivals);
    cg_thread_block_sync(b);
    return p;
}

/* Collective over the cluster: the cluster form (CTA `root` produces;
 * its empty barriers expect `consumer_arrivals` releases per use from all
 * receiving CTAs). Thread 0 of each CTA initializes its barriers and fences
 * the initialization; then a cluster barrier. */
CG_DEVICE_SM90 cg_pipeline_t cg_cluster_pipeline(const cg_cluster_t *cl, void *smem, uint32_t stages, uint32_t stage_bytes,
                                            uint32_t root, uint32_t consumer_arrivals)
{
    cg_pipeline_t p = cg_pipeline_attach_cluster(smem, stages, stage_bytes, root);
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
        cg_pipeline_init_barriers_cluster(&p, consumer_arrivals);
    cg_cluster_sync(cl);
    return p;
}

/* Collective over the cluster: the sliced cluster form (every CTA of the
 * mask loads a slice of each stage and commits the whole stage locally; each
 * CTA's empty barriers expect `consumer_arrivals` releases per use: the
 * consumers of ALL the mask's CTAs, e.g. CTAs x consumer warps). Thread 0 of
 * each CTA initializes its barriers and fences the initialization; then a
 * cluster barrier. */
CG_DEVICE_SM90 cg_pipeline_t cg_cluster_pipeline_sliced(const cg_cluster_t *cl, void *smem, uint32_t stages,
                                                        uint32_t stage_bytes, uint32_t consumer_arrivals)
{
    cg_pipeline_t p = cg_pipeline_attach_cluster(smem, stages, stage_bytes, cg_cluster_block_rank(cl));
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
        cg_pipeline_init_barriers_cluster(&p, consumer_arrivals);
    cg_cluster_sync(cl);
    return p;
}

/* The block's group copy into the current producer stage (libcu++
 * cuda::memcpy_async(block, dst, src, n, pipe)): every thread calls it with
 * the same arguments, after producer_acquire and before producer_commit(0). */
CG_DEVICE_SM90 void cg_thread_block_pipeline_memcpy_async(const cg_thread_block_t *b, cg_pipeline_t *p, uint32_t offset,
                                                     const void *src, uint32_t bytes)
{
    cg_pipeline_memcpy_async(p, cg_thread_block_thread_rank(b), offset, src, bytes);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_PIPELINE_GROUP_H */
