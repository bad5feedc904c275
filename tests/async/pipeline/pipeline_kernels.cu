/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/async/pipeline/pipeline_kernels.cu — the pipeline's three forms under
 * load: every word of every stage use is compared with the hash it must hold,
 * with random producer and consumer delays; the first mismatch is recorded
 * with its block, cluster rank, use, stage, word and thread.
 */
#include <cuda_runtime.h>

#include "async/pipeline.h"
#include "cg/groups.h"
#include "cg/pipeline_group.h"
#include "tests/dsmem/cluster_launch.cuh"
#include "tests/async/pipeline/pipeline_test_util.h"

/* Record a mismatch: count it; the first one claims the detail fields. */
static __device__ void plt_record(plt_report_t *rep, uint32_t rank, uint32_t use, uint32_t stage, uint32_t word,
                                  uint32_t got, uint32_t want)
{
    atomicAdd(&rep->bad, 1u);
    if (atomicCAS(&rep->claimed, 0u, 1u) == 0u) {
        rep->block = blockIdx.x;
        rep->rank = rank;
        rep->use = use;
        rep->stage = stage;
        rep->word = word;
        rep->thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        rep->got = got;
        rep->want = want;
    }
}

/* A random pause (0 .. ~2 us) for about one call in eight. */
static __device__ void plt_maybe_delay(uint32_t key)
{
    const uint32_t h = plt_hash(key);
    if ((h & 7u) == 0u)
        __nanosleep((h >> 8) & 2047u);
}

/* Compare the words `first, first + step, ...` of a stage with the source. */
static __device__ uint64_t plt_check_stage(const uint32_t *st, uint32_t stage_words, uint32_t off, uint32_t seed,
                                           uint32_t first, uint32_t step, plt_report_t *rep, uint32_t rank,
                                           uint32_t use, uint32_t stage)
{
    uint64_t n = 0;
    for (uint32_t j = first; j < stage_words; j += step) {
        const uint32_t want = plt_hash(off + j + seed), got = st[j];
        if (got != want)
            plt_record(rep, rank, use, stage, j, got, want);
        ++n;
    }
    return n;
}

/* Poison the whole pipeline storage before its barriers are initialized:
 * a stage read before its copy landed then mismatches. The proxy fence puts
 * these generic writes before the copy engine's writes (after the block or
 * cluster barrier that follows). */
static __device__ void plt_poison(unsigned char *smem, size_t bytes, uint32_t rank, uint32_t nthreads)
{
    for (size_t i = rank; i < bytes; i += nthreads)
        smem[i] = 0xA5;
    cg_fence_proxy_async_smem();
}

// --- warp-specialized ------------------------------------------------------

extern "C" __global__ void plt_ws_kernel(const uint32_t *src, uint32_t seed, uint32_t stages, uint32_t stage_bytes,
                                         uint32_t uses, uint32_t release_per_warp, uint32_t delays,
                                         plt_report_t *rep)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    const uint32_t W = blockDim.x / 32u - 1u; /* consumer warps */
    const uint32_t stage_words = stage_bytes / 4u;
    plt_poison(smem, CG_PIPELINE_SMEM_BYTES(stages, stage_bytes), threadIdx.x, blockDim.x);
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_attach(smem, stages, stage_bytes);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers(&p, 1u, release_per_warp ? W : W * 32u);
    __syncthreads();

    if (warp == 0) {
        if (cg_elect_sync(0xffffffffu)) {
            for (uint32_t u = 0; u < uses; ++u) {
                const uint32_t k = cg_pipeline_producer_index(&p);
                void *st = cg_pipeline_producer_acquire(&p);
                if (st != cg_pipeline_stage(&p, k))
                    plt_record(rep, 0, u, k, 0xffffffffu, 0, 0);
                if (delays & PLT_DELAY_PRODUCER)
                    plt_maybe_delay(blockIdx.x * 7919u + u * 31u + 5u);
                const uint32_t off = plt_offset(blockIdx.x, u, PLT_SRC_WORDS, stage_words);
                /* two copies when the stage holds 2 x 16 bytes or more: a
                 * commit counts the bytes of every copy into its stage */
                const uint32_t first = stage_bytes >= 32u ? (stage_bytes / 32u) * 16u : stage_bytes;
                cg_pipeline_producer_copy(&p, 0, src + off, first);
                if (first < stage_bytes)
                    cg_pipeline_producer_copy(&p, first, src + off + first / 4u, stage_bytes - first);
                cg_pipeline_producer_commit(&p, stage_bytes);
            }
        }
        __syncwarp();
    } else {
        uint64_t checked = 0;
        for (uint32_t u = 0; u < uses; ++u) {
            const uint32_t k = cg_pipeline_consumer_index(&p);
            const uint32_t *st = (const uint32_t *)cg_pipeline_consumer_wait(&p);
            const uint32_t off = plt_offset(blockIdx.x, u, PLT_SRC_WORDS, stage_words);
            if (delays & PLT_DELAY_CONSUMERS) /* a lane late, reading (per-thread releases: diverged) */
                plt_maybe_delay(blockIdx.x * 104729u + u * 977u + threadIdx.x);
            checked += plt_check_stage(st, stage_words, off, seed, (warp - 1u) * 32u + lane, W * 32u, rep, 0, u, k);
            if (release_per_warp)
                cg_pipeline_consumer_release_warp(&p);
            else
                cg_pipeline_consumer_release(&p);
        }
        atomicAdd(&rep->checked, (unsigned long long)checked);
    }
}

extern "C" int plt_ws(unsigned blocks, const uint32_t *src, uint32_t seed, uint32_t stages, uint32_t stage_bytes,
                      uint32_t uses, uint32_t warps, uint32_t release_per_warp, uint32_t delays, plt_report_t *rep)
{
    const size_t smem = CG_PIPELINE_SMEM_BYTES(stages, stage_bytes);
    cudaError_t err = cudaFuncSetAttribute((const void *)plt_ws_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)smem);
    if (err != cudaSuccess)
        return (int)err;
    plt_ws_kernel<<<blocks, 32u * (warps + 1u), smem>>>(src, seed, stages, stage_bytes, uses, release_per_warp,
                                                       delays, rep);
    return (int)cudaGetLastError();
}

// --- plain block: every thread produces and consumes ----------------------

extern "C" __global__ void plt_block_kernel(const uint32_t *src, uint32_t seed, uint32_t stages,
                                            uint32_t stage_bytes, uint32_t uses, uint32_t delays,
                                            plt_report_t *rep)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t T = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const uint32_t stage_words = stage_bytes / 4u;
    plt_poison(smem, CG_PIPELINE_SMEM_BYTES(stages, stage_bytes), rank, T);
    __syncthreads();
    cg_thread_block_t blk = cg_this_thread_block();
    /* the collective set-up (cg/pipeline_group.h): rank 0 inits, block sync */
    cg_pipeline_t p = cg_thread_block_pipeline(&blk, smem, stages, stage_bytes, T, T);

    /* libcu++'s shape: fill the ring, then consume one use and refill. */
    uint32_t next = 0;
    for (; next < uses && next < stages; ++next) {
        (void)cg_pipeline_producer_acquire(&p);
        cg_thread_block_pipeline_memcpy_async(&blk, &p, 0,
                                              src + plt_offset(blockIdx.x, next, PLT_SRC_WORDS, stage_words),
                                              stage_bytes);
        cg_pipeline_producer_commit(&p, 0);
    }
    uint64_t checked = 0;
    for (uint32_t u = 0; u < uses; ++u) {
        const uint32_t k = cg_pipeline_consumer_index(&p);
        const uint32_t *st = (const uint32_t *)cg_pipeline_consumer_wait(&p);
        if (delays & PLT_DELAY_CONSUMERS)
            plt_maybe_delay(blockIdx.x * 104729u + u * 977u + rank);
        checked += plt_check_stage(st, stage_words, plt_offset(blockIdx.x, u, PLT_SRC_WORDS, stage_words), seed,
                                   rank, T, rep, 0, u, k);
        cg_pipeline_consumer_release(&p);
        if (next < uses) {
            (void)cg_pipeline_producer_acquire(&p);
            if (delays & PLT_DELAY_PRODUCER)
                plt_maybe_delay(blockIdx.x * 7919u + next * 31u + rank);
            cg_pipeline_memcpy_async(&p, rank, 0,
                                     src + plt_offset(blockIdx.x, next, PLT_SRC_WORDS, stage_words), stage_bytes);
            cg_pipeline_producer_commit(&p, 0);
            ++next;
        }
    }
    atomicAdd(&rep->checked, (unsigned long long)checked);
}

extern "C" int plt_block(unsigned blocks, unsigned bx, unsigned by, unsigned bz, const uint32_t *src, uint32_t seed,
                         uint32_t stages, uint32_t stage_bytes, uint32_t uses, uint32_t delays, plt_report_t *rep)
{
    const size_t smem = CG_PIPELINE_SMEM_BYTES(stages, stage_bytes);
    cudaError_t err = cudaFuncSetAttribute((const void *)plt_block_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err != cudaSuccess)
        return (int)err;
    plt_block_kernel<<<blocks, dim3(bx, by, bz), smem>>>(src, seed, stages, stage_bytes, uses, delays, rep);
    return (int)cudaGetLastError();
}

// --- cluster form: one CTA multicasts each stage --------------------------

extern "C" __global__ void plt_cluster_kernel(const uint32_t *src, uint32_t seed, uint32_t root, uint32_t mask,
                                              uint32_t stages, uint32_t stage_bytes, uint32_t uses,
                                              uint32_t delays, plt_report_t *rep)
{
    extern __shared__ __align__(128) unsigned char smem[];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t r = cg_cluster_block_rank(&cl), csize = cg_cluster_num_blocks(&cl);
    const uint32_t cluster_id = blockIdx.x / csize;
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    const uint32_t W = blockDim.x / 32u - 1u;
    const uint32_t stage_words = stage_bytes / 4u;
    const uint32_t receivers = (uint32_t)__popc(mask);
    plt_poison(smem, CG_PIPELINE_SMEM_BYTES(stages, stage_bytes), threadIdx.x, blockDim.x);
    __syncthreads();
    /* collective: every CTA's barriers exist before the root aims at them */
    cg_pipeline_t p = cg_cluster_pipeline(&cl, smem, stages, stage_bytes, root, receivers * W);

    if (warp == 0) {
        if (r == root && cg_elect_sync(0xffffffffu)) {
            for (uint32_t u = 0; u < uses; ++u) {
                const uint32_t k = cg_pipeline_producer_index(&p);
                void *st = cg_pipeline_cluster_producer_acquire(&p);
                if (st != cg_pipeline_stage(&p, k))
                    plt_record(rep, r, u, k, 0xffffffffu, 0, 0);
                if (delays & PLT_DELAY_PRODUCER)
                    plt_maybe_delay(cluster_id * 7919u + u * 31u + 5u);
                const uint32_t off = plt_offset(cluster_id, u, PLT_SRC_WORDS, stage_words);
                cg_pipeline_cluster_producer_copy(&p, 0, src + off, stage_bytes, (uint16_t)mask);
                cg_pipeline_cluster_producer_commit(&p, stage_bytes, (uint16_t)mask);
            }
            cg_pipeline_cluster_producer_tail(&p);
        }
        __syncwarp();
    } else if ((mask >> r) & 1u) {
        uint64_t checked = 0;
        for (uint32_t u = 0; u < uses; ++u) {
            const uint32_t k = cg_pipeline_consumer_index(&p);
            const uint32_t *st = (const uint32_t *)cg_pipeline_cluster_consumer_wait(&p);
            if (delays & PLT_DELAY_CONSUMERS)
                plt_maybe_delay(blockIdx.x * 104729u + u * 977u + threadIdx.x);
            checked += plt_check_stage(st, stage_words, plt_offset(cluster_id, u, PLT_SRC_WORDS, stage_words), seed,
                                       (warp - 1u) * 32u + lane, W * 32u, rep, r, u, k);
            cg_pipeline_cluster_consumer_release_warp(&p);
        }
        atomicAdd(&rep->checked, (unsigned long long)checked);
    }
    cg_cluster_sync(&cl); /* no CTA exits while multicasts or releases may still reach it */
}

extern "C" int plt_cluster(unsigned nclusters, unsigned csize, uint32_t root, uint32_t mask, const uint32_t *src,
                           uint32_t seed, uint32_t stages, uint32_t stage_bytes, uint32_t uses, uint32_t warps,
                           uint32_t delays, plt_report_t *rep)
{
    const size_t smem = CG_PIPELINE_SMEM_BYTES(stages, stage_bytes);
    void *args[] = {(void *)&src,    (void *)&seed,        (void *)&root, (void *)&mask, (void *)&stages,
                    (void *)&stage_bytes, (void *)&uses, (void *)&delays, (void *)&rep};
    int rc = cgt_launch_cluster((const void *)plt_cluster_kernel, nclusters * csize, csize, 32u * (warps + 1u), smem,
                                args);
    return rc == CGT_CLUSTER_DOES_NOT_FIT ? -1 : rc;
}

// --- sliced cluster form: every CTA loads a slice of each stage -------------

extern "C" __global__ void plt_sliced_kernel(const uint32_t *src, uint32_t seed, uint32_t mask, uint32_t stages,
                                             uint32_t stage_bytes, uint32_t uses, uint32_t release_per_warp,
                                             uint32_t delays, plt_report_t *rep)
{
    extern __shared__ __align__(128) unsigned char smem[];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t r = cg_cluster_block_rank(&cl), csize = cg_cluster_num_blocks(&cl);
    const uint32_t cluster_id = blockIdx.x / csize;
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    const uint32_t W = blockDim.x / 32u - 1u;
    const uint32_t stage_words = stage_bytes / 4u;
    const uint32_t n = (uint32_t)__popc(mask);
    const uint16_t m16 = (uint16_t)mask;
    const int member = (mask >> r) & 1u;
    plt_poison(smem, CG_PIPELINE_SMEM_BYTES(stages, stage_bytes), threadIdx.x, blockDim.x);
    __syncthreads();
    /* collective: every CTA's barriers exist before any peer's slice or
     * release reaches them; empty counts the releases of all n CTAs */
    cg_pipeline_t p = cg_cluster_pipeline_sliced(&cl, smem, stages, stage_bytes, n * (release_per_warp ? W : 32u * W));

    if (warp == 0) {
        if (member && cg_elect_sync(0xffffffffu)) {
            for (uint32_t u = 0; u < uses; ++u) {
                const uint32_t k = cg_pipeline_producer_index(&p);
                void *st = cg_pipeline_cluster_producer_acquire(&p);
                if (st != cg_pipeline_stage(&p, k))
                    plt_record(rep, r, u, k, 0xffffffffu, 0, 0);
                if (delays & PLT_DELAY_PRODUCER) /* each CTA's producer late at different uses */
                    plt_maybe_delay(cluster_id * 7919u + u * 31u + r * 65537u + 5u);
                const uint32_t off = plt_offset(cluster_id, u, PLT_SRC_WORDS, stage_words);
                cg_pipeline_cluster_producer_copy_slice(&p, src + off, m16);
                cg_pipeline_cluster_producer_commit_local(&p, stage_bytes);
            }
            cg_pipeline_cluster_producer_tail(&p); /* every peer's release into this CTA has landed */
        }
        __syncwarp();
    } else if (member) {
        uint64_t checked = 0;
        for (uint32_t u = 0; u < uses; ++u) {
            const uint32_t k = cg_pipeline_consumer_index(&p);
            const uint32_t *st = (const uint32_t *)cg_pipeline_cluster_consumer_wait(&p);
            if (delays & PLT_DELAY_CONSUMERS) /* a lane late, reading: the warp arrives diverged */
                plt_maybe_delay(blockIdx.x * 104729u + u * 977u + threadIdx.x);
            /* every CTA checks every word of the stage (all n slices) */
            checked += plt_check_stage(st, stage_words, plt_offset(cluster_id, u, PLT_SRC_WORDS, stage_words), seed,
                                       (warp - 1u) * 32u + lane, W * 32u, rep, r, u, k);
            if (release_per_warp == PLT_RELEASE_WHOLE_WARP) /* the caller declares whole warps */
                cg_pipeline_cluster_consumer_release_all_whole_warp(&p, m16);
            else if (release_per_warp)
                cg_pipeline_cluster_consumer_release_all_warp(&p, m16);
            else
                cg_pipeline_cluster_consumer_release_all(&p, m16);
        }
        atomicAdd(&rep->checked, (unsigned long long)checked);
    }
    cg_cluster_sync(&cl); /* no CTA exits while a peer's slice or release may still reach it */
}

extern "C" int plt_sliced(unsigned nclusters, unsigned csize, uint32_t mask, const uint32_t *src, uint32_t seed,
                          uint32_t stages, uint32_t stage_bytes, uint32_t uses, uint32_t warps,
                          uint32_t release_per_warp, uint32_t delays, plt_report_t *rep)
{
    const size_t smem = CG_PIPELINE_SMEM_BYTES(stages, stage_bytes);
    void *args[] = {(void *)&src,         (void *)&seed, (void *)&mask,             (void *)&stages,
                    (void *)&stage_bytes, (void *)&uses, (void *)&release_per_warp, (void *)&delays,
                    (void *)&rep};
    int rc = cgt_launch_cluster((const void *)plt_sliced_kernel, nclusters * csize, csize, 32u * (warps + 1u), smem,
                                args);
    return rc == CGT_CLUSTER_DOES_NOT_FIT ? -1 : rc;
}
