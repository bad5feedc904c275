/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/split_arrive_wait.cu — seed 004 (temporal splitting) in C.
 *
 * Each iteration has the seed's five stages: code before arrive publishes
 * this thread's value in shared memory; the arrive (release.cta) returns at
 * once; compute() works on this thread's own data meanwhile; the wait
 * (acquire.cta) returns when every thread has arrived; code after the wait
 * reads a neighbour's published value. The C++ -> cgc map:
 *
 *   cuda::barrier<thread_scope_block> bar  -> __shared__ cg_barrier_t bar
 *   init(&bar, block.size())               -> cg_barrier_init(&bar, blockDim.x)
 *   barrier::arrival_token t = bar.arrive() -> cg_token_t t = cg_barrier_arrive_one(&bar)
 *   bar.wait(std::move(t))                 -> cg_barrier_wait_token(&bar, t)
 *
 * The values are small integers held in floats, so every result is exact:
 * after K iterations thread t holds in[(t + K) mod B] + K (its value moved
 * one place per iteration, plus one), and data[g] grew by 1 + 2 + ... + K.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define SAW_BLOCK 256
#define SAW_BLOCKS 16
#define SAW_ITERS 1000

/* The seed's compute(data, curr_iteration): work on this thread's own
 * element only, independent of the other threads' arrivals. */
static __device__ void compute(float *data, int curr_iteration)
{
    size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    data[g] += (float)(curr_iteration + 1);
}

static __global__ void split_arrive_wait(int iteration_count, float *data, const float *in, float *out)
{
    __shared__ cg_barrier_t bar;
    __shared__ float stage[2][SAW_BLOCK];
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t g = (size_t)blockIdx.x * n + t;
    if (t == 0)
        cg_barrier_init(&bar, n); /* expected arrival count */
    __syncthreads();

    float mine = in[g];
    for (int it = 0; it < iteration_count; ++it) {
        /* code before arrive: memory updates read after the wait */
        stage[it & 1][t] = mine;
        cg_token_t token = cg_barrier_arrive_one(&bar); /* does not block */
        compute(data, it);
        cg_barrier_wait_token(&bar, token); /* every thread has arrived */
        /* code after wait: sees the updates made before every arrive */
        mine = stage[it & 1][(t + 1) % n] + 1.0f;
    }
    out[g] = mine;
}

extern "C" int cgx_split_arrive_wait(char *detail, size_t detail_len)
{
    int rc = 1;
    const size_t count = (size_t)SAW_BLOCKS * SAW_BLOCK;
    float *h_in = NULL, *h_data = NULL, *h_out = NULL, *h_data_out = NULL;
    float *d_in = NULL, *d_data = NULL, *d_out = NULL;
    if (cgx_require_sm90("this build (sm_90a) and its mbarrier forms", detail, detail_len) != 0)
        return 2;
    h_in = (float *)malloc(count * sizeof(float));
    h_data = (float *)malloc(count * sizeof(float));
    h_out = (float *)malloc(count * sizeof(float));
    h_data_out = (float *)malloc(count * sizeof(float));
    if (!h_in || !h_data || !h_out || !h_data_out) {
        snprintf(detail, detail_len, "host allocation failed");
        rc = 2;
        goto done;
    }
    {
        /* fresh random small integers: every float result below is exact */
        uint64_t s = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull + (uint64_t)clock() + 1u;
        for (size_t i = 0; i < count; ++i) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            h_in[i] = (float)((int)((s >> 20) % 2001u) - 1000);
            h_data[i] = (float)((int)((s >> 40) % 2001u) - 1000);
        }
    }
    CGX_CUDA(cudaMalloc((void **)&d_in, count * sizeof(float)));
    CGX_CUDA(cudaMalloc((void **)&d_data, count * sizeof(float)));
    CGX_CUDA(cudaMalloc((void **)&d_out, count * sizeof(float)));
    CGX_CUDA(cudaMemcpy(d_in, h_in, count * sizeof(float), cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemcpy(d_data, h_data, count * sizeof(float), cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemset(d_out, 0xA5, count * sizeof(float))); /* poison */
    split_arrive_wait<<<SAW_BLOCKS, SAW_BLOCK>>>(SAW_ITERS, d_data, d_in, d_out);
    CGX_CUDA(cudaGetLastError());
    CGX_CUDA(cudaDeviceSynchronize());
    CGX_CUDA(cudaMemcpy(h_out, d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
    CGX_CUDA(cudaMemcpy(h_data_out, d_data, count * sizeof(float), cudaMemcpyDeviceToHost));
    {
        size_t bad = 0;
        const float grown = (float)((double)SAW_ITERS * (SAW_ITERS + 1) / 2.0);
        for (size_t g = 0; g < count; ++g) {
            size_t b = g / SAW_BLOCK, t = g % SAW_BLOCK;
            float want_out = h_in[b * SAW_BLOCK + (t + SAW_ITERS) % SAW_BLOCK] + (float)SAW_ITERS;
            float want_data = h_data[g] + grown;
            if (h_out[g] != want_out || h_data_out[g] != want_data) {
                if (bad == 0)
                    snprintf(detail, detail_len,
                             "block %zu thread %zu: value %.1f (want %.1f), data %.1f (want %.1f)", b,
                             t, (double)h_out[g], (double)want_out, (double)h_data_out[g],
                             (double)want_data);
                ++bad;
            }
        }
        if (bad == 0) {
            snprintf(detail, detail_len,
                     "%d blocks x %d threads x %d split arrive/compute/wait iterations: all %zu "
                     "values and %zu data elements match the host",
                     SAW_BLOCKS, SAW_BLOCK, SAW_ITERS, count, count);
            rc = 0;
        } else {
            rc = 1;
        }
    }
done:
    cudaFree(d_in);
    cudaFree(d_data);
    cudaFree(d_out);
    free(h_in);
    free(h_data);
    free(h_out);
    free(h_data_out);
    return rc;
}

CGX_MAIN(cgx_split_arrive_wait)
