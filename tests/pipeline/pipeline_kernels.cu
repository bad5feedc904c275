/*
 * tests/pipeline/pipeline_kernels.cu — kernels and extern "C" launchers for
 * pipeline_test.c. Launchers return a cudaError_t as int.
 *
 * Every fill of a stage is checked by a position-sensitive checksum
 * (pipeline_test_util.h) written per consumer warp and fill, so the host can
 * check every byte of every fill: a byte from the wrong tile, a stale fill,
 * or a fill read before it landed changes the sum. Each thread also checks
 * the pipeline's position queries against its own count of fills and counts
 * mismatches in errs[0] (producers) and errs[1] (consumers).
 */
#include <cuda_runtime.h>

#include "async/copy.h"
#include "async/pipeline.h"
#include "cg/groups.h"
#include "cg/pipeline.h"
#include "tests/pipeline/pipeline_test_util.h"

// --- helpers -------------------------------------------------------------------------

/* The sum of a value over the 32 lanes of the (converged) warp. */
static __device__ __forceinline__ unsigned long long plt_warp_sum(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
}

/* With c.delay: now and then, sleep a random while (who is ahead varies). */
static __device__ __forceinline__ void plt_maybe_sleep(const plt_cfg_t *c, uint32_t a, uint32_t b)
{
    if (c->delay) {
        const uint32_t h = plt_hash(a * 0x9E3779B9u ^ b ^ (blockIdx.x << 20) ^ c->seed);
        if ((h & 7u) == 0)
            __nanosleep((h >> 8) & 2047u);
    }
}

/* The stage's bytes split into c.pieces copies of 16-byte multiples (the
 * last takes the rest): piece k covers [*off, *off + *len). */
static __device__ __forceinline__ void plt_piece(const plt_cfg_t *c, uint32_t k, uint32_t *off, uint32_t *len)
{
    const uint32_t piece = (c->stage_bytes / c->pieces) & ~15u;
    *off = k * piece;
    *len = k + 1 == c->pieces ? c->stage_bytes - *off : piece;
}

// --- source fill -----------------------------------------------------------------------

extern "C" __global__ void plt_fill_kernel(uint32_t *dst, size_t words, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = plt_src_word(seed, (uint32_t)i);
}

extern "C" int plt_fill(void *dst, size_t bytes, uint32_t seed)
{
    plt_fill_kernel<<<264, 256>>>((uint32_t *)dst, bytes / 4u, seed);
    return (int)cudaGetLastError();
}

// --- warp-specialized: one producer thread, c.cwarps consumer warps ----------------------

/* Warp 0: one elected lane acquires, copies (c.pieces copies, through
 * cg_pipeline_copy or raw cg_memcpy_async_tx on the stage's FULL barrier)
 * and commits the stage's bytes. Warps 1..cwarps: wait, checksum the whole
 * stage (every consumer warp reads every byte), warp 1 copies it out when
 * c.copy_out, release (per warp or per thread). */
extern "C" __global__ void plt_ws_kernel(const unsigned char *src, unsigned long long *sums, unsigned char *copy,
                                         unsigned *errs, plt_cfg_t c)
{
    __shared__ cg_pipeline_stage_t ring[PLT_MAX_STAGES];
    extern __shared__ __align__(128) unsigned char buf[];
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    if (threadIdx.x == 0)
        cg_pipeline_init(ring, c.stages, 1, c.per_thread ? 32u * c.cwarps : c.cwarps);
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_make(ring, c.stages, buf, c.stage_bytes);

    if (warp == 0) {
        if (cg_elect_sync(0xFFFFFFFFu)) {
            unsigned bad = 0;
            for (uint32_t t = 0; t < c.tiles; ++t) {
                bad += cg_pipeline_producer_stage(&p) != t % c.stages;
                bad += cg_pipeline_producer_fill(&p) != t / c.stages;
                plt_maybe_sleep(&c, t, 0xABCDu);
                unsigned char *stage = (unsigned char *)cg_pipeline_acquire(&p);
                bad += stage != buf + (size_t)(t % c.stages) * c.stage_bytes;
                const unsigned char *s = src + (size_t)plt_src_tile(blockIdx.x, t, c.nsrc) * c.stage_bytes;
                for (uint32_t k = 0; k < c.pieces; ++k) {
                    uint32_t off, len;
                    plt_piece(&c, k, &off, &len);
                    if (c.copy_mode == 0)
                        cg_pipeline_copy(&p, stage + off, s + off, len);
                    else
                        cg_memcpy_async_tx(stage + off, s + off, len, cg_pipeline_producer_mbarrier(&p));
                }
                cg_pipeline_commit(&p, c.stage_bytes);
            }
            if (bad)
                atomicAdd(&errs[0], bad);
        }
        return;
    }

    const uint32_t cw = warp - 1u;
    const uint32_t unit = plt_unit(c.stage_bytes), units = c.stage_bytes / unit;
    unsigned bad = 0;
    for (uint32_t t = 0; t < c.tiles; ++t) {
        bad += cg_pipeline_consumer_stage(&p) != t % c.stages;
        bad += cg_pipeline_consumer_fill(&p) != t / c.stages;
        const unsigned char *stage = (const unsigned char *)cg_pipeline_wait(&p);
        unsigned long long acc = 0;
        if (unit == 4u) {
            const uint32_t *w = (const uint32_t *)stage;
            for (uint32_t i = lane; i < units; i += 32u)
                acc += plt_term(w[i], i);
        } else {
            for (uint32_t i = lane; i < units; i += 32u)
                acc += plt_term(stage[i], i);
        }
        acc = plt_warp_sum(acc);
        if (lane == 0)
            sums[((size_t)blockIdx.x * c.tiles + t) * c.cwarps + cw] = acc;
        if (c.copy_out && cw == 0) {
            unsigned char *d = copy + ((size_t)blockIdx.x * c.tiles + t) * c.stage_bytes;
            for (uint32_t i = lane; i < c.stage_bytes; i += 32u)
                d[i] = stage[i];
        }
        plt_maybe_sleep(&c, t, threadIdx.x);
        if (c.per_thread)
            cg_pipeline_release(&p);
        else
            cg_pipeline_release_warp(&p);
    }
    if (bad)
        atomicAdd(&errs[1], bad);
}

/* Dynamic shared memory above 48 KiB needs the opt-in. */
static cudaError_t plt_smem_optin(const void *fn, size_t smem)
{
    if (smem <= 48u * 1024u)
        return cudaSuccess;
    return cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
}

extern "C" int plt_ws(const plt_cfg_t *c, int blocks, const void *src, unsigned long long *sums, void *copy,
                      unsigned *errs)
{
    const size_t smem = (size_t)c->stages * c->stage_bytes;
    cudaError_t err = plt_smem_optin((const void *)plt_ws_kernel, smem);
    if (err != cudaSuccess)
        return (int)err;
    plt_ws_kernel<<<blocks, 32u * (1u + c->cwarps), smem>>>((const unsigned char *)src, sums, (unsigned char *)copy,
                                                            errs, *c);
    return (int)cudaGetLastError();
}

// --- block shape: every thread produces and consumes (cuda::pipeline<block>) --------------

/* Every thread keeps up to S fills in flight ahead of the one it reads:
 * producer_acquire, the copy (thread 0's cg_pipeline_producer_copy in
 * c.pieces pieces, or the block's cg_memcpy_async_pipeline), producer_commit;
 * then consumer_wait, a checksum of the units this thread owns (unit i
 * belongs to thread i % blockDim.x), summed per warp, consumer_release. */
extern "C" __global__ void plt_block_kernel(const unsigned char *src, unsigned long long *sums, unsigned *errs,
                                            plt_cfg_t c)
{
    __shared__ cg_pipeline_stage_t ring[PLT_MAX_STAGES];
    extern __shared__ __align__(128) unsigned char buf[];
    if (threadIdx.x == 0)
        cg_pipeline_init(ring, c.stages, blockDim.x, blockDim.x);
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_make(ring, c.stages, buf, c.stage_bytes);
    cg_thread_block_t blk = cg_this_thread_block();
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u, nwarps = blockDim.x / 32u;
    const uint32_t unit = plt_unit(c.stage_bytes), units = c.stage_bytes / unit;
    unsigned bad = 0;
    uint32_t f = 0;
    for (uint32_t t = 0; t < c.tiles; ++t) {
        for (; f < c.tiles && f < t + c.stages; ++f) {
            bad += cg_pipeline_producer_stage(&p) != f % c.stages;
            bad += cg_pipeline_producer_fill(&p) != f / c.stages;
            unsigned char *stage = (unsigned char *)cg_pipeline_producer_acquire(&p);
            const unsigned char *s = src + (size_t)plt_src_tile(blockIdx.x, f, c.nsrc) * c.stage_bytes;
            if (c.copy_mode == 0) {
                if (threadIdx.x == 0)
                    for (uint32_t k = 0; k < c.pieces; ++k) {
                        uint32_t off, len;
                        plt_piece(&c, k, &off, &len);
                        cg_pipeline_producer_copy(&p, stage + off, s + off, len);
                    }
            } else {
                cg_memcpy_async_pipeline(&blk, stage, s, c.stage_bytes, &p);
            }
            cg_pipeline_producer_commit(&p);
        }
        bad += cg_pipeline_consumer_stage(&p) != t % c.stages;
        bad += cg_pipeline_consumer_fill(&p) != t / c.stages;
        const unsigned char *stage = (const unsigned char *)cg_pipeline_consumer_wait(&p);
        unsigned long long acc = 0;
        if (unit == 4u) {
            const uint32_t *w = (const uint32_t *)stage;
            for (uint32_t i = threadIdx.x; i < units; i += blockDim.x)
                acc += plt_term(w[i], i);
        } else {
            for (uint32_t i = threadIdx.x; i < units; i += blockDim.x)
                acc += plt_term(stage[i], i);
        }
        acc = plt_warp_sum(acc);
        if (lane == 0)
            sums[((size_t)blockIdx.x * c.tiles + t) * nwarps + warp] = acc;
        plt_maybe_sleep(&c, t, threadIdx.x);
        cg_pipeline_consumer_release(&p);
    }
    if (bad)
        atomicAdd(&errs[1], bad);
}

extern "C" int plt_block(const plt_cfg_t *c, int blocks, const void *src, unsigned long long *sums, unsigned *errs)
{
    const size_t smem = (size_t)c->stages * c->stage_bytes;
    cudaError_t err = plt_smem_optin((const void *)plt_block_kernel, smem);
    if (err != cudaSuccess)
        return (int)err;
    plt_block_kernel<<<blocks, c->threads, smem>>>((const unsigned char *)src, sums, errs, *c);
    return (int)cudaGetLastError();
}
