/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/pattern_kernels.cu — docs/PORTING.md's patterns as kernels:
 * libcu++'s thread-scope pipeline (cuda::make_pipeline() with no arguments)
 * ported with cg_this_thread(), beside the libcu++ original in the same
 * kernel; and the per-thread async copy. Layouts: pattern_kernels.h.
 */
#include <cuda/pipeline>

#include "cg/cg.h"
#include "tests/cg/generic/pattern_kernels.h"

#define T CGP_PIPE_THREADS
#define STAGES CGP_PIPE_STAGES

__device__ __forceinline__ float cgp_weigh(float4 v) { return v.x + 2.0f * v.y + 3.0f * v.z + 4.0f * v.w; }

__global__ void __launch_bounds__(T) cgp_thread_pipeline_kernel(const float4 *in, int iters, float *out_cgc,
                                                                 float *out_cpp)
{
    __shared__ float4 ring_cgc[STAGES][T];
    __shared__ float4 ring_cpp[STAGES][T];
    const unsigned t = threadIdx.x;
    const size_t chunk = (size_t)gridDim.x * T;
    const float4 *src = in + (size_t)blockIdx.x * T + t;

    /* ---- cgc: the pattern as docs/PORTING.md writes it ---- */
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t me = cg_this_thread();
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < iters)
            cg_memcpy_async(&me, &ring_cgc[s][t], src + s * chunk, sizeof(float4));
        else
            cg_cp_async_commit_group();
    }
    float acc = 0.0f;
    for (int k = 0; k < iters; ++k) {
        int next = k + STAGES - 1;
        if (next < iters)
            cg_memcpy_async(&me, &ring_cgc[next % STAGES][t], src + next * chunk, sizeof(float4));
        else
            cg_cp_async_commit_group(); /* an empty stage keeps the count */
        cg_wait_prior(&me, STAGES - 1);
        cg_sync(&b);
        acc += cgp_weigh(ring_cgc[k % STAGES][(t + (unsigned)k) % T]);
        cg_sync(&b);
    }
    out_cgc[blockIdx.x * T + t] = acc;

    /* ---- libcu++: cuda::pipeline<cuda::thread_scope_thread> ---- */
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    for (int s = 0; s < STAGES - 1; ++s) {
        pipe.producer_acquire();
        if (s < iters)
            cuda::memcpy_async(&ring_cpp[s][t], src + s * chunk, cuda::aligned_size_t<16>(sizeof(float4)), pipe);
        pipe.producer_commit();
    }
    float acc2 = 0.0f;
    for (int k = 0; k < iters; ++k) {
        int next = k + STAGES - 1;
        pipe.producer_acquire();
        if (next < iters)
            cuda::memcpy_async(&ring_cpp[next % STAGES][t], src + next * chunk, cuda::aligned_size_t<16>(sizeof(float4)),
                               pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        acc2 += cgp_weigh(ring_cpp[k % STAGES][(t + (unsigned)k) % T]);
        pipe.consumer_release();
        __syncthreads();
    }
    out_cpp[blockIdx.x * T + t] = acc2;
}

extern "C" cudaError_t cgp_thread_pipeline(unsigned blocks, int iters, const void *in, float *out_cgc, float *out_cpp)
{
    cgp_thread_pipeline_kernel<<<blocks, T>>>((const float4 *)in, iters, out_cgc, out_cpp);
    return cudaGetLastError();
}

__global__ void cgp_thread_copy_kernel(const unsigned char *src, const uint32_t *off, const uint32_t *soff,
                                       const uint32_t *len, unsigned char *out)
{
    extern __shared__ __align__(16) unsigned char slots[];
    const size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned char *mine = slots + 64u * threadIdx.x;
    for (int i = 0; i < 64; ++i)
        mine[i] = 0xA5;
    cg_tile_t me = cg_this_thread();
    cg_memcpy_async(&me, mine + soff[g], src + off[g], len[g]);
    cg_wait(&me);
    for (int i = 0; i < 64; ++i)
        out[64 * g + i] = mine[i];
}

extern "C" cudaError_t cgp_thread_copy(unsigned blocks, unsigned threads, const unsigned char *src, const uint32_t *off,
                                       const uint32_t *soff, const uint32_t *len, unsigned char *out)
{
    cgp_thread_copy_kernel<<<blocks, threads, 64u * threads>>>(src, off, soff, len, out);
    return cudaGetLastError();
}
