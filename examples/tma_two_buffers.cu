/*
 * examples/tma_two_buffers.cu — seed 001, first example: a 1-D TMA load of
 * two buffers (1024 ints, 1024 doubles) into shared memory. One elected thread
 * starts both bulk copies on the block's barrier; every thread arrives, the
 * elected one carrying the total bytes (arrive_tx); everyone waits on its
 * token. C++ -> cgc:
 *   cuda::device::memcpy_async_tx(smem, gmem, aligned_size_t<16>(n), bar)
 *       -> cg_memcpy_async_tx(smem, gmem, n, cg_barrier_native_handle(&bar))
 *   cuda::device::barrier_arrive_tx(bar, 1, tx) -> cg_barrier_arrive_tx(&bar, 1, tx)
 *   bar.wait(std::move(token))                  -> cg_mbarrier_wait(cg_barrier_native_handle(&bar), token)
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
    /* Wait on the barrier's mbarrier with the token: both buffers have landed.
     * (cg_barrier_wait is also the name of the generic group macro of
     * cg/generic.h, which shadows the barrier function once both headers are
     * included; the mbarrier call is the same instruction.) */
    cg_mbarrier_wait(cg_barrier_native_handle(&bar), token);

    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        out[(size_t)blockIdx.x * TILE + i] = 3.0 * smem1[i] + smem2[i];
}

extern "C" int cgx_tma_two_buffers(char *detail, size_t detail_len)
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
    srand((unsigned)time(NULL) ^ 0x7711u);
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
    tma_two_buffers_kernel<<<blocks, 256>>>(d1, d2, dout);
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
            snprintf(detail, detail_len, "%d blocks x (%d ints + %d doubles) via two TMA copies, all %d verified",
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
