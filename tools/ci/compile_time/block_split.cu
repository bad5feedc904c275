/* SPDX-License-Identifier: BSD-3-Clause */
/* The block's split barrier: arrive, independent work, wait, in a loop. */
#include "tools/ci/compile_time/common.h"
#if CT_VARIANT == CT_CGC
#include "cg/cg.h"
extern "C" __global__ void ct_block_split(float *out, int iters)
{
    cg_thread_block_t b = cg_this_thread_block();
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        cg_token_t t = cg_thread_block_barrier_arrive(&b);
        acc = acc * 1.0001f + (float)i;
        cg_thread_block_barrier_wait(&b, t);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#elif CT_VARIANT == CT_CPP
#include <cuda/barrier>
#include <utility>
/* As NVIDIA's samples: a __shared__ libcu++ object is constructed by one
 * thread (init), not by a static initializer. */
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void ct_block_split(float *out, int iters)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        cuda::barrier<cuda::thread_scope_block>::arrival_token t = bar.arrive();
        acc = acc * 1.0001f + (float)i;
        bar.wait(std::move(t));
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#else
extern "C" __global__ void ct_block_split(float *out, int iters)
{
    __shared__ uint64_t mbar;
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(&mbar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(blockDim.x) : "memory");
    __syncthreads();
    float acc = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        uint64_t st;
        asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(a) : "memory");
        acc = acc * 1.0001f + (float)i;
        uint32_t done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2;"
                         " selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(a), "l"(st) : "memory");
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#endif
