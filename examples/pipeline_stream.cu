/*
 * examples/pipeline_stream.cu — a streaming kernel on a multi-stage pipeline:
 * y = 0.5 x + 2 over 2^28 floats (1 GiB in, 1 GiB out).
 *
 * Each block runs a 4-stage ring of 8 KiB tiles (cg_pipeline_t,
 * async/pipeline.h). Warp 0 is the producer: one elected lane acquires the
 * next empty stage, starts a bulk (TMA) copy of the block's next tile of x
 * into it and commits the stage with its byte count. Warps 1..4 are the
 * consumers: they wait for the next full stage, write 0.5 x + 2 for its
 * elements to y, and release the stage with one arrival per warp. Up to four
 * tiles per block are in flight while the consumers work on the oldest, and
 * nobody names a barrier phase. C++ (CUTLASS-style) -> cgc:
 *   PipelineTmaAsync(storage, params)       -> cg_pipeline_init(ring, S, 1, warps) + cg_pipeline_make
 *   producer_acquire(state); copy; ++state  -> cg_pipeline_acquire; cg_pipeline_copy; cg_pipeline_commit(&p, bytes)
 *   consumer_wait(state); ...; consumer_release(state); ++state
 *                                           -> cg_pipeline_wait; ...; cg_pipeline_release_warp
 * Every element of y is checked on the host. Under CGT_QUICK=1 (the test
 * suite's sanitizer runs) the stream is 2^22 floats.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "async/pipeline.h"
#include "examples/example_util.h"
#include "examples/examples.h"

#define PS_STAGES 4u
#define PS_TILE 2048u /* floats per tile: 8 KiB per stage, 32 KiB per block */
#define PS_CONSUMER_WARPS 4u
#define PS_THREADS (32u * (1u + PS_CONSUMER_WARPS))
#define PS_A 0.5f
#define PS_B 2.0f

/* The input: x[i] = (a hash of i and the seed, 20 bits) / 16, so 0.5 x + 2
 * is exact in float and the host can compare with ==. */
static __host__ __device__ __forceinline__ float ps_x(uint32_t seed, uint32_t i)
{
    uint32_t h = i * 0x9E3779B9u ^ seed;
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    return (float)(h & 0xFFFFFu) * 0.0625f;
}

__global__ void ps_fill(float *x, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        x[i] = ps_x(seed, (uint32_t)i);
}

/* Block b handles tiles b, b + gridDim.x, ... of the ntiles tiles. */
__global__ void __launch_bounds__(PS_THREADS) ps_stream(const float *x, float *y, size_t ntiles)
{
    __shared__ cg_pipeline_stage_t ring[PS_STAGES];
    __shared__ __align__(128) float4 buf[PS_STAGES * PS_TILE / 4u];
    const uint32_t warp = threadIdx.x / 32u;
    if (threadIdx.x == 0)
        cg_pipeline_init(ring, PS_STAGES, 1, PS_CONSUMER_WARPS); /* 1 producer arrival, 1 per consumer warp */
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_make(ring, PS_STAGES, buf, PS_TILE * sizeof(float));

    if (warp == 0) { /* producer warp: one elected lane issues the copies */
        if (cg_elect_sync(0xFFFFFFFFu))
            for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
                void *stage = cg_pipeline_acquire(&p); /* the stage is empty */
                cg_pipeline_copy(&p, stage, x + t * PS_TILE, PS_TILE * sizeof(float));
                cg_pipeline_commit(&p, PS_TILE * sizeof(float)); /* arrive, expecting the tile's bytes */
            }
        return;
    }
    const uint32_t c = threadIdx.x - 32u; /* consumer thread 0 .. 127 */
    for (size_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const float4 *in = (const float4 *)cg_pipeline_wait(&p); /* the tile has landed */
        float4 *out = (float4 *)(y + t * PS_TILE);
        for (uint32_t i = c; i < PS_TILE / 4u; i += 32u * PS_CONSUMER_WARPS) {
            const float4 v = in[i];
            out[i] = make_float4(PS_A * v.x + PS_B, PS_A * v.y + PS_B, PS_A * v.z + PS_B, PS_A * v.w + PS_B);
        }
        cg_pipeline_release_warp(&p); /* this warp is done with the stage */
    }
}

extern "C" int cgx_pipeline_stream(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("mbarrier pipelines and bulk copies", detail, detail_len) != 0)
        return 2;
    const char *q = getenv("CGT_QUICK");
    const size_t n = (q && *q && *q != '0') ? ((size_t)1 << 22) : ((size_t)1 << 28);
    const size_t ntiles = n / PS_TILE;
    const uint32_t seed = (uint32_t)time(NULL) * 2654435761u ^ 0x5EEDu;
    float *dx = NULL, *dy = NULL, *hy = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float ms = 0.f;
    int rc = 2, sms = 0, per_sm = 0;
    CGX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CGX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ps_stream, PS_THREADS, 0));
    CGX_CUDA(cudaMalloc((void **)&dx, n * sizeof(float)));
    CGX_CUDA(cudaMalloc((void **)&dy, n * sizeof(float)));
    CGX_CUDA(cudaMemset(dy, 0xFF, n * sizeof(float))); /* poison: NaN everywhere */
    ps_fill<<<4 * sms, 256>>>(dx, n, seed);
    CGX_CUDA(cudaGetLastError());
    CGX_CUDA(cudaEventCreate(&e0));
    CGX_CUDA(cudaEventCreate(&e1));
    {
        const int blocks = sms * (per_sm > 0 ? per_sm : 1);
        CGX_CUDA(cudaEventRecord(e0));
        ps_stream<<<blocks, PS_THREADS>>>(dx, dy, ntiles);
        CGX_CUDA(cudaGetLastError());
        CGX_CUDA(cudaEventRecord(e1));
        CGX_CUDA(cudaEventSynchronize(e1));
        CGX_CUDA(cudaEventElapsedTime(&ms, e0, e1));
        hy = (float *)malloc(n * sizeof(float));
        if (!hy) {
            snprintf(detail, detail_len, "host allocation of %zu bytes failed", n * sizeof(float));
            goto done;
        }
        CGX_CUDA(cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; ++i) {
            const float want = PS_A * ps_x(seed, (uint32_t)i) + PS_B;
            if (hy[i] != want && bad++ == 0)
                first = i;
        }
        if (bad) {
            snprintf(detail, detail_len, "%zu of %zu elements wrong (first at %zu: %g, want %g)", bad, n, first,
                     (double)hy[first], (double)(PS_A * ps_x(seed, (uint32_t)first) + PS_B));
            rc = 1;
        } else {
            snprintf(detail, detail_len,
                     "y = 0.5x + 2 over %zu floats (%.2f GB read + written) through a %u-stage TMA ring of %u KiB "
                     "tiles, %d blocks (1 producer + %u consumer warps each): every element verified, %.0f GB/s",
                     n, 2.0 * (double)(n * sizeof(float)) / 1e9, PS_STAGES, (unsigned)(PS_TILE * sizeof(float) / 1024u),
                     blocks, PS_CONSUMER_WARPS, 2.0 * (double)(n * sizeof(float)) / (ms * 1e6));
            rc = 0;
        }
    }
done:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(dx);
    cudaFree(dy);
    free(hy);
    return rc;
}
