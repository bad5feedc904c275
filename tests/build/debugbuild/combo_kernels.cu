/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/debugbuild/combo_kernels.cu — the combinations of waits, releases
 * and reports a kernel holds at once (issue 34.9), for register counts only
 * (never launched): each is shaped like a program that was ported to cgc
 * and whose debug build no longer launched the 1024-thread blocks its
 * release build launched. The register_budget test compiles this file in a
 * release and a debug build and reads ptxas's report; every kernel's debug
 * build must stay within 64 registers (1024 threads a block) and near its
 * release build. docs/design/debug_builds.md has the numbers.
 *
 *   cb_sliced_grid        the sliced multicast pipeline (cluster of 2), warp
 *                         releases to every CTA of the mask, the split grid
 *                         barrier around it (issue: 40 -> 77 registers)
 *   cb_pipeline_dsmem     a cluster pipeline's consumer that also pushes its
 *                         result into a peer over DSMEM and releases the
 *                         peer's slot (issue: 36 -> 62)
 *   cb_dsmem_ring         DSMEM push / wait / release alone, a ring of two
 *                         slots between two CTAs (issue: 25 -> 44)
 *   cb_sliced_grid_live8  cb_sliced_grid in a run-time loop that keeps eight
 *                         words live across it (a consumer's accumulators):
 *                         the heaviest, release about 40 registers as in the
 *                         issue's program
 *   cb_everything         all of the above in one kernel, with a block split
 *                         barrier and a cg_barrier_t wait
 */
#include "cg/cg.h"

#define CB_STAGES 4u
#define CB_STAGE_BYTES 4096u
#define CB_SLOTS 2u
#define CB_SLOT_WORDS 256u /* 1 KiB a slot: a 1024-thread block's 4 bytes a thread */

/* Producer warp 0 of every CTA loads its slice of each stage and multicasts
 * it; warps 1.. consume every word and release the stage to every CTA of the
 * mask, one arrival a warp. Returns the consumer's sum. */
static __device__ __forceinline__ uint32_t cb_sliced(cg_pipeline_t *p, const uint32_t *src, uint32_t uses,
                                                     uint16_t mask)
{
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    uint32_t acc = 0;
    if (warp == 0) {
        if (cg_elect_sync(0xffffffffu)) {
            for (uint32_t u = 0; u < uses; ++u) {
                (void)cg_pipeline_cluster_producer_acquire(p);
                cg_pipeline_cluster_producer_copy_slice(p, src + u * (CB_STAGE_BYTES / 4u), mask);
                cg_pipeline_cluster_producer_commit_local(p, CB_STAGE_BYTES);
            }
            cg_pipeline_cluster_producer_tail(p);
        }
        __syncwarp();
    } else {
        for (uint32_t u = 0; u < uses; ++u) {
            const uint32_t *st = (const uint32_t *)cg_pipeline_cluster_consumer_wait(p);
            for (uint32_t i = (warp - 1u) * 32u + lane; i < CB_STAGE_BYTES / 4u; i += blockDim.x - 32u)
                acc += st[i] * (i | 1u);
            cg_pipeline_cluster_consumer_release_all_warp(p, mask);
        }
    }
    return acc;
}

/* One round of the DSMEM ring: push my 1 KiB to the peer's slot s (after the
 * peer released it), wait for the peer's push into my slot s, read it,
 * release it to the peer. full[s] expects CB_SLOT_WORDS * 4 bytes a round;
 * empty[s] one arrival a warp of the peer. */
static __device__ __forceinline__ uint32_t cb_ring_round(const cg_thread_block_t *b, uint32_t *send, uint32_t *recv,
                                                         cg_mbarrier_t *full, cg_mbarrier_t *empty, uint32_t u,
                                                         uint32_t peer, uint32_t v)
{
    const uint32_t s = u % CB_SLOTS, ph = (u / CB_SLOTS) & 1u;
    if (u >= CB_SLOTS)
        cg_mbarrier_wait_parity_cluster(&empty[s], ph ^ 1u); /* the peer released slot s */
    if (threadIdx.x < CB_SLOT_WORDS)
        send[s * CB_SLOT_WORDS + threadIdx.x] = v;
    cg_thread_block_sync(b);
    if (threadIdx.x == 0)
        (void)cg_mbarrier_arrive_tx(&full[s], CB_SLOT_WORDS * 4u);
    if (threadIdx.x < 32u) {
        cg_tile_t w = cg_tiled_partition(b, 32);
        cg_dsmem_push(&w, recv + s * CB_SLOT_WORDS, send + s * CB_SLOT_WORDS, CB_SLOT_WORDS * 4u, &full[s], peer);
    }
    cg_mbarrier_wait_parity_cluster(&full[s], ph);
    const uint32_t got = recv[s * CB_SLOT_WORDS + threadIdx.x % CB_SLOT_WORDS];
    __syncwarp();
    if (threadIdx.x % 32u == 0)
        cg_dsmem_release(&empty[s], peer);
    return got;
}

/* The ring's barriers, set up by thread 0, published to the cluster. */
static __device__ __forceinline__ void cb_ring_init(const cg_cluster_t *cl, cg_mbarrier_t *full, cg_mbarrier_t *empty)
{
    if (threadIdx.x == 0) {
        for (uint32_t s = 0; s < CB_SLOTS; ++s) {
            cg_mbarrier_init(&full[s], 1u);
            cg_mbarrier_init(&empty[s], blockDim.x / 32u);
        }
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(cl);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cb_sliced_grid(const uint32_t *src, uint32_t *out, uint32_t uses)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    const cg_cluster_t cl = cg_this_cluster();
    cg_grid_t g = cg_this_grid();
    const uint32_t W = blockDim.x / 32u - 1u;
    cg_pipeline_t p = cg_cluster_pipeline_sliced(&cl, smem, CB_STAGES, CB_STAGE_BYTES, 2u * W);
    uint32_t acc = 0;
    for (uint32_t r = 0; r < 2u; ++r) {
        cg_token_t t = cg_grid_barrier_arrive(&g);
        acc += cb_sliced(&p, src + r * 7u, uses, 3u);
        cg_grid_barrier_wait(&g, t);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    cg_cluster_exit_sync(&cl);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1)
    cb_sliced_grid_live8(const uint32_t *src, uint32_t *out, uint32_t uses, uint32_t rounds)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    const cg_cluster_t cl = cg_this_cluster();
    cg_grid_t g = cg_this_grid();
    const uint32_t W = blockDim.x / 32u - 1u;
    cg_pipeline_t p = cg_cluster_pipeline_sliced(&cl, smem, CB_STAGES, CB_STAGE_BYTES, 2u * W);
    uint32_t a[8];
    for (int i = 0; i < 8; ++i)
        a[i] = src[threadIdx.x * 8u + (uint32_t)i];
    for (uint32_t r = 0; r < rounds; ++r) {
        cg_token_t t = cg_grid_barrier_arrive(&g);
        const uint32_t s = cb_sliced(&p, src + r * 7u, uses, 3u);
        for (int i = 0; i < 8; ++i)
            a[i] = a[i] * (s | 1u) + a[(i + 1) & 7];
        cg_grid_barrier_wait(&g, t);
    }
    uint32_t acc = 0;
    for (int i = 0; i < 8; ++i)
        acc ^= a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    cg_cluster_exit_sync(&cl);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1)
    cb_pipeline_dsmem(const uint32_t *src, uint32_t *out, uint32_t uses)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    __shared__ __align__(16) uint32_t send[CB_SLOTS * CB_SLOT_WORDS], recv[CB_SLOTS * CB_SLOT_WORDS];
    __shared__ cg_mbarrier_t full[CB_SLOTS], empty[CB_SLOTS];
    const cg_cluster_t cl = cg_this_cluster();
    const cg_thread_block_t b = cg_this_thread_block();
    const uint32_t W = blockDim.x / 32u - 1u;
    const uint32_t peer = cg_cluster_block_rank(&cl) ^ 1u;
    cb_ring_init(&cl, full, empty);
    cg_pipeline_t p = cg_cluster_pipeline_sliced(&cl, smem, CB_STAGES, CB_STAGE_BYTES, 2u * W);
    uint32_t acc = cb_sliced(&p, src, uses, 3u);
    for (uint32_t u = 0; u < uses; ++u)
        acc += cb_ring_round(&b, send, recv, full, empty, u, peer, acc + u);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    cg_cluster_exit_sync(&cl);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cb_dsmem_ring(const uint32_t *in, uint32_t *out, uint32_t uses)
{
    __shared__ __align__(16) uint32_t send[CB_SLOTS * CB_SLOT_WORDS], recv[CB_SLOTS * CB_SLOT_WORDS];
    __shared__ cg_mbarrier_t full[CB_SLOTS], empty[CB_SLOTS];
    const cg_cluster_t cl = cg_this_cluster();
    const cg_thread_block_t b = cg_this_thread_block();
    const uint32_t peer = cg_cluster_block_rank(&cl) ^ 1u;
    cb_ring_init(&cl, full, empty);
    uint32_t acc = 0;
    for (uint32_t u = 0; u < uses; ++u)
        acc = acc * 31u + cb_ring_round(&b, send, recv, full, empty, u, peer, in[u * blockDim.x + threadIdx.x]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    cg_cluster_exit_sync(&cl);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cb_everything(const uint32_t *src, uint32_t *out, uint32_t uses)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    __shared__ __align__(16) uint32_t send[CB_SLOTS * CB_SLOT_WORDS], recv[CB_SLOTS * CB_SLOT_WORDS];
    __shared__ cg_mbarrier_t full[CB_SLOTS], empty[CB_SLOTS];
    __shared__ cg_barrier_t bar;
    const cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t b = cg_this_thread_block();
    cg_grid_t g = cg_this_grid();
    const uint32_t W = blockDim.x / 32u - 1u;
    const uint32_t peer = cg_cluster_block_rank(&cl) ^ 1u;
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    cb_ring_init(&cl, full, empty);
    cg_pipeline_t p = cg_cluster_pipeline_sliced(&cl, smem, CB_STAGES, CB_STAGE_BYTES, 2u * W);
    cg_token_t gt = cg_grid_barrier_arrive(&g);
    uint32_t acc = cb_sliced(&p, src, uses, 3u);
    cg_grid_barrier_wait(&g, gt);
    for (uint32_t u = 0; u < uses; ++u) {
        acc += cb_ring_round(&b, send, recv, full, empty, u, peer, acc + u);
        cg_token_t bt = cg_thread_block_barrier_arrive(&b);
        acc = acc * 3u + src[u];
        cg_thread_block_barrier_wait(&b, bt);
        cg_barrier_arrive_and_wait(&bar);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    cg_cluster_exit_sync(&cl);
}
