/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/wide_tile/wide_kernels.cu — the sync stress and barrier-id kernels,
 * and the oracle launcher (the oracle kernels are in oracle_small.cu and
 * oracle_large.cu). Layouts: wide_kernels.h.
 */
#include "barrier/barrier.h"
#include "cg/groups.h"
#include "tests/cg/wide_tile/wide_kernels.h"

extern "C" cudaError_t cgw_oracle_small_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                         const uint64_t *val, const uint32_t *arg, uint64_t *out);
extern "C" cudaError_t cgw_oracle_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                         const uint64_t *val, const uint32_t *arg, uint64_t *out);

extern "C" cudaError_t cgw_oracle(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                  const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    if (n <= 128)
        return cgw_oracle_small_(n, type, blocks, bx, by, bz, val, arg, out);
    return cgw_oracle_large_(n, type, blocks, bx, by, bz, val, arg, out);
}

/* ---- sync stress ----------------------------------------------------------- */

/* A 64-bit mix (splitmix64's finalizer): the per-warp delays. */
__device__ __forceinline__ uint64_t cgw_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* What block rank r writes in iteration it: unique per (it, r) below 2^26
 * iterations x ranks, tagged with the seed. */
__device__ __forceinline__ uint32_t cgw_value(uint32_t it, uint32_t r, uint64_t seed)
{
    return ((uint32_t)seed << 26) ^ (it * 1024u + r);
}

/* One write / sync / cross-warp read / sync round on tile t of n threads
 * through buffer buf; records a bad read. `second` picks the second sync's
 * form (typed sync, or the generic split arrive + wait). */
__device__ __forceinline__ void cgw_round(cg_wide_tile_t *t, volatile uint32_t *buf, uint32_t it, uint64_t seed,
                                          uint32_t *err, uint32_t *first)
{
    uint32_t rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    uint32_t n = cg_wide_tile_num_threads(t);
    uint32_t tr = cg_wide_tile_thread_rank(t);
    uint32_t nw = n / 32u, w = tr / 32u, lane = tr & 31u;
    uint32_t warp_in_block = rank / 32u;
    /* A random delay per warp and iteration, before the write: a sync that
     * let a reader through early would find the previous iteration's value. */
    uint64_t h =
        cgw_mix(seed ^ ((uint64_t)blockIdx.x << 40) ^ ((uint64_t)warp_in_block << 32) ^ it ^ ((uint64_t)n << 48));
    __nanosleep((unsigned)(h % 2048u));
    buf[rank] = cgw_value(it, rank, seed);
    cg_wide_tile_sync(t);
    uint32_t pw = (w + 1u + it % (nw - 1u)) % nw; /* another warp of the tile */
    uint32_t partner = (rank - tr) + pw * 32u + ((lane + it) & 31u);
    uint32_t got = buf[partner];
    uint32_t exp = cgw_value(it, partner, seed);
    if (got != exp) {
        if (*err == 0u) {
            first[0] = it;
            first[1] = partner;
            first[2] = exp;
            first[3] = got;
        }
        (*err)++;
    }
    if (it & 1u) {
        cg_token_t tok = cg_barrier_arrive(t);
        cg_barrier_wait(t, tok);
    } else {
        cg_sync(t);
    }
}

__global__ void __launch_bounds__(1024)
    cgw_sync_stress_kernel(unsigned n, unsigned iters, int mixed, uint64_t seed, uint32_t *err, uint32_t *first,
                           uint32_t *done)
{
    __shared__ uint32_t buf[1024];
    __shared__ uint32_t buf2[1024];
    size_t nt = (size_t)blockDim.x * blockDim.y * blockDim.z;
    uint32_t rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    size_t gid = (size_t)blockIdx.x * nt + rank;
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, n);
    uint32_t e = 0, f[4] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    uint32_t my_iters;
    if (mixed) {
        /* Both sizes every iteration: the count must be uniform over the
         * larger tile, which runs at its own rate. */
        cg_wide_tile_t t2 = cg_wide_tiled_partition(&b, 2u * n);
        my_iters = iters * (cg_wide_tile_meta_group_rank(&t2) + 1u);
        for (uint32_t it = 0; it < my_iters; it++) {
            cgw_round(&t, buf, it, seed, &e, f);
            cgw_round(&t2, buf2, it, seed, &e, f);
        }
    } else {
        my_iters = iters * (cg_wide_tile_meta_group_rank(&t) + 1u);
        for (uint32_t it = 0; it < my_iters; it++)
            cgw_round(&t, buf, it, seed, &e, f);
    }
    err[gid] = e;
    for (int i = 0; i < 4; i++)
        first[gid * 4 + i] = f[i];
    done[gid] = my_iters;
}

extern "C" cudaError_t cgw_sync_stress(unsigned n, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                       unsigned iters, int mixed, uint64_t seed, uint32_t *err, uint32_t *first,
                                       uint32_t *done)
{
    cgw_sync_stress_kernel<<<blocks, dim3(bx, by, bz)>>>(n, iters, mixed, seed, err, first, done);
    return cudaGetLastError();
}

/* ---- barrier ids ----------------------------------------------------------- */

__global__ void __launch_bounds__(1024) cgw_barrier_ids_kernel(unsigned n, uint32_t *ids)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, n);
    ids[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = cg_wide_tile_barrier_id(&t);
}

extern "C" cudaError_t cgw_barrier_ids(unsigned n, unsigned blocks, unsigned threads, uint32_t *ids)
{
    cgw_barrier_ids_kernel<<<blocks, threads>>>(n, ids);
    return cudaGetLastError();
}

/* ---- cg_memcpy_async(&wide_tile, ...) --------------------------------------- */

/* Tile i copies `bytes` bytes at offset `off` of region i (CGW_REGION bytes)
 * from global to the block's shared buffer (poisoned with 0xA5 first),
 * completing on a block barrier; the block dumps the whole buffer. */
#define CGW_REGION CGW_MEMCPY_REGION

__global__ void __launch_bounds__(1024)
    cgw_memcpy_kernel(unsigned n, const unsigned char *src, unsigned char *out, uint32_t off, uint32_t bytes)
{
    extern __shared__ __align__(128) unsigned char sm[];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t blk = cg_this_thread_block();
    uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
    uint32_t rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    uint32_t win = nthreads / n * CGW_REGION;
    size_t base = (size_t)blockIdx.x * win;
    for (uint32_t i = rank; i < win; i += nthreads)
        sm[i] = 0xA5;
    if (rank == 0)
        cg_barrier_init(&bar, nthreads);
    cg_sync(&blk);
    cg_wide_tile_t t = cg_wide_tiled_partition(&blk, n);
    uint32_t r = cg_wide_tile_meta_group_rank(&t) * CGW_REGION + off;
    cg_memcpy_async(&t, sm + r, src + base + r, bytes, &bar);
    cg_barrier_arrive_and_wait(&bar);
    for (uint32_t i = rank; i < win; i += nthreads)
        out[base + i] = sm[i];
}

extern "C" cudaError_t cgw_memcpy(unsigned n, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                  const unsigned char *src, unsigned char *out, uint32_t off, uint32_t bytes)
{
    uint32_t win = bx * by * bz / n * CGW_REGION;
    cudaError_t err =
        cudaFuncSetAttribute((const void *)cgw_memcpy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)win);
    if (err != cudaSuccess)
        return err;
    cgw_memcpy_kernel<<<blocks, dim3(bx, by, bz), win>>>(n, src, out, off, bytes);
    return cudaGetLastError();
}
