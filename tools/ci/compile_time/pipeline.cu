/* SPDX-License-Identifier: BSD-3-Clause */
/* A block-wide pipeline of 2 stages of 4 KiB (cuda::pipeline's shape: every
 * thread produces and consumes): tile t is copied while tile t - 1 is
 * summed. */
#include "tools/ci/compile_time/common.h"
#define CT_STAGES 2u
#define CT_STAGE_BYTES 4096u
#if CT_VARIANT == CT_CGC
#include "cg/cg.h"
extern "C" __global__ void ct_pipeline(const int4 *src, int *out, int ntiles)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    cg_thread_block_t b = cg_this_thread_block();
    const uint32_t n = cg_thread_block_num_threads(&b);
    cg_pipeline_t p = cg_thread_block_pipeline(&b, smem, CT_STAGES, CT_STAGE_BYTES, n, n);
    int acc = 0;
    for (int t = 0; t < ntiles + 1; ++t) {
        if (t < ntiles) {
            cg_pipeline_producer_acquire(&p);
            cg_thread_block_pipeline_memcpy_async(&b, &p, 0, src + (size_t)t * (CT_STAGE_BYTES / 16u), CT_STAGE_BYTES);
            cg_pipeline_producer_commit(&p, 0);
        }
        if (t > 0) {
            const int4 *x = (const int4 *)cg_pipeline_consumer_wait(&p);
            acc += x[threadIdx.x % (CT_STAGE_BYTES / 16u)].x;
            cg_pipeline_consumer_release(&p);
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#elif CT_VARIANT == CT_CPP
#include <cooperative_groups.h>
#include <cuda/pipeline>
/* As NVIDIA's samples: a __shared__ libcu++ object is constructed by one
 * thread (init), not by a static initializer. */
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;
extern "C" __global__ void ct_pipeline(const int4 *src, int *out, int ntiles)
{
    extern __shared__ __align__(16) int4 stage[];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, CT_STAGES> state;
    cg::thread_block b = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(b, &state);
    int acc = 0;
    for (int t = 0; t < ntiles + 1; ++t) {
        if (t < ntiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(b, stage + (t % CT_STAGES) * (CT_STAGE_BYTES / 16u),
                               src + (size_t)t * (CT_STAGE_BYTES / 16u), cuda::aligned_size_t<16>(CT_STAGE_BYTES), pipe);
            pipe.producer_commit();
        }
        if (t > 0) {
            pipe.consumer_wait();
            acc += stage[((t - 1) % CT_STAGES) * (CT_STAGE_BYTES / 16u) + threadIdx.x % (CT_STAGE_BYTES / 16u)].x;
            pipe.consumer_release();
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#else
/* cp.async 16-byte pieces, one commit group per tile, wait_group 1. */
extern "C" __global__ void ct_pipeline(const int4 *src, int *out, int ntiles)
{
    extern __shared__ __align__(16) int4 stage[];
    const uint32_t pieces = CT_STAGE_BYTES / 16u;
    int acc = 0;
    for (int t = 0; t < ntiles + 1; ++t) {
        if (t < ntiles) {
            int4 *dst = stage + (t % CT_STAGES) * pieces;
            for (uint32_t e = threadIdx.x; e < pieces; e += blockDim.x) {
                const uint32_t d = (uint32_t)__cvta_generic_to_shared(dst + e);
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src + (size_t)t * pieces + e)
                             : "memory");
            }
            asm volatile("cp.async.commit_group;" ::: "memory");
        }
        if (t > 0) {
            if (t < ntiles)
                asm volatile("cp.async.wait_group 1;" ::: "memory");
            else
                asm volatile("cp.async.wait_group 0;" ::: "memory");
            __syncthreads();
            acc += stage[((t - 1) % CT_STAGES) * pieces + threadIdx.x % pieces].x;
            __syncthreads();
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
#endif
