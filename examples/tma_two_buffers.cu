/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/tma_two_buffers.cu — seed 001, first example: a 1-D TMA load of
 * two buffers (1024 ints, 1024 doubles) into shared memory. One elected thread
 * starts both bulk copies on the block's barrier; every thread arrives, the
 * elected one carrying the total bytes (arrive_tx); everyone waits on its
 * token. C++ -> cgc:
 *   cuda::device::memcpy_async_tx(smem, gmem, aligned_size_t<16>(n), bar)
 *       -> cg_memcpy_async_tx(smem, gmem, n, cg_barrier_native_handle(&bar))
 *   cuda::device::barrier_arrive_tx(bar, 1, tx) -> cg_barrier_arrive_tx(&bar, 1, tx)
 *   bar.wait(std::move(token))                  -> cg_barrier_wait_token(&bar, token)
 */
#include <cuda_runtime.h>

#include <cgc/cg/cg.h>

#include "tma_two_tiles.h"

/* Each block loads tile `blockIdx.x` of both arrays and writes a*x[i] + y[i]
 * (ints widened to double) so every loaded element is checked. */
__global__ void tma_two_buffers_kernel(const int *gmem1, const double *gmem2, double *out)
{
    __shared__ __align__(16) int smem1[TILE];
    __shared__ __align__(16) double smem2[TILE];
    __shared__ cg_barrier_t bar;

    if (threadIdx.x == 0) {
        cg_barrier_init(&bar, blockDim.x);
        /* The bulk copies complete their bytes on the barrier through the
         * async proxy: make the (generic-proxy) init visible to it first, as
         * cuda::barrier + TMA code does (fence_proxy_async_shared_cta). */
        cg_fence_proxy_async_smem();
    }
    __syncthreads(); /* the barrier exists before anyone arrives or copies */

    const bool elected = elect_one();
    if (elected) {
        cg_memcpy_async_tx(smem1, gmem1 + (size_t)blockIdx.x * TILE, TILE * sizeof(int),
                           cg_barrier_native_handle(&bar));
        cg_memcpy_async_tx(smem2, gmem2 + (size_t)blockIdx.x * TILE, TILE * sizeof(double),
                           cg_barrier_native_handle(&bar));
    }
    /* The elected thread also adds the TOTAL bytes of both copies. */
    const uint32_t tx = elected ? TILE * (sizeof(int) + sizeof(double)) : 0u;
    cg_token_t token = cg_barrier_arrive_tx(&bar, 1, tx);
    /* Wait with the token: both buffers have landed. */
    cg_barrier_wait_token(&bar, token);

    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        out[(size_t)blockIdx.x * TILE + i] = 3.0 * smem1[i] + smem2[i];
}

extern "C" int cgx_tma_two_buffers(char *detail, size_t detail_len)
{
    return cgx_tma_two_tiles_run(tma_two_buffers_kernel, "every thread arrives, token wait", detail, detail_len);
}

CGX_MAIN(cgx_tma_two_buffers)
