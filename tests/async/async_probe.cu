/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/async_probe.cu — probe kernels for async_ptx_test.c, compiled to
 * PTX only: one per wrapper of async/bulk.h and async/copy.h, plus
 * cg_memcpy_async itself for the order of its bulk path. */
#include "async/copy.h"
#include "barrier/barrier.h"
#include "cg/groups.h"

#define PROBE(NAME, BODY)                                                                          \
    extern "C" __global__ void asyp_##NAME(const uint4 *g, uint4 *o, uint32_t x)                  \
    {                                                                                              \
        __shared__ __align__(128) uint4 s[256];                                                    \
        __shared__ cg_mbarrier_t mb;                                                               \
        const uint32_t sa = cg_smem_addr(s), ma = cg_smem_addr(&mb);                               \
        (void)sa;                                                                                  \
        (void)ma;                                                                                  \
        (void)g;                                                                                   \
        (void)o;                                                                                   \
        (void)x;                                                                                   \
        BODY                                                                                       \
    }

PROBE(bulk_copy_g2s, cg_bulk_copy_g2s(sa, g, x, ma);)
PROBE(bulk_copy_g2s_multicast, cg_bulk_copy_g2s_multicast(sa, g, x, ma, (uint16_t)x);)
PROBE(bulk_copy_s2g, cg_bulk_copy_s2g(o, sa, x);)
PROBE(bulk_commit_group, cg_bulk_commit_group();)
PROBE(bulk_wait_group, cg_bulk_wait_group(0);)
PROBE(bulk_wait_group_read, cg_bulk_wait_group_read(1);)
PROBE(cp_async_4, cg_cp_async_4(sa, g);)
PROBE(cp_async_8, cg_cp_async_8(sa, g);)
PROBE(cp_async_16, cg_cp_async_16(sa, g);)
PROBE(cp_async_mbarrier_arrive, cg_cp_async_mbarrier_arrive(ma);)
PROBE(cp_async_wait_all, cg_cp_async_wait_all();)
PROBE(memcpy_async_tx, cg_memcpy_async_tx(s, g, x, &mb);)
PROBE(memcpy_async_multicast_tx, cg_memcpy_async_multicast_tx(s, g, x, &mb, (uint16_t)3);)

/* cg_bulk_store = the s2g copy plus a commit (checked separately). */
extern "C" __global__ void asyp_bulk_store(uint4 *o, uint32_t x)
{
    __shared__ __align__(128) uint4 s[256];
    cg_bulk_store(o, s, x);
    cg_bulk_wait_group(0);
}

/* cg_memcpy_async over a thread block (all three paths are in the body: the
 * path is chosen at run time from the pointers and size). */
extern "C" __global__ void asyp_memcpy_async_block(const uint4 *g, uint32_t x)
{
    __shared__ __align__(128) uint4 s[256];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t blk = cg_this_thread_block();
    cg_memcpy_async(&blk, s, g, x, &bar);
    cg_barrier_arrive_and_wait(&bar);
}

extern "C" __global__ void asyp_elect_sync(uint32_t *o)
{
    o[threadIdx.x] = cg_elect_sync(0xFFFFFFFFu) ? 1u : 0u;
}

/* The staged copy (four-argument cg_memcpy_async + cg_wait) of 4 bytes per
 * thread, each thread its own element through the tile of one thread (the
 * port of globalToShmemAsyncCopy), with the pointers 16-byte congruent: the
 * entry's own code must be cp.async of 4 bytes and no byte copy (a byte
 * copy may remain only in the out-of-line fallback for misaligned pointers).
 * Issue 23: it was ld.global.u8 / st.shared.u8. */
extern "C" __global__ void asyp_stage_plain4(const float *g, float *o)
{
    __shared__ __align__(16) float s[256];
    cg_tile_t me = cg_this_thread();
    cg_memcpy_async(&me, &s[threadIdx.x], &g[threadIdx.x], sizeof(float));
    cg_wait(&me);
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x ^ 1u];
}

/* The same with the alignment stated (cuda::aligned_size_t<4>'s
 * counterpart): one cp.async of 4, nothing else, no call. */
extern "C" __global__ void asyp_stage_aligned4(const float *g, float *o)
{
    __shared__ __align__(16) float s[256];
    cg_tile_t me = cg_this_thread();
    cg_memcpy_async_aligned(&me, &s[threadIdx.x], &g[threadIdx.x], sizeof(float), 4);
    cg_wait(&me);
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x ^ 1u];
}

/* A block's 16-byte-aligned stage of a run-time size, alignment stated: one
 * loop of cp.async.cg of 16, the only copy instruction (C++ CG's
 * memcpy_async(block, ..., aligned_size_t<16>) compiles to the same). */
extern "C" __global__ void asyp_stage_aligned16(const uint4 *g, uint32_t bytes, uint32_t *o)
{
    extern __shared__ uint4 dyn[];
    cg_thread_block_t b = cg_this_thread_block();
    cg_memcpy_async_aligned(&b, dyn, g, bytes, 16);
    cg_wait_prior(&b, 0);
    o[threadIdx.x] = dyn[threadIdx.x].x;
}
