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
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "async/copy.h"
#include "barrier/barrier.h"
#include "examples/examples.h"

#define TILE 1024

/* One leader in the block: warp 0 (uniform across the warp), then elect.sync. */
static __device__ bool elect_one(void)
{
    const unsigned warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32u, 0);
    return warp == 0 && cg_elect_sync(0xFFFFFFFFu);
}

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
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) !=
                                                  cudaSuccess) {
        cudaGetLastError();
        snprintf(detail, detail_len, "no CUDA device");
        return 2;
    }
    if (major < 9) {
        snprintf(detail, detail_len, "device is sm_%d0: TMA bulk copies need sm_90", major);
        return 2;
    }
    const int blocks = 64, n = blocks * TILE;
    int *h1 = (int *)malloc(n * sizeof(int));
    double *h2 = (double *)malloc(n * sizeof(double)), *hout = (double *)malloc(n * sizeof(double));
    int *d1 = NULL;
    double *d2 = NULL, *dout = NULL;
    int rc = 2;
    if (!h1 || !h2 || !hout) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    srand((unsigned)time(NULL) ^ 0x7712u);
    for (int i = 0; i < n; ++i) {
        h1[i] = rand() % 100000 - 50000;
        h2[i] = (double)(rand() % 1000000) / 64.0; /* exact in double */
    }
    cudaError_t err;
    if ((err = cudaMalloc((void **)&d1, n * sizeof(int))) != cudaSuccess ||
        (err = cudaMalloc((void **)&d2, n * sizeof(double))) != cudaSuccess ||
        (err = cudaMalloc((void **)&dout, n * sizeof(double))) != cudaSuccess ||
        (err = cudaMemcpy(d1, h1, n * sizeof(int), cudaMemcpyHostToDevice)) != cudaSuccess ||
        (err = cudaMemcpy(d2, h2, n * sizeof(double), cudaMemcpyHostToDevice)) != cudaSuccess ||
        (err = cudaMemset(dout, 0xA5, n * sizeof(double))) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        goto done;
    }
    tma_parity_kernel<<<blocks, 256>>>(d1, d2, dout);
    if ((err = cudaGetLastError()) != cudaSuccess || (err = cudaDeviceSynchronize()) != cudaSuccess ||
        (err = cudaMemcpy(hout, dout, n * sizeof(double), cudaMemcpyDeviceToHost)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        goto done;
    }
    {
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (hout[i] != 3.0 * h1[i] + h2[i] && bad++ == 0)
                first = i;
        if (bad) {
            snprintf(detail, detail_len, "%d of %d elements wrong (first at %d: %g, want %g)", bad, n, first,
                     hout[first], 3.0 * h1[first] + h2[first]);
            rc = 1;
        } else {
            snprintf(detail, detail_len, "%d blocks x (%d ints + %d doubles) via two TMA copies, leader-only arrive, parity wait, all %d verified",
                     blocks, TILE, TILE, n);
            rc = 0;
        }
    }
done:
    cudaFree(d1);
    cudaFree(d2);
    cudaFree(dout);
    free(h1);
    free(h2);
    free(hout);
    return rc;
}
