/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/debugbuild/wait_sites.cu — one small kernel per blocking wait of
 * cgc, for register counts only (never launched): each holds a little
 * state across a loop of waits, as a kernel's main loop does. The
 * register_budget test compiles this file in a release and a debug build
 * and reads ptxas's report; docs/design/debug_builds.md has the numbers.
 */
#include "cg/cg.h"

#define WS_LOOP(body)                                                                              \
    uint32_t acc = 0;                                                                              \
    for (uint32_t t = 0; t < rounds; ++t) {                                                        \
        body;                                                                                      \
        acc = acc * 31u + in[t * blockDim.x + threadIdx.x];                                        \
    }                                                                                              \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc

/* A kernel named `name` whose loop of waits (body) uses mb, one mbarrier of
 * the block with blockDim.x arrivals. */
#define WS_MBARRIER_KERNEL(name, body)                                                             \
    extern "C" __global__ void name(const uint32_t *in, uint32_t *out, uint32_t rounds)            \
    {                                                                                              \
        __shared__ cg_mbarrier_t mb;                                                               \
        if (threadIdx.x == 0)                                                                      \
            cg_mbarrier_init(&mb, blockDim.x);                                                     \
        __syncthreads();                                                                           \
        WS_LOOP(body);                                                                             \
    }

WS_MBARRIER_KERNEL(ws_mbarrier_wait, cg_mbarrier_wait(&mb, cg_mbarrier_arrive(&mb)))
WS_MBARRIER_KERNEL(ws_mbarrier_wait_parity_cluster, (void)cg_mbarrier_arrive(&mb); cg_mbarrier_wait_parity_cluster(&mb, t & 1u))

extern "C" __global__ void ws_block_barrier(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    cg_thread_block_t b = cg_this_thread_block();
    WS_LOOP(cg_thread_block_barrier_wait(&b, cg_thread_block_barrier_arrive(&b)));
}

extern "C" __global__ void ws_barrier_t(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    __shared__ cg_barrier_t bar;
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    __syncthreads();
    WS_LOOP(cg_barrier_arrive_and_wait(&bar));
}

extern "C" __global__ void ws_cluster_barrier(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    cg_cluster_t cl = cg_this_cluster();
    WS_LOOP(cg_cluster_barrier_wait(&cl, cg_cluster_barrier_arrive(&cl)));
}

extern "C" __global__ void ws_grid_sync(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    cg_grid_t g = cg_this_grid();
    WS_LOOP(cg_grid_sync(&g));
}

extern "C" __global__ void ws_device_barrier(const uint32_t *in, uint32_t *out, uint32_t rounds,
                                             cg_device_barrier_t *db)
{
    WS_LOOP(cg_device_barrier_arrive_and_wait(db));
}

extern "C" __global__ void ws_pipeline(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 4096)];
    cg_pipeline_t p = cg_pipeline_attach(smem, 2, 4096);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers(&p, blockDim.x, blockDim.x);
    __syncthreads();
    WS_LOOP((void)cg_pipeline_producer_acquire(&p); cg_pipeline_memcpy_async(&p, threadIdx.x, 0, in, 4096);
            cg_pipeline_producer_commit(&p, 0); acc += ((const uint32_t *)cg_pipeline_consumer_wait(&p))[threadIdx.x];
            cg_pipeline_consumer_release(&p));
}

extern "C" __global__ void ws_cluster_pipeline(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 4096)];
    cg_cluster_t cl = cg_this_cluster();
    cg_pipeline_t p = cg_cluster_pipeline(&cl, smem, 2, 4096, 0, 1);
    const uint16_t mask = (uint16_t)((1u << cg_cluster_num_blocks(&cl)) - 1u);
    WS_LOOP(if (cg_cluster_block_rank(&cl) == 0 && threadIdx.x == 0) {
        (void)cg_pipeline_cluster_producer_acquire(&p);
        cg_pipeline_cluster_producer_copy(&p, 0, in, 4096, mask);
        cg_pipeline_cluster_producer_commit(&p, 4096, mask);
    } if (threadIdx.x < 32) {
        acc += ((const uint32_t *)cg_pipeline_cluster_consumer_wait(&p))[threadIdx.x];
        cg_pipeline_cluster_consumer_release_warp(&p);
    });
}

extern "C" __global__ void ws_dsmem_push_wait(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    __shared__ __align__(16) uint32_t src[256], dst[256];
    __shared__ cg_mbarrier_t full;
    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t b = cg_this_thread_block();
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&full, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl);
    const uint32_t to = (cg_cluster_block_rank(&cl) + 1u) % cg_cluster_num_blocks(&cl);
    WS_LOOP(if (threadIdx.x == 0) (void)cg_mbarrier_arrive_tx(&full, 1024); cg_dsmem_push(&b, dst, src, 1024, &full, to);
            cg_mbarrier_wait_parity_cluster(&full, t & 1u); acc += dst[threadIdx.x & 255u]; cg_cluster_sync(&cl));
}
