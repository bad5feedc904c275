/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/pipeline_stream.cu — a streaming reduction over 1 GiB through a
 * warp-specialized pipeline (async/pipeline.h).
 *
 * The input is cut into 16 KiB tiles. In each block, one elected thread of
 * warp 0 keeps a 4-stage ring full: acquire a stage, one bulk copy of the
 * next tile into it, commit the 16 KiB on the stage's full barrier. Warps
 * 1..4 wait for each stage, sum its 4096 words (64-bit sums), and release it
 * per warp. Each tile's sum goes to tile_sums[tile]; the host checks every
 * tile's sum and the total against its own.
 *
 * CGT_QUICK=1 in the environment (the sanitizer runs) streams 64 MiB instead.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define PS_TILE_BYTES 16384u
#define PS_TILE_WORDS (PS_TILE_BYTES / 4u)
#define PS_STAGES 4u
#define PS_CONSUMER_WARPS 4u

__global__ void pipeline_stream_kernel(const uint32_t *in, size_t ntiles, unsigned long long *tile_sums)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    cg_pipeline_t p = cg_pipeline_attach(smem, PS_STAGES, PS_TILE_BYTES);
    if (threadIdx.x == 0) /* a commit by one thread, a release by each consumer warp */
        cg_pipeline_init_barriers(&p, 1, PS_CONSUMER_WARPS);
    __syncthreads();

    if (warp == 0) { /* the producer warp: one elected thread issues */
        if (cg_elect_sync(0xffffffffu))
            for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
                cg_pipeline_producer_acquire(&p);
                cg_pipeline_producer_copy(&p, 0, in + t * PS_TILE_WORDS, PS_TILE_BYTES);
                cg_pipeline_producer_commit(&p, PS_TILE_BYTES);
            }
        __syncwarp();
        return;
    }
    for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) { /* consumer warps */
        const uint4 *tile = (const uint4 *)cg_pipeline_consumer_wait(&p);
        unsigned long long s = 0;
        for (uint32_t i = (warp - 1u) * 32u + lane; i < PS_TILE_WORDS / 4u; i += PS_CONSUMER_WARPS * 32u) {
            const uint4 v = tile[i];
            s += (unsigned long long)v.x + v.y + v.z + v.w;
        }
        cg_pipeline_consumer_release_warp(&p); /* the words are in registers: free the stage */
        for (int d = 16; d > 0; d /= 2)
            s += __shfl_xor_sync(0xffffffffu, s, d);
        if (lane == 0)
            atomicAdd(&tile_sums[t], s);
    }
}

extern "C" int cgx_pipeline_stream(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("bulk copies and mbarrier transaction counts", detail, detail_len) != 0)
        return 2;
    const char *q = getenv("CGT_QUICK");
    const size_t bytes = (q && q[0] && q[0] != '0') ? ((size_t)64 << 20) : ((size_t)1 << 30);
    const size_t n = bytes / 4u, ntiles = bytes / PS_TILE_BYTES;
    const size_t smem = CG_PIPELINE_SMEM_BYTES(PS_STAGES, PS_TILE_BYTES);
    uint32_t *hin = (uint32_t *)malloc(bytes);
    unsigned long long *want = (unsigned long long *)calloc(ntiles, 8), *got = (unsigned long long *)malloc(ntiles * 8);
    uint32_t *din = NULL;
    unsigned long long *dsums = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    int rc = 2, sms = 0, bad = 0;
    size_t first = 0;
    float ms = 0.f;
    unsigned long long total = 0, total_got = 0;
    uint64_t x = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull | 1u;
    if (!hin || !want || !got) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    for (size_t i = 0; i < n; ++i) { /* xorshift64: fresh values every run */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hin[i] = (uint32_t)(x >> 32);
        want[i / PS_TILE_WORDS] += hin[i];
    }
    CGX_CUDA(cudaMalloc((void **)&din, bytes));
    CGX_CUDA(cudaMalloc((void **)&dsums, ntiles * 8));
    CGX_CUDA(cudaMemcpy(din, hin, bytes, cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemset(dsums, 0, ntiles * 8));
    CGX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CGX_CUDA(cudaFuncSetAttribute((const void *)pipeline_stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)smem));
    CGX_CUDA(cudaEventCreate(&e0));
    CGX_CUDA(cudaEventCreate(&e1));
    CGX_CUDA(cudaEventRecord(e0));
    pipeline_stream_kernel<<<2 * sms, 32 * (1 + PS_CONSUMER_WARPS), smem>>>(din, ntiles, dsums);
    CGX_CUDA(cudaGetLastError());
    CGX_CUDA(cudaEventRecord(e1));
    CGX_CUDA(cudaDeviceSynchronize());
    CGX_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    CGX_CUDA(cudaMemcpy(got, dsums, ntiles * 8, cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < ntiles; ++t) {
        total += want[t];
        total_got += got[t];
        if (got[t] != want[t] && bad++ == 0)
            first = t;
    }
    if (bad || total != total_got) {
        snprintf(detail, detail_len, "%d of %zu tile sums wrong (first: tile %zu = %llu, want %llu); total %llu, want %llu",
                 bad, ntiles, first, got[first], want[first], total_got, total);
        rc = 1;
        goto done;
    }
    snprintf(detail, detail_len,
             "%zu MiB in %zu tiles of 16 KiB through a %u-stage warp-specialized ring (1 producer thread, %u "
             "consumer warps): all %zu tile sums and the total match the host; %.2f ms, %.0f GB/s",
             bytes >> 20, ntiles, PS_STAGES, PS_CONSUMER_WARPS, ntiles, ms, (double)bytes / (ms * 1e6));
    rc = 0;
done:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(din);
    cudaFree(dsums);
    free(hin);
    free(want);
    free(got);
    return rc;
}

CGX_MAIN(cgx_pipeline_stream)
