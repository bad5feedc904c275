/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/staged_copy_kernels.cu — kernels of staged_copy_test.c: the
 * staged group copy (four-argument cg_memcpy_async, cg_memcpy_async_aligned)
 * is asynchronous (the call returns before the bytes land, the wait lands
 * them), and the alignment-stated form delivers what C++ CG's
 * memcpy_async(group, ..., cuda::aligned_size_t<N>) does, in the same kernel.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier> /* cuda::aligned_size_t */

#include "cg/groups.h"
#include "tests/async/staged_copy_kernels.h"

namespace cpp = cooperative_groups;

/* ---- overlap ---------------------------------------------------------------- */

/* Each thread: issue the form's copy of a cold source, read the destination
 * at once (volatile, racy on purpose: a synchronous copy has always written
 * it, an asynchronous one has almost never, DRAM being hundreds of cycles
 * away), wait, read it again; then the same bytes' worth copied with an
 * ordinary load and shared store, the synchronous reference, timed alike.
 * Round 0 warms the instruction cache on other addresses; round 1 is what
 * the host reads. */
extern "C" __global__ void sct_overlap_kernel(const uint32_t *src, sct_overlap_out_t *out, uint32_t form,
                                              uint32_t stride)
{
    __shared__ __align__(16) uint32_t dst[SCT_OVERLAP_THREADS * 4];
    __shared__ __align__(16) uint32_t ref[SCT_OVERLAP_THREADS];
    const uint32_t tid = threadIdx.x;
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t me = cg_this_thread();
    volatile uint32_t *vd = dst, *vr = ref;
    for (uint32_t round = 0; round < 2; ++round) {
        /* Forms 0-1 copy one 4-byte word per thread, 2-3 one 16-byte piece,
         * each from its own cold line; 4-5 the block's contiguous run. Each
         * round its own lines. */
        const size_t base = (size_t)round * 2u * SCT_OVERLAP_THREADS * stride;
        const uint32_t *a = src + base + (size_t)tid * stride;
        const uint32_t *c = src + base + (size_t)(SCT_OVERLAP_THREADS + tid) * stride;
        const uint32_t mine = form >= 2u ? tid * 4u : tid; /* dst word this thread reads back */
        for (uint32_t k = 0; k < 4u; ++k)
            vd[tid * 4u + k] = SCT_POISON;
        vr[tid] = SCT_POISON;
        cg_thread_block_sync(&b);
        const long long t0 = clock64();
        switch (form) {
        case 0: cg_memcpy_async(&me, &dst[tid], a, 4u); break;                   /* the defect's case */
        case 1: cg_memcpy_async_aligned(&me, &dst[tid], a, 4u, 4); break;
        case 2: cg_memcpy_async(&me, &dst[tid * 4u], a, 16u); break;
        case 3: cg_memcpy_async_aligned(&me, &dst[tid * 4u], a, 16u, 16); break;
        /* The block copies one contiguous run, 16 bytes a thread (piece r by rank r). */
        case 4: cg_memcpy_async(&b, dst, src + base, SCT_OVERLAP_THREADS * 16u); break;
        default: cg_memcpy_async_aligned(&b, dst, src + base, SCT_OVERLAP_THREADS * 16u, 16); break;
        }
        const long long t1 = clock64();
        const uint32_t early = vd[mine];
        cg_wait(&me);
        const long long t2 = clock64();
        const uint32_t late = vd[mine];
        const long long t3 = clock64();
        vr[tid] = *(const volatile uint32_t *)c; /* the store waits for the load */
        const long long t4 = clock64();
        if (round == 1u) {
            sct_overlap_out_t o;
            o.issue = (uint32_t)(t1 - t0);
            o.wait = (uint32_t)(t2 - t1);
            o.sync = (uint32_t)(t4 - t3);
            o.early = early;
            o.late = late;
            o.ref = vr[tid];
            out[tid] = o;
        }
        cg_thread_block_sync(&b);
    }
}

extern "C" int sct_overlap(const uint32_t *src, sct_overlap_out_t *out, uint32_t form, uint32_t stride)
{
    sct_overlap_kernel<<<1, SCT_OVERLAP_THREADS>>>(src, out, form, stride);
    return (int)cudaGetLastError();
}

/* ---- the alignment-stated form beside C++ CG's -------------------------------- */

/* The block copies `bytes` from src + soff to its shared window + doff with
 * cgc (alignment `align` stated, a literal per case so it folds as a user's
 * would) into one half and with C++ CG's memcpy_async(aligned_size_t<align>)
 * into the other, `stages` calls in flight, waited with wait_prior; both
 * halves are dumped whole (poison included) to out. */
template <unsigned A>
static __device__ void sct_copy_both(unsigned char *cg_half, unsigned char *cpp_half, const unsigned char *src,
                                     const sct_aligned_params_t &p)
{
    cg_thread_block_t b = cg_this_thread_block();
    cpp::thread_block cb = cpp::this_thread_block();
    for (uint32_t k = 0; k < p.nchunks; ++k) {
        const unsigned char *s = src + (size_t)k * SCT_CHUNK + p.soff;
        cg_memcpy_async_aligned(&b, cg_half + k * SCT_CHUNK + p.doff, s, p.bytes[k] + p.extra, A);
        cpp::memcpy_async(cb, cpp_half + k * SCT_CHUNK + p.doff, s, cuda::aligned_size_t<A>(p.bytes[k]));
        if (k + 1u >= 2u) {
            cg_wait_prior(&b, 2); /* also waits for C++ CG's copies: same thread's groups */
            cpp::wait_prior<2>(cb);
        }
    }
    cg_wait(&b);
    cpp::wait(cb);
}

/* Both halves of the window, poisoned (before) or dumped to out (after),
 * by every thread of the block. */
static __device__ void sct_window(unsigned char *sm, unsigned char *out, const sct_aligned_params_t &p)
{
    const uint32_t rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const uint32_t nt = blockDim.x * blockDim.y * blockDim.z;
    for (uint32_t i = rank; i < 2u * p.nchunks * SCT_CHUNK; i += nt) {
        if (out)
            out[i] = sm[i];
        else
            sm[i] = 0xA5;
    }
}

extern "C" __global__ void sct_aligned_kernel(const unsigned char *src, unsigned char *out, sct_aligned_params_t p)
{
    extern __shared__ __align__(128) unsigned char sm[];
    const uint32_t half = p.nchunks * SCT_CHUNK;
    sct_window(sm, NULL, p);
    __syncthreads();
    switch (p.align) {
    case 4: sct_copy_both<4>(sm, sm + half, src, p); break;
    case 8: sct_copy_both<8>(sm, sm + half, src, p); break;
    default: sct_copy_both<16>(sm, sm + half, src, p); break;
    }
    __syncthreads();
    sct_window(sm, out, p);
}

/* One block of bx x by x bz threads with both halves in dynamic shared
 * memory. */
static int sct_launch(void (*kernel)(const unsigned char *, unsigned char *, sct_aligned_params_t),
                      const unsigned char *src, unsigned char *out, const sct_aligned_params_t *p, unsigned bx,
                      unsigned by, unsigned bz)
{
    const int smem = (int)(2u * p->nchunks * SCT_CHUNK);
    cudaError_t err = cudaFuncSetAttribute((const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess)
        return (int)err;
    kernel<<<1, dim3(bx, by, bz), smem>>>(src, out, *p);
    return (int)cudaGetLastError();
}

extern "C" int sct_aligned(const unsigned char *src, unsigned char *out, const sct_aligned_params_t *p, unsigned bx,
                           unsigned by, unsigned bz)
{
    return sct_launch(sct_aligned_kernel, src, out, p, bx, by, bz);
}

/* ---- the barrier forms beside libcu++ (issue 34) ------------------------------- */

/* A few hundred cycles, different per thread and chunk (0 when seed is 0). */
static __device__ void sct_delay(uint32_t seed, uint32_t rank, uint32_t k)
{
    if (seed == 0u)
        return;
    uint32_t h = (seed ^ (rank * 0x9E3779B9u) ^ (k * 0x85EBCA6Bu)) * 0xC2B2AE35u;
    const long long until = clock64() + (long long)((h >> 16) % 600u);
    while (clock64() < until) {
    }
}

using sct_cxx_bar_t = cuda::barrier<cuda::thread_scope_block>;

template <unsigned A>
static __device__ void sct_bar_both(unsigned char *cg_half, unsigned char *cpp_half, const unsigned char *src,
                                    const sct_aligned_params_t &p, cg_barrier_t *bar, sct_cxx_bar_t *cbar)
{
    cg_thread_block_t b = cg_this_thread_block();
    cpp::thread_block cb = cpp::this_thread_block();
    const uint32_t rank = cg_thread_block_thread_rank(&b);
    for (uint32_t k = 0; k < p.nchunks; ++k) {
        const unsigned char *s = src + (size_t)k * SCT_CHUNK + p.soff;
        unsigned char *d = cg_half + k * SCT_CHUNK + p.doff, *dc = cpp_half + k * SCT_CHUNK + p.doff;
        sct_delay(p.seed, rank, k);
        if (p.mode == 0u) {
            cg_memcpy_async_aligned(&b, d, s, p.bytes[k] + p.extra, A, bar);
            if (!p.no_cxx)
                cuda::memcpy_async(cb, dc, s, cuda::aligned_size_t<A>(p.bytes[k]), *cbar);
        } else if (p.mode == 1u) {
            cg_tile_t t = cg_tiled_partition(&b, 32);
            if (cg_tile_meta_group_rank(&t) == k)
                cg_memcpy_async_aligned(&t, d, s, p.bytes[k] + p.extra, A, bar);
        } else if (rank == k) {
            cg_memcpy_async_thread(d, s, p.bytes[k] + p.extra, A, bar);
            if (!p.no_cxx)
                cuda::memcpy_async(dc, s, cuda::aligned_size_t<A>(p.bytes[k]), *cbar);
        }
    }
    sct_delay(p.seed, rank, 99u);
    cg_barrier_arrive_and_wait(bar);
    cbar->arrive_and_wait();
}

extern "C" __global__ void sct_bar_kernel(const unsigned char *src, unsigned char *out, sct_aligned_params_t p)
{
    extern __shared__ __align__(128) unsigned char sm[];
    __shared__ cg_barrier_t bar;
    __shared__ alignas(sct_cxx_bar_t) unsigned char cstore[sizeof(sct_cxx_bar_t)];
    sct_cxx_bar_t *cbar = reinterpret_cast<sct_cxx_bar_t *>(cstore);
    const uint32_t half = p.nchunks * SCT_CHUNK;
    sct_window(sm, NULL, p);
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
        const uint32_t nt = blockDim.x * blockDim.y * blockDim.z;
        cg_barrier_init(&bar, nt);
        init(cbar, (ptrdiff_t)nt);
    }
    __syncthreads();
    /* The poison is written by ordinary stores; the bulk copies write the
     * same bytes through the async proxy: the proxy fence the aligned forms
     * leave to their caller (async/copy.h, cg_memcpy_async_share_aligned). */
    cg_fence_proxy_async_smem();
    switch (p.align) {
    case 4: sct_bar_both<4>(sm, sm + half, src, p, &bar, cbar); break;
    case 8: sct_bar_both<8>(sm, sm + half, src, p, &bar, cbar); break;
    default: sct_bar_both<16>(sm, sm + half, src, p, &bar, cbar); break;
    }
    sct_window(sm, out, p);
}

extern "C" int sct_bar(const unsigned char *src, unsigned char *out, const sct_aligned_params_t *p, unsigned bx,
                       unsigned by, unsigned bz)
{
    return sct_launch(sct_bar_kernel, src, out, p, bx, by, bz);
}

extern "C" int sct_debug_build(void) { return CG_DEBUG ? 1 : 0; }
