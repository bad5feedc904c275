/*
 * tests/pipeline/debug_kernels.cu — misuse of a pipeline in a debug build
 * (CG_DEBUG=1, wait bound 0.3 s from the BUILD file): each kernel makes one
 * mistake that would hang or corrupt a release build, and must report it
 * (device printf naming the pipeline, stage and phase) and trap. Launchers
 * return the launch's cudaError_t as int. One block each.
 */
#include <cuda_runtime.h>

#include "async/copy.h"
#include "async/pipeline.h"

#define PLD_STAGE 1024u

/* A warp-specialized ring of `stages` x PLD_STAGE: warp 0 lane 0 produces,
 * warp 1 consumes (one arrival per warp). */
#define PLD_SETUP(stages, consumers)                                                               \
    __shared__ cg_pipeline_stage_t ring[stages];                                                   \
    __shared__ __align__(128) unsigned char buf[(stages) * PLD_STAGE];                             \
    if (threadIdx.x == 0)                                                                          \
        cg_pipeline_init(ring, (stages), 1, (consumers));                                          \
    __syncthreads();                                                                               \
    cg_pipeline_t p = cg_pipeline_make(ring, (stages), buf, PLD_STAGE);                            \
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u

/* The producer never commits: the consumers' wait on stage 0, phase 0 can
 * never complete. */
extern "C" __global__ void pld_never_filled_kernel(const unsigned char *src, unsigned *out)
{
    PLD_SETUP(2, 1);
    (void)src;
    (void)lane;
    if (warp == 1) {
        const unsigned *s = (const unsigned *)cg_pipeline_wait(&p);
        out[threadIdx.x] = s[threadIdx.x];
        cg_pipeline_release_warp(&p);
    }
}

/* Raw copies of 1024 bytes, a commit of 2048: the fill never completes. */
extern "C" __global__ void pld_committed_more_kernel(const unsigned char *src, unsigned *out)
{
    PLD_SETUP(2, 1);
    if (warp == 0 && lane == 0) {
        unsigned char *stage = (unsigned char *)cg_pipeline_acquire(&p);
        cg_memcpy_async_tx(stage, src, PLD_STAGE, cg_pipeline_producer_mbarrier(&p));
        cg_pipeline_commit(&p, 2u * PLD_STAGE);
    } else if (warp == 1) {
        const unsigned *s = (const unsigned *)cg_pipeline_wait(&p);
        out[threadIdx.x] = s[threadIdx.x];
        cg_pipeline_release_warp(&p);
    }
}

/* cg_pipeline_copy of 1024 bytes, a commit of 512: caught at the commit. */
extern "C" __global__ void pld_commit_mismatch_kernel(const unsigned char *src, unsigned *out)
{
    PLD_SETUP(2, 1);
    if (warp == 0 && lane == 0) {
        unsigned char *stage = (unsigned char *)cg_pipeline_acquire(&p);
        cg_pipeline_copy(&p, stage, src, PLD_STAGE);
        cg_pipeline_commit(&p, PLD_STAGE / 2u);
    } else if (warp == 1) {
        const unsigned *s = (const unsigned *)cg_pipeline_wait(&p);
        out[threadIdx.x] = s[threadIdx.x];
        cg_pipeline_release_warp(&p);
    }
}

/* EMPTY expects 2 consumer arrivals, only warp 1 releases: the producer's
 * third acquire (stage 0, fill 1) waits for a release of fill 0 that never
 * completes. The consumer reads the two fills and leaves. */
extern "C" __global__ void pld_never_released_kernel(const unsigned char *src, unsigned *out)
{
    PLD_SETUP(2, 2);
    if (warp == 0 && lane == 0) {
        for (uint32_t t = 0; t < 3; ++t) {
            unsigned char *stage = (unsigned char *)cg_pipeline_acquire(&p);
            cg_pipeline_copy(&p, stage, src + (size_t)t * PLD_STAGE, PLD_STAGE);
            cg_pipeline_commit(&p, PLD_STAGE);
        }
    } else if (warp == 1) {
        for (uint32_t t = 0; t < 2; ++t) {
            const unsigned *s = (const unsigned *)cg_pipeline_wait(&p);
            out[threadIdx.x] += s[threadIdx.x];
            cg_pipeline_release_warp(&p);
        }
    }
}

/* The producer copies into stage 1's buffer while filling stage 0. */
extern "C" __global__ void pld_copy_outside_stage_kernel(const unsigned char *src, unsigned *out)
{
    PLD_SETUP(2, 1);
    (void)out;
    if (warp == 0 && lane == 0) {
        unsigned char *stage = (unsigned char *)cg_pipeline_acquire(&p);
        cg_pipeline_copy(&p, stage + PLD_STAGE, src, PLD_STAGE);
        cg_pipeline_commit(&p, PLD_STAGE);
    }
}

/* Block shape: every thread acquires three fills of a two-stage ring before
 * consuming any: the third acquire waits for releases nobody can make. */
extern "C" __global__ void pld_block_too_far_ahead_kernel(const unsigned char *src, unsigned *out)
{
    __shared__ cg_pipeline_stage_t ring[2];
    __shared__ __align__(128) unsigned char buf[2 * PLD_STAGE];
    (void)out;
    if (threadIdx.x == 0)
        cg_pipeline_init(ring, 2, blockDim.x, blockDim.x);
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_make(ring, 2, buf, PLD_STAGE);
    for (uint32_t t = 0; t < 3; ++t) {
        unsigned char *stage = (unsigned char *)cg_pipeline_producer_acquire(&p);
        if (threadIdx.x == 0)
            cg_pipeline_producer_copy(&p, stage, src + (size_t)t * PLD_STAGE, PLD_STAGE);
        cg_pipeline_producer_commit(&p);
    }
}

#define PLD_LAUNCHER(name, threads)                                                                \
    extern "C" int pld_##name(const void *src, unsigned *out)                                      \
    {                                                                                              \
        pld_##name##_kernel<<<1, (threads)>>>((const unsigned char *)src, out);                    \
        return (int)cudaGetLastError();                                                            \
    }

PLD_LAUNCHER(never_filled, 64)
PLD_LAUNCHER(committed_more, 64)
PLD_LAUNCHER(commit_mismatch, 64)
PLD_LAUNCHER(never_released, 64)
PLD_LAUNCHER(copy_outside_stage, 64)
PLD_LAUNCHER(block_too_far_ahead, 64)
