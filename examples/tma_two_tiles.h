/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/tma_two_tiles.h — what the two seed-001 examples share: the tile
 * size, the leader election of the seed, and the host side (random inputs,
 * launch, a check of every output element). Each example brings its kernel:
 * block b loads tile b of an int array and of a double array with two TMA
 * bulk copies and writes out[i] = 3 * ints[i] + doubles[i].
 */
#ifndef CGX_TMA_TWO_TILES_H
#define CGX_TMA_TWO_TILES_H

#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define TILE 1024

/* One leader in the block: warp 0 (uniform across the warp), then elect.sync. */
static __device__ bool elect_one(void)
{
    const unsigned warp = __shfl_sync(0xFFFFFFFFu, threadIdx.x / 32u, 0);
    return warp == 0 && cg_elect_sync(0xFFFFFFFFu);
}

typedef void (*cgx_tma_kernel_t)(const int *gmem1, const double *gmem2, double *out);

/* Runs `kernel` over 64 tiles of fresh random data and checks every output;
 * the examples' return convention (0 verified, 1 wrong, 2 could not run). */
static int cgx_tma_two_tiles_run(cgx_tma_kernel_t kernel, const char *what, char *detail,
                                 size_t detail_len)
{
    int rc = cgx_require_sm90("TMA bulk copies", detail, detail_len);
    if (rc != 0)
        return rc;
    const int blocks = 64, n = blocks * TILE;
    int *h1 = (int *)malloc(n * sizeof(int));
    double *h2 = (double *)malloc(n * sizeof(double)), *hout = (double *)malloc(n * sizeof(double));
    int *d1 = NULL;
    double *d2 = NULL, *dout = NULL;
    rc = 2;
    if (!h1 || !h2 || !hout) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    srand((unsigned)time(NULL));
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
    kernel<<<blocks, 256>>>(d1, d2, dout);
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
            snprintf(detail, detail_len, "%d blocks x (%d ints + %d doubles) via two TMA copies, %s, all %d verified",
                     blocks, TILE, TILE, what, n);
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

#endif /* CGX_TMA_TWO_TILES_H */
