/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/pipeline/debug_kernels.cu — pipeline misuse that would hang,
 * compiled with -DCG_DEBUG=1 and a short CG_DEBUG_WAIT_TIMEOUT_NS: each
 * kernel must print a report naming the pipeline, the stage and the phase,
 * then trap, so the synchronize returns an error in bounded time.
 */
#include <cuda_runtime.h>

#include "async/pipeline.h"
#include "cg/groups.h"
#include "tests/dsmem/cluster_launch.cuh"
#include "tests/async/pipeline/pipeline_test_util.h"
#include "tests/support/launcher.cuh"

#if !CG_DEBUG
#error "debug_kernels.cu must be compiled with -DCG_DEBUG=1"
#endif

#define PLD_STAGE 256u

/* The producer copies 256 bytes into stage 0 and commits 512: full[0] waits
 * for 256 bytes that never come, and the consumer warp's wait must report. */
extern "C" __global__ void pld_overcommit_kernel(const uint32_t *src)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, PLD_STAGE)];
    cg_pipeline_t p = cg_pipeline_attach(smem, 2, PLD_STAGE);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers(&p, 1, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        (void)cg_pipeline_producer_acquire(&p);
        cg_pipeline_producer_copy(&p, 0, src, PLD_STAGE);
        cg_pipeline_producer_commit(&p, 2u * PLD_STAGE);
    } else if (threadIdx.x >= 32) {
        (void)cg_pipeline_consumer_wait(&p);
        cg_pipeline_consumer_release_warp(&p);
    }
}

/* Nobody produces: the consumer's wait on stage 0 (parity 0) must report. */
extern "C" __global__ void pld_unfilled_kernel(void)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(3, PLD_STAGE)];
    cg_pipeline_t p = cg_pipeline_attach(smem, 3, PLD_STAGE);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers(&p, 1, 1);
    __syncthreads();
    (void)cg_pipeline_consumer_wait(&p);
    cg_pipeline_consumer_release_warp(&p);
}

/* One stage; the producer fills it twice but nobody consumes: the second
 * acquire waits for empty[0]'s phase of parity 0 forever and must report.
 * (The first commit completes full[0]: 0 bytes expected, 1 arrival.) */
extern "C" __global__ void pld_unreleased_kernel(void)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(1, PLD_STAGE)];
    cg_pipeline_t p = cg_pipeline_attach(smem, 1, PLD_STAGE);
    if (threadIdx.x == 0) {
        cg_pipeline_init_barriers(&p, 1, 1);
        (void)cg_pipeline_producer_acquire(&p);
        cg_pipeline_producer_commit(&p, 0);
        (void)cg_pipeline_producer_acquire(&p);
        cg_pipeline_producer_commit(&p, 0);
    }
}

/* Cluster form, cluster of 2: root 0 never produces; rank 1's consumer wait
 * must report (the cluster barrier at the end is never reached). */
extern "C" __global__ void pld_cluster_unfilled_kernel(void)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, PLD_STAGE)];
    cg_cluster_t cl = cg_this_cluster();
    cg_pipeline_t p = cg_pipeline_attach_cluster(smem, 2, PLD_STAGE, 0);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers_cluster(&p, 2);
    cg_cluster_sync(&cl);
    if (cg_cluster_block_rank(&cl) == 1) {
        (void)cg_pipeline_cluster_consumer_wait(&p);
        cg_pipeline_cluster_consumer_release_warp(&p);
    }
    cg_cluster_sync(&cl);
}

/* Sliced cluster form, cluster of 2, 1 stage: each CTA's empty barrier
 * expects the releases of both CTAs' consumer warps, but the consumers
 * release only to their own CTA (the mask of this CTA alone: the porting
 * mistake the sliced form invites). Each producer's acquire of use 1 then
 * waits for a release that never comes and must report; the consumers take
 * only use 0, so nothing else waits in a bounded loop. */
extern "C" __global__ void pld_sliced_unreleased_kernel(const uint32_t *src)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(1, PLD_STAGE)];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t r = cg_cluster_block_rank(&cl);
    cg_pipeline_t p = cg_pipeline_attach_cluster(smem, 1, PLD_STAGE, r);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers_cluster(&p, 2u); /* 2 CTAs x 1 consumer warp */
    cg_cluster_sync(&cl);
    if (threadIdx.x / 32u == 0) {
        if (cg_elect_sync(0xffffffffu))
            for (uint32_t u = 0; u < 2u; ++u) {
                (void)cg_pipeline_cluster_producer_acquire(&p);
                cg_pipeline_cluster_producer_copy_slice(&p, src, 0x3u);
                cg_pipeline_cluster_producer_commit_local(&p, PLD_STAGE);
            }
        __syncwarp();
    } else {
        (void)cg_pipeline_cluster_consumer_wait(&p);
        cg_pipeline_cluster_consumer_release_all_warp(&p, (uint16_t)(1u << r)); /* wrong: own CTA only */
    }
    cg_cluster_sync(&cl);
}

extern "C" int plt_debug_sliced_unreleased(const uint32_t *src)
{
    void *args[] = {(void *)&src};
    int rc = cgt_launch_cluster((const void *)pld_sliced_unreleased_kernel, 2, 2, 64, 0, args);
    return rc == CGT_CLUSTER_DOES_NOT_FIT ? (int)cudaErrorInvalidConfiguration : rc;
}

/* The caller-declared whole-warp release in a block of 48 threads (its second
 * warp has 16 lanes): out of the call's contract, which a debug build must
 * report before the __syncwarp over 32 lanes that do not all exist. The
 * stage is never filled: the misuse check comes first, so nothing waits. */
extern "C" __global__ void pld_whole_warp_partial_kernel(void)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(1, PLD_STAGE)];
    cg_cluster_t cl = cg_this_cluster();
    cg_pipeline_t p = cg_pipeline_attach_cluster(smem, 1, PLD_STAGE, 0);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers_cluster(&p, 2u);
    cg_cluster_sync(&cl);
    if (threadIdx.x >= 32u)
        cg_pipeline_cluster_consumer_release_all_whole_warp(&p, 0x1u);
    cg_cluster_sync(&cl);
}

extern "C" int plt_debug_whole_warp_partial(void)
{
    int rc = cgt_launch_cluster((const void *)pld_whole_warp_partial_kernel, 1, 1, 48, 0, NULL);
    return rc == CGT_CLUSTER_DOES_NOT_FIT ? (int)cudaErrorInvalidConfiguration : rc;
}

extern "C" int plt_debug_overcommit(const uint32_t *src)
{
    pld_overcommit_kernel<<<1, 64>>>(src);
    return (int)cudaGetLastError();
}

CGT_LAUNCHER(plt_debug_unfilled, pld_unfilled_kernel, 1, 32)
CGT_LAUNCHER(plt_debug_unreleased, pld_unreleased_kernel, 1, 32)

extern "C" int plt_debug_cluster_unfilled(void)
{
    int rc = cgt_launch_cluster((const void *)pld_cluster_unfilled_kernel, 2, 2, 32, 0, NULL);
    return rc == CGT_CLUSTER_DOES_NOT_FIT ? (int)cudaErrorInvalidConfiguration : rc;
}
