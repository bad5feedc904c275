/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/debug_kernels.cu — misuse that would hang, built with CG_DEBUG=1
 * (and a short CG_DEBUG_WAIT_TIMEOUT_NS): each kernel must report and trap. */
#include <cooperative_groups.h>

#include "cg/groups.h"
#include "dsmem/dsmem.h"

/* Grid sync in a plain launch far larger than what can be co-resident: the
 * resident blocks wait for blocks that can never start. */
__global__ void k_grid_sync_not_cooperative(void)
{
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
}

/* A cooperative launch in which block 0 skips the barrier. */
__global__ void k_grid_sync_block_skips(void)
{
    cg_grid_t g = cg_this_grid();
    if (blockIdx.x == 0)
        return;
    cg_grid_sync(&g);
}

/* The same at full occupancy (the spread barrier), block 0 leaving after the
 * first sync (a block's first barrier is always the flat one). */
__global__ void k_grid_sync_block_leaves(void)
{
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
    if (blockIdx.x == 0)
        return;
    cg_grid_sync(&g);
}

/* A wait given the token of an earlier arrive. FLAT (one block per SM, the
 * flat barrier): a proper arrive and wait, then a second arrive whose wait is
 * given the first one's token. Otherwise (full occupancy: the spread barrier
 * checks the token against the block's phase count): a sync, two arrives,
 * then a wait with the first one's token. */
template <bool FLAT>
__global__ void k_grid_stale_token(void)
{
    cg_grid_t g = cg_this_grid();
    if constexpr (!FLAT)
        cg_grid_sync(&g);
    cg_token_t t1 = cg_grid_barrier_arrive(&g);
    if constexpr (FLAT)
        cg_grid_barrier_wait(&g, t1);
    cg_token_t t2 = cg_grid_barrier_arrive(&g);
    (void)t2;
    cg_grid_barrier_wait(&g, t1);
}

/* cgc's split grid barrier, then C++ CG's grid.sync() on the same
 * workspace word, then cgc's split barrier again (one block per SM): the flat
 * split arrive finds the word's phase moved under it (cg_grid_sync would not:
 * it reads the phase from its atom and mixes). */
__global__ void k_grid_mixed_with_cpp_cg(void)
{
    const cg_grid_t g = cg_this_grid();
    cg_token_t t = cg_grid_barrier_arrive(&g);
    cg_grid_barrier_wait(&g, t);
    cooperative_groups::this_grid().sync();
    t = cg_grid_barrier_arrive(&g);
    cg_grid_barrier_wait(&g, t);
}

/* Thread 5 arrives twice on the block barrier before waiting. */
__global__ void k_block_double_arrive(void)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_token_t t = cg_thread_block_barrier_arrive(&b);
    if (threadIdx.x == 5)
        t = cg_thread_block_barrier_arrive(&b);
    cg_thread_block_barrier_wait(&b, t);
}

/* Tile size that is not a power of two. */
__global__ void k_bad_tile(uint32_t n, uint32_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, n);
    out[threadIdx.x] = cg_tile_thread_rank(&t);
}

extern "C" cudaError_t cgt_debug_grid_sync_not_cooperative(unsigned blocks)
{
    k_grid_sync_not_cooperative<<<blocks, 1024>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t cgt_debug_grid_sync_block_skips(unsigned blocks)
{
    void *args[1] = {0};
    return cudaLaunchCooperativeKernel((const void *)k_grid_sync_block_skips, blocks, 128, args, 0, 0);
}

/* A cooperative launch of `kernel` at full occupancy with 64-thread blocks
 * (32 per SM on sm_90: the spread barrier). */
static cudaError_t launch_full(const void *kernel)
{
    int per_sm = 0, sms = 0;
    void *args[1] = {0};
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 64, 0);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    if (e != cudaSuccess)
        return e;
    return cudaLaunchCooperativeKernel(kernel, (unsigned)(per_sm * sms), 64, args, 0, 0);
}

extern "C" cudaError_t cgt_debug_grid_sync_block_leaves(void)
{
    return launch_full((const void *)k_grid_sync_block_leaves);
}

extern "C" cudaError_t cgt_debug_grid_stale_token(void) { return launch_full((const void *)k_grid_stale_token<false>); }

/* One 128-thread block per SM, cooperative. */
static cudaError_t launch_one_per_sm(const void *kernel)
{
    int sms = 0;
    void *args[1] = {0};
    cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    if (e != cudaSuccess)
        return e;
    return cudaLaunchCooperativeKernel(kernel, (unsigned)sms, 128, args, 0, 0);
}

extern "C" cudaError_t cgt_debug_grid_stale_token_flat(void)
{
    return launch_one_per_sm((const void *)k_grid_stale_token<true>);
}

extern "C" cudaError_t cgt_debug_grid_mixed_with_cpp_cg(void)
{
    return launch_one_per_sm((const void *)k_grid_mixed_with_cpp_cg);
}

extern "C" cudaError_t cgt_debug_bad_tile(uint32_t n, uint32_t *out)
{
    k_bad_tile<<<1, 32>>>(n, out);
    return cudaGetLastError();
}

extern "C" cudaError_t cgt_debug_block_double_arrive(void)
{
    k_block_double_arrive<<<1, 64>>>();
    return cudaGetLastError();
}

/* Issue 34.9: a rank outside the cluster given to cg_dsmem_release is
 * reported by that name (not by the mbarrier arrive underneath). Thread 0 of
 * rank 0 releases to rank 5 of a cluster of 2; the others stay out. */
__global__ void __cluster_dims__(2, 1, 1) k_dsmem_release_bad_rank(uint32_t rank)
{
    __shared__ cg_mbarrier_t empty;
    if (threadIdx.x == 0)
        cg_mbarrier_init(&empty, 1);
    __syncthreads();
    if (threadIdx.x == 0 && cg_hw_cluster_ctarank() == 0)
        cg_dsmem_release(&empty, rank);
}

extern "C" cudaError_t cgt_debug_dsmem_release_bad_rank(uint32_t rank)
{
    k_dsmem_release_bad_rank<<<2, 32>>>(rank);
    return cudaGetLastError();
}
