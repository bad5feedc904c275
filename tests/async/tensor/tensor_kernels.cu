/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/tensor/tensor_kernels.cu — kernels and extern "C" launchers for the
 * tensor-copy GPU tests (tensor_test.c). Launchers return a cudaError_t as
 * int (or CGT_CLUSTER_DOES_NOT_FIT). Every wait is bounded: a phase that never
 * completes writes status 1 for its block instead of hanging the test.
 */
#include <cuda_runtime.h>

#include "async/tensor.h"
#include "barrier/mbarrier.h"
#include "base/fence.h"
#include "cg/groups.h"
#include "tests/dsmem/cluster_launch.cuh"
#include "tests/async/tensor/tensor_kernels.h"

/* The dynamic shared memory, rounded up to TNST_TILE_ALIGN (the period of the
 * 128-byte swizzle); launchers ask for TNST_TILE_ALIGN bytes more. */
__device__ __forceinline__ unsigned char *tnst_tile(unsigned char *raw)
{
    const uint32_t s = (uint32_t)__cvta_generic_to_shared(raw);
    return raw + ((TNST_TILE_ALIGN - (s % TNST_TILE_ALIGN)) % TNST_TILE_ALIGN);
}

/* Waits for phase 0 of bar for about a second (CGT_SPIN_CYCLES): with the
 * CTA-scope try-wait, or with `cluster` the cluster-scope one (what a
 * multicast into this CTA needs); false when the phase never came. */
__device__ __forceinline__ bool tnst_wait0(cg_mbarrier_t *bar, bool cluster = false)
{
    const long long t0 = clock64();
    while (!(cluster ? cg_mbarrier_try_wait_parity_cluster(bar, 0) : cg_mbarrier_try_wait_parity(bar, 0)))
        if (clock64() - t0 > CGT_SPIN_CYCLES)
            return false;
    return true;
}

// --- loads of every rank: the raw shared tile, swizzle and fill included ----------------

/* Block b loads the box at coords[b * 5 ..] (rank-generic call) into a
 * poisoned tile, after prefetching the map and the box, then dumps the tile's
 * box_bytes raw bytes to out[b]. With `gmap` the map is read from global
 * memory instead (after the tensormap acquire fence). with_rank_call: 1 uses
 * cg_tensor_load_<rank>d directly, 0 the coordinate-array form. */
extern "C" __global__ void tnst_load_kernel(const __grid_constant__ cg_tensor_map_t map, const cg_tensor_map_t *gmap,
                                            uint32_t rank, const int32_t *coords, uint32_t box_bytes,
                                            int with_rank_call, unsigned char *out, uint32_t *status)
{
    extern __shared__ unsigned char raw[];
    __shared__ cg_mbarrier_t bar;
    unsigned char *tile = tnst_tile(raw);
    const int32_t *c = coords + (size_t)blockIdx.x * 5u;
    for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
        tile[i] = 0xA5;
    cg_fence_proxy_async_smem(); /* the poison before the engine's writes */
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_fence_proxy_async_smem(); /* the init before the engine's complete_tx (as examples/tma_parity.cu) */
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const cg_tensor_map_t *m = &map;
        if (gmap != NULL) {
            cg_tensor_map_fence_acquire(gmap);
            m = gmap;
        }
        cg_tensor_map_prefetch(m);
        cg_tensor_prefetch(m, rank, c);
        (void)cg_mbarrier_arrive_tx(&bar, box_bytes);
        if (with_rank_call) {
            switch (rank) {
            case 1: cg_tensor_load_1d(tile, m, c[0], &bar); break;
            case 2: cg_tensor_load_2d(tile, m, c[0], c[1], &bar); break;
            case 3: cg_tensor_load_3d(tile, m, c[0], c[1], c[2], &bar); break;
            case 4: cg_tensor_load_4d(tile, m, c[0], c[1], c[2], c[3], &bar); break;
            default: cg_tensor_load_5d(tile, m, c[0], c[1], c[2], c[3], c[4], &bar); break;
            }
        } else {
            cg_tensor_load(tile, m, rank, c, &bar);
        }
    }
    const bool ok = tnst_wait0(&bar);
    for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
        out[(size_t)blockIdx.x * box_bytes + i] = tile[i];
    if (threadIdx.x == 0)
        status[blockIdx.x] = ok ? 0u : 1u;
}

extern "C" int tnst_load(const cg_tensor_map_t *map, const cg_tensor_map_t *gmap, uint32_t rank,
                         const int32_t *coords, int nboxes, uint32_t box_bytes, int with_rank_call, unsigned char *out,
                         uint32_t *status)
{
    const size_t smem = (size_t)box_bytes + TNST_TILE_ALIGN;
    cudaError_t err = cudaFuncSetAttribute((const void *)tnst_load_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err != cudaSuccess)
        return (int)err;
    tnst_load_kernel<<<nboxes, 128, smem>>>(*map, gmap, rank, coords, box_bytes, with_rank_call, out, status);
    return (int)cudaGetLastError();
}

// --- load, change every byte, store back ------------------------------------------------

/* Block b loads the box at coords[b] through map_in, XORs every byte of the
 * tile with 0x5A (a change that does not depend on where swizzle put a byte),
 * and stores the tile through map_out at the same coordinates (rank-generic
 * store when with_rank_call is 0). */
extern "C" __global__ void tnst_store_kernel(const __grid_constant__ cg_tensor_map_t map_in,
                                             const __grid_constant__ cg_tensor_map_t map_out, uint32_t rank,
                                             const int32_t *coords, uint32_t box_bytes, int with_rank_call,
                                             uint32_t *status)
{
    extern __shared__ unsigned char raw[];
    __shared__ cg_mbarrier_t bar;
    unsigned char *tile = tnst_tile(raw);
    const int32_t *c = coords + (size_t)blockIdx.x * 5u;
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_fence_proxy_async_smem();
        (void)cg_mbarrier_arrive_tx(&bar, box_bytes);
        cg_tensor_load(tile, &map_in, rank, c, &bar);
    }
    __syncthreads();
    const bool ok = tnst_wait0(&bar);
    for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
        tile[i] ^= 0x5A;
    cg_fence_proxy_async_smem(); /* each writer: generic writes -> the engine's reads */
    __syncthreads();
    if (threadIdx.x == 0) {
        if (with_rank_call) {
            switch (rank) {
            case 1: cg_tensor_store_1d(&map_out, c[0], tile); break;
            case 2: cg_tensor_store_2d(&map_out, c[0], c[1], tile); break;
            case 3: cg_tensor_store_3d(&map_out, c[0], c[1], c[2], tile); break;
            case 4: cg_tensor_store_4d(&map_out, c[0], c[1], c[2], c[3], tile); break;
            default: cg_tensor_store_5d(&map_out, c[0], c[1], c[2], c[3], c[4], tile); break;
            }
        } else {
            cg_tensor_store(&map_out, rank, c, tile);
        }
        cg_bulk_commit_group();
        cg_bulk_wait_group(0); /* written before the block exits */
        status[blockIdx.x] = ok ? 0u : 1u;
    }
}

extern "C" int tnst_store(const cg_tensor_map_t *map_in, const cg_tensor_map_t *map_out, uint32_t rank,
                          const int32_t *coords, int nboxes, uint32_t box_bytes, int with_rank_call, uint32_t *status)
{
    const size_t smem = (size_t)box_bytes + TNST_TILE_ALIGN;
    cudaError_t err = cudaFuncSetAttribute((const void *)tnst_store_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err != cudaSuccess)
        return (int)err;
    tnst_store_kernel<<<nboxes, 128, smem>>>(*map_in, *map_out, rank, coords, box_bytes, with_rank_call, status);
    return (int)cudaGetLastError();
}

// --- multicast: each CTA of a cluster fetches one box for all ----------------------------

/* Cluster of n CTAs; CTA r multicasts the 2-D box at (x0, y0 + r * box_h)
 * (coords per cluster: coords[cluster * 2 ..]) into slot r of every CTA of
 * the cluster (mask: all n), each CTA expecting n boxes on its own barrier;
 * rank-generic form when with_rank_call is 0. Every CTA then dumps its n
 * slots to out[block]. */
extern "C" __global__ void tnst_multicast_kernel(const __grid_constant__ cg_tensor_map_t map, const int32_t *coords,
                                                 uint32_t box_bytes, uint32_t box_h, int with_rank_call,
                                                 unsigned char *out, uint32_t *status)
{
    extern __shared__ unsigned char raw[];
    __shared__ cg_mbarrier_t bar;
    unsigned char *tile = tnst_tile(raw);
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t n = cg_cluster_num_blocks(&cl), r = cg_cluster_block_rank(&cl);
    const uint32_t total = n * box_bytes, cluster = blockIdx.x / n;
    for (uint32_t i = threadIdx.x; i < total; i += blockDim.x)
        tile[i] = 0xA5;
    cg_fence_proxy_async_smem();
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl); /* every CTA's barrier and tile ready before any multicast */
    if (threadIdx.x == 0) {
        (void)cg_mbarrier_arrive_tx_cluster(&bar, total);
        int32_t c[2] = {coords[cluster * 2u], coords[cluster * 2u + 1u] + (int32_t)(r * box_h)};
        const uint16_t mask = (uint16_t)((1u << n) - 1u);
        if (with_rank_call)
            cg_tensor_load_multicast_2d(tile + r * box_bytes, &map, c[0], c[1], &bar, mask);
        else
            cg_tensor_load_multicast(tile + r * box_bytes, &map, 2, c, &bar, mask);
    }
    const bool ok = tnst_wait0(&bar, true);
    for (uint32_t i = threadIdx.x; i < total; i += blockDim.x)
        out[(size_t)blockIdx.x * total + i] = tile[i];
    if (threadIdx.x == 0)
        status[blockIdx.x] = ok ? 0u : 1u;
    cg_cluster_sync(&cl); /* no CTA exits while a multicast may still write into it */
}

extern "C" int tnst_multicast(int csize, int nclusters, const cg_tensor_map_t *map, const int32_t *coords,
                              uint32_t box_bytes, uint32_t box_h, int with_rank_call, unsigned char *out,
                              uint32_t *status)
{
    cg_tensor_map_t m = *map;
    void *args[] = {(void *)&m,         (void *)&coords,         (void *)&box_bytes, (void *)&box_h,
                    (void *)&with_rank_call, (void *)&out, (void *)&status};
    return cgt_launch_cluster((const void *)tnst_multicast_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              128u, (size_t)csize * box_bytes + TNST_TILE_ALIGN, args);
}
