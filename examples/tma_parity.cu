/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/tma_parity.cu — seed 001, second example: the same two TMA loads,
 * but only the elected leader touches the barrier: it initializes it with a
 * count of 1, starts both bulk copies and arrives with the total bytes; after
 * a block sync everyone waits for the end of phase 0 by parity, with no
 * token. C++ -> cgc:
 *   init(&bar, 1)              -> cg_barrier_init(&bar, 1)
 *   barrier_arrive_tx(bar, 1, tx) (token dropped) -> (void)cg_barrier_arrive_tx(&bar, 1, tx)
 *   bar.wait_parity(0)         -> cg_barrier_wait_parity(&bar, 0)
 */
#include <cuda_runtime.h>

#include <cgc/cg/cg.h>

#include "tma_two_tiles.h"

/* Each block loads tile `blockIdx.x` of both arrays and writes
 * 3 * x[i] + y[i] so every loaded element is checked. */
__global__ void tma_parity_kernel(const int *gmem1, const double *gmem2, double *out)
{
    __shared__ __align__(16) int smem1[TILE];
    __shared__ __align__(16) double smem2[TILE];
    __shared__ cg_barrier_t bar;

    if (elect_one()) {
        cg_barrier_init(&bar, 1); /* only the leader arrives */
        /* The copies complete on the barrier through the async proxy: the
         * init (generic proxy) is made visible to it before the first copy. */
        cg_fence_proxy_async_smem();
        cg_memcpy_async_tx(smem1, gmem1 + (size_t)blockIdx.x * TILE, TILE * sizeof(int),
                           cg_barrier_native_handle(&bar));
        cg_memcpy_async_tx(smem2, gmem2 + (size_t)blockIdx.x * TILE, TILE * sizeof(double),
                           cg_barrier_native_handle(&bar));
        (void)cg_barrier_arrive_tx(&bar, 1, TILE * (sizeof(int) + sizeof(double)));
    }
    __syncthreads(); /* the barrier is initialized before anyone waits on it */

    cg_barrier_wait_parity(&bar, 0); /* phase 0: the leader's arrival and all the bytes */

    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        out[(size_t)blockIdx.x * TILE + i] = 3.0 * smem1[i] + smem2[i];
}

extern "C" int cgx_tma_parity(char *detail, size_t detail_len)
{
    return cgx_tma_two_tiles_run(tma_parity_kernel, "leader-only arrive, parity wait", detail, detail_len);
}

CGX_MAIN(cgx_tma_parity)
