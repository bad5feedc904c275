/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/async_kernels.cu — kernels and extern "C" launchers for the
 * async-copy tests (async_test.c). Launchers return a cudaError_t as int, or
 * CGT_CLUSTER_DOES_NOT_FIT. Waits that could hang are bounded and report a
 * status instead.
 */
#include <cuda_runtime.h>

#include "async/copy.h"
#include "barrier/barrier.h"
#include "barrier/mbarrier.h"
#include "cg/groups.h"
#include "tests/dsmem/cluster_launch.cuh"

// --- cg_memcpy_async with a barrier: batches, every path -----------------------------

/* Per batch b: the group copies `bytes` from src + src_off + b * stride into
 * shared memory at dst_off, completing on a block barrier; every thread
 * arrive_and_wait()s, then the block dumps the whole window [0, win) of shared
 * memory (poisoned with 0xA5 before each batch) to out[b]. group 0: the
 * thread block copies; group 1: each 32-thread tile copies its own quarter
 * of the batch (several copies bound to one phase). */
extern "C" __global__ void asyt_memcpy_kernel(const unsigned char *src, unsigned char *out, uint32_t src_off,
                                              uint32_t dst_off, uint32_t bytes, uint32_t stride, uint32_t win,
                                              int batches, int group)
{
    extern __shared__ __align__(128) unsigned char sm[];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t blk = cg_this_thread_block();
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    for (int b = 0; b < batches; ++b) {
        for (uint32_t i = threadIdx.x; i < win; i += blockDim.x)
            sm[i] = 0xA5;
        cg_sync(&blk);
        const unsigned char *s = src + src_off + (size_t)b * stride;
        if (group == 0) {
            cg_memcpy_async(&blk, sm + dst_off, s, bytes, &bar);
        } else {
            cg_tile_t tile = cg_tiled_partition(&blk, 32);
            const uint32_t q = bytes / 4u, w = cg_tile_meta_group_rank(&tile);
            if (w < 4u) /* the first four warps copy a quarter each (bytes % 4 == 0) */
                cg_memcpy_async(&tile, sm + dst_off + w * q, s + w * q, q, &bar);
        }
        cg_barrier_arrive_and_wait(&bar);
        for (uint32_t i = threadIdx.x; i < win; i += blockDim.x)
            out[(size_t)b * win + i] = sm[i];
        cg_sync(&blk); /* everyone has read sm before the next batch overwrites it */
    }
}

extern "C" int asyt_memcpy(const unsigned char *src, unsigned char *out, uint32_t src_off, uint32_t dst_off,
                           uint32_t bytes, uint32_t stride, uint32_t win, int batches, int group, int threads)
{
    cudaError_t err = cudaFuncSetAttribute((const void *)asyt_memcpy_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)win);
    if (err != cudaSuccess)
        return (int)err;
    asyt_memcpy_kernel<<<1, threads, win>>>(src, out, src_off, dst_off, bytes, stride, win, batches, group);
    return (int)cudaGetLastError();
}

// --- cg_memcpy_async_tx: the phase waits for the bytes ----------------------------------

/* One thread copies `bytes` with cg_memcpy_async_tx in `pieces` pieces; it
 * arrives with the total bytes, after which the phase must still be open
 * until the copies land (checked: test_wait right after the arrive, on a copy
 * large enough that it cannot have finished; reported, not asserted, since a
 * fast engine could legally finish). Everyone waits and dumps the data. */
extern "C" __global__ void asyt_tx_kernel(const uint4 *src, uint4 *out, uint32_t bytes, int pieces, uint32_t *early)
{
    extern __shared__ __align__(128) uint4 buf[];
    __shared__ cg_mbarrier_t bar;
    const uint32_t n = bytes / 16u;
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        buf[i] = make_uint4(0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u);
    cg_fence_proxy_async_smem(); /* generic poison before the engine's writes */
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_fence_proxy_async_smem(); /* the init, before the engine completes bytes on it */
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const uint32_t piece = (n / (uint32_t)pieces) * 16u;
        uint32_t off = 0;
        for (int p = 0; p < pieces; ++p) {
            const uint32_t len = p == pieces - 1 ? bytes - off : piece;
            cg_memcpy_async_tx((char *)buf + off, (const char *)src + off, len, &bar);
            off += len;
        }
        (void)cg_mbarrier_arrive_tx(&bar, bytes);
        *early = cg_mbarrier_test_wait_parity(&bar, 0) ? 1u : 0u;
    }
    cg_mbarrier_wait_parity(&bar, 0);
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = buf[i];
}

extern "C" int asyt_tx(const void *src, void *out, uint32_t bytes, int pieces, uint32_t *early)
{
    cudaError_t err =
        cudaFuncSetAttribute((const void *)asyt_tx_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (err != cudaSuccess)
        return (int)err;
    asyt_tx_kernel<<<1, 256, bytes>>>((const uint4 *)src, (uint4 *)out, bytes, pieces, early);
    return (int)cudaGetLastError();
}

// --- multicast into every CTA of the cluster -------------------------------------------

/* CTA r multicasts slice r (S bytes of its cluster's input) to every CTA of
 * the cluster; each CTA expects n * S bytes on its own barrier and then holds
 * the cluster's whole input. status: 0 fine, 1 the phase never completed. */
extern "C" __global__ void asyt_multicast_kernel(const unsigned char *in, unsigned char *out, uint32_t S,
                                                 uint32_t *status)
{
    extern __shared__ __align__(128) unsigned char sm[];
    __shared__ cg_mbarrier_t bar;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t n = cg_cluster_num_blocks(&cl), r = cg_cluster_block_rank(&cl);
    const uint32_t total = n * S, cluster_first = blockIdx.x - r;
    for (uint32_t i = threadIdx.x; i < total; i += blockDim.x)
        sm[i] = 0xA5;
    cg_fence_proxy_async_smem();
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl); /* every CTA's barrier and buffer ready */
    if (threadIdx.x == 0) {
        (void)cg_mbarrier_arrive_tx_cluster(&bar, total);
        cg_memcpy_async_multicast_tx(sm + r * S, in + (size_t)cluster_first * S + (size_t)r * S, S, &bar,
                                     (uint16_t)((1u << n) - 1u));
    }
    long long t0 = clock64();
    uint32_t st = 0;
    while (!cg_mbarrier_try_wait_parity_cluster(&bar, 0)) {
        if (clock64() - t0 > CGT_SPIN_CYCLES) {
            st = 1;
            break;
        }
    }
    for (uint32_t i = threadIdx.x; i < total; i += blockDim.x)
        out[(size_t)blockIdx.x * total + i] = sm[i];
    if (threadIdx.x == 0)
        status[blockIdx.x] = st;
    cg_cluster_sync(&cl); /* no CTA exits while multicasts may still write into it */
}

extern "C" int asyt_multicast(int csize, int nclusters, const void *in, void *out, uint32_t S, uint32_t *status)
{
    void *args[] = {(void *)&in, (void *)&out, (void *)&S, (void *)&status};
    return cgt_launch_cluster((const void *)asyt_multicast_kernel, (unsigned)(csize * nclusters), (unsigned)csize,
                              128u, (size_t)csize * S, args);
}

// --- bulk store round trip ---------------------------------------------------------------

/* Load `bytes` with the engine, transform in place with ordinary code
 * (x * 3 + 1 per word), store with cg_bulk_store to out1; after
 * wait_group_read(0) overwrite the buffer (x ^ 0x5A5A5A5A) and store again to
 * out2; wait_group(0) before exit. */
extern "C" __global__ void asyt_store_kernel(const uint32_t *in, uint32_t *out1, uint32_t *out2, uint32_t bytes)
{
    extern __shared__ __align__(128) uint32_t w[];
    __shared__ cg_mbarrier_t bar;
    const uint32_t n = bytes / 4u;
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_memcpy_async_tx(w, in, bytes, &bar);
        (void)cg_mbarrier_arrive_tx(&bar, bytes);
    }
    __syncthreads();
    cg_mbarrier_wait_parity(&bar, 0);
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        w[i] = w[i] * 3u + 1u;
    cg_fence_proxy_async_smem(); /* generic writes -> the engine's reads */
    __syncthreads();
    if (threadIdx.x == 0) {
        cg_bulk_store(out1, w, bytes);
        cg_bulk_wait_group_read(0); /* the engine has read w: it may change */
    }
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        w[i] ^= 0x5A5A5A5Au;
    cg_fence_proxy_async_smem();
    __syncthreads();
    if (threadIdx.x == 0) {
        cg_bulk_store(out2, w, bytes);
        cg_bulk_wait_group(0); /* both stores complete before the block exits */
    }
}

extern "C" int asyt_store(const uint32_t *in, uint32_t *out1, uint32_t *out2, uint32_t bytes)
{
    cudaError_t err = cudaFuncSetAttribute((const void *)asyt_store_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (err != cudaSuccess)
        return (int)err;
    asyt_store_kernel<<<1, 256, bytes>>>(in, out1, out2, bytes);
    return (int)cudaGetLastError();
}

// --- throughput: bulk path vs int4 loads (logged for TARGETS.md) -------------------------

/* Every block streams `per_block` bytes of global memory through a 32 KiB
 * shared buffer. mode 0: int4 loads and shared stores by every thread, block
 * sync; mode 1: cg_memcpy_async (bulk path) + barrier arrive_and_wait. Each
 * thread sums word 4 * tid of every tile that landed into sink; the source
 * is asyt_fill_words's (word i = asyt_word(i)), so the host recomputes every
 * thread's sum. */
extern "C" __global__ void asyt_bw_kernel(const uint4 *src, size_t per_block, int mode, uint32_t *sink)
{
    extern __shared__ __align__(128) uint4 tile[];
    __shared__ cg_barrier_t bar;
    const uint32_t T = 32768u;
    cg_thread_block_t blk = cg_this_thread_block();
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    cg_sync(&blk);
    const uint4 *s = src + (size_t)blockIdx.x * (per_block / 16u);
    uint32_t acc = 0;
    for (size_t off = 0; off < per_block; off += T) {
        if (mode == 0) {
#pragma unroll 4
            for (uint32_t i = threadIdx.x; i < T / 16u; i += blockDim.x)
                tile[i] = s[off / 16u + i];
            cg_sync(&blk);
        } else {
            cg_memcpy_async(&blk, tile, s + off / 16u, T, &bar);
            cg_barrier_arrive_and_wait(&bar);
        }
        acc += tile[threadIdx.x].x;
        cg_sync(&blk);
    }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__host__ __device__ static inline uint32_t asyt_word(uint64_t i)
{
    uint32_t x = (uint32_t)i * 0x9E3779B1u ^ (uint32_t)(i >> 32);
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x;
}

extern "C" uint32_t asyt_host_word(uint64_t i) { return asyt_word(i); }

__global__ void asyt_fill_words_kernel(uint32_t *dst, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = asyt_word(i);
}

extern "C" int asyt_fill_words(void *dst, size_t n)
{
    asyt_fill_words_kernel<<<1024, 256>>>((uint32_t *)dst, n);
    return (int)cudaGetLastError();
}

extern "C" int asyt_bw(const void *src, size_t per_block, int blocks, int mode, uint32_t *sink, float *ms)
{
    cudaError_t err =
        cudaFuncSetAttribute((const void *)asyt_bw_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 32768);
    if (err != cudaSuccess)
        return (int)err;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    asyt_bw_kernel<<<blocks, 256, 32768>>>((const uint4 *)src, per_block, mode, sink); /* warm-up */
    cudaEventRecord(a, 0);
    asyt_bw_kernel<<<blocks, 256, 32768>>>((const uint4 *)src, per_block, mode, sink);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return (int)cudaGetLastError();
}
