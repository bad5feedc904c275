/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/group_copy_kernels.cu — every byte of a group copy and a group
 * push for every group shape, partial tiles included (issue 10, defect 4).
 *
 * A block of B threads (any 3-D shape) is split into tiles of n; tile i owns
 * region i (REGION bytes) of the block's shared buffer and copies `bytes`
 * bytes at offset `off` of it. In a block whose size is not a multiple of
 * 32 the last warp's last tile is partial: it has fewer threads than n, and
 * the cut of the bytes among its threads must count only the threads that
 * exist (before the fix, the shares of the missing ranks were never copied).
 * group 0: tiles; group 1: the whole block copies region 0.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "async/copy.h"
#include "barrier/barrier.h"
#include "barrier/mbarrier.h"
#include "cg/groups.h"
#include "cluster/cluster.h"
#include "tests/dsmem/cluster_launch.cuh"

#define GCT_REGION 2048u

static __device__ uint32_t gct_rank(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

/* cg_memcpy_async(&group, ...) completing on a cg_barrier_t; then the block
 * dumps its whole shared buffer (poisoned with 0xA5 first). */
extern "C" __global__ void gct_memcpy_kernel(const unsigned char *src, unsigned char *out, uint32_t n, uint32_t off,
                                             uint32_t bytes, int group)
{
    extern __shared__ __align__(128) unsigned char sm[];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t blk = cg_this_thread_block();
    const uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z, rank = gct_rank();
    const uint32_t ntiles = (nthreads + n - 1u) / n, win = ntiles * GCT_REGION;
    const size_t base = (size_t)blockIdx.x * win;
    for (uint32_t i = rank; i < win; i += nthreads)
        sm[i] = 0xA5;
    if (rank == 0)
        cg_barrier_init(&bar, nthreads);
    cg_sync(&blk);
    if (group == 0) {
        cg_tile_t t = cg_tiled_partition(&blk, n);
        const uint32_t r = cg_tile_meta_group_rank(&t) * GCT_REGION + off;
        cg_memcpy_async(&t, sm + r, src + base + r, bytes, &bar);
    } else {
        cg_memcpy_async(&blk, sm + off, src + base + off, bytes, &bar);
    }
    cg_barrier_arrive_and_wait(&bar);
    for (uint32_t i = rank; i < win; i += nthreads)
        out[base + i] = sm[i];
}

extern "C" int gct_memcpy(const unsigned char *src, unsigned char *out, unsigned blocks, unsigned bx, unsigned by,
                          unsigned bz, uint32_t n, uint32_t off, uint32_t bytes, int group)
{
    const uint32_t nthreads = bx * by * bz, win = (nthreads + n - 1u) / n * GCT_REGION;
    cudaError_t err = cudaFuncSetAttribute((const void *)gct_memcpy_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)win);
    if (err != cudaSuccess)
        return (int)err;
    gct_memcpy_kernel<<<blocks, dim3(bx, by, bz), win>>>(src, out, n, off, bytes, group);
    return (int)cudaGetLastError();
}

/* cg_dsmem_push(&group, ...) in clusters of 2 (x-blocks of B threads): each
 * CTA fills its send buffer from src, each tile pushes its region into the
 * other CTA's receive buffer, completing on that CTA's mbarrier, which
 * expects every tile's bytes. The receiver waits (bounded: a missing byte
 * ends in status 1 instead of a hang) and dumps its receive buffer (poisoned
 * with 0xA5 first). */
extern "C" __global__ void gct_push_kernel(const unsigned char *src, unsigned char *out, uint32_t *status,
                                           uint32_t n, uint32_t off, uint32_t bytes, int group)
{
    extern __shared__ __align__(128) unsigned char sm[];
    __shared__ cg_mbarrier_t mb;
    cg_thread_block_t blk = cg_this_thread_block();
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z, rank = gct_rank();
    const uint32_t ntiles = group == 0 ? (nthreads + n - 1u) / n : 1u, win = ntiles * GCT_REGION;
    const size_t base = (size_t)blockIdx.x * win;
    unsigned char *send = sm, *recv = sm + win;
    for (uint32_t i = rank; i < win; i += nthreads) {
        send[i] = src[base + i];
        recv[i] = 0xA5;
    }
    if (rank == 0) {
        cg_mbarrier_init(&mb, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_fence_proxy_async_smem(); /* generic writes of recv before the pushes' async writes */
    cg_sync(&cl); /* buffers filled, barriers ready in both CTAs */
    if (rank == 0)
        (void)cg_mbarrier_arrive_tx_cluster(&mb, ntiles * bytes);
    const uint32_t peer = cg_cluster_block_rank(&cl) ^ 1u;
    if (group == 0) {
        cg_tile_t t = cg_tiled_partition(&blk, n);
        const uint32_t r = cg_tile_meta_group_rank(&t) * GCT_REGION + off;
        cg_dsmem_push(&t, recv + r, send + r, bytes, &mb, peer);
    } else {
        cg_dsmem_push(&blk, recv + off, send + off, bytes, &mb, peer);
    }
    const long long t0 = clock64();
    bool done = false;
    while (!(done = cg_mbarrier_test_wait_parity_cluster(&mb, 0u)) && clock64() - t0 < CGT_SPIN_CYCLES) {
    }
    if (rank == 0)
        status[blockIdx.x] = done ? 0u : 1u;
    for (uint32_t i = rank; i < win; i += nthreads)
        out[base + i] = recv[i];
    cg_sync(&cl); /* no CTA exits while its peer may still push into it */
}

extern "C" int gct_push(const unsigned char *src, unsigned char *out, uint32_t *status, unsigned blocks, unsigned bx,
                        unsigned by, unsigned bz, uint32_t n, uint32_t off, uint32_t bytes, int group)
{
    const uint32_t nthreads = bx * by * bz, ntiles = group == 0 ? (nthreads + n - 1u) / n : 1u;
    const size_t smem = 2u * (size_t)ntiles * GCT_REGION;
    cudaError_t err =
        cudaFuncSetAttribute((const void *)gct_push_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err != cudaSuccess)
        return (int)err;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks, 1, 1);
    cfg.blockDim = dim3(bx, by, bz);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    void *args[] = {(void *)&src, (void *)&out, (void *)&status, (void *)&n, (void *)&off, (void *)&bytes,
                    (void *)&group};
    return (int)cudaLaunchKernelExC(&cfg, (const void *)gct_push_kernel, args);
}
