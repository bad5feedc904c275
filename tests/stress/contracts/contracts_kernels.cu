/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/contracts/contracts_kernels.cu — release-build kernels for the
 * contracts of issue 26: warp-level pipeline releases from a partial warp,
 * and cg_thread_group_tiled_partition of a tile no larger than n against
 * C++ CG in the same kernel.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cg/cg.h"
#include "tests/stress/contracts/contracts.h"
#include "tests/dsmem/cluster_launch.cuh"

namespace ccg = cooperative_groups;

#define CTR_STAGES 2u
#define CTR_STAGE_BYTES 1024u /* 8 slices of 128 bytes at cluster 8 */

/* Consumers of one stage use: every word compared with the source. */
static __device__ void ctr_check_stage(const uint32_t *x, const uint32_t *src, uint32_t use, uint32_t lane,
                                       uint32_t lanes, uint32_t *bad)
{
    uint32_t wrong = 0, seen = 0;
    for (uint32_t k = lane; k < CTR_STAGE_BYTES / 4u; k += lanes) {
        wrong += x[k] != src[(size_t)use * (CTR_STAGE_BYTES / 4u) + k];
        ++seen;
    }
    atomicAdd(&bad[0], wrong);
    atomicAdd(&bad[1], seen);
}

extern "C" __global__ void ctr_sliced_kernel(const uint32_t *src, uint32_t uses, uint32_t *bad)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(CTR_STAGES, CTR_STAGE_BYTES)];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t n = cg_cluster_num_blocks(&cl);
    const uint16_t mask = (uint16_t)((1u << n) - 1u);
    /* each CTA's empty barrier: one consumer warp in each of the n CTAs */
    cg_pipeline_t p = cg_cluster_pipeline_sliced(&cl, smem, CTR_STAGES, CTR_STAGE_BYTES, n);
    if (threadIdx.x < 32u) {
        if (threadIdx.x == 0)
            for (uint32_t u = 0; u < uses; ++u) {
                (void)cg_pipeline_cluster_producer_acquire(&p);
                cg_pipeline_cluster_producer_copy_slice(&p, src + (size_t)u * (CTR_STAGE_BYTES / 4u), mask);
                cg_pipeline_cluster_producer_commit_local(&p, CTR_STAGE_BYTES);
            }
        if (threadIdx.x == 0)
            cg_pipeline_cluster_producer_tail(&p);
    } else {
        const uint32_t lane = threadIdx.x - 32u, lanes = blockDim.x - 32u; /* a partial warp */
        for (uint32_t u = 0; u < uses; ++u) {
            const uint32_t *x = (const uint32_t *)cg_pipeline_cluster_consumer_wait(&p);
            ctr_check_stage(x, src, u, lane, lanes, bad);
            cg_pipeline_cluster_consumer_release_all_warp(&p, mask);
        }
    }
    cg_cluster_exit_sync(&cl);
}

extern "C" int ctr_sliced_partial_warp(const uint32_t *src, uint32_t uses, uint32_t csize, uint32_t lanes,
                                       uint32_t *bad)
{
    void *args[] = {(void *)&src, (void *)&uses, (void *)&bad};
    return cgt_launch_cluster((const void *)ctr_sliced_kernel, csize, csize, 32u + lanes, 0, args);
}

extern "C" __global__ void ctr_block_kernel(const uint32_t *src, uint32_t uses, uint32_t first, uint32_t lanes,
                                            uint32_t *bad)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(CTR_STAGES, CTR_STAGE_BYTES)];
    cg_pipeline_t p = cg_pipeline_attach(smem, CTR_STAGES, CTR_STAGE_BYTES);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers(&p, 1, 1); /* one consumer warp: the partial one */
    __syncthreads();
    if (threadIdx.x < 32u) {
        if (threadIdx.x == 0) {
            for (uint32_t u = 0; u < uses; ++u) {
                (void)cg_pipeline_producer_acquire(&p);
                cg_pipeline_producer_copy(&p, 0, src + (size_t)u * (CTR_STAGE_BYTES / 4u), CTR_STAGE_BYTES);
                cg_pipeline_producer_commit(&p, CTR_STAGE_BYTES);
            }
            cg_pipeline_producer_tail(&p);
        }
    } else if (threadIdx.x >= 32u + first && threadIdx.x < 32u + first + lanes) {
        /* lanes first .. first + lanes - 1 of warp 1: a partial warp, or
         * the lanes of a branch (lane 0 not among them when first > 0) */
        const uint32_t lane = threadIdx.x - 32u - first;
        for (uint32_t u = 0; u < uses; ++u) {
            const uint32_t *x = (const uint32_t *)cg_pipeline_consumer_wait(&p);
            ctr_check_stage(x, src, u, lane, lanes, bad);
            cg_pipeline_consumer_release_warp(&p);
        }
    }
}

extern "C" int ctr_block_partial_warp(const uint32_t *src, uint32_t uses, uint32_t first, uint32_t lanes,
                                      uint32_t *bad)
{
    ctr_block_kernel<<<2, first == 0 ? 32u + lanes : 64u>>>(src, uses, first, lanes, bad);
    return (int)cudaGetLastError();
}

extern "C" __global__ void ctr_tile_partition_kernel(uint32_t tile, uint32_t n, uint32_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, tile);
    cg_thread_group_t tg = cg_thread_group_from_tile(&t);
    cg_thread_group_t pt = cg_thread_group_tiled_partition(&tg, n);
    cg_coalesced_group_t *c = cg_thread_group_as_coalesced(&pt);

    ccg::thread_group ct = ccg::tiled_partition(ccg::this_thread_block(), tile);
    ccg::thread_group cp = ccg::tiled_partition(ct, n);

    uint32_t *o = out + 6u * threadIdx.x;
    o[0] = c != 0;
    o[1] = (uint32_t)cg_thread_group_num_threads(&pt);
    o[2] = (uint32_t)cg_thread_group_thread_rank(&pt);
    o[3] = (uint32_t)cp.size();
    o[4] = (uint32_t)cp.thread_rank();
    o[5] = c != 0 ? cg_coalesced_meta_group_rank(c) * 256u + cg_coalesced_meta_group_size(c) : 0xFFFFFFFFu;
}

extern "C" int ctr_small_tile_partition(uint32_t threads, uint32_t tile, uint32_t n, uint32_t *out)
{
    ctr_tile_partition_kernel<<<1, threads>>>(tile, n, out);
    return (int)cudaGetLastError();
}
